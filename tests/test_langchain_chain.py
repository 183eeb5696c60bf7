"""test_langchain_chain - EthosVerifier and EthosPDFLoader in real LCEL chains (langchain-core, its scripted fake chat
model, an in-memory vector store): invoke, batch, stream and astream give the same verdicts; a fabricated quote is
blocked; a reply citing an id the retrieval never showed, or no JSON at all, is an error on the result, never a pass."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from operator import itemgetter
from pathlib import Path
from typing import Any

import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import Runnable, RunnableLambda, RunnablePassthrough
from langchain_core.vectorstores import InMemoryVectorStore

import ethos_py
from ethos_py.demo import SAMPLE_PDF
from ethos_py.integrations.langchain import EthosCitationParser, EthosPDFLoader, EthosVerifier

QUESTION = "How fast were tickets resolved in the pilot?"
PROMPT = ChatPromptTemplate.from_messages([
    ("system", "Answer from the context. Reply with JSON: answer, claims (kind, text, element_id)."),
    ("human", "{context}\n\nQuestion: {question}"),
])


def _reply(quote: str, element_id: str) -> str:
    return json.dumps({"answer": "Resolution got faster.", "claims": [{"kind": "quote", "text": quote, "element_id": element_id}]})


@pytest.fixture(scope="module")
def loaded() -> list[Any]:
    return EthosPDFLoader(SAMPLE_PDF).load()


def _element_of(documents: list[Any], words: str) -> str:
    """The element id of the sample's element holding ``words`` (from the parse, not hard-coded)."""
    parsed = json.loads(EthosPDFLoader(SAMPLE_PDF).parsed(SAMPLE_PDF))
    [element] = [e for e in parsed["payload"]["elements"] if words in e.get("text", "")]
    assert any(element["id"] in d.metadata["element_refs"] for d in documents)
    return str(element["id"])


def _chain(documents: list[Any], replies: list[str]) -> Runnable[Any, Any]:
    store = InMemoryVectorStore.from_documents(documents, DeterministicFakeEmbedding(size=16))
    retriever = store.as_retriever(search_kwargs={"k": len(documents)})  # every chunk: the reply's ids are shown
    model = GenericFakeChatModel(messages=iter([AIMessage(content=reply) for reply in replies]))
    context = RunnableLambda(lambda values: "\n\n".join(d.page_content for d in values["documents"]))
    return (
        RunnablePassthrough.assign(documents=itemgetter("question") | retriever)
        | RunnablePassthrough.assign(reply=RunnablePassthrough.assign(context=context) | PROMPT | model)
        | EthosVerifier(SAMPLE_PDF)
    )


def test_the_loader_gives_citable_documents(loaded: list[Any]) -> None:
    assert loaded and all(d.metadata["document_fingerprint"].startswith("sha256:") for d in loaded)
    assert all(d.metadata["element_refs"] and d.metadata["page_refs"] for d in loaded)
    assert all(d.metadata["source"] == str(SAMPLE_PDF) for d in loaded)
    whole = " ".join(d.page_content for d in loaded)
    assert "Median time to resolution fell from 9.2 days to 6.1 days" in whole
    # Lazy loading gives the same documents, in the same order, as load().
    assert [d.id for d in EthosPDFLoader([SAMPLE_PDF]).lazy_load()] == [d.id for d in loaded]


def test_invoke_grounds_a_true_quote_and_blocks_a_changed_figure(loaded: list[Any]) -> None:
    element = _element_of(loaded, "Median time to resolution fell")
    chain = _chain(loaded, [_reply("Median time to resolution fell from 9.2 days to 6.1 days", element),
                            _reply("Median time to resolution fell from 9.2 days to 3.1 days", element)])
    honest, altered = chain.invoke({"question": QUESTION}), chain.invoke({"question": QUESTION})
    assert honest["error"] is None and honest["report"]["checks"][0]["status"] == "grounded"
    assert honest["release"]["final_answer_claim_ids"] == ["c1"] and honest["release"]["blocked_claim_ids"] == []
    assert honest["question"] == QUESTION and len(honest["documents"]) == len(loaded)  # the input passes through
    check = altered["report"]["checks"][0]
    assert check["status"] != "grounded" and check["reason"] == "numeric_guard"
    assert altered["release"]["blocked_claim_ids"] == ["c1"] and altered["release"]["final_answer_claim_ids"] == []
    assert altered["proof"]["proof_status"] == "unverified"


