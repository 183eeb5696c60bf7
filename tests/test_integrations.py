"""test_integrations - real LangChain and LlamaIndex objects through retrieval -> model output -> hydration -> verify -> proof -> release."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import ethos_pdf.emit as oracle  # the public pure-Python helpers, an oracle only
import pytest
from conftest import REPO_DIR, SMALL_PAYLOAD

import ethos_py
from ethos_py.integrations import langchain as lc_adapter
from ethos_py.integrations import llamaindex as li_adapter

# The real framework packages (the `test` extra installs them): never look-alikes, never skipped.
import llama_index.core.schema as llama_schema
from langchain_core.documents import Document
from llama_index.core.schema import NodeWithScore, TextNode

QUESTION = "How did revenue develop?"
TRUE_QUOTE = "Revenue grew to $12.4M in Q3 2025"
FABRICATED_QUOTE = "Revenue grew to $14.2M in Q3 2025"


def _chunk(number: int, element: dict[str, Any]) -> dict[str, Any]:
    return {"id": f"c{number:06d}", "text": element["text"], "element_refs": [element["id"]],
            "page_refs": [element["page"]], "bboxes": [{"page": element["page"], "bbox": element["bbox"]}],
            "token_estimate": {"approximate": True, "count": len(element["text"]) // 4, "estimator": "chars_div_4@1"}}


@pytest.fixture(scope="module")
def document_bytes(document_tool: Any) -> bytes:
    """The small shared document plus one chunk per element, so retrieval picks among chunks."""
    payload = copy.deepcopy(SMALL_PAYLOAD)
    payload["chunks"] = [_chunk(n, element) for n, element in enumerate(payload["elements"], 1)]
    rendered: bytes = document_tool.render(document_tool.build_document(payload))
    return rendered


@pytest.fixture(scope="module")
def source(document_bytes: bytes) -> Iterator[ethos_py.Document]:
    with ethos_py.Document.from_bytes(document_bytes) as opened:
        yield opened


def fake_model(reply: dict[str, Any]) -> Callable[[str, str], str]:
    """A provider-free model: whatever the prompt, it answers with this fixed JSON."""
    def model(question: str, context: str) -> str:
        assert question and context  # it was given something to answer from
        return json.dumps(reply)
    return model


def reply_with(*quotes: str) -> dict[str, Any]:
    return {"schema_version": "1.0.0", "answer": " ".join(quotes) + ".",
            "claims": [{"kind": "quote", "text": quote, "page": "p0001", "element_id": "e000002"} for quote in quotes]}


def release(source: ethos_py.Document, citations: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    report = source.verify(citations)
    proof = ethos_py.proof_summary(report)
    claims = [{"id": f"c{n}", "text": check["claim"]["text"], "check_ids": [check["id"]],
               "question_relevance": "direct_answer", "claim_type": "source_fact", "claim_support": "supported"}
              for n, check in enumerate(report["checks"], 1)]
    return report, proof, ethos_py.app_answer_release_decision(QUESTION, proof, claims)


# ------------------------------------------------------------------------------------- LangChain


def test_chunk_documents_are_real_langchain_documents_with_the_metadata_contract(document_bytes: bytes) -> None:
    documents = lc_adapter.chunk_documents(document_bytes)
    chunks = ethos_py.rag_chunks(document_bytes)
    assert all(type(d) is Document for d in documents)
    assert [d.id for d in documents] == [c["id"] for c in chunks]
    assert [d.page_content for d in documents] == [c["text"] for c in chunks]
    fingerprint = json.loads(document_bytes)["fingerprint"]
    assert {d.metadata["document_fingerprint"] for d in documents} == {fingerprint}
    assert [d.metadata["element_refs"] for d in documents] == [["e000001"], ["e000002"]]
    context = ethos_py.build_langchain_context(documents)
    assert context == oracle.build_langchain_context(documents)
    assert context["elements"] == ["e000001", "e000002"] and context["pages"] == ["p0001"]


@pytest.mark.parametrize(("quotes", "statuses", "app_status", "blocked"), [
    ((TRUE_QUOTE,), ["grounded"], "certified", []),
    ((TRUE_QUOTE, FABRICATED_QUOTE), ["grounded", "mismatch"], "partial_certified", ["c2"]),
    ((FABRICATED_QUOTE,), ["mismatch"], "cannot_answer_from_sources", ["c1"]),
])
def test_langchain_pipeline_releases_grounded_claims_and_blocks_fabricated_ones(
    source: ethos_py.Document, document_bytes: bytes, quotes: tuple[str, ...], statuses: list[str], app_status: str,
    blocked: list[str],
) -> None:
    retrieved = lc_adapter.chunk_documents(document_bytes)  # what a retriever would return
    model = fake_model(reply_with(*quotes))
    output = json.loads(model(QUESTION, "\n".join(d.page_content for d in retrieved)))
    citations = lc_adapter.emit_langchain_citations(retrieved, output["answer"], output["claims"])
    assert citations["document_fingerprint"] == source.fingerprint
    report, proof, decision = release(source, citations)
    assert [check["status"] for check in report["checks"]] == statuses
    assert proof["request_certified"] is (statuses == ["grounded"])
    assert decision["app_status"] == app_status
    assert decision["blocked_claim_ids"] == blocked
    for claim in decision["claims"]:
        if claim["id"] in blocked:
            assert (claim["release_action"], claim["release_reason"]) == ("block", "cannot_answer_from_sources")


def test_langchain_citation_to_an_unretrieved_element_is_rejected_before_verify(document_bytes: bytes) -> None:
    documents = [Document(page_content="Quarterly report", metadata={
        "document_fingerprint": json.loads(document_bytes)["fingerprint"], "page_refs": ["p0001"], "element_refs": ["e000001"]})]
    with pytest.raises(ethos_py.CitationEmissionError) as raised:
        lc_adapter.emit_langchain_citations(documents, "Revenue grew.", reply_with(TRUE_QUOTE)["claims"])
    assert (raised.value.code, raised.value.claim_index) == ("out_of_vocabulary", 1)


def test_a_langchain_document_without_ethos_metadata_is_rejected() -> None:
    with pytest.raises(ethos_py.CitationEmissionError) as raised:
        ethos_py.build_langchain_context([Document(page_content="text", metadata={"source": "a.pdf", "page": 0})])
    assert (raised.value.code, raised.value.record_index) == ("missing_document_fingerprint", 1)


def test_langchain_vector_store_retrieval_round_trip(source: ethos_py.Document, document_bytes: bytes) -> None:
    from langchain_core.embeddings import DeterministicFakeEmbedding
    from langchain_core.vectorstores import InMemoryVectorStore

    store = InMemoryVectorStore.from_documents(lc_adapter.chunk_documents(document_bytes), DeterministicFakeEmbedding(size=8))
    retrieved = store.as_retriever(search_kwargs={"k": 2}).invoke(QUESTION)
    assert sorted(d.id for d in retrieved) == ["c000001", "c000002"]
    citations = lc_adapter.emit_langchain_citations(retrieved, "Revenue grew.", reply_with(TRUE_QUOTE)["claims"])
    assert release(source, citations)[2]["app_status"] == "certified"


# ------------------------------------------------------------------------------------ LlamaIndex


def test_chunk_nodes_are_real_text_nodes_hiding_ids_from_embeddings(document_bytes: bytes) -> None:
    nodes = li_adapter.chunk_nodes(document_bytes)
    assert all(type(n) is TextNode for n in nodes)
    embed_text = nodes[1].get_content(metadata_mode=llama_schema.MetadataMode.EMBED)
    llm_text = nodes[1].get_content(metadata_mode=llama_schema.MetadataMode.LLM)
    assert "e000002" not in embed_text and "sha256:" not in embed_text
    assert "e000002" in llm_text and "sha256:" not in llm_text
    assert ethos_py.build_llamaindex_context(nodes) == oracle.build_llamaindex_context(nodes)


@pytest.mark.parametrize("wrap", [False, True], ids=["TextNode", "NodeWithScore"])
@pytest.mark.parametrize(("quotes", "app_status", "blocked"), [
    ((TRUE_QUOTE,), "certified", []),
    ((TRUE_QUOTE, FABRICATED_QUOTE), "partial_certified", ["c2"]),
])
def test_llamaindex_pipeline_releases_grounded_claims_and_blocks_fabricated_ones(
    source: ethos_py.Document, document_bytes: bytes, wrap: bool, quotes: tuple[str, ...], app_status: str,
    blocked: list[str],
) -> None:
    nodes = li_adapter.chunk_nodes(document_bytes)
    retrieved: list[Any] = [NodeWithScore(node=node, score=0.5) for node in nodes] if wrap else nodes
    output = json.loads(fake_model(reply_with(*quotes))(QUESTION, "\n".join(n.get_content() for n in nodes)))
    citations = li_adapter.emit_llamaindex_citations(retrieved, output["answer"], output["claims"])
    report, _, decision = release(source, citations)
    assert decision["app_status"] == app_status
    assert decision["blocked_claim_ids"] == blocked
    assert all(check["status"] == "grounded" for check in report["checks"][: len(quotes) - len(blocked)])


def test_llamaindex_nodes_from_two_documents_are_rejected() -> None:
    nodes = [TextNode(text="a", metadata={"document_fingerprint": "sha256:" + "a" * 64, "page_refs": ["p0001"]}),
             TextNode(text="b", metadata={"document_fingerprint": "sha256:" + "b" * 64, "page_refs": ["p0001"]})]
    with pytest.raises(ethos_py.CitationEmissionError) as raised:
        ethos_py.build_llamaindex_context([NodeWithScore(node=n, score=1.0) for n in nodes])
    assert (raised.value.code, raised.value.record_index) == ("mixed_document_fingerprints", 2)


def test_chunk_metadata_refuses_records_that_cannot_be_cited() -> None:
    from ethos_py.integrations import chunk_metadata

    with pytest.raises(ethos_py.CitationEmissionError, match="invalid_chunk_record"):
        chunk_metadata({"id": "c000001", "text": "t", "document_fingerprint": "sha256:" + "a" * 64})
    with pytest.raises(ethos_py.CitationEmissionError, match="invalid_chunk_record"):
        lc_adapter.documents_from_chunks([{"text": "t"}])


# ----------------------------------------------------------------------------- evidence handles


def test_evidence_handles_over_langchain_documents_end_to_end(source: ethos_py.Document, document_bytes: bytes) -> None:
    """The v2 bridge: the app turns retrieved documents into handles; the model cites only handles."""
    retrieved = lc_adapter.chunk_documents(document_bytes)
    records = [{"document_fingerprint": d.metadata["document_fingerprint"], "evidence_id": f"{d.id}:{element}",
                "locator": {"element_id": element, "page": d.metadata["page_refs"][0]}, "display": d.page_content[:40]}
               for d in retrieved for element in d.metadata["element_refs"]]
    context = ethos_py.build_evidence_handle_context(records)
    emission = ethos_py.build_evidence_citation_emission("Revenue grew.", [
        {"kind": "quote", "text": TRUE_QUOTE, "evidence_id": "c000002:e000002"},
        {"kind": "quote", "text": FABRICATED_QUOTE, "evidence_id": "c000002:e000002"},
        {"kind": "presence", "evidence_id": "c000001:e000001"},
    ])
    report = source.verify(ethos_py.hydrate_evidence_citations(emission, context))
    states = ethos_py.project_evidence_states(context, emission, report)
    assert [(s["evidence_id"], s["cited"], s["verified"]) for s in states["states"]] == [
        ("c000001:e000001", True, True), ("c000002:e000002", True, False)]
    assert states["all_evidence_grounded"] is False


# ----------------------------------------------------------------------------------- examples


EXPECTED_EXAMPLE_LINES = [
    "reply=grounded statuses=grounded,grounded proof_status=verified app_status=certified released=c1,c2 blocked=",
    "reply=fabricated-quote statuses=grounded,mismatch proof_status=partially_verified app_status=partial_certified "
    "released=c1 blocked=c2",
]


@pytest.mark.parametrize("framework", ["langchain", "llamaindex"])
def test_example_pipeline_prints_the_caught_fabrication(framework: str, tmp_path: Any) -> None:
    script = REPO_DIR / "examples" / framework / "rag_pipeline.py"
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == EXPECTED_EXAMPLE_LINES
