"""langchain_answer_verifier - EthosAnswerVerifier, a LangChain Runnable that checks a free-form answer's quotations (and verbatim coverage) while it streams, and attaches the whole check.

    pip install 'ethos-verify[langchain]'

In LCEL it follows the chat model, whose reply is prose with quotations (no JSON)::

    chain = prompt | model | EthosAnswerVerifier("report.pdf")

or, with the retrieval and the question kept beside the reply::

    chain = (RunnablePassthrough.assign(documents=itemgetter("question") | retriever)
             | RunnablePassthrough.assign(reply=prompt | model)
             | EthosAnswerVerifier("report.pdf"))

``invoke`` (and ``batch``) check the whole answer with ``ethos_py.check_answer``. ``stream``,
``astream``, ``transform`` and ``atransform`` check it while it arrives, with the incremental check
behind ``@ethos_py.verify_answer``: each chunk of the answer is handed on at once, as a text event;
each quotation's verdict follows as soon as the quotation closes, as a quote event; the last chunk
is the result ``invoke`` gives for the same answer, byte for byte. Every chunk is a plain ``dict``
whose ``"ethos"`` key says what it is:

- ``{"ethos": "text", "text": str, "chunk": the model's chunk, unchanged}``
- ``{"ethos": "quote", "index": int, "quote": dict}`` (``quote`` is ``check["quotes"][index]``)
- ``{"ethos": "result", ...}``: the result (below). A step after this one that needs its whole
  input gets this last chunk (LangChain adds up streamed chunks with ``+``; dicts do not add, so
  the last one stands).

The result: the input mapping (when the input is one) plus ``ethos`` = ``"result"``, ``answer``
(the text checked), ``check`` (the ``check_answer`` result: words, runs, quotations, gate),
``passed`` (the check's gate: False when a quotation is not grounded, and under scope
``"quotes"`` when the answer has no quotation long enough to check), ``report`` and ``proof`` (the
verification report of the checked quotations and its proof summary, when there is one source),
``release`` (the app answer release decision, when besides that the input has a question) and
``error`` (None, or why the answer could not be checked; then ``passed`` is False).
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextlib import ExitStack
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.runnables import AddableDict, Runnable, RunnableConfig

from .._answer_incremental import IncrementalAnswerCheck
from ..answer import _documents, check_answer
from ..document import Document
from ..errors import EthosError
from ._opened_sources import OpenedSources
from ..proof import proof_summary
from ..release import app_answer_release_decision
from .langchain_verifier import DEFAULT_CLAIM_LABELS, _message_text

__all__ = ["EthosAnswerVerifier"]

SourceInput = Document | str | os.PathLike[str]


class _Unverifiable(ValueError):
    """Why an answer cannot be checked: ``code`` and the message for the result's ``error``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _text_of(reply: Any) -> str:
    """The answer text of a reply or of one streamed chunk of it: a ``str``, or a message's text."""
    if isinstance(reply, str):
        return reply
    if isinstance(reply, BaseMessage):
        return _message_text(reply)
    raise _Unverifiable("invalid_reply", f"the model's reply is a {type(reply).__name__}, not text or a message")


