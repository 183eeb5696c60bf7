"""test_handles_presentation - the presentation sanitizer: what it removes, what it keeps, bounds, and fail-closed inputs."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest

import ethos_py
from ethos_py.emit import CitationEmissionError
from ethos_py.presentation import ELLIPSIS, sanitize_answer_text, sanitize_evidence_states, sanitize_presentation_text

# Each is a trick a display label or answer prose could play on a reader (names from Unicode).
HIDDEN = {
    "\u202e": "RIGHT-TO-LEFT OVERRIDE",
    "\u202a": "LEFT-TO-RIGHT EMBEDDING",
    "\u2066": "LEFT-TO-RIGHT ISOLATE",
    "\u2069": "POP DIRECTIONAL ISOLATE",
    "\u200f": "RIGHT-TO-LEFT MARK",
    "\u061c": "ARABIC LETTER MARK",
    "\u200b": "ZERO WIDTH SPACE",
    "\u200d": "ZERO WIDTH JOINER",
    "\u2060": "WORD JOINER",
    "\ufeff": "ZERO WIDTH NO-BREAK SPACE",
    "\u00ad": "SOFT HYPHEN",
    "\u0000": None,
    "\u001b": None,  # ESC: terminal escape sequences
    "\u007f": None,
    "\u009b": None,  # C1 control sequence introducer
    "\U000e0041": "TAG LATIN CAPITAL LETTER A",
    "\ufe0f": "VARIATION SELECTOR-16",
}


@pytest.mark.parametrize("character", sorted(HIDDEN))
def test_invisible_and_reordering_characters_are_removed(character: str) -> None:
    if HIDDEN[character] is not None:
        assert unicodedata.name(character) == HIDDEN[character]  # the table above names what it means
    assert sanitize_presentation_text(f"ev{character}-1 total") == "ev-1 total"


@pytest.mark.parametrize("separator", ["\n", "\r\n", "\t", "\u2028", "\u2029", "\u0085", "\v", "\f"])
def test_line_breaks_become_single_spaces(separator: str) -> None:
    assert sanitize_presentation_text(f"  Table 1{separator}{separator}row 2  ") == "Table 1 row 2"


@pytest.mark.parametrize("text", ["naïve café", "Ünïcödé ✓ 12,4 %", "日本語のテキスト", "a\u00a0b", "e\u0301"])
def test_visible_text_is_kept_as_is(text: str) -> None:
    assert sanitize_presentation_text(text) == text


def test_length_is_bounded_in_characters_with_a_visible_cut() -> None:
    assert sanitize_presentation_text("abcdef", max_chars=6) == "abcdef"
    assert sanitize_presentation_text("abcdefg", max_chars=6) == "abcde" + ELLIPSIS
    assert sanitize_presentation_text("abcd efgh", max_chars=6) == "abcd" + ELLIPSIS  # no space before the cut mark
    assert sanitize_presentation_text("ab", max_chars=1) == ELLIPSIS
    assert len(sanitize_presentation_text("x" * 10_000)) == 512
    # removed characters do not count toward the bound
    assert sanitize_presentation_text("\u200b" * 600 + "ok", max_chars=2) == "ok"


def test_only_invisible_text_becomes_empty() -> None:
    assert sanitize_presentation_text("\u202e\u200b \n\t\u2066") == ""


@pytest.mark.parametrize("value", [None, 3, b"bytes", ["a"], {"a": 1}])
def test_non_strings_are_refused(value: Any) -> None:
    with pytest.raises(CitationEmissionError) as raised:
        sanitize_presentation_text(value)
    assert raised.value.code == "invalid_presentation_text"


@pytest.mark.parametrize("limit", [0, -1, 65537, True, 2.0, "5"])
def test_bounds_outside_the_range_are_refused(limit: Any) -> None:
    with pytest.raises(CitationEmissionError) as raised:
        sanitize_presentation_text("text", max_chars=limit)
    assert raised.value.code == "invalid_presentation_limit"


def test_the_same_input_gives_the_same_output_and_sanitizing_twice_changes_nothing() -> None:
    text = "A\u202eB\u200b C\n\nD" * 50
    once = sanitize_presentation_text(text, max_chars=100)
    assert once == sanitize_presentation_text(text, max_chars=100)
    assert sanitize_presentation_text(once, max_chars=100) == once


def test_evidence_states_get_sanitized_displays_and_unchanged_verdicts() -> None:
    projection = {
        "document_fingerprint": "sha256:" + "a" * 64,
        "all_evidence_grounded": False,
        "states": [
            {"evidence_id": "ev-1", "verified": True, "display": "Q3\u202e results\n(table)"},
            {"evidence_id": "ev-2", "verified": False},
        ],
    }
    cleaned = sanitize_evidence_states(projection, max_chars=10)
    assert cleaned["states"] == [
        {"evidence_id": "ev-1", "verified": True, "display": "Q3 result" + ELLIPSIS},
        {"evidence_id": "ev-2", "verified": False},
    ]
    assert projection["states"][0]["display"] == "Q3\u202e results\n(table)"  # the input is not modified
    assert cleaned["all_evidence_grounded"] is False
    with pytest.raises(CitationEmissionError, match="invalid_projection"):
        sanitize_evidence_states({"states": "none"})


def test_sanitizer_is_exported_from_the_package() -> None:
    assert ethos_py.sanitize_presentation_text is sanitize_presentation_text
    assert ethos_py.sanitize_evidence_states is sanitize_evidence_states


HANDLE = r"\[ev-[0-9]+\]"


@pytest.mark.parametrize(("answer", "expected"), [
    ("Revenue grew [ev-1].", "Revenue grew ."),
    ("See [ev-1][ev-2] and [ev-99] (fabricated).", "See and (fabricated)."),
    ("Hidden [ev\u200b-7] handle", "Hidden handle"),  # a zero-width split does not evade the pattern
    ("Bidi \u202e[ev-3]\u202c trick", "Bidi trick"),
    ("No handles here.", "No handles here."),
    ("[ev-x] is not handle-shaped", "[ev-x] is not handle-shaped"),
])
def test_answer_prose_loses_every_handle_shaped_mention(answer: str, expected: str) -> None:
    assert sanitize_answer_text(answer, handle_pattern=HANDLE) == expected


def test_answer_prose_without_a_pattern_is_only_sanitized_and_bounded() -> None:
    assert sanitize_answer_text("A\u202eB [ev-1]") == "AB [ev-1]"
    assert len(sanitize_answer_text("y" * 5000)) == 4096
    # the bound applies after removal: "abc def" is 7 characters
    assert sanitize_answer_text("abc [ev-1] def", handle_pattern=HANDLE, max_chars=6) == "abc d" + ELLIPSIS
    assert sanitize_answer_text("abc [ev-1] def", handle_pattern=HANDLE, max_chars=7) == "abc def"


@pytest.mark.parametrize("pattern", [r"x*", r"(", r"", 5])
def test_a_pattern_that_cannot_remove_handles_is_refused(pattern: Any) -> None:
    with pytest.raises(CitationEmissionError) as raised:
        sanitize_answer_text("text [ev-1]", handle_pattern=pattern)
    assert raised.value.code == "invalid_handle_pattern"


def test_answer_text_refuses_non_strings() -> None:
    with pytest.raises(CitationEmissionError, match="invalid_presentation_text"):
        sanitize_answer_text(None)
