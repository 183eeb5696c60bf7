"""test_langchain_answer_stream - EthosAnswerVerifier in real LCEL chains (langchain-core, its scripted GenericFakeChatModel): a free-form answer is
checked while it streams (text handed on at once, each quotation's verdict as soon as it closes, the whole check at the end, equal to invoke's),
under stream, astream, transform, atransform and batch; an answer without a quotation does not pass a quotes gate; an unverifiable answer is an error
on the result, never a pass."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from operator import itemgetter
from typing import Any

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import Runnable, RunnableLambda, RunnablePassthrough
from langchain_core.vectorstores import InMemoryVectorStore

import ethos_py
from ethos_py.demo import SAMPLE_PDF
from ethos_py.integrations.langchain import EthosAnswerVerifier, EthosPDFLoader

QUESTION = "How fast were tickets resolved in the pilot?"
GROUNDED = "Median time to resolution fell from 9.2 days to 6.1 days"
FABRICATED = "Median time to resolution fell from 9.2 days to 3.1 days"  # a changed figure
ANSWER = (f'The board paper says "{GROUNDED}", and a later note claims "{FABRICATED}", '
          "so the two figures disagree and the paper's own figure should be used.")
PROMPT = ChatPromptTemplate.from_messages([("system", "Answer from the context, quoting it."),
                                           ("human", "{context}\n\nQuestion: {question}")])


def _serial(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr)


class _Tokens(BaseCallbackHandler):
    """Counts the tokens the model has streamed so far (langchain-core's own callback)."""

    def __init__(self) -> None:
        self.count = 0

    def on_llm_new_token(self, *args: Any, **kwargs: Any) -> None:
        self.count += 1


def _model(*answers: str) -> GenericFakeChatModel:
    return GenericFakeChatModel(messages=iter([AIMessage(content=answer) for answer in answers]))


def _simple_chain(*answers: str, **options: Any) -> Runnable[Any, Any]:
    """prompt | model | verifier: the reply is the verifier's whole input."""
    return ChatPromptTemplate.from_messages([("human", "{question}")]) | _model(*answers) | EthosAnswerVerifier(SAMPLE_PDF, **options)


@pytest.fixture(scope="module")
def loaded() -> list[Any]:
    return EthosPDFLoader(SAMPLE_PDF).load()


def _rag_chain(documents: list[Any], answers: list[str], source: Any = SAMPLE_PDF) -> Runnable[Any, Any]:
    """Retrieval, then the model's reply beside the question and documents, then the verifier."""
    store = InMemoryVectorStore.from_documents(documents, DeterministicFakeEmbedding(size=16))
    retriever = store.as_retriever(search_kwargs={"k": len(documents)})
    def context(values: dict[str, Any]) -> str:
        return "\n\n".join(d.page_content for d in values["documents"])

    return (RunnablePassthrough.assign(documents=itemgetter("question") | retriever)
            | RunnablePassthrough.assign(reply=RunnablePassthrough.assign(context=RunnableLambda(context)) | PROMPT | _model(*answers))
            | EthosAnswerVerifier(source))


def _check_events(events: list[dict[str, Any]], answer: str, whole: dict[str, Any]) -> None:
    """Text passes through whole and in order, the verdicts are the whole check's, the result comes last."""
    kinds = [event["ethos"] for event in events]
    assert kinds[-1] == "result" and kinds.count("result") == 1
    texts = [event for event in events if event["ethos"] == "text"]
    assert len(texts) > 1 and "".join(event["text"] for event in texts) == answer
    for event in texts:
        chunk = event["chunk"]
        assert chunk == event["text"] if isinstance(chunk, str) else chunk.content == event["text"]
    verdicts = [event for event in events if event["ethos"] == "quote"]
    assert [event["index"] for event in verdicts] == list(range(len(whole["quotes"])))
    assert [event["quote"] for event in verdicts] == whole["quotes"]
    assert events[-1]["check"] == whole


def test_stream_hands_each_chunk_on_and_each_verdict_as_its_quotation_closes() -> None:
    tokens = _Tokens()
    events, produced = [], []
    for event in _simple_chain(ANSWER).stream({"question": QUESTION}, config={"callbacks": [tokens]}):
        events.append(event)
        produced.append(tokens.count)  # how much of the answer the model had written when the event came
    whole = ethos_py.check_answer(ANSWER, SAMPLE_PDF, scope="quotes")
    assert [quote["status"] for quote in whole["quotes"]] == ["grounded", "mismatch"]
    assert whole["quotes"][1]["check"]["reason"] == "numeric_guard"
    _check_events(events, ANSWER, whole)
    assert all(isinstance(event["chunk"], AIMessageChunk) for event in events if event["ethos"] == "text")
    kinds = [event["ethos"] for event in events]
    first_verdict, second_verdict = [i for i, kind in enumerate(kinds) if kind == "quote"]
    last_text = max(i for i, kind in enumerate(kinds) if kind == "text")
    # The verdicts interleave with the text: each comes while the model is still writing the answer.
    assert first_verdict < second_verdict < last_text
    assert produced[first_verdict] < produced[second_verdict] < produced[-1]
    # The first quotation's verdict comes before the second quotation's text.
    assert "3.1" not in "".join(event["text"] for event in events[:first_verdict] if event["ethos"] == "text")


def test_the_streamed_result_is_invokes_byte_for_byte_under_stream_astream_and_batch() -> None:
    invoked = _simple_chain(ANSWER).invoke({"question": QUESTION})
    assert invoked["ethos"] == "result" and invoked["error"] is None and invoked["passed"] is False
    assert invoked["answer"] == ANSWER
    assert [check["status"] for check in invoked["report"]["checks"]] == ["grounded", "mismatch"]
    assert invoked["proof"]["proof_status"] == "partially_verified"
    # The report's checks are the ones check_answer made of the quotations.
    assert invoked["report"]["checks"] == [quote["check"] for quote in invoked["check"]["quotes"]]
    assert invoked["release"] is None  # the model's reply alone carries no question
    streamed = list(_simple_chain(ANSWER).stream({"question": QUESTION}))

    async def gather() -> list[dict[str, Any]]:
        return [event async for event in _simple_chain(ANSWER).astream({"question": QUESTION})]

    async_events = asyncio.run(gather())
    assert _serial(streamed[-1]) == _serial(invoked) == _serial(async_events[-1])
    assert [(e["ethos"], e.get("text"), e.get("index")) for e in async_events] == \
           [(e["ethos"], e.get("text"), e.get("index")) for e in streamed]
    _check_events(async_events, ANSWER, invoked["check"])
    [batched] = _simple_chain(ANSWER).batch([{"question": QUESTION}])
    assert _serial(batched) == _serial(invoked)


def test_a_rag_chain_streams_and_releases_only_the_grounded_quotation(loaded: list[Any]) -> None:
    invoked = _rag_chain(loaded, [ANSWER]).invoke({"question": QUESTION})
    assert invoked["question"] == QUESTION and len(invoked["documents"]) == len(loaded)  # the input passes through
    assert invoked["release"]["final_answer_claim_ids"] == ["c1"] and invoked["release"]["blocked_claim_ids"] == ["c2"]
    assert [claim["text"] for claim in invoked["release"]["claims"]] == [GROUNDED, FABRICATED]
    events = list(_rag_chain(loaded, [ANSWER]).stream({"question": QUESTION}))
    _check_events(events, ANSWER, invoked["check"])
    kinds = [event["ethos"] for event in events]
    assert kinds.index("quote") < max(i for i, kind in enumerate(kinds) if kind == "text")
    final = events[-1]
    # The reply came in chunks: its streamed form adds them up; every other key is invoke's, byte for byte.
    assert isinstance(final["reply"], AIMessageChunk) and final["reply"].content == invoked["reply"].content == ANSWER
    assert _serial({k: v for k, v in final.items() if k != "reply"}) == _serial({k: v for k, v in invoked.items() if k != "reply"})


def test_the_retrieved_passages_are_the_sources_without_a_source(loaded: list[Any]) -> None:
    invoked = _rag_chain(loaded, [ANSWER], source=None).invoke({"question": QUESTION})
    passages = [d.page_content for d in invoked["documents"]]  # in the retriever's order
    whole = ethos_py.check_answer(ANSWER, source_text=passages, scope="quotes")
    assert invoked["check"] == whole and invoked["passed"] is False
    # Several sources make no single verification report: the gate is the verdict.
    assert invoked["report"] is None and invoked["release"] is None and invoked["error"] is None
    events = list(_rag_chain(loaded, [ANSWER], source=None).stream({"question": QUESTION}))
    _check_events(events, ANSWER, whole)  # the documents came before the reply: checked as it streamed
    kinds = [event["ethos"] for event in events]
    assert kinds.index("quote") < max(i for i, kind in enumerate(kinds) if kind == "text")
    one = EthosAnswerVerifier().invoke({"documents": [loaded[1]], "question": QUESTION, "reply": ANSWER})
    assert one["report"]["checks"][0]["status"] == "grounded" and one["release"]["blocked_claim_ids"] == ["c2"]


def test_an_answer_without_a_quotation_does_not_pass_a_quotes_gate() -> None:
    plain = "Resolution got a lot faster during the pilot."
    for result in (_simple_chain(plain).invoke({"question": QUESTION}), list(_simple_chain(plain).stream({"question": QUESTION}))[-1]):
        assert result["passed"] is False and result["error"] is None
        assert result["check"]["gate"] == {"failures": [{"reason": "no_quotation"}], "passed": False}
        assert result["report"] is None and result["release"] is None
    short = _simple_chain('It "fell" a lot.').invoke({"question": QUESTION})
    assert short["passed"] is False and short["check"]["gate"]["failures"] == [{"reason": "no_checkable_quotation"}]
    # Under scope all the answer's words are measured, and having no quotation is no failure.
    measured = _simple_chain(plain, scope="all").invoke({"question": QUESTION})
    assert measured["passed"] is True and measured["check"]["scope"] == "all"


def test_a_step_after_the_verifier_gets_the_result() -> None:
    chain = _simple_chain(ANSWER, ANSWER) | RunnableLambda(lambda result: (result["passed"], len(result["check"]["quotes"])))
    assert list(chain.stream({"question": QUESTION})) == [(False, 2)] == [chain.invoke({"question": QUESTION})]


@pytest.mark.parametrize("seed", range(12))
def test_any_chunking_gives_the_whole_checks_verdicts(seed: int) -> None:
    rng = random.Random(seed)
    answers = [ANSWER, f"It's the agents' queue: 'the pilot ran for twelve weeks in three regions' and \u201c{FABRICATED}\u201d.",
               f"\u00ab {GROUNDED} \u00bb, then \u00ab customer satisfaction rose from 71 to 78 percent \u00bb.", "No quotation here at all."]
    answer = answers[seed % len(answers)]
    scope = "all" if seed % 3 == 0 else "quotes"
    cuts = sorted(rng.sample(range(1, len(answer)), rng.randint(1, min(25, len(answer) - 1))))
    chunks = [answer[i:j] for i, j in zip([0, *cuts], [*cuts, len(answer)])]
    verifier = EthosAnswerVerifier(SAMPLE_PDF, scope=scope)
    whole = ethos_py.check_answer(answer, SAMPLE_PDF, scope=scope)
    events = list(verifier.transform(iter(chunks)))
    _check_events(events, answer, whole)  # at least one cut: two chunks or more
    assert [event["text"] for event in events if event["ethos"] == "text"] == chunks
    assert _serial(events[-1]) == _serial(verifier.invoke(answer))

    async def produce() -> AsyncIterator[str]:
        for chunk in chunks:
            yield chunk

    async def gather() -> list[dict[str, Any]]:
        return [event async for event in verifier.atransform(produce())]

    assert _serial(asyncio.run(gather())) == _serial(events)


def test_an_unverifiable_answer_is_an_error_on_the_result_and_the_text_still_streams() -> None:
    unsourced = EthosAnswerVerifier()
    result = unsourced.invoke({"question": QUESTION, "reply": ANSWER})
    assert result["error"]["code"] == "no_source" and result["passed"] is False and result["check"] is None
    events = list(unsourced.transform(iter([ANSWER[:20], ANSWER[20:]])))
    assert [e["ethos"] for e in events] == ["text", "text", "result"] and events[-1]["error"]["code"] == "no_source"
    not_text = EthosAnswerVerifier(SAMPLE_PDF).invoke({"reply": {"answer": ANSWER}})
    assert not_text["error"]["code"] == "invalid_reply" and not_text["passed"] is False
    no_reply = EthosAnswerVerifier(SAMPLE_PDF).invoke({"question": QUESTION})
    assert no_reply["error"] == {"code": "invalid_reply", "message": "the input has no reply under 'reply'"}
    with pytest.raises(ValueError, match="scope must be"):
        EthosAnswerVerifier(SAMPLE_PDF, scope="words")


def test_the_citation_verifier_is_unchanged_beside_it(loaded: list[Any]) -> None:
    # EthosVerifier still reads a JSON reply; prose is an error there, the free-form verifier's job here.
    from ethos_py.integrations.langchain import EthosVerifier

    prose = EthosVerifier(SAMPLE_PDF).invoke({"question": QUESTION, "documents": loaded, "reply": ANSWER})
    assert prose["error"]["code"] == "invalid_reply" and prose["release"] is None



def test_the_streaming_chain_example_prints_each_verdict_where_its_quotation_closed(tmp_path: Any) -> None:
    import subprocess
    import sys
    from pathlib import Path

    examples = Path(__file__).resolve().parents[1] / "examples" / "langchain"
    done = subprocess.run([sys.executable, str(examples / "streaming_chain.py")], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    text, decision = done.stdout.splitlines()
    assert '6.1 days", [quote 1: grounded] and' in text and '3.1 days". [quote 2: mismatch, numeric_guard] Trust' in text
    assert decision == "passed=False app_status=partial_certified released=c1 blocked=c2"
    assert done.stdout in (examples / "README.md").read_text(encoding="utf-8")  # the README shows the output as printed


def test_documents_that_come_after_the_reply_still_give_the_whole_check(loaded: list[Any]) -> None:
    # Mapping chunks as LCEL streams them; here the documents come last, so the check waits for the end.
    pieces = [ANSWER[:40], ANSWER[40:90], ANSWER[90:]]
    chunks = [{"question": QUESTION}, *({"reply": piece} for piece in pieces), {"documents": loaded}]
    events = list(EthosAnswerVerifier().transform(iter(chunks)))
    assert [event["ethos"] for event in events] == ["text", "text", "text", "quote", "quote", "result"]
    final = events[-1]
    assert final["reply"] == ANSWER and final["question"] == QUESTION  # string chunks added up
    assert final["check"] == ethos_py.check_answer(ANSWER, source_text=[d.page_content for d in loaded], scope="quotes")
    assert _serial(final) == _serial(EthosAnswerVerifier().invoke({"question": QUESTION, "reply": ANSWER, "documents": loaded}))


def test_astream_events_carries_the_verifiers_chunks() -> None:
    async def gather() -> list[Any]:
        return [event async for event in _simple_chain(ANSWER).astream_events({"question": QUESTION}, version="v2")]

    events = asyncio.run(gather())
    streamed = [e["data"]["chunk"] for e in events if e["event"] == "on_parser_stream" and e["name"] == "EthosAnswerVerifier"]
    assert [chunk["ethos"] for chunk in streamed].count("quote") == 2 and streamed[-1]["ethos"] == "result"
    [end] = [e for e in events if e["event"] == "on_parser_end" and e["name"] == "EthosAnswerVerifier"]
    assert _serial(end["data"]["output"]) == _serial(streamed[-1])  # the run's output is the result chunk
