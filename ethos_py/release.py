"""release - the app answer release decision (docs/contracts.md, "Release decisions"; schema 1.1.0): which claims an app may show.

The caller owns the judgement labels (``question_relevance``, ``claim_type``, ``claim_support``);
this module never guesses them. It combines them with what Ethos proved (the proof summary of a
verification report) under a fixed policy, fail-closed: a claim is shown as final only when its
citations are reusable grounded evidence, it answers the question, it states a source fact, and
the app says the source supports it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import Any

from ._host_io import json_input
from .errors import EthosError, InvalidInputError

__all__ = ["ALLOWED_LABELS", "ARTIFACT_TYPE", "CLAIM_SUPPORT", "CLAIM_TYPES", "RELEVANCE", "SCHEMA_VERSION", "app_answer_release_decision"]

ARTIFACT_TYPE = "ethos.app_answer_release_decision.v1"
SCHEMA_VERSION = "1.1.0"

RELEVANCE = ("direct_answer", "supports_answer", "background_only", "unrelated")
CLAIM_TYPES = ("source_fact", "synthesis", "unsupported")
CLAIM_SUPPORT = ("supported", "unsupported", "contradicted", "not_evaluated")
#: The caller's labels and the values each may take (named in the error for a wrong one).
ALLOWED_LABELS = {"question_relevance": RELEVANCE, "claim_type": CLAIM_TYPES, "claim_support": CLAIM_SUPPORT}

#: A file input: a path (``os.PathLike``, or a ``str`` not starting with ``{`` or ``[``), JSON
#: text (a ``str`` that does) or JSON bytes.
_FILE_INPUTS = (str, bytes, bytearray, memoryview, os.PathLike)


def app_answer_release_decision(
    question: str,
    proof: Mapping[str, Any] | str | bytes | os.PathLike[str],
    claims: Sequence[Mapping[str, Any]] | str | bytes | os.PathLike[str],
    *,
    verification_report_ref: str = "verification_report.json",
    notes: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Decides, claim by claim, whether an app may release an answer's claims.

    ``proof`` is a proof summary, a verification report or a proof Statement (the last two are
    summarized by the native core): a dict, or like ``verify`` and ``proof_summary`` a path (a
    ``str`` not starting with ``{`` or ``[``), JSON text or JSON bytes. ``claims`` is a sequence of
    claims or such a file / text holding the JSON array. Each claim is ``{id, text, check_ids |
    check_id, citation_grounded?, question_relevance, claim_type, claim_support?}``. Invalid input
    raises ``InvalidInputError`` (a ``ValueError`` and an ``EthosError``); a wrong label names the
    allowed ones (``ALLOWED_LABELS``).

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
    if not isinstance(proof, (Mapping, *_FILE_INPUTS)):
        raise InvalidInputError(
            "proof must be a proof summary, a verification report or a proof Statement (a dict, a path or JSON)"
        )
    if notes is not None and (not isinstance(notes, Sequence) or isinstance(notes, (str, bytes))):
        raise ValueError("notes must be a sequence of non-empty strings")
    # The core decides (native/src/core/release_decision.cpp), so this function, `ethos release`
    # and `ethos-core release` give the same bytes by construction; Python only carries the values.
    # A file or JSON text goes to the core as its bytes, as `ethos release` passes them.
    try:
        proof_bytes = (
            json_input(proof, argument="proof")
            if isinstance(proof, _FILE_INPUTS)
            else json.dumps(dict(proof), ensure_ascii=False, allow_nan=False).encode("utf-8")
        )
        claims_bytes = json_input(claims, argument="claims") if isinstance(claims, _FILE_INPUTS) else _claims_json(claims)
    except InvalidInputError:
        raise
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"proof and claims must hold JSON values only: {exc}") from None
    from ._release_core import release_decision_json  # loads the native library on first use

    try:
        decision = release_decision_json(
            proof_bytes, claims_bytes, question, verification_report_ref=verification_report_ref, notes=list(notes or ())
        )
    except EthosError as exc:
        if exc.code != "invalid_input":
            raise
        raise InvalidInputError(_invalid_input_message(exc), exc.details) from None
    result: dict[str, Any] = json.loads(decision)
    return result


def _claims_json(claims: object) -> bytes:
    """The JSON bytes of claims given as Python values; anything but a sequence of mappings is refused."""
    if not isinstance(claims, Sequence):
        raise InvalidInputError("claims must be a sequence of mappings, a path or JSON text")
    for index, claim in enumerate(claims):
        if not isinstance(claim, Mapping):
            raise InvalidInputError(f"claims[{index}] must be a mapping")
    return json.dumps([dict(claim) for claim in claims], ensure_ascii=False, allow_nan=False).encode("utf-8")


def _invalid_input_message(error: EthosError) -> str:
    """The core's invalid_input envelope as one line: what is wrong, and where (input, path, claim)."""
    details = {key: value for key, value in sorted(error.details.items()) if key != "input" or value != "options"}
    where = ", ".join(f"{key}={value}" for key, value in details.items())
    message = f"{error.message} ({where})" if where else str(error.message)
    allowed = ALLOWED_LABELS.get(str(error.details.get("field")))
    if allowed is not None and "allowed labels" in message:
        message += f"; allowed: {', '.join(allowed)}"
    return message
