"""streaming_chain.py - an LCEL chain whose free-form answer is checked while it streams: EthosAnswerVerifier hands each chunk on and each quotation's verdict as soon as it closes.

Run from anywhere (no API key, no network):

    pip install 'ethos-verify[langchain]'
    python examples/langchain/streaming_chain.py

EthosPDFLoader parses the bundled sample PDF into chunks for the retriever; langchain-core's own
GenericFakeChatModel streams a scripted answer with two quotations, one true and one with a changed
figure; EthosAnswerVerifier, the chain's last step, is consumed with ``astream``: the text is
printed as it arrives, each verdict right where its quotation closed, then the release decision.
"""

from __future__ import annotations

import asyncio
from operator import itemgetter
from typing import Any

from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda, RunnablePassthrough
from langchain_core.vectorstores import InMemoryVectorStore

from ethos_py.demo import SAMPLE_PDF
from ethos_py.integrations.langchain import EthosAnswerVerifier, EthosPDFLoader

QUESTION = "How fast were support tickets resolved in the pilot?"
PROMPT = ChatPromptTemplate.from_messages([
    ("system", "Answer from the context only, quoting it word for word in double quotes."),
    ("human", "{context}\n\nQuestion: {question}"),
])
# What the scripted model streams: the second quotation changed a figure of the PDF.
ANSWER = ('The board paper says "Median time to resolution fell from 9.2 days to 6.1 days", and the '
          'summary slide says "Median time to resolution fell from 9.2 days to 3.1 days". Trust the paper.')


def context_text(values: dict[str, Any]) -> str:
    return "\n\n".join(d.page_content for d in values["documents"])


async def main() -> None:
    chunks = EthosPDFLoader(SAMPLE_PDF).load()
    retriever = InMemoryVectorStore.from_documents(chunks, DeterministicFakeEmbedding(size=16)).as_retriever(
        search_kwargs={"k": len(chunks)})
    model = GenericFakeChatModel(messages=iter([AIMessage(content=ANSWER)]))
    chain = (
        RunnablePassthrough.assign(documents=itemgetter("question") | retriever)
        | RunnablePassthrough.assign(reply=RunnablePassthrough.assign(context=RunnableLambda(context_text)) | PROMPT | model)
        | EthosAnswerVerifier(SAMPLE_PDF)
    )
    async for event in chain.astream({"question": QUESTION}):
        if event["ethos"] == "text":  # a chunk of the answer, as the model wrote it
            print(event["text"], end="", flush=True)
        elif event["ethos"] == "quote":  # a quotation just closed: its verdict
            quote = event["quote"]
            reason = quote.get("check", {}).get("reason")
            print(f" [quote {event['index'] + 1}: {quote['status']}{', ' + reason if reason else ''}]", end="", flush=True)
        else:  # the whole check, as invoke gives it
            release = event["release"]
            print(f"\npassed={event['passed']} app_status={release['app_status']} "
                  f"released={','.join(release['final_answer_claim_ids'])} blocked={','.join(release['blocked_claim_ids'])}")


if __name__ == "__main__":
    asyncio.run(main())
