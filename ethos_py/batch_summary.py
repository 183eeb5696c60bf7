"""batch_summary - the corpus-level answers of ``ethos batch``: grounded rates overall, per document, kind, reason and tier, and the claims that fail most often.

The summary is a function of the output lines alone, whatever their order, so an interrupted and
resumed job summarizes exactly as an uninterrupted one. ``ethos batch``'s workers compute each
record's facts (``_facts``) beside its output line, and the parent only adds them up as chunks
commit; ``summarize`` does the same from lines already written.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .jsonl_pipeline import _KINDS

__all__ = ["summarize"]

_TIERS = ("exact", "whitespace", "typography", "case", "skeleton")
_MOST_FAILED = 20  # claims listed under most_failed


def _rate(part: int, whole: int) -> float:
    return round(part / whole, 6) if whole else 0.0


def _facts(record: Mapping[str, Any]) -> tuple[Any, ...]:
    """What the summary needs of one output record (its fields and verdict), as a small tuple:
    workers compute it beside the line, so the parent never parses the output again."""
    verdict = record.get("ethos") or {}
    status = str(verdict.get("status", "error"))
    label = verdict.get("source")
    fingerprint = verdict.get("document_fingerprint")
    kind = record.get("kind", "quote")
    kind_name = kind if isinstance(kind, str) and kind in _KINDS else "invalid"
    if status == "grounded":
        tier = (verdict.get("match") or {}).get("tier")
        # A presence claim is grounded without a matched text: no tier ("").
        return (status, label if isinstance(label, str) else None, fingerprint if isinstance(fingerprint, str) else None,
                kind_name, tier if isinstance(tier, str) else "", None, None)
    reason = verdict.get("reason")
    claim = record.get("claim")
    return (status, label if isinstance(label, str) else None, fingerprint if isinstance(fingerprint, str) else None,
            kind_name, None, reason if isinstance(reason, str) else status, claim if isinstance(claim, str) else None)


class _Summary:
    """The summary's counts, fed record facts in any order (chunks commit as they finish)."""

    def __init__(self) -> None:
        self.records = self.grounded = 0
        self.counts: dict[str, int] = {}
        self.documents: dict[str, dict[str, Any]] = {}
        self.kinds: dict[str, list[int]] = {}
        self.reasons: dict[str, int] = {}
        self.tiers: dict[str, int] = {}
        self.failed: dict[str, dict[str, Any]] = {}

    def add(self, facts: Sequence[Any]) -> None:
        status, label, fingerprint, kind, tier, reason, claim = facts
        ok = status == "grounded"
        self.records += 1
        self.grounded += ok
        self.counts[status] = self.counts.get(status, 0) + 1
        name = label or ""
        row = self.documents.setdefault(name, {"document": label, "fingerprints": set(), "records": 0, "grounded": 0,
                                               "counts": {}})
        if fingerprint is not None:
            row["fingerprints"].add(fingerprint)
        row["records"] += 1
        row["grounded"] += ok
        row["counts"][status] = row["counts"].get(status, 0) + 1
        pair = self.kinds.setdefault(kind, [0, 0])
        pair[0] += 1
        pair[1] += ok
        if ok:
            self.tiers[tier] = self.tiers.get(tier, 0) + 1
            return
        self.reasons[reason] = self.reasons.get(reason, 0) + 1
        if claim is not None:
            entry = self.failed.setdefault(claim, {"claim": claim, "failures": 0, "documents": set(), "reasons": {}})
            entry["failures"] += 1
            entry["documents"].add(name)
            entry["reasons"][reason] = entry["reasons"].get(reason, 0) + 1

    def result(self) -> dict[str, Any]:
        by_document = []
        for name in sorted(self.documents):
            row = self.documents[name]
            by_document.append({"counts": dict(sorted(row["counts"].items())), "document": row["document"],
                                "document_fingerprint": min(row["fingerprints"]) if row["fingerprints"] else None,
                                "grounded": row["grounded"], "grounded_rate": _rate(row["grounded"], row["records"]),
                                "records": row["records"]})
        most = sorted(self.failed.values(), key=lambda e: (-e["failures"], e["claim"]))[:_MOST_FAILED]
        return {
            "artifact_type": "ethos.batch_summary.v1",
            "records": self.records,
            "grounded": self.grounded,
            "grounded_rate": _rate(self.grounded, self.records),
            "counts": dict(sorted(self.counts.items())),
            "by_document": by_document,
            "by_kind": [{"kind": kind, "records": pair[0], "grounded": pair[1], "grounded_rate": _rate(pair[1], pair[0])}
                        for kind, pair in sorted(self.kinds.items())],
            "by_reason": [{"reason": reason, "records": count}
                          for reason, count in sorted(self.reasons.items(), key=lambda item: (-item[1], item[0]))],
            "by_tier": [{"tier": tier, "grounded": self.tiers.get(tier, 0)} for tier in _TIERS]
                       + [{"tier": tier or None, "grounded": count} for tier, count in sorted(self.tiers.items())
                          if tier not in _TIERS],
            "most_failed": [{"claim": e["claim"], "failures": e["failures"], "documents": len(e["documents"]),
                             "reasons": dict(sorted(e["reasons"].items()))} for e in most],
        }


def summarize(lines: Iterable[bytes]) -> dict[str, Any]:
    """Corpus-level answers from output lines: records and grounded rate overall, per document,
    per claim kind, per reason (of the claims not grounded), grounded claims per ladder tier (tier
    ``None``: grounded without a matched text, as presence claims are), and the claims (by text)
    that fail most often. Deterministic: a function of the lines only, whatever their order.

        >>> lines = [b'{"claim":"a","document":"x.pdf","ethos":{"status":"grounded","source":"x.pdf","match":{"tier":"exact"}}}',
        ...          b'{"claim":"b","document":"x.pdf","ethos":{"status":"not_found","reason":"no_match","source":"x.pdf"}}']
        >>> summary = summarize(lines)
        >>> summary["grounded_rate"], summary["by_reason"], summary["most_failed"][0]["claim"]
        (0.5, [{'reason': 'no_match', 'records': 1}], 'b')
    """
    summary = _Summary()
    for line in lines:
        summary.add(_facts(json.loads(line)))
    return summary.result()
