"""test_reply_normalize - normalize_text is the matcher's own folding (ethos_normalize_text), tier by tier and policy by policy."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ethos_py import _ffi
from ethos_py.errors import EthosError
from ethos_py.normalization import normalize_text
from ethos_py.reply_verify import verify_quotes

SOURCE = "The \u201cSupplier\u201d shall\u00a0not be liable \u2014 for indirect\nlosses."


@pytest.mark.parametrize(
    ("tier", "expected"),
    [
        ("exact", SOURCE),
        ("whitespace", "The \u201cSupplier\u201d shall not be liable \u2014 for indirect losses."),
        # A double quotation mark stands between two spaces of its own (extractors differ there).
        ("typography", 'The " Supplier " shall not be liable - for indirect losses.'),
        ("case", 'the " supplier " shall not be liable - for indirect losses.'),
        ("skeleton", "the supplier shall not be liable for indirect losses"),
    ],
)
def test_each_tier_folds_what_docs_matching_says(tier: str, expected: str) -> None:
    assert normalize_text(SOURCE, tier=tier) == expected


def test_the_default_tier_is_the_last_one_the_policy_accepts() -> None:
    assert normalize_text(SOURCE) == normalize_text(SOURCE, tier="case")
    assert normalize_text(SOURCE, "strict") == normalize_text(SOURCE, tier="whitespace")


def test_the_c_abi_answers_json_and_refuses_bad_options() -> None:
    data = "A\u00a0b".encode()
    options = b'{"policy":"default","tier":"typography"}'
    result = json.loads(_ffi.call_string(_ffi.lib.ethos_normalize_text, data, len(data), options, len(options)))
    assert result == {"policy": "default", "text": "A b", "tier": "typography"}
    for bad in (b'{"tier":"loose"}', b'{"policy":"nope"}', b'{"other":1}', b"[]"):
        with pytest.raises(EthosError) as caught:
            _ffi.call_string(_ffi.lib.ethos_normalize_text, data, len(data), bad, len(bad))
        assert caught.value.code == "invalid_input"
    invalid = b"\xff"
    with pytest.raises(EthosError):
        _ffi.call_string(_ffi.lib.ethos_normalize_text, invalid, 1, b"", 0)


def test_bad_python_arguments() -> None:
    with pytest.raises(ValueError):
        normalize_text("x", tier="loose")
    with pytest.raises(TypeError):
        normalize_text(b"x")  # type: ignore[arg-type]


_WORDS = st.sampled_from(["Fees", "due", "within", "30", "days", "the", "Supplier", "\u201cquoted\u201d", "a\u2014b", "FI\ufb01NE"])


@settings(max_examples=60, deadline=None)
@given(st.lists(_WORDS, min_size=1, max_size=8), st.lists(st.sampled_from([" ", "  ", "\n", "\u00a0", "\t"]), min_size=8, max_size=8))
def test_texts_that_normalize_alike_verify_against_each_other(words: list[str], gaps: list[str]) -> None:
    plain = " ".join(words)
    spaced = "".join(word + gap for word, gap in zip(words, gaps)).strip()
    assert normalize_text(plain) == normalize_text(spaced)
    (verdict,) = verify_quotes([spaced], plain + ".")
    assert verdict.status in ("verified", "ambiguous")
