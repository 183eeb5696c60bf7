"""edits - applies a reply's edits to a text only where their anchors verify, with a new-to-old offset map.

An edit replaces the text its anchor quotes. ``apply_edits`` verifies every anchor itself
(``verify_anchors``: the core's matcher under the policy), so a stale or hand-made verdict can never
smuggle an edit in: only an anchor found exactly once is replaced, at the span the core located.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .reply_verify import PolicyInput, QuoteVerdict, edit_records, verify_anchors

__all__ = ["AppliedEdit", "EditResult", "SkippedEdit", "apply_edits"]


@dataclass(frozen=True)
class AppliedEdit:
    """An edit that was applied: ``old_span`` in the source text, ``new_span`` in the result.

        >>> (edit,) = apply_edits("Pay in 30 days.", [{"anchor": "30 days", "replacement": "45 days"}]).applied
        >>> edit.old_span, edit.new_span, edit.old_text
        ((7, 14), (7, 14), '30 days')
    """

    index: int
    old_span: tuple[int, int]
    new_span: tuple[int, int]
    old_text: str
    new_text: str
    verdict: QuoteVerdict

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (in ``EditResult.to_dict``)."""
        return {
            "index": self.index,
            "new_span": list(self.new_span),
            "new_text": self.new_text,
            "old_span": list(self.old_span),
            "old_text": self.old_text,
            "tier": self.verdict.tier,
        }


@dataclass(frozen=True)
class SkippedEdit:
    """An edit that was not applied, and why: ``not_found``/``ambiguous`` with the verdict's own
    reason, ``no_replacement`` (no string replacement) or ``overlap`` (``overlaps`` names the
    applied edit whose span it shares).

        >>> (skip,) = apply_edits("Pay in 30 days.", [{"anchor": "60 days", "replacement": "x"}]).skipped
        >>> skip.reason, skip.detail
        ('not_found', 'text_mismatch')
    """

    index: int
    reason: str
    detail: str | None
    verdict: QuoteVerdict
    overlaps: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (in ``EditResult.to_dict``)."""
        return {
            "anchor": self.verdict.quote,
            "detail": self.detail,
            "diff": None if self.verdict.diff is None else [dict(step) for step in self.verdict.diff],
            "index": self.index,
            "overlaps": self.overlaps,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class EditResult:
    """The edited text, the edits applied (in document order) and skipped (in reply order).

    ``new_to_old(offset)`` maps an offset of ``text`` to the source text: unchanged text maps one
    to one, an offset inside a replacement maps to the start of the text it replaced.
    ``undo()`` rebuilds the source text from ``text`` alone by reversing every applied edit.

        >>> result = apply_edits("Pay in 30 days.", [{"anchor": "30", "replacement": "forty-five"}])
        >>> result.text, result.new_to_old(10), result.undo()
        ('Pay in forty-five days.', 7, 'Pay in 30 days.')
    """

    source_text: str
    text: str
    applied: tuple[AppliedEdit, ...]
    skipped: tuple[SkippedEdit, ...]

    def new_to_old(self, offset: int) -> int:
        """The source offset of ``offset`` in ``text`` (see the class); ``ValueError`` outside it."""
        if not 0 <= offset <= len(self.text):
            raise ValueError("offset outside the edited text")
        starts = [edit.new_span[0] for edit in self.applied]
        position = bisect.bisect_right(starts, offset) - 1
        if position < 0:
            return offset
        edit = self.applied[position]
        if offset < edit.new_span[1]:
            return edit.old_span[0]
        return edit.old_span[1] + (offset - edit.new_span[1])

    def undo(self) -> str:
        """The source text again, from the edited text and the applied edits only."""
        pieces, cursor = [], 0
        for edit in self.applied:
            pieces.append(self.text[cursor:edit.new_span[0]])
            pieces.append(edit.old_text)
            cursor = edit.new_span[1]
        pieces.append(self.text[cursor:])
        return "".join(pieces)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form ``ethos edits apply`` prints (the edited text itself goes to ``--out``)."""
        return {
            "applied": [edit.to_dict() for edit in self.applied],
            "artifact_type": "ethos.edit_result.v1",
            "skipped": [edit.to_dict() for edit in self.skipped],
            "text": self.text,
        }


def _replacement(record: Any, key: str) -> str | None:
    value = record.get(key) if isinstance(record, Mapping) else getattr(record, key, None)
    return value if isinstance(value, str) else None


def apply_edits(source_text: str, edits: Any, *, policy: PolicyInput = "default", anchor_key: str = "anchor",
                replacement_key: str = "replacement") -> EditResult:
    """Applies the edits whose anchor is found exactly once in ``source_text``.

    ``edits`` is anything ``edit_records`` reads (a list of edits, ``{"edits": [...]}``, a reply
    text or an ``Extraction``); each edit carries ``anchor_key`` (the quoted text it replaces)
    and ``replacement_key`` (the new text, ``""`` deletes). Verified edits are applied at their
    located spans in document order; one whose span overlaps an edit earlier in the document is
    skipped (``overlap``), as is every edit not verified; nothing is ever applied unverified.

        >>> result = apply_edits("Fees are due within 30 days.", [{"anchor": "30 days", "replacement": "45 days"},
        ...                                                       {"anchor": "60 days", "replacement": "90 days"}])
        >>> result.text, [(s.index, s.reason) for s in result.skipped]
        ('Fees are due within 45 days.', [(1, 'not_found')])
    """
    if not isinstance(source_text, str):
        raise TypeError("source_text must be a str")
    records = edit_records(edits)
    verdicts = verify_anchors(records, source_text, policy, key=anchor_key)
    skipped: list[SkippedEdit] = []
    ready: list[tuple[int, int, int, str, QuoteVerdict]] = []
    for verdict in verdicts:
        replacement = _replacement(verdict.record, replacement_key)
        if not verdict.verified or verdict.span is None:
            skipped.append(SkippedEdit(verdict.index, verdict.status, verdict.reason, verdict))
        elif replacement is None:
            skipped.append(SkippedEdit(verdict.index, "no_replacement", f"no string {replacement_key!r}", verdict))
        else:
            ready.append((verdict.span[0], verdict.span[1], verdict.index, replacement, verdict))
    ready.sort(key=lambda item: (item[0], item[1], item[2]))
    applied: list[AppliedEdit] = []
    pieces: list[str] = []
    cursor = 0  # end of the last applied span in the source
    shift = 0  # length of the result minus length of the source consumed so far
    for start, end, index, replacement, verdict in ready:
        if applied and start < applied[-1].old_span[1]:
            skipped.append(SkippedEdit(index, "overlap", f"overlaps edit {applied[-1].index}", verdict,
                                       overlaps=applied[-1].index))
            continue
        pieces.append(source_text[cursor:start])
        pieces.append(replacement)
        new_start = start + shift
        applied.append(AppliedEdit(index, (start, end), (new_start, new_start + len(replacement)),
                                   source_text[start:end], replacement, verdict))
        shift += len(replacement) - (end - start)
        cursor = end
    pieces.append(source_text[cursor:])
    skipped.sort(key=lambda edit: edit.index)
    return EditResult(source_text, "".join(pieces), tuple(applied), tuple(skipped))
