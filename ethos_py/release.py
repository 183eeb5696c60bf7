"""release - the app answer release decision (CONTRACTS.md §2.9, schema 1.1.0): which claims an app may show.

The caller owns the judgement labels (``question_relevance``, ``claim_type``, ``claim_support``);
this module never guesses them. It combines them with what Ethos proved (the proof summary of a
verification report) under a fixed policy, fail-closed: a claim is shown as final only when its
citations are reusable grounded evidence, it answers the question, it states a source fact, and
the app says the source supports it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["ARTIFACT_TYPE", "CLAIM_SUPPORT", "CLAIM_TYPES", "RELEVANCE", "SCHEMA_VERSION", "app_answer_release_decision"]

ARTIFACT_TYPE = "ethos.app_answer_release_decision.v1"
SCHEMA_VERSION = "1.1.0"

RELEVANCE = ("direct_answer", "supports_answer", "background_only", "unrelated")
CLAIM_TYPES = ("source_fact", "synthesis", "unsupported")
CLAIM_SUPPORT = ("supported", "unsupported", "contradicted", "not_evaluated")
_RELEVANT = ("direct_answer", "supports_answer")
_PROOF_STATUS = ("verified", "partially_verified", "unverified")
_SUMMARY_FIELDS = (
    "proof_status",
    "request_certified",
    "reusable_grounded_check_ids",
    "needs_review_check_ids",
    "proof_limitations",
)


def app_answer_release_decision(
    question: str,
    proof: Mapping[str, Any],
    claims: Sequence[Mapping[str, Any]],
    *,
    verification_report_ref: str = "verification_report.json",
    notes: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Decides, claim by claim, whether an app may release an answer's claims.

    ``proof`` is a proof summary, a verification report or a proof Statement (the last two are
    summarized by the native core). Each claim is ``{id, text, check_ids | check_id,
    citation_grounded?, question_relevance, claim_type, claim_support?}``. Invalid input raises
    ``ValueError``.

    >>> proof = {"proof_status": "verified", "request_certified": True,
    ...          "reusable_grounded_check_ids": ["v0001"], "needs_review_check_ids": [],
    ...          "proof_limitations": []}
    >>> claim = {"id": "c1", "text": "Revenue grew 12.5%", "check_ids": ["v0001"],
    ...          "question_relevance": "direct_answer", "claim_type": "source_fact",
    ...          "claim_support": "supported"}
    >>> app_answer_release_decision("How did revenue develop?", proof, [claim])["app_status"]
    'certified'
    """
    if not isinstance(question, str) or not question.strip():
        raise ValueError("question must be a non-blank string")
    if not isinstance(verification_report_ref, str) or not verification_report_ref:
        raise ValueError("verification_report_ref must be a non-empty string")
    if not isinstance(claims, Sequence) or isinstance(claims, (str, bytes)):
        raise ValueError("claims must be a sequence of mappings")
    note_list = _notes(notes)
    summary = _proof_summary(proof)
    reusable = set(summary["reusable_grounded_check_ids"])
    known = reusable | set(summary["needs_review_check_ids"])

    decided: list[dict[str, Any]] = []
    seen_ids: set[str] = set()
    for index, claim in enumerate(claims):
        if not isinstance(claim, Mapping):
            raise ValueError(f"claims[{index}] must be a mapping")
        entry = _decide_claim(claim, reusable, known)
        if entry["id"] in seen_ids:
            raise ValueError(f"duplicate claim id {entry['id']!r}")
        seen_ids.add(entry["id"])
        decided.append(entry)

    decision: dict[str, Any] = {
        "artifact_type": ARTIFACT_TYPE,
        "schema_version": SCHEMA_VERSION,
        "question": question,
        "grounding": {"verification_report_ref": verification_report_ref, **{k: summary[k] for k in _SUMMARY_FIELDS}},
        "app_status": _app_status(decided),
        "claims": decided,
        "final_answer_claim_ids": [c["id"] for c in decided if c["release_action"] == "show_final"],
        "review_claim_ids": [c["id"] for c in decided if c["release_action"] == "needs_review"],
        "blocked_claim_ids": [c["id"] for c in decided if c["release_action"] == "block"],
    }
    if note_list:
        decision["notes"] = note_list
    return decision


def _notes(notes: Sequence[str] | None) -> list[str]:
    if notes is None:
        return []
    if isinstance(notes, (str, bytes)) or not isinstance(notes, Sequence):
        raise ValueError("notes must be a sequence of non-empty strings")
    if not all(isinstance(note, str) and note for note in notes):
        raise ValueError("notes must be a sequence of non-empty strings")
    return list(notes)


def _proof_summary(proof: Mapping[str, Any]) -> dict[str, Any]:
    """A proof summary as given, or derived (natively) from a report or Statement."""
    if not isinstance(proof, Mapping):
        raise ValueError("proof must be a proof summary, a verification report or a Statement")
    if "proof_status" in proof:
        missing = [field for field in _SUMMARY_FIELDS if field not in proof]
        if missing:
            raise ValueError(f"proof summary lacks {', '.join(missing)}")
        summary = {field: proof[field] for field in _SUMMARY_FIELDS}
        _check_summary(summary)
        return summary
    from .errors import EthosError
    from .proof import (
        proof_summary,  # the native core derives it; imported late (needs the library)
    )

    try:
        return proof_summary(dict(proof))
    except EthosError as error:
        if error.code != "invalid_input":
            raise
        raise ValueError(f"proof is not a proof summary, a verification report or a Statement: {error.message}") from error


