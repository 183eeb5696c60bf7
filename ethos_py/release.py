"""release - the app answer release decision (docs/contracts.md, "Release decisions"; schema 1.1.0): which claims an app may show.

The caller owns the judgement labels (``question_relevance``, ``claim_type``, ``claim_support``);
this module never guesses them. It combines them with what Ethos proved (the proof summary of a
verification report) under a fixed policy, fail-closed: a claim is shown as final only when its
citations are reusable grounded evidence, it answers the question, it states a source fact, and
the app says the source supports it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import EthosError

__all__ = ["ARTIFACT_TYPE", "CLAIM_SUPPORT", "CLAIM_TYPES", "RELEVANCE", "SCHEMA_VERSION", "app_answer_release_decision"]

ARTIFACT_TYPE = "ethos.app_answer_release_decision.v1"
SCHEMA_VERSION = "1.1.0"

RELEVANCE = ("direct_answer", "supports_answer", "background_only", "unrelated")
CLAIM_TYPES = ("source_fact", "synthesis", "unsupported")
CLAIM_SUPPORT = ("supported", "unsupported", "contradicted", "not_evaluated")


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
    if not isinstance(proof, Mapping):
        raise ValueError("proof must be a proof summary, a verification report or a proof Statement")
    if not isinstance(claims, Sequence) or isinstance(claims, (str, bytes)):
        raise ValueError("claims must be a sequence of mappings")
    if notes is not None and (not isinstance(notes, Sequence) or isinstance(notes, (str, bytes))):
        raise ValueError("notes must be a sequence of non-empty strings")
    for index, claim in enumerate(claims):
        if not isinstance(claim, Mapping):
            raise ValueError(f"claims[{index}] must be a mapping")
    # The core decides (native/src/core/release_decision.cpp), so this function, `ethos release`
    # and `ethos-core release` give the same bytes by construction; Python only carries the values.
    try:
        proof_bytes = json.dumps(dict(proof), ensure_ascii=False, allow_nan=False).encode("utf-8")
        claims_bytes = json.dumps([dict(claim) for claim in claims], ensure_ascii=False, allow_nan=False).encode("utf-8")
    except (TypeError, ValueError) as exc:
        raise ValueError(f"proof and claims must hold JSON values only: {exc}") from None
    from ._release_core import release_decision_json  # loads the native library on first use

    try:
        decision = release_decision_json(
            proof_bytes, claims_bytes, question, verification_report_ref=verification_report_ref, notes=list(notes or ())
        )
    except EthosError as exc:
        if exc.code != "invalid_input":
            raise
        raise ValueError(_invalid_input_message(exc)) from None
    result: dict[str, Any] = json.loads(decision)
    return result


def _invalid_input_message(error: EthosError) -> str:
    """The core's invalid_input envelope as one line: what is wrong, and where (input, path, claim)."""
    details = {key: value for key, value in sorted(error.details.items()) if key != "input" or value != "options"}
    where = ", ".join(f"{key}={value}" for key, value in details.items())
    return f"{error.message} ({where})" if where else error.message