def test_batch_stream_and_astream_give_the_verdicts_of_invoke(loaded: list[Any]) -> None:
    element = _element_of(loaded, "Median time to resolution fell")
    reply = _reply("Median time to resolution fell from 9.2 days to 6.1 days", element)
    expected = _chain(loaded, [reply]).invoke({"question": QUESTION})["report"]
    [batched] = _chain(loaded, [reply]).batch([{"question": QUESTION}])
    streamed: Iterator[dict[str, Any]] = _chain(loaded, [reply]).stream({"question": QUESTION})
    [last_streamed] = [chunk for chunk in streamed if chunk.get("report") is not None]

    async def gather() -> list[dict[str, Any]]:
        return [chunk async for chunk in _chain(loaded, [reply]).astream({"question": QUESTION})]

    async_chunks = asyncio.run(gather())
    [last_async] = [chunk for chunk in async_chunks if chunk.get("report") is not None]
    for result in (batched, last_streamed, last_async):
        assert result["report"] == expected
        assert result["answer"] == "Resolution got faster."


def test_a_reply_citing_an_id_the_retrieval_never_showed_is_an_error_not_a_pass(loaded: list[Any]) -> None:
    result = _chain(loaded, [_reply("Median time to resolution fell", "e009999")]).invoke({"question": QUESTION})
    assert result["error"]["code"] == "out_of_vocabulary"
    assert result["report"] is None and result["release"] is None


def test_a_reply_without_json_is_an_error_not_a_pass(loaded: list[Any]) -> None:
    result = _chain(loaded, ["I think resolution got faster."]).invoke({"question": QUESTION})
    assert result["error"]["code"] == "invalid_reply" and "holds no JSON answer (no_json)" in result["error"]["message"]
    assert result["release"] is None


def test_several_documents_are_chosen_by_fingerprint(loaded: list[Any], tmp_path: Path) -> None:
    quickstart = Path(__file__).resolve().parents[1] / "examples" / "quickstart" / "document.json"
    with ethos_py.Document.open(quickstart) as other:
        sources = {other.fingerprint: other, loaded[0].metadata["document_fingerprint"]: SAMPLE_PDF}
        verifier = EthosVerifier(sources)
        element = _element_of(loaded, "Median time to resolution fell")
        result = verifier.invoke({"question": QUESTION, "documents": loaded,
                                  "reply": json.loads(_reply("Median time to resolution fell from 9.2 days", element))})
        assert result["report"]["checks"][0]["status"] == "grounded"
        assert result["report"]["document_fingerprint"] == loaded[0].metadata["document_fingerprint"]
        unknown = EthosVerifier({other.fingerprint: other}).invoke(
            {"documents": loaded, "reply": json.loads(_reply("Median time", element))})
        assert unknown["error"]["code"] == "invalid_reply" and "no source for document fingerprint" in unknown["error"]["message"]


def test_the_verified_chain_example_prints_the_caught_figure(tmp_path: Path) -> None:
    import subprocess
    import sys

    script = Path(__file__).resolve().parents[1] / "examples" / "langchain" / "verified_chain.py"
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    expected = (Path(__file__).resolve().parents[1] / "examples" / "langchain" / "README.md").read_text(encoding="utf-8")
    honest, altered = done.stdout.splitlines()
    assert "status=grounded" in honest and "app_status=certified" in honest
    assert "reason=numeric_guard" in altered and "blocked=c1" in altered and "figure changed" in altered
    assert done.stdout in expected  # the README shows the output as printed


def test_the_parser_takes_the_payload_out_of_prose_and_sketches(loaded: list[Any]) -> None:
    from langchain_core.exceptions import OutputParserException

    element = _element_of(loaded, "Median time to resolution fell")
    chatty = ("Sure. The schema is:\n```json\n{\"answer\": \"string\", \"claims\": []}\n```\nHere it is:\n```json\n"
              + _reply("Median time to resolution fell from 9.2 days to 6.1 days", element) + "\n```\nHope this helps!")
    model = GenericFakeChatModel(messages=iter([AIMessage(content=chatty)]))
    parsed = (model | EthosCitationParser()).invoke("q")
    assert parsed["claims"][0]["element_id"] == element and parsed["answer"] == "Resolution got faster."
    # The same chatty reply, straight into the verifier, is read the same way.
    result = EthosVerifier(SAMPLE_PDF).invoke({"question": QUESTION, "documents": loaded, "reply": AIMessage(content=chatty)})
    assert result["error"] is None and result["report"]["checks"][0]["status"] == "grounded"
    # Without a question the report is attached but nothing is released.
    unasked = EthosVerifier(SAMPLE_PDF).invoke({"documents": loaded, "reply": AIMessage(content=chatty)})
    assert unasked["report"] == result["report"] and unasked["release"] is None
    assert unasked["error"]["code"] == "missing_question"
    with pytest.raises(OutputParserException, match="no JSON answer"):
        EthosCitationParser().parse("I cannot answer that.")
    with pytest.raises(OutputParserException, match="needs a string 'answer'"):
        EthosCitationParser().parse('{"summary": "no answer key"}')
