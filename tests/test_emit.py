"""test_emit - citation emission v1: behaviour from the contract, and agreement with the public ethos_pdf.emit over generated inputs."""

from __future__ import annotations

import json
import random
from typing import Any

import ethos_pdf.emit as oracle  # the public pure-Python helpers, an oracle only
import pytest
from emission_cases import (
    ANSWERS,
    FINGERPRINT,
    MAX_CLAIMS_VALUES,
    OTHER_FINGERPRINT,
    claim_list,
    emission_variant,
    metadata_batch,
    outcome,
    shown_context,
    valid_claim,
)

import ethos_py
from ethos_py import emit as ours
from ethos_py.errors import EthosPythonSurfaceError

SEEDS = range(400)


class Record:
    """A retrieval result that only has ``metadata`` (what duck typing must accept)."""

    def __init__(self, metadata: Any) -> None:
        self.metadata = metadata


class Scored:
    """A retrieval result that wraps a node (the NodeWithScore shape)."""

    def __init__(self, node: Any) -> None:
        self.node = node


def _as_documents(rng: random.Random, batch: list[Any]) -> list[Any]:
    shapes = [lambda m: {"metadata": m}, Record]
    return [rng.choice(shapes)(metadata) for metadata in batch]


def _as_nodes(rng: random.Random, batch: list[Any]) -> list[Any]:
    shapes = [lambda m: {"metadata": m}, Record, lambda m: Scored(Record(m)), lambda m: {"node": {"metadata": m}},
              lambda m: Scored({"metadata": m})]
    return [rng.choice(shapes)(metadata) for metadata in batch]


# -------------------------------------------------------------------------------- differential


@pytest.mark.parametrize("seed", SEEDS)
def test_build_citation_emission_agrees_with_oracle(seed: int) -> None:
    rng = random.Random(seed)
    answer, claims, limit = rng.choice(ANSWERS), claim_list(rng), rng.choice(MAX_CLAIMS_VALUES)
    mine = outcome(lambda: ours.build_citation_emission(answer, claims, max_claims=limit))
    theirs = outcome(lambda: oracle.build_citation_emission(answer, claims, max_claims=limit))
    assert mine == theirs


@pytest.mark.parametrize("seed", SEEDS)
def test_retrieval_contexts_agree_with_oracle(seed: int) -> None:
    rng = random.Random(seed)
    batch = metadata_batch(rng)
    documents, nodes = _as_documents(rng, batch), _as_nodes(rng, batch)
    assert outcome(lambda: ours.build_langchain_context(documents)) == outcome(lambda: oracle.build_langchain_context(documents))
    assert outcome(lambda: ours.build_llamaindex_context(nodes)) == outcome(lambda: oracle.build_llamaindex_context(nodes))


@pytest.mark.parametrize("seed", SEEDS)
def test_hydrate_citations_agrees_with_oracle(seed: int) -> None:
    rng = random.Random(seed)
    emission = {"schema_version": "1.0.0", "answer": "Revenue grew.", "claims": claim_list(rng)}
    emission = emission_variant(rng, emission)
    context = shown_context(rng)
    limit = rng.choice(MAX_CLAIMS_VALUES)
    mine = outcome(lambda: ours.hydrate_citations(emission, context, max_claims=limit))
    theirs = outcome(lambda: oracle.hydrate_citations(emission, context, max_claims=limit))
    assert mine == theirs
    if mine[0] == "ok":
        assert ours.citation_json_bytes(mine[1]) == oracle.citation_json_bytes(theirs[1])


@pytest.mark.parametrize("seed", SEEDS)
def test_emit_helpers_agree_with_oracle(seed: int) -> None:
    rng = random.Random(seed)
    batch, claims, answer = metadata_batch(rng), claim_list(rng), rng.choice(ANSWERS)
    documents, nodes = _as_documents(rng, batch), _as_nodes(rng, batch)
    assert outcome(lambda: ours.emit_langchain_citations(documents, answer, claims)) == outcome(
        lambda: oracle.emit_langchain_citations(documents, answer, claims))
    assert outcome(lambda: ours.emit_llamaindex_citations(nodes, answer, claims)) == outcome(
        lambda: oracle.emit_llamaindex_citations(nodes, answer, claims))


def test_generated_cases_reach_every_error_code_and_success() -> None:
    """The generators are only useful if they exercise every rejection the oracle knows."""
    codes: set[Any] = set()
    successes = 0
    for seed in range(1000):
        rng = random.Random(seed)
        emission = emission_variant(rng, {"schema_version": "1.0.0", "answer": "A.", "claims": claim_list(rng)})
        context, limit, claims = shown_context(rng), rng.choice(MAX_CLAIMS_VALUES), claim_list(rng)
        documents = _as_documents(rng, metadata_batch(rng))
        for result in (
            outcome(lambda: ours.hydrate_citations(emission, context, max_claims=limit)),
            outcome(lambda: ours.build_citation_emission("A.", claims)),
            outcome(lambda: ours.build_langchain_context(documents)),
        ):
            if result[0] == "ok":
                successes += 1
            else:
                codes.add(result[2])
    assert successes > 100
    assert codes >= {
        "invalid_emission", "unsupported_schema_version", "invalid_claim_limit", "invalid_claims",
        "claim_limit_exceeded", "invalid_claim", "invalid_source_id", "locator_conflict", "locator_missing",
        "out_of_vocabulary", "invalid_context", "missing_document_fingerprint", "invalid_document_fingerprint",
        "invalid_source_ids", "invalid_table_cells", "missing_source_ids", "missing_metadata",
        "mixed_document_fingerprints",
    }