def _check_summary(summary: Mapping[str, Any]) -> None:
    """The same shape checks as the core (core/release_decision.cpp), so both reject the same summaries."""
    valid = {
        "proof_status": summary["proof_status"] in _PROOF_STATUS,
        "request_certified": isinstance(summary["request_certified"], bool),
    }
    for field in _SUMMARY_FIELDS[2:]:
        value = summary[field]
        valid[field] = isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value)
    for field in _SUMMARY_FIELDS:
        if not valid[field]:
            raise ValueError(f"proof summary field {field} has an invalid value")


def _label(claim: Mapping[str, Any], field: str, allowed: Sequence[str], claim_id: str) -> str:
    value = claim.get(field)
    if value not in allowed:
        raise ValueError(f"claim {claim_id!r}: {field} must be one of {', '.join(allowed)}")
    return str(value)


def _non_empty_string(claim: Mapping[str, Any], field: str, where: str) -> str:
    value = claim.get(field)
    if not isinstance(value, str) or not value:
        raise ValueError(f"{where}: {field} must be a non-empty string")
    return value


def _check_ids(claim: Mapping[str, Any], claim_id: str) -> list[str]:
    if "check_id" in claim and "check_ids" in claim:
        raise ValueError(f"claim {claim_id!r}: give check_id or check_ids, not both")
    if "check_id" in claim:
        raw: Any = [claim["check_id"]]
    else:
        raw = claim.get("check_ids", [])
    if isinstance(raw, (str, bytes)) or not isinstance(raw, Sequence):
        raise ValueError(f"claim {claim_id!r}: check_ids must be a list of check ids")
    if "check_ids" in claim and not raw:
        raise ValueError(f"claim {claim_id!r}: check_ids must not be empty")
    if not all(isinstance(check, str) and check for check in raw):
        raise ValueError(f"claim {claim_id!r}: check ids must be non-empty strings")
    if len(set(raw)) != len(raw):
        raise ValueError(f"claim {claim_id!r}: duplicate check id")
    return list(raw)


def _citation_grounded(claim: Mapping[str, Any], claim_id: str, check_ids: list[str], reusable: set[str], known: set[str]) -> bool:
    supplied = claim.get("citation_grounded")
    if supplied is not None and not isinstance(supplied, bool):
        raise ValueError(f"claim {claim_id!r}: citation_grounded must be a boolean")
    if not check_ids:
        if supplied is None:
            raise ValueError(f"claim {claim_id!r}: without check ids, citation_grounded must be given")
        return supplied
    unknown = [check for check in check_ids if check not in known]
    if unknown:
        raise ValueError(f"claim {claim_id!r}: unknown check id {unknown[0]!r}")
    grounded = all(check in reusable for check in check_ids)
    if supplied is not None and supplied != grounded:
        raise ValueError(f"claim {claim_id!r}: citation_grounded disagrees with the proof")
    return grounded


def _decide_claim(claim: Mapping[str, Any], reusable: set[str], known: set[str]) -> dict[str, Any]:
    claim_id = _non_empty_string(claim, "id", "claim")
    text = _non_empty_string(claim, "text", f"claim {claim_id!r}")
    relevance = _label(claim, "question_relevance", RELEVANCE, claim_id)
    claim_type = _label(claim, "claim_type", CLAIM_TYPES, claim_id)
    support = claim.get("claim_support", "not_evaluated")
    support = _label({"claim_support": support}, "claim_support", CLAIM_SUPPORT, claim_id)
    legacy = claim_type == "unsupported"  # deprecated: the type now lives in claim_support
    if legacy:
        if support == "supported":
            raise ValueError(f"claim {claim_id!r}: claim_type unsupported contradicts claim_support supported")
        if support != "contradicted":
            support = "unsupported"
    check_ids = _check_ids(claim, claim_id)
    grounded = _citation_grounded(claim, claim_id, check_ids, reusable, known)
    action, reason = _release(grounded, relevance, claim_type, support)

    entry: dict[str, Any] = {"id": claim_id, "text": text}
    if check_ids:
        entry["check_ids"] = check_ids
    entry["citation_grounded"] = grounded
    entry["question_relevance"] = relevance
    if not legacy:
        entry["claim_type"] = claim_type
    entry["claim_support"] = support
    entry["release_action"] = action
    entry["release_reason"] = reason
    return entry


def _release(grounded: bool, relevance: str, claim_type: str, support: str) -> tuple[str, str]:
    """The per-claim policy, in its fixed order: proof first, then the app's support label."""
    if not grounded:
        return "block", "cannot_answer_from_sources"
    if support == "unsupported":
        return "block", "unsupported_claim"
    if support == "contradicted":
        return "block", "contradicted_claim"
    if support == "not_evaluated":
        return "needs_review", "claim_support_not_evaluated"
    if relevance in _RELEVANT and claim_type == "source_fact":
        return "show_final", "certified"
    if relevance in _RELEVANT and claim_type == "synthesis":
        return "needs_review", "supported_synthesis_needs_review"
    return "block", "grounded_but_irrelevant"


def _app_status(claims: list[dict[str, Any]]) -> str:
    reasons = [c["release_reason"] for c in claims]
    final = sum(c["release_action"] == "show_final" for c in claims)
    review = sum(c["release_action"] == "needs_review" for c in claims)
    if final and final == len(claims):
        return "certified"
    if final:
        return "partial_certified"
    if review and "claim_support_not_evaluated" in reasons:
        return "claim_support_needs_review"
    if review:
        return "supported_synthesis_needs_review"
    if "unsupported_claim" in reasons or "contradicted_claim" in reasons:
        return "claim_support_rejected"
    if "grounded_but_irrelevant" in reasons:
        return "grounded_but_irrelevant"
    return "cannot_answer_from_sources"
