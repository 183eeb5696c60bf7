"""handles - the evidence-handle v2 bridge: the model cites opaque evidence_ids, trusted code owns locators and fingerprint.

Flow (docs/contracts.md#citation-emission-and-evidence-handles): the application builds an ``ethos.evidence_handle_context.v1`` from its
retrieval results (``build_evidence_handle_context``); the model sees only ``evidence_id`` (and
optional display/excerpt text) and answers with citation output v2
(``build_evidence_citation_emission``); ``hydrate_evidence_citations`` maps every handle back to its
locator and injects the fingerprint; after ``verify``, ``project_evidence_states`` binds the report
to the context and says per handle whether it was retrieved, cited and verified.

Everything fails closed with ``CitationEmissionError``: an unknown or duplicate handle, an empty
context, a report that does not bind this exact hydration. Behaviour, codes and messages match the
public ``ethos_pdf.emit`` helpers (differential tests), except where ours is stricter or newer:
a ``table_cell`` claim on a non-table handle is refused at hydration (ethos_pdf hands it to the
verifier, which rejects the batch), an unhashable ``kind`` is a ``CitationEmissionError`` (not a
``TypeError``), and the projection also accepts the additive report fields of docs/contracts.md#extensions,
``nearest_match``, and a proof Statement.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ._emission_rules import (
    CLAIM_KINDS,
    MAX_CLAIMS,
    CitationEmissionError,
    copy_claims,
    is_cell_coordinate,
    is_fingerprint,
    materialize_records,
    require_nonblank,
    require_source_id,
)

__all__ = [
    "CONTEXT_ARTIFACT_TYPE",
    "CONTEXT_SCHEMA_VERSION",
    "EMISSION_V2_SCHEMA_VERSION",
    "EVIDENCE_HANDLE_CONTEXT_SCHEMA_VERSION",
    "EVIDENCE_HANDLE_EMISSION_SCHEMA_VERSION",
    "MAX_EVIDENCE",
    "build_evidence_citation_emission",
    "build_evidence_handle_context",
    "hydrate_evidence_citations",
    "project_evidence_states",
]

CONTEXT_ARTIFACT_TYPE = "ethos.evidence_handle_context.v1"
CONTEXT_SCHEMA_VERSION = "1.0.0"
EMISSION_V2_SCHEMA_VERSION = "2.0.0"
#: The public ethos-pdf names of the two versions above (``ethos_pdf.emit``), for drop-in use.
EVIDENCE_HANDLE_CONTEXT_SCHEMA_VERSION = CONTEXT_SCHEMA_VERSION
EVIDENCE_HANDLE_EMISSION_SCHEMA_VERSION = EMISSION_V2_SCHEMA_VERSION
#: The most evidence entries one context may hold.
MAX_EVIDENCE = 1024
#: Presentation fields are untrusted text shown to the model and the user; bounded in characters.
PRESENTATION_LIMITS = (("display", 512), ("excerpt", 4096))

_RECORD_FIELDS = frozenset({"document_fingerprint", "evidence_id", "locator", "display", "excerpt"})
_ENTRY_FIELDS = frozenset({"evidence_id", "locator", "display", "excerpt"})
_CONTEXT_FIELDS = frozenset({"artifact_type", "schema_version", "document_fingerprint", "evidence"})
_LOCATOR_FIELDS = frozenset({"page", "element_id", "span_id", "table_id", "cell"})
_LOCATOR_ANCHORS = ("element_id", "span_id", "table_id")
_LOCATOR_IDS = ("page", "element_id", "span_id", "table_id")
_EMISSION_FIELDS = frozenset({"schema_version", "answer", "claims"})
_CLAIM_FIELDS = frozenset({"kind", "text", "evidence_id"})

# What a verification report may contain for the projection to trust it: the public fields
# (0.3-0.6), plus our additive extensions (docs/contracts.md#extensions) that carry no verdict of their own.
_REPORT_REQUIRED = frozenset({
    "schema_version", "document_fingerprint", "verification_config_sha256", "grounding", "capability_limits",
    "fingerprint_stale", "all_evidence_grounded", "checks", "unsupported_claim_kinds", "warnings",
})
_REPORT_ALLOWED = _REPORT_REQUIRED | {"dispersion", "attestation", "policy_fingerprint", "verifier"}
_PARSER_FIELDS = frozenset({"name", "version", "adapter", "adapter_version"})
_CHECK_REQUIRED = frozenset({"id", "claim", "status", "match_method", "semantic_unverified", "warnings"})
_HARDENED_CHECK_FIELDS = frozenset({"resolved_element_ids", "provenance", "context_echo"})
_CHECK_ALLOWED = _CHECK_REQUIRED | _HARDENED_CHECK_FIELDS | {"reason", "evidence", "evidence_tier", "nearest_match", "match"}
_STATUSES = frozenset({
    "grounded", "not_found", "mismatch", "stale", "unsupported_claim_kind", "capability_blocked", "error",
})
_MATCH_METHODS = frozenset({
    "exact_text", "normalized_text", "exact_text_contains", "normalized_text_contains", "table_cell_lookup",
    "bbox_containment", "presence_only", "none",
})
_REASONS = frozenset({
    "missing_locator", "missing_required_text", "unsupported_claim_kind", "stale_fingerprint",
    "missing_source_fingerprint", "missing_citation_fingerprint", "missing_span_capability",
    "missing_table_capability", "unknown_coordinate_origin", "element_not_found", "span_not_found",
    "page_not_found", "bbox_not_found", "locator_conflict", "missing_page_for_bbox", "missing_table_cell_locator",
    "table_not_found", "table_cell_not_found", "text_mismatch",
    # docs/contracts.md#extensions: more specific mismatch reasons of our matcher.
    "stitched_quotation", "near_miss", "numeric_guard", "polarity_guard", "token_boundary",
    "located_elsewhere", "hidden_text",
})
_CONFIG_HASH = re.compile(r"[0-9a-f]{64}")
_STATEMENT_TYPE = "https://in-toto.io/Statement/v1"


def build_evidence_handle_context(records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The trusted ``ethos.evidence_handle_context.v1`` for one document's retrieval results.

    Each record is ``{document_fingerprint, evidence_id, locator, display?, excerpt?}`` where the
    locator is exactly one of ``{page}``, ``{element_id, page?}``, ``{span_id, page?}`` or
    ``{table_id, cell, page?}``; nothing is inferred::

        >>> context = build_evidence_handle_context([{"document_fingerprint": "sha256:" + "a" * 64,
        ...     "evidence_id": "ev-1", "locator": {"element_id": "e000002"}, "display": "Results"}])
        >>> context["artifact_type"], context["evidence"][0]["locator"]
        ('ethos.evidence_handle_context.v1', {'element_id': 'e000002'})

    Raises ``CitationEmissionError`` (``duplicate_evidence_id``, ``invalid_locator``,
    ``mixed_document_fingerprints``, ``evidence_limit_exceeded``, ...).
    """
    fingerprint: str | None = None
    evidence: list[dict[str, Any]] = []
    seen: set[str] = set()
    for index, record in enumerate(materialize_records(records), 1):
        if not isinstance(record, Mapping) or set(record) - _RECORD_FIELDS:
            raise CitationEmissionError(
                "invalid_evidence_record", "record fields do not match context v1", record_index=index
            )
        current = require_nonblank(
            record.get("document_fingerprint"),
            "document_fingerprint",
            code="missing_document_fingerprint",
            record_index=index,
        )
        if not is_fingerprint(current):
            raise CitationEmissionError("invalid_document_fingerprint", "expected sha256 fingerprint", record_index=index)
        if fingerprint is None:
            fingerprint = current
        elif current != fingerprint:
            raise CitationEmissionError(
                "mixed_document_fingerprints", "all evidence must name one document", record_index=index
            )
        evidence_id = require_source_id(record.get("evidence_id"), "evidence_id", record_index=index)
        if evidence_id in seen:
            raise CitationEmissionError("duplicate_evidence_id", "evidence_id must be unique", record_index=index)
        seen.add(evidence_id)
        entry: dict[str, Any] = {"evidence_id": evidence_id, "locator": _checked_locator(record.get("locator"), index)}
        for field, limit in PRESENTATION_LIMITS:
            if field in record:
                text = require_nonblank(record[field], field, code="invalid_evidence_record", record_index=index)
                if len(text) > limit:
                    raise CitationEmissionError(
                        "invalid_evidence_record", f"{field} exceeds {limit} characters", record_index=index
                    )
                entry[field] = text
        evidence.append(entry)
    if len(evidence) > MAX_EVIDENCE:
        raise CitationEmissionError("evidence_limit_exceeded", f"received more than {MAX_EVIDENCE} evidence entries")
    return {
        "artifact_type": CONTEXT_ARTIFACT_TYPE,
        "schema_version": CONTEXT_SCHEMA_VERSION,
        "document_fingerprint": fingerprint,
        "evidence": evidence,
    }


