"""test_emit_hostile - arbitrary JSON from a model or a store never crashes emission, hydration or projection: success or CitationEmissionError."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import ethos_py
from ethos_py.emit import CitationEmissionError

# Field names the validators look at, so random values reach deep checks rather than stopping at the top.
KEYS = ["schema_version", "answer", "claims", "kind", "text", "page", "element_id", "span_id", "table_id", "cell",
        "row", "col", "evidence_id", "locator", "display", "excerpt", "document_fingerprint", "pages", "elements",
        "spans", "table_cells", "artifact_type", "evidence", "metadata", "node", "page_refs", "element_refs",
        "span_refs", "checks", "id", "status", "claim", "bbox"]
SCALARS: list[Any] = [None, True, False, 0, -1, 7, 2**53, 1.5, "", " ", "p0001", "e000001", "quote", "presence",
                      "table_cell", "1.0.0", "2.0.0", "sha256:" + "a" * 64, "ethos.evidence_handle_context.v1",
                      "\u202e", "x" * 300]


def json_value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth >= 4 or roll < 0.4:
        return rng.choice(SCALARS)
    if roll < 0.7:
        return [json_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(KEYS): json_value(rng, depth + 1) for _ in range(rng.randint(0, 5))}


def structured(rng: random.Random, shape: dict[str, Any]) -> dict[str, Any]:
    """A valid-looking skeleton with random values in some fields."""
    return {key: (json_value(rng) if rng.random() < 0.4 else value) for key, value in shape.items()}


def survives(call: Callable[[], Any]) -> None:
    try:
        call()
    except CitationEmissionError as error:
        assert isinstance(error.code, str) and error.code
        assert error.claim_index is None or error.claim_index >= 1
        assert error.record_index is None or error.record_index >= 1


@pytest.mark.parametrize("seed", range(300))
def test_random_json_never_escapes_as_another_exception(seed: int) -> None:
    rng = random.Random(seed)
    claim = {"kind": "quote", "text": "t", "element_id": "e000001"}
    emission = structured(rng, {"schema_version": "1.0.0", "answer": "a",
                                "claims": [structured(rng, claim) for _ in range(rng.randint(1, 3))]})
    context = structured(rng, {"document_fingerprint": "sha256:" + "a" * 64, "pages": ["p0001"],
                               "elements": ["e000001"], "spans": [], "table_cells": []})
    records = [structured(rng, {"metadata": structured(rng, {"document_fingerprint": "sha256:" + "a" * 64,
                                                             "element_refs": ["e000001"]})}) for _ in range(2)]
    handle_claim = {"kind": "quote", "text": "t", "evidence_id": "ev"}
    emission_v2 = structured(rng, {"schema_version": "2.0.0", "answer": "a", "claims": [structured(rng, handle_claim)]})
    entry = {"evidence_id": "ev", "locator": structured(rng, {"element_id": "e000001"})}
    handle_context = structured(rng, {"artifact_type": "ethos.evidence_handle_context.v1", "schema_version": "1.0.0",
                                      "document_fingerprint": "sha256:" + "a" * 64, "evidence": [structured(rng, entry)]})
    report = structured(rng, {"schema_version": "1.0.0", "document_fingerprint": "sha256:" + "a" * 64,
                              "checks": [json_value(rng)], "grounding": json_value(rng)})
    survives(lambda: ethos_py.hydrate_citations(emission, context))
    survives(lambda: ethos_py.build_citation_emission(emission.get("answer"), emission.get("claims")))
    survives(lambda: ethos_py.build_langchain_context(records))
    survives(lambda: ethos_py.build_llamaindex_context([{"node": record} for record in records]))
    survives(lambda: ethos_py.hydrate_evidence_citations(emission_v2, handle_context))
    survives(lambda: ethos_py.build_evidence_handle_context(
        [{**structured(rng, entry), "document_fingerprint": "sha256:" + "a" * 64}]))
    survives(lambda: ethos_py.project_evidence_states(handle_context, emission_v2, report))
    survives(lambda: ethos_py.sanitize_presentation_text(json_value(rng)))
    survives(lambda: ethos_py.citation_json_bytes(json_value(rng)))