@pytest.mark.parametrize("value", [
    {"b": 1, "a": ["é", "\u2028", {"z": None}]},
    {"document_fingerprint": FINGERPRINT, "claims": [{"kind": "quote", "text": "naïve “quotes”"}]},
    {},
])
def test_citation_json_bytes_agrees_with_oracle(value: dict[str, Any]) -> None:
    assert ours.citation_json_bytes(value) == oracle.citation_json_bytes(value)


@pytest.mark.parametrize("value", [["a"], "text", {"a": {1, 2}}, {"a": object()}])
def test_citation_json_bytes_rejects_what_json_cannot_hold(value: Any) -> None:
    assert outcome(lambda: ours.citation_json_bytes(value)) == outcome(lambda: oracle.citation_json_bytes(value))
    with pytest.raises(ours.CitationEmissionError) as raised:
        ours.citation_json_bytes(value)
    assert raised.value.code == "invalid_artifact"


# ------------------------------------------------------------------------------- from the contract


CONTEXT = {
    "document_fingerprint": FINGERPRINT,
    "pages": ["p0001"],
    "elements": ["e000002"],
    "spans": ["s000004"],
    "table_cells": [{"table_id": "t0001", "row": 1, "col": 2}],
}


def _hydrate(*claims: dict[str, Any]) -> dict[str, Any]:
    return ours.hydrate_citations(ours.build_citation_emission("An answer.", list(claims)), CONTEXT)


def test_hydration_injects_the_trusted_fingerprint_and_keeps_order_and_text_verbatim() -> None:
    hydrated = _hydrate(
        {"kind": "table_cell", "text": " 4.2 days ", "table_id": "t0001", "cell": {"row": 1, "col": 2}},
        {"kind": "quote", "text": "Revenue  grew", "page": "p0001", "element_id": "e000002"},
        {"kind": "presence", "span_id": "s000004"},
    )
    assert hydrated == {
        "document_fingerprint": FINGERPRINT,
        "claims": [
            {"kind": "table_cell", "text": " 4.2 days ", "citation": {"table_id": "t0001", "cell": {"row": 1, "col": 2}}},
            {"kind": "quote", "text": "Revenue  grew", "citation": {"page": "p0001", "element_id": "e000002"}},
            {"kind": "presence", "citation": {"span_id": "s000004"}},
        ],
    }


@pytest.mark.parametrize(("claim", "code", "message"), [
    ({"kind": "quote", "text": "x", "element_id": "e000009"}, "out_of_vocabulary", "element_id e000009 was not shown"),
    ({"kind": "quote", "text": "x", "page": "p0002"}, "out_of_vocabulary", "page p0002 was not shown"),
    ({"kind": "table_cell", "text": "x", "table_id": "t0001", "cell": {"row": 2, "col": 1}}, "out_of_vocabulary",
     "table_cell t0001[2,1] was not shown"),
    ({"kind": "quote", "text": "x", "element_id": "e000002", "span_id": "s000004"}, "locator_conflict",
     "multiple primary locators"),
    ({"kind": "quote", "text": "x", "element_id": "e000002", "bbox": [0, 0, 1, 1]}, "invalid_claim",
     "claim contains forbidden fields"),
    ({"kind": "quote", "text": "x", "element_id": "e000002", "document_fingerprint": FINGERPRINT}, "invalid_claim",
     "claim contains forbidden fields"),
    ({"kind": "presence", "text": "x", "page": "p0001"}, "invalid_claim", "presence must not contain text"),
    ({"kind": "value", "text": "  ", "page": "p0001"}, "invalid_claim", "text must be a non-blank string"),
    ({"kind": "quote", "text": "x"}, "locator_missing", "no source locator"),
    ({"kind": "region", "page": "p0001"}, "invalid_claim", "unsupported kind"),
])
def test_a_bad_second_claim_rejects_the_whole_batch_with_its_index(claim: dict[str, Any], code: str, message: str) -> None:
    good = {"kind": "quote", "text": "Revenue", "element_id": "e000002"}
    with pytest.raises(ours.CitationEmissionError) as raised:
        _hydrate(good, claim)
    error = raised.value
    assert (error.code, error.claim_index, error.record_index, error.message) == (code, 2, None, message)
    assert str(error) == f"claim 2: {code}: {message}"
    assert isinstance(error, ValueError) and isinstance(error, EthosPythonSurfaceError)
    assert error.error_code == code


