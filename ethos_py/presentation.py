"""presentation - a deterministic sanitizer for untrusted text shown to people (display labels, excerpts, answer prose).

Evidence-handle ``display`` and ``excerpt`` values, and the model's ``answer`` prose, carry no
proof authority (docs/contracts.md#citation-emission-and-evidence-handles) and may carry tricks: bidi overrides that reorder what a
reader sees, zero-width characters that hide a handle inside a word, control characters that
break a terminal or log line, or sheer length. ``sanitize_presentation_text`` removes those with a
fixed character list (not the running Python's Unicode tables, so every Python gives the same
bytes) and bounds the length; anything that is not a string is refused rather than rendered.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ._emission_rules import CitationEmissionError

__all__ = [
    "DEFAULT_MAX_CHARS",
    "ELLIPSIS",
    "MAX_CHARS_LIMIT",
    "sanitize_answer_text",
    "sanitize_evidence_states",
    "sanitize_presentation_text",
]

DEFAULT_MAX_CHARS = 512
#: Answer prose is longer than a label; this is its default bound.
DEFAULT_ANSWER_MAX_CHARS = 4096
#: The largest bound a caller may ask for (an excerpt is at most 4096 characters; answers run longer).
MAX_CHARS_LIMIT = 65536
#: Appended when text is cut, so a reader can tell a shortened label from a whole one.
ELLIPSIS = "\u2026"

# Characters that break lines or columns: shown as one space so words stay apart.
_LINE_BREAKS = "\t\n\v\f\r\x1c\x1d\x1e\x1f\x85\u2028\u2029"
# Inclusive code point ranges removed outright: invisible or reordering characters.
_REMOVED_RANGES = (
    (0x0000, 0x001F),  # C0 controls (line breaks are mapped to a space first)
    (0x007F, 0x009F),  # DEL and C1 controls
    (0x00AD, 0x00AD),  # soft hyphen (invisible unless a line breaks there)
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # Arabic letter mark (bidi)
    (0x115F, 0x1160),  # Hangul fillers (render as blanks)
    (0x17B4, 0x17B5),  # Khmer inherent vowels (invisible)
    (0x180B, 0x180F),  # Mongolian variation selectors and vowel separator
    (0x200B, 0x200F),  # zero-width space/non-joiner/joiner, LRM, RLM
    (0x202A, 0x202E),  # bidi embeddings and overrides
    (0x2060, 0x206F),  # word joiner, invisible operators, bidi isolates, deprecated format controls
    (0x3164, 0x3164),  # Hangul filler
    (0xD800, 0xDFFF),  # lone surrogates (a Python str may hold them; UTF-8 cannot)
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFEFF, 0xFEFF),  # zero-width no-break space / BOM
    (0xFFA0, 0xFFA0),  # half-width Hangul filler
    (0xFFF0, 0xFFFB),  # unassigned specials and interlinear annotation controls
    (0xFFFE, 0xFFFF),  # noncharacters
    (0x1D173, 0x1D17A),  # musical symbol format controls
    (0xE0000, 0xE0FFF),  # tag characters and variation selectors supplement
)


def _translation_table() -> dict[int, str | None]:
    table: dict[int, str | None] = {}
    for first, last in _REMOVED_RANGES:
        for code_point in range(first, last + 1):
            table[code_point] = None
    for character in _LINE_BREAKS:
        table[ord(character)] = " "
    return table


_TABLE = _translation_table()


def sanitize_presentation_text(value: object, *, max_chars: int = DEFAULT_MAX_CHARS) -> str:
    """``value`` made safe to show: invisible and reordering characters removed, bounded in length.

    Line breaks and tabs become spaces, runs of spaces collapse to one, the ends are trimmed, and
    text longer than ``max_chars`` characters is cut to ``max_chars - 1`` plus ``…``. The same
    input always gives the same output::

        >>> sanitize_presentation_text("Re\\u200bvenue\\u202e table\\n\\n 3")
        'Revenue table 3'
        >>> sanitize_presentation_text("a" * 10, max_chars=4)
        'aaa…'

    A non-string raises ``CitationEmissionError`` ``invalid_presentation_text``; a ``max_chars``
    outside 1..65536 raises ``invalid_presentation_limit``. Text that is only invisible
    characters becomes ``""``. This is not HTML escaping: escape for your output format too.
    """
    if isinstance(max_chars, bool) or not isinstance(max_chars, int) or not 1 <= max_chars <= MAX_CHARS_LIMIT:
        raise CitationEmissionError("invalid_presentation_limit", f"max_chars must be in 1..{MAX_CHARS_LIMIT}")
    if not isinstance(value, str):
        raise CitationEmissionError("invalid_presentation_text", "expected a string")
    collapsed = " ".join(part for part in value.translate(_TABLE).split(" ") if part)
    if len(collapsed) <= max_chars:
        return collapsed
    return collapsed[: max_chars - 1].rstrip(" ") + ELLIPSIS


def sanitize_evidence_states(projection: Mapping[str, Any], *, max_chars: int = DEFAULT_MAX_CHARS) -> dict[str, Any]:
    """A copy of a ``project_evidence_states`` result with every ``display`` sanitized for rendering.

        >>> sanitize_evidence_states({"document_fingerprint": "sha256:" + "a" * 64,
        ...     "all_evidence_grounded": True,
        ...     "states": [{"evidence_id": "ev-1", "display": "Table\\u202e 3"}]})["states"][0]["display"]
        'Table 3'

    Verdict fields are copied unchanged; a malformed projection raises ``CitationEmissionError``
    ``invalid_projection``.
    """
    states = projection.get("states") if isinstance(projection, Mapping) else None
    if not isinstance(states, list) or not all(isinstance(state, Mapping) for state in states):
        raise CitationEmissionError("invalid_projection", "expected a project_evidence_states result")
    copied = []
    for state in states:
        item = dict(state)
        if "display" in item:
            item["display"] = sanitize_presentation_text(item["display"], max_chars=max_chars)
        copied.append(item)
    return {**projection, "states": copied}


def sanitize_answer_text(
    answer: object,
    *,
    handle_pattern: str | re.Pattern[str] | None = None,
    max_chars: int = DEFAULT_ANSWER_MAX_CHARS,
) -> str:
    r"""The model's answer prose made safe to show, with handle-shaped text removed.

    Citations come only from structured claims: a handle the model writes into its prose (real,
    fabricated or conflicting) must never become a link or a badge. With ``handle_pattern`` (the
    application's own handle grammar) every match is removed; invisible characters are removed
    first, so a zero-width character cannot split a handle past the pattern::

        >>> sanitize_answer_text("Revenue grew [ev-\u200b7] sharply.", handle_pattern=r"\[ev-[0-9]+\]")
        'Revenue grew sharply.'

    Then the text is bounded like ``sanitize_presentation_text``. A pattern that can match the
    empty string is refused (``invalid_handle_pattern``): it would remove nothing and look safe.
    """
    if isinstance(max_chars, bool) or not isinstance(max_chars, int) or not 1 <= max_chars <= MAX_CHARS_LIMIT:
        raise CitationEmissionError("invalid_presentation_limit", f"max_chars must be in 1..{MAX_CHARS_LIMIT}")
    visible = sanitize_presentation_text(answer, max_chars=MAX_CHARS_LIMIT)
    if handle_pattern is not None:
        try:
            pattern = re.compile(handle_pattern)
        except (TypeError, re.error) as error:
            raise CitationEmissionError("invalid_handle_pattern", "handle_pattern must be a valid regular expression") from error
        if pattern.fullmatch("") is not None:
            raise CitationEmissionError("invalid_handle_pattern", "handle_pattern must not match empty text")
        visible = pattern.sub(" ", visible)
    return sanitize_presentation_text(visible, max_chars=max_chars)