class EthosAnswerVerifier(Runnable[Any, dict[str, Any]]):
    """Checks a free-form answer against ``source``, or else the retrieved documents, while it streams.

    ``source``: an open ``ethos_py.Document``, a path (a PDF is parsed by ethos-core through the
    parse cache), or a list of them; paths are opened once, on first use. Without it, the
    ``page_content`` of the input's retrieved documents (under ``documents_key``) are the sources,
    as literal texts. ``scope``, ``ngram`` and ``policy`` are ``check_answer``'s; under
    ``scope="quotes"`` (the default) only the quotations are measured and an answer without one
    does not pass. The input is the model's reply (a message or a ``str``) or a mapping holding it
    under ``reply_key``, with the documents and the question.

        >>> from langchain_core.messages import AIMessage
        >>> verifier = EthosAnswerVerifier("examples/quickstart/document.json")
        >>> out = verifier.invoke(AIMessage(content='It "cut average response time by 30%".'))
        >>> [q["status"] for q in out["check"]["quotes"]], out["passed"], out["proof"]["proof_status"]
        (['grounded'], True, 'verified')
        >>> events = verifier.transform(iter(['It "cut average ', 'response time by 30%". ', 'Good.']))
        >>> [(e["ethos"], e.get("text", e.get("quote", {}).get("status"))) for e in events]
        [('text', 'It "cut average '), ('text', 'response time by 30%". '), ('quote', 'grounded'), ('text', 'Good.'), ('result', None)]
    """

    def __init__(
        self,
        source: SourceInput | Sequence[SourceInput] | None = None,
        *,
        scope: str = "quotes",
        ngram: int = 3,
        policy: str | None = None,
        reply_key: str = "reply",
        documents_key: str = "documents",
        question_key: str = "question",
        claim_labels: Mapping[str, str] = DEFAULT_CLAIM_LABELS,
    ) -> None:
        if scope not in ("all", "quotes"):
            raise ValueError(f"scope must be 'all' or 'quotes', not {scope!r}")
        self.source = source
        self.scope, self.ngram, self.policy = scope, ngram, policy
        self.reply_key, self.documents_key, self.question_key = reply_key, documents_key, question_key
        self.claim_labels = dict(claim_labels)
        self._sources_opened = OpenedSources()

    # -- sources --------------------------------------------------------------------------------

    def _open(self, source: SourceInput) -> Document:
        return self._sources_opened.open(source)

    def _sources(self, stack: ExitStack, retrieved: Any) -> list[Document]:
        """The documents the answer is checked against; literal texts close with ``stack``."""
        if self.source is not None:
            given = [self.source] if isinstance(self.source, (Document, str, os.PathLike)) else list(self.source)
            if not given:
                raise _Unverifiable("no_source", "the verifier's source list is empty")
            return [self._open(item) for item in given]
        texts = [item if isinstance(item, str) else getattr(item, "page_content", None) for item in retrieved or ()]
        if not texts:
            raise _Unverifiable("no_source", f"no source given and no retrieved documents under {self.documents_key!r}: "
                                             "nothing to check the answer against")
        if not all(isinstance(text, str) for text in texts):
            raise _Unverifiable("no_source", f"the retrieved documents under {self.documents_key!r} must be LangChain "
                                             "Documents or strings")
        return _documents(stack, None, None, [str(text) for text in texts])

    # -- the result -----------------------------------------------------------------------------

    def _result(self, given: Mapping[str, Any] | None, answer: str | None, documents: Sequence[Document],
                check: dict[str, Any] | None, error: Exception | None) -> dict[str, Any]:
        """The result for a checked answer (``check``) or one that could not be (``error``)."""
        result: dict[str, Any] = {**(given or {}), "ethos": "result", "answer": answer, "check": check,
                                  "passed": False, "report": None, "proof": None, "release": None, "error": None}
        if error is not None or check is None:
            # Never a silent pass: the reason is on the result and nothing is released.
            code = getattr(error, "code", None) or ("ethos_error" if isinstance(error, EthosError) else "invalid_input")
            result["error"] = {"code": code, "message": str(error)}
            return result
        result["passed"] = bool(check["gate"]["passed"])
        checked = [quote["check"] for quote in check["quotes"] if "check" in quote]
        if len(documents) != 1 or not checked:
            # A verification report is about one document, and about at least one claim.
            return result
        document = documents[0]
        citations = {"document_fingerprint": document.fingerprint, "claims": [c["claim"] for c in checked]}
        report: dict[str, Any] = json.loads(document.verify_json(citations, policy=self.policy))
        result["report"] = report
        result["proof"] = proof = proof_summary(report)
        question = given.get(self.question_key) if given is not None else None
        if isinstance(question, str) and question.strip():
            claims = [{"id": f"c{index}", "text": str(check_["claim"]["text"]), "check_ids": [check_["id"]],
                       **self.claim_labels} for index, check_ in enumerate(report["checks"], 1)]
            result["release"] = app_answer_release_decision(question, proof, claims)
        return result

    def _split(self, input: Any) -> tuple[Mapping[str, Any] | None, Any]:  # noqa: A002
        """The input as (mapping or None, reply)."""
        if isinstance(input, Mapping):
            if self.reply_key not in input:
                raise _Unverifiable("invalid_reply", f"the input has no reply under {self.reply_key!r}")
            return input, input[self.reply_key]
        return None, input

    # -- invoke ---------------------------------------------------------------------------------

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> dict[str, Any]:  # noqa: A002
        """Checks one whole answer; see the class documentation for what goes in and comes out."""
        return self._call_with_config(self._verify, input, config, run_type="parser", **kwargs)

    def _verify(self, input: Any) -> dict[str, Any]:  # noqa: A002
        given: Mapping[str, Any] | None = input if isinstance(input, Mapping) else None
        answer: str | None = None
        with ExitStack() as stack:
            documents: list[Document] = []
            try:
                given, reply = self._split(input)
                answer = _text_of(reply)
                retrieved = given.get(self.documents_key) if given is not None else None
                documents = self._sources(stack, retrieved)
                check = check_answer(answer, documents, scope=self.scope, ngram=self.ngram, policy=self.policy)
                return self._result(given, answer, documents, check, None)
            except (ValueError, EthosError) as error:
                return self._result(given, answer, documents, None, error)

    # -- streaming ------------------------------------------------------------------------------

    def stream(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Iterator[dict[str, Any]]:  # noqa: A002
        """Text, quote and result events for one answer (see the module documentation)."""
        yield from self.transform(iter([input]), config, **kwargs)

    async def astream(self, input: Any, config: RunnableConfig | None = None,  # noqa: A002
                      **kwargs: Any) -> AsyncIterator[dict[str, Any]]:
        """``stream``, for an async caller."""

        async def once() -> AsyncIterator[Any]:
            yield input

        async for event in self.atransform(once(), config, **kwargs):
            yield event

    def transform(self, input: Iterator[Any], config: RunnableConfig | None = None,  # noqa: A002
                  **kwargs: Any) -> Iterator[dict[str, Any]]:
        """The events for an answer that arrives in chunks: the model's chunks, or mappings whose
        ``reply_key`` holds them (as ``RunnablePassthrough.assign(reply=prompt | model)`` streams)."""
        yield from self._transform_stream_with_config(input, self._events, config, run_type="parser", **kwargs)

    async def atransform(self, input: AsyncIterator[Any], config: RunnableConfig | None = None,  # noqa: A002
                         **kwargs: Any) -> AsyncIterator[dict[str, Any]]:
        """``transform``, for an async input. The check runs inline: it takes milliseconds."""
        async for event in self._atransform_stream_with_config(input, self._aevents, config, run_type="parser", **kwargs):
            yield event

    def _events(self, chunks: Iterator[Any]) -> Iterator[dict[str, Any]]:
        stream = _Stream(self)
        try:
            for chunk in chunks:
                yield from stream.take(chunk)
            yield from stream.finish()
        finally:
            stream.close()

    async def _aevents(self, chunks: AsyncIterator[Any]) -> AsyncIterator[dict[str, Any]]:
        stream = _Stream(self)
        try:
            async for chunk in chunks:
                for event in stream.take(chunk):
                    yield event
            for event in stream.finish():
                yield event
        finally:
            stream.close()


class _Stream:
    """One streamed answer: gathers the input, hands each text chunk on, then feeds it to the
    incremental check and hands on the verdicts of the quotations that closed."""

    def __init__(self, verifier: EthosAnswerVerifier) -> None:
        self._verifier = verifier
        self._stack = ExitStack()
        self._given: AddableDict | None = None  # the input mapping, its chunks added up
        self._text: list[str] = []
        self._check: IncrementalAnswerCheck | None = None
        self._documents: list[Document] = []
        self._deferred = False  # the sources were not known when the text began: check at the end
        self._emitted = 0  # quotation verdicts handed on so far
        self._error: Exception | None = None

    def take(self, chunk: Any) -> Iterator[dict[str, Any]]:
        verifier = self._verifier
        if isinstance(chunk, Mapping):
            # Mapping chunks add up key by key (AddableDict's rule: a reply's chunks with +).
            self._given = (self._given or AddableDict()) + AddableDict(chunk)
            if verifier.reply_key not in chunk:
                return
            part = chunk[verifier.reply_key]
        else:
            part = chunk
        try:
            text = _text_of(part)
        except _Unverifiable as error:
            self._error = self._error or error
            return
        yield {"ethos": "text", "text": text, "chunk": part}
        # The chunk was handed on; now (before the model is waited on again) it is checked.
        self._text.append(text)
        if self._error is not None or not text:
            return
        if self._check is None and not self._deferred:
            self._start()
        if self._check is not None:
            try:
                self._check.feed(text)
            except (ValueError, EthosError) as error:
                # The text goes on streaming; the result says why the answer was not checked.
                self._error, self._check = error, None
                return
            yield from self._verdicts()

    def _start(self) -> None:
        verifier = self._verifier
        retrieved = self._given.get(verifier.documents_key) if self._given is not None else None
        if verifier.source is None and not retrieved:
            self._deferred = True  # the documents may still come: the whole answer is checked at the end
            return
        try:
            self._documents = verifier._sources(self._stack, retrieved)
            self._check = IncrementalAnswerCheck(self._documents, verifier.scope, verifier.ngram, verifier.policy)
        except (ValueError, EthosError) as error:
            self._error = error

    def _verdicts(self) -> Iterator[dict[str, Any]]:
        assert self._check is not None
        while self._emitted < self._check.closed:
            yield {"ethos": "quote", "index": self._emitted, "quote": self._check.quotes[self._emitted]}
            self._emitted += 1

    def finish(self) -> Iterator[dict[str, Any]]:
        """The verdicts of the quotations the end of the answer closed, then the result."""
        verifier = self._verifier
        given: Mapping[str, Any] | None = dict(self._given) if self._given is not None else None
        answer = "".join(self._text)
        if self._error is None and given is not None and verifier.reply_key not in given:
            self._error = _Unverifiable("invalid_reply", f"the input has no reply under {verifier.reply_key!r}")
        if self._error is None and self._check is None:
            self._start()  # deferred until the documents came, or an answer without any text
            try:
                if self._check is not None:
                    self._check.feed(answer)
            except (ValueError, EthosError) as error:
                self._error = error
        if self._error is not None or self._check is None:
            yield verifier._result(given, answer if self._text else None, self._documents, None,
                                   self._error or _Unverifiable("no_source", "nothing to check the answer against"))
            return
        try:
            check = self._check.finish()
        except (ValueError, EthosError) as error:
            yield verifier._result(given, answer, self._documents, None, error)
            return
        yield from self._verdicts()
        yield verifier._result(given, answer, self._documents, check, None)

    def close(self) -> None:
        self._stack.close()