def test_claim_limit_is_enforced_and_bounded() -> None:
    claims = [valid_claim(random.Random(n)) for n in range(4)]
    with pytest.raises(ours.CitationEmissionError) as raised:
        ours.build_citation_emission("A.", claims, max_claims=3)
    assert (raised.value.code, str(raised.value)) == ("claim_limit_exceeded",
                                                      "claim_limit_exceeded: received 4 claims; limit is 3")
    for limit in (0, 257, True):
        with pytest.raises(ours.CitationEmissionError, match="invalid_claim_limit"):
            ours.build_citation_emission("A.", claims, max_claims=limit)
    assert len(ours.build_citation_emission("A.", claims * 64)["claims"]) == 256


def test_retrieval_records_must_name_one_document() -> None:
    records = [{"metadata": {"document_fingerprint": FINGERPRINT, "page_refs": ["p0001"]}},
               {"metadata": {"document_fingerprint": OTHER_FINGERPRINT, "page_refs": ["p0001"]}}]
    with pytest.raises(ours.CitationEmissionError) as raised:
        ours.build_langchain_context(records)
    assert (raised.value.code, raised.value.record_index) == ("mixed_document_fingerprints", 2)
    assert str(raised.value).startswith("record 2: ")


def test_numeric_framework_pages_are_never_used_as_locators() -> None:
    context = ours.build_langchain_context([{"metadata": {"document_fingerprint": FINGERPRINT, "page": 1,
                                                          "element_refs": ["e000002", "e000002"]}}])
    assert context == {"document_fingerprint": FINGERPRINT, "pages": [], "elements": ["e000002"], "spans": [],
                       "table_cells": []}
    with pytest.raises(ours.CitationEmissionError, match="missing_source_ids"):
        ours.build_langchain_context([{"metadata": {"document_fingerprint": FINGERPRINT, "page": 1}}])


def test_the_callers_claims_are_copied_not_shared() -> None:
    claim = {"kind": "table_cell", "text": "x", "table_id": "t0001", "cell": {"row": 1, "col": 2}}
    emission = ours.build_citation_emission("A.", [claim])
    claim["cell"]["row"] = 99
    claim["text"] = "changed"
    assert emission["claims"][0] == {"kind": "table_cell", "text": "x", "table_id": "t0001", "cell": {"row": 1, "col": 2}}


def test_hydration_output_is_deterministic_bytes() -> None:
    claims = [{"kind": "quote", "text": "Revenue “grew” é", "element_id": "e000002"}]
    first = ours.citation_json_bytes(_hydrate(*claims))
    assert first == ours.citation_json_bytes(_hydrate(*claims))
    assert first.endswith(b"}\n") and first.isascii()
    assert json.loads(first)["claims"][0]["text"] == "Revenue “grew” é"


def test_public_names_are_exported_from_the_package() -> None:
    for name in ours.__all__:
        if not name.isupper() and not name.startswith("DEFAULT") and not name.startswith("EMISSION"):
            assert getattr(ethos_py, name) is getattr(ours, name)


@pytest.mark.parametrize("module", ["_emission_rules", "emit", "handles", "presentation", "integrations._metadata",
                                    "integrations.langchain", "integrations.langchain_loader", "integrations.langchain_parser",
                                    "integrations.langchain_verifier", "integrations.langchain_answer_verifier", "integrations.llamaindex",
                                    "integrations.llamaindex_evaluator", "integrations.llamaindex_postprocessor", "integrations.ragas_metric",
                                    "integrations.llamaindex_reader"])
def test_docstring_examples_run(module: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every public function documents an example; the examples must stay true."""
    import doctest
    import importlib

    from conftest import REPO_DIR

    monkeypatch.chdir(REPO_DIR)  # examples name repository files by relative path
    monkeypatch.setenv("RAGAS_DO_NOT_TRACK", "true")  # ragas's usage analytics off (integrations.ragas_metric)
    loaded = importlib.import_module(f"ethos_py.{module}")
    results = doctest.testmod(loaded, optionflags=doctest.ELLIPSIS)
    assert results.failed == 0
    assert results.attempted > 0
    if module == "_emission_rules":
        return  # private helpers; only the error class is public and its example ran above
    public = [getattr(loaded, name) for name in getattr(loaded, "__all__", []) if callable(getattr(loaded, name))]
    for function in public:
        assert function.__doc__ and ">>>" in function.__doc__, function.__name__


ORACLE_NAMES = ["CitationEmissionError", "build_citation_emission", "build_evidence_citation_emission",
                "build_evidence_handle_context", "build_langchain_context", "build_llamaindex_context",
                "citation_json_bytes", "emit_langchain_citations", "emit_llamaindex_citations", "hydrate_citations",
                "hydrate_evidence_citations", "project_evidence_states"]


@pytest.mark.parametrize("name", ORACLE_NAMES)
def test_signatures_match_the_public_package(name: str) -> None:
    """Same parameter names, kinds and defaults: a caller switching imports keeps working."""
    import inspect

    def shape(function: Any) -> list[tuple[str, Any, Any]]:
        return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]

    assert shape(getattr(ethos_py, name)) == shape(getattr(oracle, name))
    assert set(ORACLE_NAMES) == set(oracle.__all__)
    assert getattr(ours, name) is getattr(ethos_py, name)  # `ethos_pdf.emit` -> `ethos_py.emit` is enough
