"""test_handles_projection - project_evidence_states over real reports from the in-process core, against ethos_pdf and the contract."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import ethos_pdf.emit as oracle  # the public pure-Python helpers, an oracle only
import pytest
from emission_cases import OTHER_FINGERPRINT, outcome

import ethos_py
from ethos_py import handles as ours
from ethos_py.emit import CitationEmissionError
from ethos_py.presentation import sanitize_evidence_states

SEEDS = range(200)
LOCATORS: list[dict[str, Any]] = [{"page": "p0001"}, {"element_id": "e000001"}, {"element_id": "e000002", "page": "p0001"}]
# Quotes from the small document, and one it never says.
TEXTS = ["Revenue grew to $12.4M", "Quarterly report", "Revenue fell to $2M"]


@pytest.fixture(scope="module")
def document(document_tool: Any, small_document: dict[str, Any]) -> Iterator[ethos_py.Document]:
    with ethos_py.Document.from_bytes(document_tool.render(small_document)) as opened:
        yield opened


def _context(rng: random.Random, fingerprint: str) -> dict[str, Any]:
    count = rng.randint(1, 4)
    records = []
    for index in range(count):
        record = {"document_fingerprint": fingerprint, "evidence_id": f"ev-{index}", "locator": dict(rng.choice(LOCATORS))}
        if rng.random() < 0.5:
            record["display"] = f"Source {index}"
        records.append(record)
    return ours.build_evidence_handle_context(records)


def _emission(rng: random.Random, context: dict[str, Any]) -> dict[str, Any]:
    claims = []
    for _ in range(rng.randint(1, 4)):
        handle = rng.choice(context["evidence"])["evidence_id"]
        kind = rng.choice(["quote", "quote", "presence", "value"])  # the document has no tables
        claim = {"kind": kind, "evidence_id": handle}
        if kind != "presence":
            claim["text"] = rng.choice(TEXTS)
        claims.append(claim)
    return ours.build_evidence_citation_emission("The answer.", claims)


def _mutated(rng: random.Random, report: dict[str, Any]) -> dict[str, Any]:
    """A report the projection must refuse or re-check: the ways a stored report can drift from its context."""
    report = copy.deepcopy(report)
    checks = report["checks"]
    choice = rng.randrange(13)
    if choice == 0:
        report["document_fingerprint"] = OTHER_FINGERPRINT
    elif choice == 1 and len(checks) > 1:
        checks[0]["claim"], checks[1]["claim"] = checks[1]["claim"], checks[0]["claim"]
    elif choice == 2:
        checks.pop()
    elif choice == 3:
        report["all_evidence_grounded"] = not report["all_evidence_grounded"]
    elif choice == 4:
        report["fingerprint_stale"] = True
    elif choice == 5:
        checks[0]["claim"] = {**checks[0]["claim"], "text": "edited"}
    elif choice == 6:
        checks[-1]["id"] = "v0099"
    elif choice == 7:
        report["verification_config_sha256"] = "ABC"
    elif choice == 8:
        report["schema_version"] = rng.choice(["1.1.0", "2.0.0"])
    elif choice == 9:
        check = checks[0]
        if check["status"] == "grounded":
            check["reason"] = "text_mismatch"
        else:
            check.pop("reason", None)
    elif choice == 10:
        checks[0]["semantic_unverified"] = True
    elif choice == 11:
        report["grounding"] = {**report["grounding"], "extra": {}}
    elif choice == 12:
        checks[0]["status"] = rng.choice(["grounded", "verified"])
    return report


EXTENSION_REASONS = {
    "stitched_quotation", "near_miss", "numeric_guard", "polarity_guard", "token_boundary", "located_elsewhere", "hidden_text",
}


def _public_fields_only(report: dict[str, Any]) -> dict[str, Any]:
    """The report as the public 0.6 schema knows it: our additive §4 fields removed (the oracle
    rejects unknown fields; our projection accepts and ignores them)."""
    public = copy.deepcopy(report)
    for key in ("policy_fingerprint", "verifier"):
        public.pop(key, None)
    for check in public.get("checks", []) if isinstance(public.get("checks"), list) else []:
        if isinstance(check, dict):
            check.pop("match", None)
            # CONTRACTS §4's more specific mismatch reasons read as the public text_mismatch.
            if check.get("reason") in EXTENSION_REASONS:
                check["reason"] = "text_mismatch"
    return public


@pytest.mark.parametrize("seed", SEEDS)
def test_projection_over_real_reports_agrees_with_oracle(seed: int, document: ethos_py.Document) -> None:
    rng = random.Random(seed)
    context = _context(rng, document.fingerprint or "")
    emission = _emission(rng, context)
    report = document.verify(ours.hydrate_evidence_citations(emission, context))
    if rng.random() < 0.6:
        report = _mutated(rng, report)
    mine = outcome(lambda: ours.project_evidence_states(context, emission, report))
    assert mine == outcome(lambda: oracle.project_evidence_states(context, emission, _public_fields_only(report)))
    # The additive fields never change the projection.
    assert mine == outcome(lambda: ours.project_evidence_states(context, emission, _public_fields_only(report)))


def test_generated_reports_reach_every_projection_outcome(document: ethos_py.Document) -> None:
    seen = set()
    for seed in SEEDS:
        rng = random.Random(seed)
        context = _context(rng, document.fingerprint or "")
        emission = _emission(rng, context)
        report = document.verify(ours.hydrate_evidence_citations(emission, context))
        if rng.random() < 0.6:
            report = _mutated(rng, report)
        result = outcome(lambda: ours.project_evidence_states(context, emission, report))
        seen.add(result[2] if result[0] == "error" else ("ok", result[1]["all_evidence_grounded"]))
    assert seen >= {("ok", True), ("ok", False), "report_context_mismatch", "invalid_report", "unsupported_report"}


def _pipeline(document: ethos_py.Document, claims: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    context = ours.build_evidence_handle_context([
        {"document_fingerprint": document.fingerprint, "evidence_id": "heading", "locator": {"element_id": "e000001"},
         "display": "Heading\u202e evil"},
        {"document_fingerprint": document.fingerprint, "evidence_id": "revenue",
         "locator": {"element_id": "e000002", "page": "p0001"}},
        {"document_fingerprint": document.fingerprint, "evidence_id": "page", "locator": {"page": "p0001"}},
    ])
    emission = ours.build_evidence_citation_emission("Revenue grew.", claims)
    return context, emission, document.verify(ours.hydrate_evidence_citations(emission, context))


def test_states_say_retrieved_cited_and_verified_per_handle(document: ethos_py.Document) -> None:
    context, emission, report = _pipeline(document, [
        {"kind": "quote", "text": "Revenue grew to $12.4M", "evidence_id": "revenue"},
        {"kind": "quote", "text": "Quarterly report", "evidence_id": "heading"},
        {"kind": "quote", "text": "Revenue fell to $2M", "evidence_id": "heading"},
    ])
    projection = ours.project_evidence_states(context, emission, report)
    summary = [(s["evidence_id"], s["retrieved"], s["cited"], s["verified"], s["claim_indexes"], s["check_ids"])
               for s in projection["states"]]
    # The heading handle backs one true and one fabricated quote: cited, but not verified.
    assert summary == [
        ("heading", True, True, False, [2, 3], ["v0002", "v0003"]),
        ("revenue", True, True, True, [1], ["v0001"]),
        ("page", True, False, False, [], []),
    ]
    assert projection["all_evidence_grounded"] is False
    assert projection["states"][0]["check_statuses"][0] == "grounded"
    assert projection["states"][0]["check_statuses"][1] != "grounded"
    assert projection["document_fingerprint"] == document.fingerprint
    assert sanitize_evidence_states(projection)["states"][0]["display"] == "Heading evil"


def test_a_statement_projects_like_its_report(document: ethos_py.Document) -> None:
    context, emission, report = _pipeline(document, [{"kind": "presence", "evidence_id": "page"}])
    statement = document.verify(ours.hydrate_evidence_citations(emission, context), statement=True)
    assert statement["predicate"] == report
    projection = ours.project_evidence_states(context, emission, statement)
    assert projection == ours.project_evidence_states(context, emission, report)
    assert projection["all_evidence_grounded"] is True
    assert [s["verified"] for s in projection["states"]] == [False, False, True]


def test_our_report_extensions_are_accepted_but_unknown_fields_are_not(document: ethos_py.Document) -> None:
    """CONTRACTS §4 fields are additive; ethos_pdf predates them and rejects them."""
    context, emission, report = _pipeline(document, [{"kind": "quote", "text": "Revenue grew", "evidence_id": "revenue"}])
    extended = copy.deepcopy(report)
    extended["policy_fingerprint"] = "sha256:" + "0" * 64
    extended["verifier"] = {"name": "ethos", "version": "0.1.0", "unicode_version": "16.0.0"}
    extended["checks"][0]["match"] = {"tier": "exact", "sound": True}
    assert ours.project_evidence_states(context, emission, extended) == ours.project_evidence_states(context, emission, report)
    with pytest.raises(CitationEmissionError) as raised:
        ours.project_evidence_states(context, emission, {**report, "verdict": "trust me"})
    assert raised.value.code == "invalid_report"


def test_a_report_for_other_claims_is_refused(document: ethos_py.Document) -> None:
    context, emission, report = _pipeline(document, [{"kind": "quote", "text": "Revenue grew", "evidence_id": "revenue"}])
    other = ours.build_evidence_citation_emission("Other.", [{"kind": "quote", "text": "Revenue grew", "evidence_id": "heading"}])
    with pytest.raises(CitationEmissionError) as raised:
        ours.project_evidence_states(context, other, report)
    assert raised.value.code == "report_context_mismatch"
