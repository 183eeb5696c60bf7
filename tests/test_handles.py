"""test_handles - evidence-handle v2: context, model output, hydration and state projection, from the contract and against ethos_pdf."""

from __future__ import annotations

import copy
import random
from typing import Any

import ethos_pdf.emit as oracle  # the public pure-Python helpers, an oracle only
import pytest
from emission_cases import BAD_COORDINATES, BAD_FINGERPRINTS, BAD_IDS, FINGERPRINT, OTHER_FINGERPRINT, outcome

import ethos_py
from ethos_py import handles as ours
from ethos_py.emit import CitationEmissionError

SEEDS = range(300)
LOCATORS: list[dict[str, Any]] = [
    {"page": "p0001"},
    {"element_id": "e000001"},
    {"element_id": "e000002", "page": "p0001"},
    {"span_id": "s000001", "page": "p0001"},
    {"table_id": "t0001", "cell": {"row": 1, "col": 0}},
]


def _record(rng: random.Random, index: int, fingerprint: str = FINGERPRINT) -> dict[str, Any]:
    record: dict[str, Any] = {"document_fingerprint": fingerprint, "evidence_id": f"ev-{index}",
                              "locator": copy.deepcopy(rng.choice(LOCATORS))}
    if rng.random() < 0.4:
        record["display"] = rng.choice(["Q3 results", "Table 1, row 2", "ünïcode ✓"])
    if rng.random() < 0.3:
        record["excerpt"] = "Revenue grew to $12.4M in Q3 2025."
    return record


def _broken_record(rng: random.Random, record: dict[str, Any]) -> Any:
    choice = rng.randrange(14)
    if choice == 0:
        record[rng.choice(["bbox", "chunk_id", "score"])] = 1
    elif choice == 1:
        record["document_fingerprint"] = rng.choice([*BAD_FINGERPRINTS, OTHER_FINGERPRINT])
    elif choice == 2:
        record["evidence_id"] = rng.choice(BAD_IDS)
    elif choice == 3:
        record["evidence_id"] = "ev-0"  # duplicates the first record's handle
    elif choice == 4:
        record["locator"] = rng.choice([None, "e000001", [], {}])
    elif choice == 5:
        record["locator"] = {"element_id": "e000001", "span_id": "s000001"}
    elif choice == 6:
        record["locator"] = {"table_id": "t0001", "cell": rng.choice([None, {"row": 0}, {"row": rng.choice(BAD_COORDINATES), "col": 0}])}
    elif choice == 7:
        record["locator"] = {"page": "p0001", "cell": {"row": 0, "col": 0}}
    elif choice == 8:
        record["locator"] = {"element_id": rng.choice(BAD_IDS)}
    elif choice == 9:
        record["locator"] = {"element_id": "e000001", "bbox": [0, 0, 1, 1]}
    elif choice == 10:
        record[rng.choice(["display", "excerpt"])] = rng.choice(["", "  ", None, 3])
    elif choice == 11:
        record["display"] = "d" * 513 if rng.random() < 0.5 else "d" * 512
    elif choice == 12:
        record["excerpt"] = "x" * 4097 if rng.random() < 0.5 else "x" * 4096
    else:
        return rng.choice([None, "record", 3])
    return record


def _records(rng: random.Random) -> list[Any]:
    records: list[Any] = [_record(rng, index) for index in range(rng.randint(1, 4))]
    if rng.random() < 0.5:
        position = rng.randrange(len(records))
        records[position] = _broken_record(rng, records[position])
    return records


def _claims(rng: random.Random, handles: list[str]) -> list[Any]:
    claims: list[Any] = []
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(["quote", "value", "presence", "table_cell"])
        claim: dict[str, Any] = {"kind": kind, "evidence_id": rng.choice(handles)}
        if kind != "presence":
            claim["text"] = rng.choice(["Revenue grew", "Quarterly report", "fabricated figure 99%"])
        claims.append(claim)
    if rng.random() < 0.5:
        claim = claims[rng.randrange(len(claims))]
        choice = rng.randrange(9)
        if choice == 0:
            claim["evidence_id"] = rng.choice(["ev-99", *BAD_IDS])
        elif choice == 1:
            claim[rng.choice(["element_id", "page", "citation", "document_fingerprint"])] = "e000001"
        elif choice == 2:
            claim["kind"] = rng.choice(["region", "other", None, 3])
        elif choice == 3:
            claim["text"] = "x" if claim["kind"] == "presence" else rng.choice(["", " ", None])
        elif choice == 4:
            claim.pop("text", None) if claim["kind"] != "presence" else claim.pop("evidence_id")
        elif choice == 5:
            claim.pop("kind")
        elif choice == 6:
            claims.append(rng.choice([None, "claim", ["kind"]]))
    return claims


