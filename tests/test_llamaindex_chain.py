"""test_llamaindex_chain - EthosPDFReader, EthosNodeVerifier and EthosEvaluator with the real llama-index-core: a
vector index over the sample PDF, a query engine with its MockLLM, nodes edited in the store dropped or flagged, and a
deterministic evaluation that passes true quotations and fails a changed figure or an answer with no quotation."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import pytest
from llama_index.core import SimpleDirectoryReader, VectorStoreIndex
from llama_index.core.embeddings import MockEmbedding
from llama_index.core.llms import MockLLM
from llama_index.core.schema import NodeWithScore, TextNode

from ethos_py.demo import SAMPLE_PDF
from ethos_py.integrations.llamaindex import EthosEvaluator, EthosNodeVerifier, EthosPDFReader, chunk_nodes

REPO = Path(__file__).resolve().parents[1]
QUICKSTART = REPO / "examples" / "quickstart" / "document.json"
TRUE_QUOTE = "Median time to resolution fell from 9.2 days to 6.1 days"


@pytest.fixture(scope="module")
def documents() -> list[Any]:
    return EthosPDFReader().load_data(SAMPLE_PDF)


def _nodes(documents: list[Any]) -> list[NodeWithScore]:
    return [NodeWithScore(node=TextNode(text=d.text, metadata=dict(d.metadata)), score=1.0) for d in documents]


def test_the_reader_gives_citable_documents_and_works_in_simple_directory_reader(documents: list[Any], tmp_path: Path) -> None:
    assert documents and all(d.metadata["document_fingerprint"].startswith("sha256:") for d in documents)
    assert all(d.metadata["element_refs"] and d.metadata["page_refs"] for d in documents)
    assert any(TRUE_QUOTE in d.text for d in documents)
    shutil.copyfile(SAMPLE_PDF, tmp_path / "report.pdf")
    read = SimpleDirectoryReader(str(tmp_path), file_extractor={".pdf": EthosPDFReader()}).load_data()
    assert [d.text for d in read] == [d.text for d in documents]
    assert all(d.metadata["file_name"] == "report.pdf" for d in read)  # SimpleDirectoryReader's own metadata kept


def test_a_query_engine_keeps_every_true_node_and_the_evaluator_grades_its_answer(documents: list[Any]) -> None:
    index = VectorStoreIndex.from_documents(documents, embed_model=MockEmbedding(embed_dim=8))
    engine = index.as_query_engine(llm=MockLLM(), similarity_top_k=len(documents),
                                   node_postprocessors=[EthosNodeVerifier(sources=SAMPLE_PDF)])
    response = engine.query("How fast were tickets resolved?")
    assert len(response.source_nodes) == len(documents)
    # MockLLM echoes its prompt, so the answer is the retrieved text: most of it verbatim.
    result = EthosEvaluator(scope="all").evaluate_response(query="q", response=response)
    assert result.passing and result.score is not None and result.score > 0.5
    assert "runs of at least 3 words" in (result.feedback or "")


def test_nodes_edited_in_the_store_are_dropped_or_flagged(documents: list[Any]) -> None:
    nodes = _nodes(documents)
    edited = next(i for i, n in enumerate(nodes) if TRUE_QUOTE in n.node.get_content())
    nodes[edited].node.set_content(nodes[edited].node.get_content().replace("6.1 days", "3.1 days"))
    orphan = NodeWithScore(node=TextNode(text="No metadata at all."), score=0.5)
    foreign = next(NodeWithScore(node=n, score=0.5) for n in chunk_nodes(QUICKSTART))
    given = [*nodes, orphan, foreign]

    kept = EthosNodeVerifier(sources=SAMPLE_PDF).postprocess_nodes(given)
    assert [n.node.node_id for n in kept] == [n.node.node_id for i, n in enumerate(nodes) if i != edited]

    flagged = EthosNodeVerifier(sources=SAMPLE_PDF, mode="flag").postprocess_nodes(given)
    verdicts = [(n.node.metadata["ethos_status"], n.node.metadata["ethos_reason"]) for n in flagged]
    assert verdicts[edited] == ("mismatch", "numeric_guard")
    assert verdicts[-2:] == [("unverifiable", "missing_ethos_metadata"), ("unverifiable", "unknown_document")]
    assert all(v == ("grounded", None) for i, v in enumerate(verdicts[:-2]) if i != edited)
    assert "ethos_status" not in given[0].node.metadata  # the retrieved nodes themselves are not changed


def test_several_documents_by_fingerprint(documents: list[Any]) -> None:
    foreign = [NodeWithScore(node=n, score=0.5) for n in chunk_nodes(QUICKSTART)]
    import ethos_py

    with ethos_py.Document.open(QUICKSTART) as quickstart:
        sources = {documents[0].metadata["document_fingerprint"]: SAMPLE_PDF, quickstart.fingerprint: quickstart}
        kept = EthosNodeVerifier(sources=sources).postprocess_nodes([*_nodes(documents), *foreign])
    assert len(kept) == len(documents) + len(foreign)


def test_a_bad_mode_is_refused(documents: list[Any]) -> None:
    with pytest.raises(ValueError, match="mode must be"):
        EthosNodeVerifier(sources=SAMPLE_PDF, mode="keep").postprocess_nodes(_nodes(documents))


def test_the_evaluator_passes_true_quotations_and_fails_a_changed_figure_or_none(documents: list[Any]) -> None:
    contexts = [d.text for d in documents]
    evaluator = EthosEvaluator()
    good = evaluator.evaluate(query="q", response=f"The board paper says “{TRUE_QUOTE}”.", contexts=contexts)
    assert (good.passing, good.score) == (True, 1.0)
    changed = evaluator.evaluate(response=f"It says “{TRUE_QUOTE.replace('6.1', '3.1')}”.", contexts=contexts)
    assert (changed.passing, changed.score) == (False, 0.0)
    assert "not grounded" in (changed.feedback or "")
    unquoted = evaluator.evaluate(response="Resolution got much faster.", contexts=contexts)
    assert unquoted.passing is False and "no quotation found" in (unquoted.feedback or "")
    against_pdf = EthosEvaluator(SAMPLE_PDF).evaluate(response=f"“{TRUE_QUOTE}”")
    assert against_pdf.passing
    nothing = EthosEvaluator().evaluate(response=f"“{TRUE_QUOTE}”", contexts=[])
    assert nothing.invalid_result and nothing.passing is False
    async_result = asyncio.run(evaluator.aevaluate(response=f"“{TRUE_QUOTE}”", contexts=contexts))
    assert async_result.passing and async_result.feedback == evaluator.evaluate(response=f"“{TRUE_QUOTE}”", contexts=contexts).feedback


def test_the_verified_query_example_prints_what_its_readme_shows(tmp_path: Path) -> None:
    import subprocess
    import sys

    script = REPO / "examples" / "llamaindex" / "verified_query.py"
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[0] == "retrieved=6 kept=5 dropped_edited_node=True"
    assert done.stdout in (REPO / "examples" / "llamaindex" / "README.md").read_text(encoding="utf-8")