def build_evidence_citation_emission(answer: str, claims: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Builds and validates model output v2: claims name an ``evidence_id``, never a locator.

        >>> build_evidence_citation_emission("Revenue grew.", [
        ...     {"kind": "quote", "text": "Revenue grew", "evidence_id": "ev-1"}])["schema_version"]
        '2.0.0'

    The handles mean nothing until ``hydrate_evidence_citations`` resolves them against a context.
    """
    emission = {"schema_version": EMISSION_V2_SCHEMA_VERSION, "answer": answer, "claims": copy_claims(claims)}
    _check_emission(emission)
    return emission


def hydrate_evidence_citations(emission: Mapping[str, Any], context: Mapping[str, Any]) -> dict[str, Any]:
    """Resolves every handle through the trusted context into ``ethos verify`` citations.

        >>> context = build_evidence_handle_context([{"document_fingerprint": "sha256:" + "a" * 64,
        ...     "evidence_id": "ev-1", "locator": {"element_id": "e000002"}}])
        >>> emission = build_evidence_citation_emission("Revenue grew.", [
        ...     {"kind": "quote", "text": "Revenue grew", "evidence_id": "ev-1"}])
        >>> hydrate_evidence_citations(emission, context)["claims"]
        [{'kind': 'quote', 'citation': {'element_id': 'e000002'}, 'text': 'Revenue grew'}]

    A handle the context does not hold raises ``CitationEmissionError`` ``out_of_vocabulary``; a
    ``table_cell`` claim on a handle without a table locator raises ``locator_conflict``.
    """
    _check_emission(emission)
    locators = _checked_context(context)
    claims = []
    for index, claim in enumerate(emission["claims"], 1):
        locator = locators.get(claim["evidence_id"])
        if locator is None:
            raise CitationEmissionError("out_of_vocabulary", "evidence_id was not shown", claim_index=index)
        # ethos_pdf passes this through and the verifier then rejects the whole batch as invalid
        # input (exit 2, a pipeline bug); refusing here lets the application re-prompt instead.
        if claim["kind"] == "table_cell" and "table_id" not in locator:
            raise CitationEmissionError(
                "locator_conflict", "table_cell claim needs a table_id and cell locator", claim_index=index
            )
        hydrated: dict[str, Any] = {"kind": claim["kind"], "citation": dict(locator)}
        if "text" in claim:
            hydrated["text"] = claim["text"]
        claims.append(hydrated)
    return {"document_fingerprint": context["document_fingerprint"], "claims": claims}


def project_evidence_states(
    context: Mapping[str, Any], emission: Mapping[str, Any], report: Mapping[str, Any]
) -> dict[str, Any]:
    """Per handle: ``retrieved``, ``cited``, ``verified``, from a report bound to this hydration.

    The report must verify exactly the claims ``hydrate_evidence_citations(emission, context)``
    yields (same fingerprint, same order, same claims) and its ``all_evidence_grounded`` must
    follow from its checks; otherwise the projection refuses (``report_context_mismatch``,
    ``invalid_report``). A handle is ``verified`` only when cited and every check citing it is
    grounded, not semantically unverified, on a fresh fingerprint::

        >>> import ethos_py
        >>> quickstart = "sha256:a98aa5afce6b9a6d4ac27cda8009b17752cd55a331385a95c39f472ef4fdb0c5"
        >>> context = build_evidence_handle_context([
        ...     {"document_fingerprint": quickstart, "evidence_id": "ev-1", "locator": {"element_id": "e000002"}},
        ...     {"document_fingerprint": quickstart, "evidence_id": "ev-2", "locator": {"page": "p0001"}}])
        >>> emission = build_evidence_citation_emission("Response time fell.", [
        ...     {"kind": "quote", "text": "The pilot cut average response time by 30%", "evidence_id": "ev-1"}])
        >>> report = ethos_py.verify("examples/quickstart/document.json",
        ...                          hydrate_evidence_citations(emission, context))
        >>> states = project_evidence_states(context, emission, report)
        >>> [(s["evidence_id"], s["cited"], s["verified"]) for s in states["states"]]
        [('ev-1', True, True), ('ev-2', False, False)]

    ``report`` may also be a proof Statement (the report is its ``predicate``). ``display`` is
    echoed as given: sanitize it (``ethos_py.presentation``) before rendering.
    """
    hydrated = hydrate_evidence_citations(emission, context)
    report = _unwrap_statement(report)
    _check_report(report)
    if report.get("document_fingerprint") != hydrated["document_fingerprint"]:
        raise CitationEmissionError("report_context_mismatch", "report fingerprint does not bind the context")
    checks = report.get("checks")
    if not isinstance(checks, list) or len(checks) != len(hydrated["claims"]):
        raise CitationEmissionError("report_context_mismatch", "report checks do not match hydrated claims")
    for index, (check, claim) in enumerate(zip(checks, hydrated["claims"]), 1):
        if not isinstance(check, Mapping) or check.get("id") != f"v{index:04d}" or check.get("claim") != claim:
            raise CitationEmissionError(
                "report_context_mismatch", "report check order or claim differs from hydration"
            )
    gate = _recomputed_gate(report, checks)
    if report.get("all_evidence_grounded") is not gate:
        raise CitationEmissionError("invalid_report", "report all_evidence_grounded is inconsistent")
    stale = report["fingerprint_stale"]
    linked: dict[str, list[tuple[int, Mapping[str, Any]]]] = {entry["evidence_id"]: [] for entry in context["evidence"]}
    for index, (claim, check) in enumerate(zip(emission["claims"], checks), 1):
        linked[claim["evidence_id"]].append((index, check))
    states = []
    for entry in context["evidence"]:
        citing = linked[entry["evidence_id"]]
        state: dict[str, Any] = {
            "evidence_id": entry["evidence_id"],
            # Every handle in the context was retrieved by definition: the context is the retrieval.
            "retrieved": True,
            "cited": bool(citing),
            "verified": bool(citing) and not stale and all(_reusable(check) for _, check in citing),
            "claim_indexes": [index for index, _ in citing],
            "check_ids": [check["id"] for _, check in citing],
            "check_statuses": [check["status"] for _, check in citing],
        }
        if "display" in entry:
            state["display"] = entry["display"]
        states.append(state)
    return {"document_fingerprint": hydrated["document_fingerprint"], "all_evidence_grounded": gate, "states": states}


# -- validation ---------------------------------------------------------------------------------


def _checked_locator(locator: Any, record_index: int) -> dict[str, Any]:
    def reject(message: str) -> CitationEmissionError:
        return CitationEmissionError("invalid_locator", message, record_index=record_index)

    if not isinstance(locator, Mapping):
        raise reject("locator must be a mapping")
    if set(locator) - _LOCATOR_FIELDS:
        raise reject("locator contains forbidden fields")
    anchors = sum(field in locator for field in _LOCATOR_ANCHORS)
    if anchors > 1 or (anchors == 0 and "page" not in locator):
        raise reject("locator must contain exactly one primary anchor")
    if "table_id" in locator:
        cell = locator.get("cell")
        if not isinstance(cell, Mapping) or set(cell) != {"row", "col"}:
            raise reject("table locator requires cell")
        for axis in ("row", "col"):
            if not is_cell_coordinate(cell[axis]):
                raise reject(f"cell.{axis} must be non-negative")
    elif "cell" in locator:
        raise reject("cell requires table_id")
    for field in _LOCATOR_IDS:
        if field in locator:
            require_source_id(locator[field], field, record_index=record_index)
    copy = dict(locator)
    if "cell" in copy:
        copy["cell"] = dict(copy["cell"])
    return copy


def _checked_context(context: Any) -> dict[str, dict[str, Any]]:
    """evidence_id -> locator of a context that passes the same rules as a freshly built one."""
    if not isinstance(context, Mapping) or set(context) != _CONTEXT_FIELDS:
        raise CitationEmissionError("invalid_evidence_context", "context fields do not match v1")
    if context["artifact_type"] != CONTEXT_ARTIFACT_TYPE or context["schema_version"] != CONTEXT_SCHEMA_VERSION:
        raise CitationEmissionError("unsupported_schema_version", "expected evidence context 1.0.0")
    evidence = context["evidence"]
    if not isinstance(evidence, list) or not all(isinstance(entry, Mapping) for entry in evidence):
        raise CitationEmissionError("invalid_evidence_context", "evidence must be a list of records")
    if any(set(entry) - _ENTRY_FIELDS for entry in evidence):
        raise CitationEmissionError("invalid_evidence_context", "evidence entry contains forbidden fields")
    fingerprint = context["document_fingerprint"]
    rebuilt = build_evidence_handle_context([{**entry, "document_fingerprint": fingerprint} for entry in evidence])
    return {entry["evidence_id"]: entry["locator"] for entry in rebuilt["evidence"]}


def _check_emission(emission: Any) -> None:
    if (
        not isinstance(emission, Mapping)
        or set(emission) != _EMISSION_FIELDS
        or emission["schema_version"] != EMISSION_V2_SCHEMA_VERSION
    ):
        raise CitationEmissionError("unsupported_schema_version", "expected evidence citation output 2.0.0")
    require_nonblank(emission["answer"], "answer", code="invalid_emission")
    claims = emission["claims"]
    if not isinstance(claims, list) or not 1 <= len(claims) <= MAX_CLAIMS:
        raise CitationEmissionError("invalid_claims", f"claims must contain 1 to {MAX_CLAIMS} entries")
    for index, claim in enumerate(claims, 1):
        if not isinstance(claim, Mapping) or set(claim) - _CLAIM_FIELDS or not {"kind", "evidence_id"} <= set(claim):
            raise CitationEmissionError("invalid_claim", "claim fields do not match v2", claim_index=index)
        kind = claim["kind"]
        # isinstance first: an unhashable kind (a list) must be rejected, not crash the set lookup.
        if not isinstance(kind, str) or kind not in CLAIM_KINDS:
            raise CitationEmissionError("invalid_claim", "unsupported kind", claim_index=index)
        require_source_id(claim["evidence_id"], "evidence_id", claim_index=index)
        if kind == "presence":
            if "text" in claim:
                raise CitationEmissionError("invalid_claim", "presence must not contain text", claim_index=index)
        elif "text" not in claim:
            raise CitationEmissionError("invalid_claim", "text is required", claim_index=index)
        else:
            require_nonblank(claim["text"], "text", claim_index=index)


def _unwrap_statement(report: Any) -> Any:
    """The report inside a proof Statement (docs/contracts.md#proof-statements); anything else is returned as given."""
    if isinstance(report, Mapping) and report.get("_type") == _STATEMENT_TYPE and "predicate" in report:
        return report["predicate"]
    return report


def _check_report(report: Any) -> None:
    """The structural checks a report must pass before its verdicts may drive UI state."""
    def invalid(message: str) -> CitationEmissionError:
        return CitationEmissionError("invalid_report", message)

    if not isinstance(report, Mapping) or not _REPORT_REQUIRED <= set(report) or set(report) - _REPORT_ALLOWED:
        raise invalid("report fields do not match the verification-report schema")
    if report["schema_version"] not in {"1.0.0", "1.1.0"} or not is_fingerprint(report["document_fingerprint"]):
        raise CitationEmissionError("unsupported_report", "report schema or fingerprint is unsupported")
    config_hash = report["verification_config_sha256"]
    if not isinstance(config_hash, str) or _CONFIG_HASH.fullmatch(config_hash) is None:
        raise invalid("verification config hash is invalid")
    grounding = report["grounding"]
    parser = grounding.get("parser") if isinstance(grounding, Mapping) else None
    if (
        not isinstance(grounding, Mapping)
        or set(grounding) != {"parser", "capabilities"}
        or not isinstance(parser, Mapping)
        or not {"name", "version"} <= set(parser)
        or set(parser) - _PARSER_FIELDS
        or not all(isinstance(value, str) for value in parser.values())
    ):
        raise invalid("grounding metadata is invalid")
    if (
        not isinstance(grounding["capabilities"], Mapping)
        or not all(isinstance(report[key], list) for key in ("capability_limits", "unsupported_claim_kinds", "warnings"))
        or not all(isinstance(report[key], bool) for key in ("fingerprint_stale", "all_evidence_grounded"))
    ):
        raise invalid("report metadata has invalid types")
    if not isinstance(report["checks"], list):
        raise invalid("checks must be a list")
    hardened = "dispersion" in report
    for index, check in enumerate(report["checks"], 1):
        if (
            not isinstance(check, Mapping)
            or not _CHECK_REQUIRED <= set(check)
            or set(check) - _CHECK_ALLOWED
            or check["id"] != f"v{index:04d}"
            or not isinstance(check["status"], str)
            or check["status"] not in _STATUSES
            or not isinstance(check["match_method"], str)
            or check["match_method"] not in _MATCH_METHODS
            or not isinstance(check["semantic_unverified"], bool)
            or not isinstance(check["warnings"], list)
            or not isinstance(check["claim"], Mapping)
        ):
            raise invalid("check does not match the verification-report schema")
        if check["status"] == "grounded" and "reason" in check:
            raise invalid("grounded check must not contain a reason")
        reason = check.get("reason")
        if check["status"] != "grounded" and (not isinstance(reason, str) or reason not in _REASONS):
            raise invalid("non-grounded check must contain a reason")
        hardened = hardened or bool(set(check) & _HARDENED_CHECK_FIELDS)
    # Hardened fields appear exactly in 1.1.0 reports; a mix means the report was edited.
    if hardened != (report["schema_version"] == "1.1.0"):
        raise invalid("report version does not match hardened fields")


def _reusable(check: Mapping[str, Any]) -> bool:
    return bool(check["status"] == "grounded" and not check["semantic_unverified"])


def _recomputed_gate(report: Mapping[str, Any], checks: list[Mapping[str, Any]]) -> bool:
    """``all_evidence_grounded`` recomputed from the checks (docs/contracts.md#the-report), never taken on trust."""
    supported = [check for check in checks if check["status"] != "unsupported_claim_kind"]
    return (
        bool(supported)
        and all(check["status"] == "grounded" for check in supported)
        and not any(check["semantic_unverified"] for check in checks)
        and not report["unsupported_claim_kinds"]
        and not report["fingerprint_stale"]
    )
