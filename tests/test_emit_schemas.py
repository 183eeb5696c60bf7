"""test_emit_schemas - emission schemas agree with the Python validators, and the examples/citation-emission fixtures say what their names say."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import ethos_pdf.emit as oracle  # the public pure-Python helpers, an oracle only
import pytest
from conftest import REPO_DIR, SCHEMAS_DIR, schema_errors
from emission_cases import ANSWERS, claim_list, outcome

import ethos_py
from ethos_py.integrations.langchain import chunk_documents

FIXTURES = REPO_DIR / "examples" / "citation-emission"
QUICKSTART_DOCUMENT = REPO_DIR / "examples" / "quickstart" / "document.json"
EXAMPLE_DOCUMENT = SCHEMAS_DIR / "examples" / "document.example.json"


def fixture(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def schema_example(name: str) -> Any:
    return json.loads((SCHEMAS_DIR / "examples" / name).read_text(encoding="utf-8"))


def _has_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_has_float(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_float(v) for v in value)
    return False


@pytest.mark.parametrize("seed", range(300))
def test_v1_schema_accepts_exactly_what_build_citation_emission_accepts(seed: int) -> None:
    rng = random.Random(seed)
    answer, claims = rng.choice(ANSWERS), claim_list(rng)
    emission = {"schema_version": "1.0.0", "answer": answer, "claims": claims}
    built = outcome(lambda: ethos_py.build_citation_emission(answer, claims))
    if _has_float(emission):
        # JSON Schema counts 1.0 as an integer; the code is stricter and refuses a float cell.
        assert built[0] == "error"
        return
    assert (built[0] == "ok") == (schema_errors("llm-citation-output", emission) == []), built


def test_built_evidence_contexts_and_v2_outputs_follow_their_schemas() -> None:
    context = ethos_py.build_evidence_handle_context([
        {"document_fingerprint": "sha256:" + "a" * 64, "evidence_id": f"ev-{n}", "locator": locator, "display": "d" * 512}
        for n, locator in enumerate([{"page": "p1"}, {"element_id": "e1", "page": "p1"}, {"span_id": "s1"},
                                     {"table_id": "t1", "cell": {"row": 0, "col": 3}, "page": "p1"}])
    ])
    assert schema_errors("evidence-handle-context", context) == []
    emission = ethos_py.build_evidence_citation_emission("A.", [{"kind": "table_cell", "text": "4", "evidence_id": "ev-3"},
                                                                {"kind": "presence", "evidence_id": "ev-0"}])
    assert schema_errors("llm-citation-output-v2", emission) == []


@pytest.mark.parametrize(("label", "mutate"), [
    ("two anchors", lambda c: c["evidence"][0].update(locator={"element_id": "e1", "span_id": "s1"})),
    ("cell without table", lambda c: c["evidence"][0].update(locator={"page": "p1", "cell": {"row": 0, "col": 0}})),
    ("bbox", lambda c: c["evidence"][0]["locator"].update(bbox=[0, 0, 1, 1])),
    ("display too long", lambda c: c["evidence"][0].update(display="d" * 513)),
    ("blank excerpt", lambda c: c["evidence"][0].update(excerpt="  ")),
    ("no evidence", lambda c: c.update(evidence=[])),
    ("bad fingerprint", lambda c: c.update(document_fingerprint="sha256:ABC")),
])
def test_context_schema_and_code_reject_the_same_broken_contexts(label: str, mutate: Any) -> None:
    context = schema_example("evidence-handle-context.example.json")
    mutate(context)
    assert schema_errors("evidence-handle-context", context) != [], label
    emission = schema_example("llm-citation-output-v2.example.json")
    with pytest.raises(ethos_py.CitationEmissionError):
        ethos_py.hydrate_evidence_citations(emission, context)


def test_v2_schema_example_hydrates_through_the_context_example_and_verifies(tmp_path: Path) -> None:
    context = schema_example("evidence-handle-context.example.json")
    emission = schema_example("llm-citation-output-v2.example.json")
    citations = ethos_py.hydrate_evidence_citations(emission, context)
    assert schema_errors("citations", citations) == []
    report = ethos_py.verify(EXAMPLE_DOCUMENT, citations)
    assert [check["status"] for check in report["checks"]] == ["grounded", "grounded", "grounded"]
    states = ethos_py.project_evidence_states(context, emission, report)
    assert [(s["evidence_id"], s["verified"]) for s in states["states"]] == [
        ("ev-revenue", True), ("ev-table-q3", True), ("ev-page-1", True)]


# ----------------------------------------------------------------------- examples/citation-emission


def test_model_outputs_follow_the_v1_schema_except_the_locator_conflict() -> None:
    for name in ("grounded", "fabricated-quote", "dangling-id"):
        assert schema_errors("llm-citation-output", fixture(f"model-output.{name}.json")) == [], name
    assert schema_errors("llm-citation-output", fixture("model-output.locator-conflict.json")) != []


def test_retrieval_context_is_the_vocabulary_of_the_quickstart_chunks() -> None:
    documents = chunk_documents(QUICKSTART_DOCUMENT)
    expected = (FIXTURES / "retrieval-context.json").read_bytes()
    assert ethos_py.citation_json_bytes(ethos_py.build_langchain_context(documents)) == expected
    assert oracle.citation_json_bytes(oracle.build_langchain_context(documents)) == expected


@pytest.mark.parametrize(("name", "code"), [("dangling-id", "out_of_vocabulary"), ("locator-conflict", "locator_conflict")])
def test_rejected_model_outputs_fail_hydration_with_their_code(name: str, code: str) -> None:
    emission, context = fixture(f"model-output.{name}.json"), fixture("retrieval-context.json")
    for hydrate in (ethos_py.hydrate_citations, oracle.hydrate_citations):
        result = outcome(lambda: hydrate(emission, context))
        assert result[:4] == ("error", "CitationEmissionError", code, 1)


def test_hydrated_fabricated_quote_is_the_hydration_and_is_caught_by_verify() -> None:
    emission, context = fixture("model-output.fabricated-quote.json"), fixture("retrieval-context.json")
    expected = (FIXTURES / "hydrated.fabricated-quote.json").read_bytes()
    assert ethos_py.citation_json_bytes(ethos_py.hydrate_citations(emission, context)) == expected
    assert oracle.citation_json_bytes(oracle.hydrate_citations(emission, context)) == expected
    hydrated = json.loads(expected)
    assert schema_errors("citations", hydrated) == []
    report = ethos_py.verify(QUICKSTART_DOCUMENT, hydrated)
    assert [check["status"] for check in report["checks"]] == ["grounded", "mismatch"]
    assert report["all_evidence_grounded"] is False


def test_grounded_model_output_hydrates_and_verifies() -> None:
    citations = ethos_py.hydrate_citations(fixture("model-output.grounded.json"), fixture("retrieval-context.json"))
    report = ethos_py.verify(QUICKSTART_DOCUMENT, citations)
    assert report["all_evidence_grounded"] is True


@pytest.mark.parametrize(("flags", "exit_code"), [([], 0), (["--fail-on-ungrounded"], 1)])
def test_hydrated_fabricated_quote_through_the_cli(flags: list[str], exit_code: int) -> None:
    import subprocess
    import sys

    command = [sys.executable, "-m", "ethos_py.cli", "verify", str(QUICKSTART_DOCUMENT),
               "--citations", str(FIXTURES / "hydrated.fabricated-quote.json"), *flags]
    done = subprocess.run(command, capture_output=True, timeout=120, check=False)
    assert done.returncode == exit_code, done.stderr
    assert [check["status"] for check in json.loads(done.stdout)["checks"]] == ["grounded", "mismatch"]
