"""test_reply_verify - quotes and edit anchors verified with the core's matcher: both directions of normalization, ambiguity, prefixes, offsets (ethos_py.reply_verify)."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ethos_py import Document
from ethos_py.reply_verify import verify_anchors, verify_quotes

SOURCE = (
    "MASTER SERVICES AGREEMENT\r\n"
    "\r\n"
    "1. Term. This Agreement begins on the Effective Date and\r\n"
    "continues for twelve (12) months unless terminated earlier.\r\n"
    "\r\n"
    "2. Liability. The Supplier shall not be liable for indirect or consequential losses.\n"
    "\n\n"
    "3. Payment. Fees are due within 30 days of the invoice date.\n"
    "4. Notices. Fees are due within 30 days of the invoice date.\n"
)


@pytest.mark.parametrize(
    "quote",
    [
        "This Agreement begins on the Effective Date and continues for twelve (12) months",  # a line wrap
        "THE SUPPLIER SHALL NOT BE LIABLE",  # case
        "Agreement\u00a0begins on the Effective Date",  # NBSP
        "twelve (12) months unless terminated earlier.",  # across a CRLF line end
    ],
)
def test_false_alarm_direction_presentation_differences_verify(quote: str) -> None:
    (verdict,) = verify_quotes([quote], SOURCE)
    assert verdict.status == "verified", verdict
    assert verdict.span is not None and verdict.located_text == SOURCE[verdict.span[0]:verdict.span[1]]


def test_curly_quotes_and_dashes_verify() -> None:
    source = "The parties agree that \"Confidential Information\" excludes public data - see Schedule 2."
    (verdict,) = verify_quotes(["agree that \u201cConfidential Information\u201d excludes public data \u2013 see"], source)
    assert verdict.status == "verified" and verdict.tier == "typography"


@pytest.mark.parametrize(
    ("quote", "reason"),
    [
        ("continues for twelve (24) months", "numeric_guard"),  # a changed figure
        ("The Supplier shall be liable for indirect or consequential losses", "polarity_guard"),  # negation dropped
        ("The Supplier shall not be liable for direct or consequential losses", "near_miss"),  # a changed word
    ],
)
def test_false_pass_direction_changed_meaning_is_not_found(quote: str, reason: str) -> None:
    (verdict,) = verify_quotes([quote], SOURCE)
    assert verdict.status == "not_found" and verdict.reason == reason
    assert verdict.diff is not None  # the near miss shows what differs
    assert any(step["op"] != "equal" for step in verdict.diff)


def test_a_quote_found_more_than_once_is_ambiguous() -> None:
    (verdict,) = verify_quotes(["Fees are due within 30 days of the invoice date."], SOURCE)
    assert verdict.status == "ambiguous" and verdict.occurrences == 2 and verdict.reason == "found_more_than_once"


def test_offsets_cross_paragraphs_and_blank_lines() -> None:
    (verdict,) = verify_quotes(["consequential losses. 3. Payment. Fees"], SOURCE)
    assert verdict.status == "verified" and verdict.span is not None
    assert SOURCE[verdict.span[0]:verdict.span[1]] == "consequential losses.\n\n\n3. Payment. Fees"


def test_a_byte_order_mark_is_not_counted_twice() -> None:
    (verdict,) = verify_quotes(["MASTER SERVICES"], "\ufeff" + SOURCE)
    assert verdict.span == (1, 16)


def test_a_trailing_quote_is_checked_on_its_prefix_and_says_so() -> None:
    quote = "The Supplier shall not be liable for indirect or consequential…"
    (verdict,) = verify_quotes([{"quote": quote}], SOURCE, min_chars=40)
    assert verdict.status == "verified" and verdict.prefix
    assert verdict.checked_text == "The Supplier shall not be liable for indirect or consequential"
    (short,) = verify_quotes(["The Supplier..."], SOURCE, min_chars=40)
    assert short.status == "not_found" and short.reason == "prefix_too_short" and short.prefix
    (changed,) = verify_quotes(["The Supplier shall be liable for indirect or consequential..."], SOURCE, min_chars=20)
    assert changed.status == "not_found" and changed.prefix


def test_a_quote_that_does_not_trail_off_gets_no_prefix_check() -> None:
    (verdict,) = verify_quotes(["The Supplier shall not be liable for indirect or consequential damages"], SOURCE)
    assert verdict.status == "not_found" and not verdict.prefix


def test_rows_of_every_shape_keep_their_order_and_record() -> None:
    class Row:
        quote = "MASTER SERVICES AGREEMENT"

    rows: list[object] = ["Payment.", {"quote": "no such text at all here"}, Row(), {"other": 1}, {"quote": "   "}]
    verdicts = verify_quotes(rows, SOURCE)
    assert [v.index for v in verdicts] == [0, 1, 2, 3, 4] and [v.record for v in verdicts] == rows
    assert [v.status for v in verdicts] == ["verified", "not_found", "verified", "not_found", "not_found"]
    assert verdicts[3].reason == verdicts[4].reason == "empty_quote"


def test_anchors_of_a_reply_text() -> None:
    reply = (
        'Here are my edits:\n```json\n{"edits": [{"anchor": "within 30 days of the invoice date", "replacement": "x"},'
        ' {"anchor": "begins on the Effective Date", "replacement": "y"},'
        ' {"anchor": "The Supplier shall not ... losses", "replacement": "z"}]}\n```'
    )
    verdicts = verify_anchors(reply, SOURCE)
    assert [v.status for v in verdicts] == ["ambiguous", "verified", "not_found"]
    assert verdicts[2].reason == "elided_anchor"
    assert verdicts[1].record == {"anchor": "begins on the Effective Date", "replacement": "y"}


def test_a_document_source_gives_page_and_boxes() -> None:
    with Document.open("examples/quickstart/document.json") as document:
        (verdict,) = verify_quotes(["the pilot cut average response time by 30%"], document)
    assert verdict.status == "verified" and verdict.tier == "case" and verdict.span is None
    assert verdict.page == "p0001" and verdict.boxes and verdict.element_span == (0, 42)


def test_a_stricter_policy_refuses_what_default_forgives() -> None:
    (verdict,) = verify_quotes(["THE SUPPLIER SHALL NOT BE LIABLE"], SOURCE, policy="strict")
    assert verdict.status == "not_found"


def test_to_dict_round_trips_through_json() -> None:
    import json

    (verdict,) = verify_quotes(["MASTER SERVICES AGREEMENT"], SOURCE)
    data = json.loads(json.dumps(verdict.to_dict()))
    assert data["status"] == "verified" and data["span"] == [0, 25] and data["tier"] == "exact"


_SEPARATORS = [" ", "\n", "\r\n", "\r", "\n\n", "\r\n\r\n", " \n \n", "\n\t\n"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["Fees", "are", "due", "within", "30", "days", "Supplier", "liable", "notice"]),
                min_size=2, max_size=25),
       st.lists(st.sampled_from(_SEPARATORS), min_size=25, max_size=25), st.booleans(), st.data())
def test_property_spans_map_back_to_the_callers_text(words: list[str], separators: list[str], bom: bool,
                                                     data: st.DataObject) -> None:
    source = ("\ufeff" if bom else "") + "".join(word + separator for word, separator in zip(words, separators))
    start = data.draw(st.integers(0, len(words) - 1))
    end = data.draw(st.integers(start + 1, len(words)))
    quote = " ".join(words[start:end])
    (verdict,) = verify_quotes([quote], source)
    # Every slice of the words is in the text: only white space differs, which default forgives.
    assert verdict.status in ("verified", "ambiguous"), verdict
    assert verdict.span is not None and verdict.located_text == source[verdict.span[0]:verdict.span[1]]
    assert re.sub(r"\s+", " ", verdict.located_text) == quote


def test_an_unknown_policy_is_an_error_not_a_verdict() -> None:
    from ethos_py.errors import EthosError

    with pytest.raises(EthosError) as caught:
        verify_quotes(["MASTER"], SOURCE, policy="no-such-preset")
    assert caught.value.code == "invalid_input"


def test_a_quote_found_once_exactly_and_again_in_another_case_is_ambiguous() -> None:
    source = "Fees are due within 30 days.\n\nFEES ARE DUE WITHIN 30 DAYS.\n"
    (verdict,) = verify_quotes(["Fees are due within 30 days"], source)
    assert verdict.status == "ambiguous" and verdict.occurrences == 2 and verdict.tier == "exact"
    (strict,) = verify_quotes(["Fees are due within 30 days"], source, policy="strict")
    assert strict.status == "verified"  # strict does not forgive case: the capitals are other text
