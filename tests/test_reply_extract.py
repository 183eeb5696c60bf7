"""test_reply_extract - the payload of a messy model reply: fences, prose, sketches, truncation (ethos_py.reply_extract)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import schema_errors

from ethos_py.reply_extract import extract_json_block, extract_json_payload


def test_a_fenced_payload_with_prose_around_it() -> None:
    reply = 'Sure! Here are the edits:\n\n```json\n{"edits": [{"anchor": "30 days"}]}\n```\n\nLet me know.'
    result = extract_json_payload(reply)
    assert result.found and result.payload == {"edits": [{"anchor": "30 days"}]}
    assert result.chosen is not None and result.chosen.fence == "json"
    assert result.span is not None and reply[result.span[0]:result.span[1]] == result.text
    assert result.skipped == () and not result.truncated


@pytest.mark.parametrize("fence", ["```", "```json", "```summary-json", "~~~", "~~~json", "````json"])
def test_any_fence_tag_and_marker(fence: str) -> None:
    closing = fence.rstrip("jsonumary-")
    reply = f"Result:\n{fence}\n{{\"a\": [1, 2]}}\n{closing}\nDone."
    assert extract_json_payload(reply).payload == {"a": [1, 2]}


def test_unfenced_json_in_prose() -> None:
    assert extract_json_block('The answer is {"total": 12, "unit": "days"} as requested.') == '{"total": 12, "unit": "days"}'


def test_the_last_complete_real_candidate_wins_and_earlier_ones_are_superseded() -> None:
    reply = 'First try:\n```json\n{"v": 1}\n```\nCorrected:\n```json\n{"v": 2}\n```'
    result = extract_json_payload(reply)
    assert result.payload == {"v": 2}
    assert [(c.status, c.fence) for c in result.skipped] == [("superseded", "json")]


@pytest.mark.parametrize(
    "sketch",
    [
        '{"anchor": "string", "replacement": "string", "position": "market | off-market | n/a"}',
        '{"anchor": "...", "replacement": "<value>"}',
        '{"anchor": "string", // the quoted text\n "count": 0}',
        '{"clauses": [{"title": "", "quote": "", "page": 0}]}',
        '{"edits": [{"anchor": "…", "rationale": "text"}]}',
    ],
)
def test_a_schema_sketch_before_the_payload_is_skipped(sketch: str) -> None:
    reply = f"Use this shape:\n```json\n{sketch}\n```\nHere it is:\n```json\n{{\"anchor\": \"Fees\", \"replacement\": \"Charges\"}}\n```"
    result = extract_json_payload(reply)
    assert result.payload == {"anchor": "Fees", "replacement": "Charges"}
    assert [c.status for c in result.skipped] == ["illustrative"]


def test_only_a_sketch_is_nothing_found() -> None:
    result = extract_json_payload('```json\n{"name": "string", "age": "integer"}\n```')
    assert not result.found and result.payload is None and result.reason == "illustrative_only"
    assert extract_json_block('```json\n{"name": "string"}\n```') is None


def test_a_truncated_payload_is_reported_not_parsed() -> None:
    result = extract_json_payload('Here:\n```json\n{"edits": [{"anchor": "The Supplier shall", "replacem')
    assert not result.found and result.truncated and result.reason == "truncated"
    assert [c.status for c in result.skipped] == ["truncated"]


def test_a_complete_payload_before_a_truncated_one_wins_and_the_truncation_is_flagged() -> None:
    result = extract_json_payload('{"v": 1} and then {"v": [2, 3')
    assert result.payload == {"v": 1} and result.truncated


def test_invalid_json_is_reported_never_repaired() -> None:
    result = extract_json_payload('```json\n{"a": 1,}\n```')
    assert not result.found and result.reason == "invalid_json"
    assert result.skipped[0].status == "invalid_json" and "not valid JSON" in result.skipped[0].reason


def test_nothing_json_like() -> None:
    for reply in ["", "just prose", "a list [1] and {braces}", "```python\nprint(1)\n```"]:
        result = extract_json_payload(reply)
        assert not result.found and result.payload is None and result.reason == "no_json"


def test_a_non_json_fence_is_skipped_and_named() -> None:
    result = extract_json_payload('```python\nprint(1)\n```\n{"z": "real"}')
    assert result.payload == {"z": "real"} and [(c.status, c.fence) for c in result.skipped] == [("not_json", "python")]


def test_an_empty_container_in_prose_does_not_outvote_the_payload() -> None:
    assert extract_json_payload('{"z": "real"} (an empty {} means none)').payload == {"z": "real"}


def test_to_dict_is_json() -> None:
    data = extract_json_payload('x {"a": 1} y').to_dict()
    assert json.loads(json.dumps(data))["payload"] == {"a": 1} and data["artifact_type"] == "ethos.reply_extraction.v1"


def test_not_a_str_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        extract_json_payload(b"{}")  # type: ignore[arg-type]


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3),
    max_leaves=8,
)
_PROSE = st.text(alphabet=st.characters(blacklist_characters="{}[]`~\"\\"), max_size=40)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.text(min_size=1, max_size=8), _VALUES, min_size=1, max_size=4), _PROSE, _PROSE,
       st.sampled_from(["```json", "```", "~~~", "```summary-json", None]))
def test_any_real_payload_is_found_whatever_wraps_it(payload: dict[str, object], before: str, after: str,
                                                      fence: str | None) -> None:
    body = json.dumps(payload, ensure_ascii=False)
    reply = f"{before}\n{fence}\n{body}\n{fence[:3]}\n{after}" if fence else f"{before} {body} {after}"
    result = extract_json_payload(reply)
    if result.found:
        assert result.payload == payload and result.text == body
    else:  # only a payload whose every value is a placeholder reads as a sketch
        assert result.reason == "illustrative_only"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200), st.integers(0, 200))
def test_any_reply_or_cut_reply_never_crashes(text: str, cut: int) -> None:
    for reply in (text, text[:cut], '{"a": ' + text[:cut]):
        result = extract_json_payload(reply)
        assert schema_errors("reply-extraction", result.to_dict()) == []
        if result.found:
            assert result.span is not None and json.loads(reply[result.span[0]:result.span[1]]) == result.payload
        else:
            assert result.payload is None and result.text is None


def test_a_fenced_list_of_scalars_is_a_payload_but_in_prose_it_is_a_footnote() -> None:
    assert extract_json_payload("```json\n[1, 2, 3]\n```").payload == [1, 2, 3]
    assert not extract_json_payload("as shown in [1] and [2].").found