def _emission_variant(rng: random.Random, emission: dict[str, Any]) -> Any:
    choice = rng.randrange(8)
    if choice == 0:
        emission["schema_version"] = rng.choice(["1.0.0", "2.0", None])
    elif choice == 1:
        emission["document_fingerprint"] = FINGERPRINT
    elif choice == 2:
        emission["claims"] = rng.choice([[], None, tuple(emission["claims"]), emission["claims"] * 100])
    elif choice == 3:
        emission["answer"] = rng.choice(["", "  ", None])
    elif choice == 4:
        return rng.choice([None, "emission"])
    return emission


def _context_variant(rng: random.Random, context: dict[str, Any]) -> Any:
    choice = rng.randrange(10)
    if choice == 0:
        context["artifact_type"] = "ethos.evidence_handle_context.v2"
    elif choice == 1:
        context["schema_version"] = "1.0"
    elif choice == 2:
        context["evidence"] = rng.choice([[], None, "ev-0", [None]])
    elif choice == 3:
        context["evidence"] = [{**entry, "document_fingerprint": FINGERPRINT} for entry in context["evidence"]]
    elif choice == 4:
        context["extra"] = 1
    elif choice == 5:
        context["document_fingerprint"] = rng.choice(BAD_FINGERPRINTS)
    elif choice == 6:
        context["evidence"] = context["evidence"] + [copy.deepcopy(context["evidence"][0])]
    return context


def _valid_context(rng: random.Random) -> dict[str, Any]:
    return ours.build_evidence_handle_context([_record(rng, index) for index in range(rng.randint(1, 4))])


# -------------------------------------------------------------------------------- differential


@pytest.mark.parametrize("seed", SEEDS)
def test_build_evidence_handle_context_agrees_with_oracle(seed: int) -> None:
    records = _records(random.Random(seed))
    mine = outcome(lambda: ours.build_evidence_handle_context(records))
    assert mine == outcome(lambda: oracle.build_evidence_handle_context(records))


@pytest.mark.parametrize("seed", SEEDS)
def test_build_evidence_citation_emission_agrees_with_oracle(seed: int) -> None:
    rng = random.Random(seed)
    answer, claims = rng.choice(["Revenue grew.", "", None, 4]), _claims(rng, ["ev-0", "ev-1"])
    mine = outcome(lambda: ours.build_evidence_citation_emission(answer, claims))
    assert mine == outcome(lambda: oracle.build_evidence_citation_emission(answer, claims))


@pytest.mark.parametrize("seed", SEEDS)
def test_hydrate_evidence_citations_agrees_with_oracle(seed: int) -> None:
    rng = random.Random(seed)
    context = _valid_context(rng)
    handles = [entry["evidence_id"] for entry in context["evidence"]]
    emission = _emission_variant(rng, {"schema_version": "2.0.0", "answer": "A.", "claims": _claims(rng, handles)})
    context = _context_variant(rng, context)
    mine = outcome(lambda: ours.hydrate_evidence_citations(emission, context))
    theirs = outcome(lambda: oracle.hydrate_evidence_citations(emission, context))
    if mine[0] == "error" and mine[2] == "locator_conflict":
        # Ours refuses a table_cell claim on a non-table handle; the oracle lets it through.
        assert theirs[0] == "ok"
        claim = theirs[1]["claims"][mine[3] - 1]
        assert claim["kind"] == "table_cell" and "table_id" not in claim["citation"]
    else:
        assert mine == theirs


def test_generated_handle_cases_reach_every_error_code() -> None:
    codes = set()
    for seed in range(1000):
        rng = random.Random(seed)
        records = _records(rng)
        context = _valid_context(rng)
        handles = [entry["evidence_id"] for entry in context["evidence"]]
        emission = _emission_variant(rng, {"schema_version": "2.0.0", "answer": "A.", "claims": _claims(rng, handles)})
        context = _context_variant(rng, context)
        for result in (outcome(lambda: ours.build_evidence_handle_context(records)),
                       outcome(lambda: ours.hydrate_evidence_citations(emission, context))):
            if result[0] == "error":
                codes.add(result[2])
    assert codes >= {
        "invalid_evidence_record", "missing_document_fingerprint", "invalid_document_fingerprint",
        "mixed_document_fingerprints", "invalid_source_id", "duplicate_evidence_id", "invalid_locator",
        "unsupported_schema_version", "invalid_emission", "invalid_claims", "invalid_claim",
        "out_of_vocabulary", "invalid_evidence_context", "empty_retrieval_results", "locator_conflict",
    }


# ------------------------------------------------------------------------------- from the contract


