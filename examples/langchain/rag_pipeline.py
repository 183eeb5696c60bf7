"""rag_pipeline.py - a provider-free LangChain RAG run checked by Ethos: retrieve, cite, hydrate, verify, decide release.

Run from anywhere (no API key, no network):

    pip install 'ethos-verify[langchain]'
    python examples/langchain/rag_pipeline.py

The "model" is a function that returns a fixed JSON reply (one honest, one with a fabricated
quote), so the run is the same every time. Prints one line per reply; the fabricated quote is
caught: its check is not grounded and the release decision blocks that claim.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.vectorstores import InMemoryVectorStore

import ethos_py
from ethos_py.integrations.langchain import chunk_documents, emit_langchain_citations

EXAMPLES = Path(__file__).resolve().parent.parent
DOCUMENT = EXAMPLES / "quickstart" / "document.json"
REPLIES = EXAMPLES / "citation-emission"
QUESTION = "What did the support pilot achieve?"


def fake_model(question: str, context: str, reply: str) -> str:
    """Stands in for an LLM with structured output: ignores its prompt, returns a fixed reply."""
    del question, context
    return (REPLIES / f"model-output.{reply}.json").read_text(encoding="utf-8")


def answer(retriever: Any, document: ethos_py.Document, reply: str) -> dict[str, Any]:
    retrieved = retriever.invoke(QUESTION)
    prompt_context = "\n\n".join(f"[elements {d.metadata['element_refs']}]\n{d.page_content}" for d in retrieved)
    output = json.loads(fake_model(QUESTION, prompt_context, reply))
    # Hydration: only ids shown in `retrieved` are accepted; the fingerprint comes from retrieval.
    citations = emit_langchain_citations(retrieved, output["answer"], output["claims"])
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
    store = InMemoryVectorStore.from_documents(chunk_documents(DOCUMENT), DeterministicFakeEmbedding(size=16))
    retriever = store.as_retriever(search_kwargs={"k": 2})
    with ethos_py.Document.open(DOCUMENT) as document:
        for reply in ("grounded", "fabricated-quote"):
            result = answer(retriever, document, reply)
            print(" ".join(f"{key}={','.join(value) if isinstance(value, list) else value}" for key, value in result.items()))


if __name__ == "__main__":
    main()
