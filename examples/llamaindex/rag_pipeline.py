"""rag_pipeline.py - a provider-free LlamaIndex RAG run checked by Ethos: retrieve, cite, hydrate, verify, decide release.

Run from anywhere (no API key, no network):

    pip install 'ethos-verify[llamaindex]'
    python examples/llamaindex/rag_pipeline.py

The index uses LlamaIndex's MockEmbedding and the "model" is a function that returns a fixed JSON
reply (one honest, one with a fabricated quote). Prints one line per reply; the fabricated quote
is caught: its check is not grounded and the release decision blocks that claim.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from llama_index.core import VectorStoreIndex
from llama_index.core.embeddings import MockEmbedding
from llama_index.core.schema import MetadataMode

import ethos_py
from ethos_py.integrations.llamaindex import chunk_nodes, emit_llamaindex_citations

EXAMPLES = Path(__file__).resolve().parent.parent
DOCUMENT = EXAMPLES / "quickstart" / "document.json"
REPLIES = EXAMPLES / "citation-emission"
QUESTION = "What did the support pilot achieve?"


def fake_model(question: str, context: str, reply: str) -> str:
    """Stands in for an LLM with structured output: ignores its prompt, returns a fixed reply."""
    del question, context
    return (REPLIES / f"model-output.{reply}.json").read_text(encoding="utf-8")


def answer(retriever: Any, document: ethos_py.Document, reply: str) -> dict[str, Any]:
    retrieved = retriever.retrieve(QUESTION)  # NodeWithScore results, passed to Ethos as they are
    prompt_context = "\n\n".join(result.node.get_content(metadata_mode=MetadataMode.LLM) for result in retrieved)
    output = json.loads(fake_model(QUESTION, prompt_context, reply))
    # Hydration: only ids shown in `retrieved` are accepted; the fingerprint comes from retrieval.
    citations = emit_llamaindex_citations(retrieved, output["answer"], output["claims"])
    report = document.verify(citations)
    proof = ethos_py.proof_summary(report)
    # The app labels relevance and support itself; Ethos decides only what grounding allows.
    claims = [
        {"id": f"c{index}", "text": claim["text"], "check_ids": [check["id"]],
         "question_relevance": "direct_answer", "claim_type": "source_fact", "claim_support": "supported"}
        for index, (claim, check) in enumerate(zip(output["claims"], report["checks"]), 1)
    ]
    decision = ethos_py.app_answer_release_decision(QUESTION, proof, claims)
    return {"reply": reply, "statuses": [check["status"] for check in report["checks"]],
            "proof_status": proof["proof_status"], "app_status": decision["app_status"],
            "released": decision["final_answer_claim_ids"], "blocked": decision["blocked_claim_ids"]}


def main() -> None:
    index = VectorStoreIndex(chunk_nodes(DOCUMENT), embed_model=MockEmbedding(embed_dim=16))
    retriever = index.as_retriever(similarity_top_k=2)
    with ethos_py.Document.open(DOCUMENT) as document:
        for reply in ("grounded", "fabricated-quote"):
            result = answer(retriever, document, reply)
            print(" ".join(f"{key}={','.join(value) if isinstance(value, list) else value}" for key, value in result.items()))


if __name__ == "__main__":
    main()
