"""verified_chain.py - an LCEL chain that loads a PDF with Ethos, answers with a scripted chat model and gates the answer with EthosVerifier.

Run from anywhere (no API key, no network):

    pip install 'ethos-verify[langchain]'
    python examples/langchain/verified_chain.py

EthosPDFLoader parses the bundled sample PDF into citable chunks; the chat model is langchain-core's
own GenericFakeChatModel replaying two JSON replies (one honest, one that changed a figure);
EthosVerifier, the last step of the chain, verifies each reply's quotes against the PDF and
attaches the report, proof summary and release decision. Prints one line per reply.
"""

from __future__ import annotations

import json
from operator import itemgetter
from typing import Any

from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda, RunnablePassthrough
from langchain_core.vectorstores import InMemoryVectorStore

from ethos_py.demo import SAMPLE_PDF
from ethos_py.integrations.langchain import EthosPDFLoader, EthosVerifier

QUESTION = "How fast were support tickets resolved in the pilot?"
PROMPT = ChatPromptTemplate.from_messages([
    ("system", "Answer from the context only. Reply with JSON: {{\"answer\": ..., \"claims\": "
               "[{{\"kind\": \"quote\", \"text\": ..., \"element_id\": ...}}]}}."),
    ("human", "{context}\n\nQuestion: {question}"),
])


def scripted_replies(element_id: str) -> list[AIMessage]:
    """What a model with structured output would say: first the document's words, then a changed figure."""
    def reply(days: str) -> AIMessage:
        return AIMessage(content=json.dumps({
            "answer": f"Tickets were resolved faster: {days} days instead of 9.2.",
            "claims": [{"kind": "quote", "text": f"Median time to resolution fell from 9.2 days to {days} days",
                        "element_id": element_id}]}))
    return [reply("6.1"), reply("3.1")]


def context_text(values: dict[str, Any]) -> str:
    # The element ids go into the prompt so the model can cite them.
    return "\n\n".join(f"[elements {', '.join(d.metadata['element_refs'])}]\n{d.page_content}" for d in values["documents"])


def main() -> None:
    loader = EthosPDFLoader(SAMPLE_PDF)
    chunks = loader.load()
    retriever = InMemoryVectorStore.from_documents(chunks, DeterministicFakeEmbedding(size=16)).as_retriever(
        search_kwargs={"k": len(chunks)})
    parsed = json.loads(loader.parsed(SAMPLE_PDF))
    [element] = [e["id"] for e in parsed["payload"]["elements"] if "Median time to resolution" in e.get("text", "")]
    model = GenericFakeChatModel(messages=iter(scripted_replies(element)))
    chain = (
        RunnablePassthrough.assign(documents=itemgetter("question") | retriever)
        | RunnablePassthrough.assign(reply=RunnablePassthrough.assign(context=RunnableLambda(context_text)) | PROMPT | model)
        | EthosVerifier(SAMPLE_PDF)
    )
    for _ in range(2):
        result = chain.invoke({"question": QUESTION})
        check = result["report"]["checks"][0]
        guards = [g["detail"] for g in check.get("match", {}).get("guards", []) if g["verdict"] == "block"]
        print(f"quote={result['claims'][0]['text']!r} status={check['status']} reason={check.get('reason')} "
              f"app_status={result['release']['app_status']} blocked={','.join(result['release']['blocked_claim_ids'])}"
              + (f" guard={guards[0]!r}" if guards else ""))


if __name__ == "__main__":
    main()
