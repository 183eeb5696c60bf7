"""test_reply_edits - edits applied only where their anchors verify: order, overlaps, skips, offset map, undo (ethos_py.edits)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import schema_errors

from ethos_py.edits import apply_edits
from ethos_py.reply_verify import verify_anchors

SOURCE = (
    "1. Term. This Agreement continues for twelve (12) months.\n\n"
    "2. Liability. The Supplier shall not be liable for indirect losses.\n\n"
    "3. Payment. Fees are due within 30 days.\n"
    "4. Notices. Fees are due within 30 days.\n"
)


def test_verified_edits_are_applied_in_document_order_and_the_rest_skipped_with_reasons() -> None:
    edits = [
        {"anchor": "The Supplier shall not be liable for indirect losses", "replacement": "The Supplier's liability is capped"},
        {"anchor": "continues for twelve (12) months", "replacement": "continues for twenty-four (24) months"},
        {"anchor": "continues for twelve (24) months", "replacement": "never"},  # changed figure
        {"anchor": "Fees are due within 30 days", "replacement": "never"},  # twice in the source
        {"anchor": "The Supplier shall be liable", "replacement": "never"},  # negation dropped
        {"anchor": "Liability."},  # no replacement
    ]
    result = apply_edits(SOURCE, edits)
    assert [edit.index for edit in result.applied] == [1, 0]
    assert [(edit.index, edit.reason) for edit in result.skipped] == [
        (2, "not_found"), (3, "ambiguous"), (4, "not_found"), (5, "no_replacement")
    ]
    assert result.skipped[0].detail == "numeric_guard" and result.skipped[2].detail == "polarity_guard"
    assert "never" not in result.text
    assert "continues for twenty-four (24) months" in result.text and "liability is capped" in result.text
    assert result.undo() == SOURCE


def test_overlapping_edits_the_first_in_the_document_wins() -> None:
    edits = [
        {"anchor": "Supplier shall not be liable", "replacement": "A"},
        {"anchor": "The Supplier shall not", "replacement": "B"},
    ]
    result = apply_edits(SOURCE, edits)
    assert [edit.index for edit in result.applied] == [1]
    assert [(edit.index, edit.reason, edit.overlaps) for edit in result.skipped] == [(0, "overlap", 1)]


def test_a_wrapped_anchor_replaces_the_original_characters() -> None:
    source = "The Supplier shall\r\nnot be liable."
    result = apply_edits(source, [{"anchor": "the supplier shall not be liable", "replacement": "Nobody is liable"}])
    assert result.text == "Nobody is liable." and result.applied[0].old_text == "The Supplier shall\r\nnot be liable"


def test_new_to_old_offsets() -> None:
    source = "abc Fees are due within 30 days. xyz"
    result = apply_edits(source, [{"anchor": "30 days", "replacement": "forty-five days"}])
    start = result.text.index("forty-five")
    assert result.new_to_old(0) == 0
    assert result.new_to_old(start) == source.index("30 days")
    assert result.new_to_old(start + 5) == source.index("30 days")  # inside the replacement
    assert result.new_to_old(len(result.text)) == len(source)
    assert result.text[-4:] == source[result.new_to_old(len(result.text) - 4):]


def test_a_reply_text_is_read_for_its_edits() -> None:
    reply = 'Edits below.\n```json\n{"edits": [{"anchor": "Fees are due within 30 days.\\n4.", "replacement": "Fees."}]}\n```'
    result = apply_edits(SOURCE, reply)
    assert [edit.index for edit in result.applied] == [0] and result.undo() == SOURCE


def test_nothing_to_apply() -> None:
    for edits in ([], {"edits": "nope"}, "no JSON at all", None):
        result = apply_edits(SOURCE, edits)
        assert result.text == SOURCE and result.applied == () and result.skipped == ()


_WORDS = ["Fees", "are", "due", "within", "30", "days", "the", "Supplier", "shall", "not", "be", "liable", "12", "months"]
_SOURCE_TEXT = st.lists(st.sampled_from(_WORDS + [".", "\n", "\n\n", "\u00a0", "\u2014", "\u201c", "\u201d"]),
                        min_size=1, max_size=40).map(" ".join)


@st.composite
def _edit_lists(draw: st.DrawFn) -> tuple[str, list[dict[str, object]]]:
    source = draw(_SOURCE_TEXT)
    edits: list[dict[str, object]] = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["slice", "words", "junk"]))
        if kind == "slice" and source:
            start = draw(st.integers(0, len(source) - 1))
            anchor: object = source[start:draw(st.integers(start + 1, len(source)))]
        elif kind == "words":
            anchor = " ".join(draw(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=5)))
        else:
            anchor = draw(st.one_of(st.text(max_size=20), st.none(), st.integers()))
        replacement = draw(st.one_of(st.text(max_size=15), st.none()))
        edits.append({"anchor": anchor, "replacement": replacement})
    return source, edits


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_edit_lists())
def test_property_nothing_unverified_is_applied_and_undo_round_trips(case: tuple[str, list[dict[str, object]]]) -> None:
    source, edits = case
    result = apply_edits(source, edits)
    verdicts = verify_anchors(edits, source)
    verified = {v.index for v in verdicts if v.status == "verified"}
    applied = {edit.index for edit in result.applied}
    assert applied <= verified
    assert applied | {edit.index for edit in result.skipped} == set(range(len(edits)))
    assert not applied & {edit.index for edit in result.skipped}
    # Applied spans are in document order and disjoint, and each replaced what the core located.
    spans = [edit.old_span for edit in result.applied]
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))
    for edit in result.applied:
        assert source[edit.old_span[0]:edit.old_span[1]] == edit.old_text == edit.verdict.located_text
        assert result.text[edit.new_span[0]:edit.new_span[1]] == edit.new_text
    assert result.undo() == source
    assert schema_errors("edit-result", result.to_dict()) == []
    for offset in range(len(result.text) + 1):
        assert 0 <= result.new_to_old(offset) <= len(source)


_SKETCH = '{"edits": [{"anchor": "string", "replacement": "string"}]}'


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_edit_lists(), st.sampled_from(["```json", "~~~", "```", None]), st.booleans(), st.booleans(),
       st.text(alphabet=st.characters(blacklist_characters="{}[]`~"), max_size=30))
def test_property_any_reply_shape_applies_only_its_payloads_verified_edits(
    case: tuple[str, list[dict[str, object]]], fence: str | None, sketch_first: bool, cut_tail: bool, prose: str
) -> None:
    import json

    source, edits = case
    body = json.dumps({"edits": edits}, ensure_ascii=False)
    wrap = (lambda text: f"\n{fence}\n{text}\n{fence[:3]}\n") if fence else (lambda text: f" {text} ")
    reply = prose + (wrap(_SKETCH) if sketch_first else "") + wrap(body) + prose
    if cut_tail:
        reply += '{"edits": [{"anchor": "Fees'  # the model stopped mid-object after its payload
    result = apply_edits(source, reply)
    direct = apply_edits(source, edits)
    # The sketch and the cut tail change nothing: the payload's edits are the ones judged.
    assert result.text == direct.text and result.undo() == source
    assert [edit.index for edit in result.applied] == [edit.index for edit in direct.applied]
    assert all(edit.verdict.status == "verified" for edit in result.applied)