def test_hydration_maps_handles_to_locators_and_injects_the_fingerprint() -> None:
    context = ours.build_evidence_handle_context([
        {"document_fingerprint": FINGERPRINT, "evidence_id": "a", "locator": {"page": "p0001", "element_id": "e000002"}},
        {"document_fingerprint": FINGERPRINT, "evidence_id": "b", "locator": {"table_id": "t0001", "cell": {"row": 1, "col": 0}}},
    ])
    emission = ours.build_evidence_citation_emission("An answer.", [
        {"kind": "table_cell", "text": "4.2", "evidence_id": "b"},
        {"kind": "presence", "evidence_id": "a"},
        {"kind": "quote", "text": "Revenue", "evidence_id": "a"},
    ])
    assert ours.hydrate_evidence_citations(emission, context) == {
        "document_fingerprint": FINGERPRINT,
        "claims": [
            {"kind": "table_cell", "citation": {"table_id": "t0001", "cell": {"row": 1, "col": 0}}, "text": "4.2"},
            {"kind": "presence", "citation": {"page": "p0001", "element_id": "e000002"}},
            {"kind": "quote", "citation": {"page": "p0001", "element_id": "e000002"}, "text": "Revenue"},
        ],
    }


def test_an_unknown_handle_rejects_the_batch_with_its_claim_index() -> None:
    context = ours.build_evidence_handle_context([{"document_fingerprint": FINGERPRINT, "evidence_id": "a",
                                                   "locator": {"page": "p0001"}}])
    emission = ours.build_evidence_citation_emission("A.", [{"kind": "presence", "evidence_id": "a"},
                                                            {"kind": "presence", "evidence_id": "A"}])
    with pytest.raises(CitationEmissionError) as raised:
        ours.hydrate_evidence_citations(emission, context)
    assert (raised.value.code, raised.value.claim_index) == ("out_of_vocabulary", 2)


def test_a_table_cell_claim_needs_a_table_handle() -> None:
    context = ours.build_evidence_handle_context([
        {"document_fingerprint": FINGERPRINT, "evidence_id": "p", "locator": {"page": "p0001"}},
        {"document_fingerprint": FINGERPRINT, "evidence_id": "t", "locator": {"table_id": "t0001", "cell": {"row": 0, "col": 1}}},
    ])
    good = ours.build_evidence_citation_emission("A.", [{"kind": "table_cell", "text": "4.2", "evidence_id": "t"}])
    assert ours.hydrate_evidence_citations(good, context)["claims"][0]["citation"]["table_id"] == "t0001"
    bad = ours.build_evidence_citation_emission("A.", [{"kind": "quote", "text": "x", "evidence_id": "t"},
                                                       {"kind": "table_cell", "text": "4.2", "evidence_id": "p"}])
    with pytest.raises(CitationEmissionError) as raised:
        ours.hydrate_evidence_citations(bad, context)
    assert (raised.value.code, raised.value.claim_index) == ("locator_conflict", 2)


def test_an_empty_or_oversized_context_fails_closed() -> None:
    with pytest.raises(CitationEmissionError, match="empty_retrieval_results"):
        ours.build_evidence_handle_context([])
    records = [{"document_fingerprint": FINGERPRINT, "evidence_id": f"ev-{n}", "locator": {"page": "p0001"}}
               for n in range(1025)]
    with pytest.raises(CitationEmissionError, match="evidence_limit_exceeded"):
        ours.build_evidence_handle_context(records)
    assert len(ours.build_evidence_handle_context(records[:1024])["evidence"]) == 1024
    emission = ours.build_evidence_citation_emission("A.", [{"kind": "presence", "evidence_id": "ev-0"}])
    empty = {"artifact_type": "ethos.evidence_handle_context.v1", "schema_version": "1.0.0",
             "document_fingerprint": FINGERPRINT, "evidence": []}
    with pytest.raises(CitationEmissionError, match="empty_retrieval_results"):
        ours.hydrate_evidence_citations(emission, empty)


@pytest.mark.parametrize("kind", [["quote"], {"k": 1}])
def test_an_unhashable_kind_is_rejected_not_crashing(kind: Any) -> None:
    """ethos_pdf raises TypeError here; a model's malformed output must be a CitationEmissionError."""
    with pytest.raises(CitationEmissionError) as raised:
        ours.build_evidence_citation_emission("A.", [{"kind": kind, "text": "x", "evidence_id": "a"}])
    assert (raised.value.code, raised.value.claim_index) == ("invalid_claim", 1)


def test_public_names_are_exported_from_the_package() -> None:
    for name in ("build_evidence_handle_context", "build_evidence_citation_emission", "hydrate_evidence_citations",
                 "project_evidence_states"):
        assert getattr(ethos_py, name) is getattr(ours, name)
