"""langchain_astream - @ethos_py.verify_answer on a LangChain-style ``astream`` (scripted AIMessageChunks: no key, no network)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from typing import Any

import ethos_py

# The retrieved passages of a RAG context: literal text, given at call time.
PASSAGES = [
    "The pilot cut average response time by 30% across all regional offices.",
    "Customer satisfaction rose to 92% in the final month of the pilot.",
]
SCRIPT = 'Per the notes, "customer satisfaction rose to 92% in the final month" and response time fell.'


async def fake_astream(text: str) -> AsyncIterator[Any]:
    """Chunks shaped like ``chat_model.astream(...)``'s (``AIMessageChunk`` when langchain-core is installed)."""
    try:
        from langchain_core.messages import AIMessageChunk
    except ImportError:  # the example runs without LangChain too
        from types import SimpleNamespace as AIMessageChunk  # type: ignore[assignment]
    for start in range(0, len(text), 5):
        await asyncio.sleep(0.01)
        yield AIMessageChunk(content=text[start:start + 5])


@ethos_py.verify_answer(source_arg="context", scope="quotes", palette="colorblind")
def answer(question: str, context: list[str]) -> AsyncIterator[Any]:
    # With a real model: return chat_model.astream([("system", "\n".join(context)), ("user", question)])
    return fake_astream(SCRIPT)


async def main() -> None:
    stream = answer("How satisfied were customers?", context=PASSAGES)
    async for chunk in stream:
        sys.stdout.write(chunk.content)
        sys.stdout.flush()
    sys.stdout.write("\n")
    assert stream.result is not None
    print("quotes grounded:", stream.result["summary"]["quotes_grounded"], "of", stream.result["summary"]["quotes"])


if __name__ == "__main__":
    asyncio.run(main())
