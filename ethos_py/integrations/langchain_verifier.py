"""langchain_verifier - EthosVerifier, a LangChain Runnable that verifies a model's cited answer against the retrieved documents' source and attaches the verdict.

    pip install 'ethos-verify[langchain]'

In LCEL it is the step after the model::

    chain = (RunnablePassthrough.assign(documents=itemgetter("question") | retriever)
             | RunnablePassthrough.assign(reply=prompt | model)
             | EthosVerifier("report.pdf"))

Its input is a mapping with the model's reply (a message, JSON text, or ``{"answer", "claims"}``),
the retrieved documents (LangChain ``Document``s carrying the Ethos metadata contract, e.g. from
``chunk_documents`` or ``EthosPDFLoader``) and the question. Its output is that mapping plus
``answer``, ``claims``, ``citations`` (hydrated: only ids the retrieval showed are accepted),
``report``, ``proof`` (the proof summary), ``release`` (the app answer release decision) and
``error`` (None, or why the reply could not be checked: then nothing is released). ``invoke``,
``batch``, ``stream`` and ``astream`` all work: a streamed reply is gathered, then verified whole,
since a JSON reply's claims are known only once it is complete. A free-form answer (prose with
quotations) is checked while it streams by ``EthosAnswerVerifier`` (langchain_answer_verifier).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable, RunnableConfig

from ..document import Document
from ..emit import emit_langchain_citations
from ..errors import EthosError
from ._opened_sources import OpenedSources
from ..proof import proof_summary
from ..release import app_answer_release_decision
from ..reply_extract import extract_json_payload

__all__ = ["DEFAULT_CLAIM_LABELS", "EthosVerifier"]

#: The labels the release decision needs for each claim besides its grounding. Ethos decides only
#: what grounding allows; an app that labels relevance and support itself passes its own.
DEFAULT_CLAIM_LABELS: Mapping[str, str] = {
    "question_relevance": "direct_answer",
    "claim_type": "source_fact",
    "claim_support": "supported",
}

SourceInput = Document | str | os.PathLike[str]


def _message_text(reply: BaseMessage) -> str:
    content = reply.content
    if isinstance(content, str):
        return content
    # Content blocks: the text blocks, in order (tool calls and images carry no answer text).
    return "".join(block if isinstance(block, str) else str(block.get("text", "")) for block in content
                   if isinstance(block, str) or block.get("type") == "text")


def reply_payload(reply: Any) -> dict[str, Any]:
    """``{"answer", "claims"}`` from a model reply: a mapping as it is, or the JSON payload of a
    message's text or a string (``extract_json_payload``: fences, prose and sketches around it).
    Raises ``ValueError`` when there is no such object."""
    if isinstance(reply, BaseMessage):
        reply = _message_text(reply)
    if isinstance(reply, str):
        # Prose, fences and schema sketches around the payload, as models write them.
        extraction = extract_json_payload(reply)
        if not extraction.found:
            raise ValueError(f"the model's reply holds no JSON answer ({extraction.reason})")
        reply = extraction.payload
    if not isinstance(reply, Mapping):
        raise ValueError(f"the model's reply is a {type(reply).__name__}, not an object with answer and claims")
    if not isinstance(reply.get("answer"), str) or not isinstance(reply.get("claims"), list):
        raise ValueError("the model's reply needs a string 'answer' and a list 'claims'")
    return dict(reply)


class EthosVerifier(Runnable[Mapping[str, Any], dict[str, Any]]):
    """Verifies the cited answer in its input against ``source`` and returns the input with the verdict.

    ``source`` is the document the retrieved chunks come from: an open ``ethos_py.Document``, a
    path (a PDF is parsed by ethos-core through the parse cache), or a mapping from document
    fingerprint to either, for retrieval over several documents (the citations' fingerprint picks
    one). Paths are opened once, on first use.

        >>> from langchain_core.documents import Document as LCDocument
        >>> from ethos_py.integrations.langchain import chunk_documents
        >>> verifier = EthosVerifier("examples/quickstart/document.json")
        >>> out = verifier.invoke({"question": "What did the pilot do?",
        ...     "documents": chunk_documents("examples/quickstart/document.json"),
        ...     "reply": {"answer": "Response time fell 30%.", "claims": [{"kind": "quote",
        ...               "text": "The pilot cut average response time by 30%", "element_id": "e000002"}]}})
        >>> out["report"]["checks"][0]["status"], out["release"]["app_status"], out["error"]
        ('grounded', 'certified', None)
    """

    def __init__(
        self,
        source: SourceInput | Mapping[str, SourceInput],
        *,
        reply_key: str = "reply",
        documents_key: str = "documents",
        question_key: str = "question",
        policy: str | None = None,
        claim_labels: Mapping[str, str] = DEFAULT_CLAIM_LABELS,
    ) -> None:
        self.source = source
        self.reply_key, self.documents_key, self.question_key = reply_key, documents_key, question_key
        self.policy = policy
        self.claim_labels = dict(claim_labels)
        self._sources_opened = OpenedSources()

    def _open(self, source: SourceInput) -> Document:
        return self._sources_opened.open(source)

    def _document_for(self, fingerprint: str | None) -> Document:
        if not isinstance(self.source, Mapping):
            return self._open(self.source)
        if fingerprint is None or fingerprint not in self.source:
            raise ValueError(f"no source for document fingerprint {fingerprint!r}: the verifier knows "
                             f"{sorted(self.source)}")
        return self._open(self.source[fingerprint])

    def invoke(self, input: Mapping[str, Any], config: RunnableConfig | None = None, **kwargs: Any) -> dict[str, Any]:  # noqa: A002
        """Verifies one input; see the class documentation for what goes in and comes out."""
        return self._call_with_config(self._verify, input, config, run_type="parser", **kwargs)

    def _verify(self, input: Mapping[str, Any]) -> dict[str, Any]:  # noqa: A002
        if not isinstance(input, Mapping):
            raise TypeError(f"EthosVerifier takes a mapping with {self.reply_key!r} and {self.documents_key!r}, "
                            f"not a {type(input).__name__}")
        result: dict[str, Any] = {**input, "answer": None, "claims": None, "citations": None, "report": None,
                                  "proof": None, "release": None, "error": None}
        try:
            payload = reply_payload(input[self.reply_key] if self.reply_key in input else input)
            result["answer"], result["claims"] = payload["answer"], payload["claims"]
            citations = emit_langchain_citations(input.get(self.documents_key) or [], payload["answer"], payload["claims"])
            result["citations"] = citations
            document = self._document_for(citations.get("document_fingerprint"))
            report: dict[str, Any] = json.loads(document.verify_json(citations, policy=self.policy))
        except (ValueError, EthosError) as error:
            # The verdict is a fact on the result, never a silent pass: nothing is released.
            code = (error.code or "ethos_error") if isinstance(error, EthosError) else "invalid_reply"
            result["error"] = {"code": code, "message": str(error)}
            return result
        proof = proof_summary(report)
        claims = [
            {"id": f"c{index}", "text": str(claim.get("text", "")), "check_ids": [check["id"]], **self.claim_labels}
            for index, (claim, check) in enumerate(zip(payload["claims"], report["checks"]), 1)
        ]
        question = input.get(self.question_key)
        result["report"], result["proof"] = report, proof
        if not isinstance(question, str) or not question.strip():
            # The release decision is about an answer to a question; without one nothing is released.
            result["error"] = {"code": "missing_question",
                               "message": f"the input has no question under {self.question_key!r}: no release decision"}
            return result
        result["release"] = app_answer_release_decision(question, proof, claims)
        return result
