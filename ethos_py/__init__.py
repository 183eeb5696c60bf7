"""ethos_py - the Python surface of Ethos, a deterministic evidence verifier for AI answers.

Two paths end in the same native core and give the same report bytes:

- in process, through the C ABI: ``Document``, ``verify``, ``proof_summary``, ``summary_text``;
- as a subprocess: ``EthosCli`` (the bundled ``ethos-core`` by default).

Citation emission v1 (``emit``), the evidence-handle v2 bridge (``handles``) and the presentation
sanitizer are pure Python and import no framework; ``ethos_py.integrations`` holds the LangChain
and LlamaIndex adapters (optional extras).

Model replies (docs/replies.md): ``extract_json_payload`` finds a reply's JSON payload,
``verify_quotes`` / ``verify_anchors`` verify its quotes with the core's matcher, ``apply_edits``
applies only edits whose anchor is verified, and ``normalize_text`` is the matcher's folding.

PDFs become documents through ``parse_pdf_json`` / ``parse_pdf_markdown`` / ``parse_pdf_text``,
which run ``ethos-core doc parse`` (PDFium from pypdfium2, in killable child processes).

The in-process names load the native library on first use, so ``EthosCli`` and the exceptions
stay importable even where the library cannot be loaded.

Every failure is an ``EthosError`` (``except ethos_py.EthosError`` catches them all, PDF parse
failures included). A program written against the public ``ethos-pdf`` 0.6.0 runs unchanged
after ``import ethos_py as ethos_pdf``: the same names, keyword arguments and exceptions
(docs/python-api.md, "Coming from ethos-pdf").
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .cli_wrapper import EthosCli
from .errors import (
    CorruptPdfError,
    EthosCommandError,
    EthosError,
    EthosNotFoundError,
    EthosOutputError,
    EthosPythonSurfaceError,
    EthosTimeoutError,
    FileTooLargeError,
    InvalidInputError,
    InvalidPdfError,
    MemoryLimitExceededError,
    OcrRequiredError,
    PageLimitExceededError,
    ParseTimeoutError,
    PasswordProtectedError,
    PdfiumNotFoundError,
    UnsupportedPdfFeatureError,
)
from .pdf import parse_pdf, parse_pdf_bytes, parse_pdf_json, parse_pdf_markdown, parse_pdf_text

from .emit import (
    CitationEmissionError,
    build_citation_emission,
    build_langchain_context,
    build_llamaindex_context,
    citation_json_bytes,
    emit_langchain_citations,
    emit_llamaindex_citations,
    hydrate_citations,
)
from .handles import (
    EVIDENCE_HANDLE_CONTEXT_SCHEMA_VERSION,
    EVIDENCE_HANDLE_EMISSION_SCHEMA_VERSION,
    build_evidence_citation_emission,
    build_evidence_handle_context,
    hydrate_evidence_citations,
    project_evidence_states,
)
from .presentation import sanitize_answer_text, sanitize_evidence_states, sanitize_presentation_text
from .release import app_answer_release_decision

if TYPE_CHECKING:
    from .document import Document, verify
    from .document import verify_batch
    from .artifacts import rag_chunks, rag_chunks_jsonl, security_report, security_report_json
    from .proof import proof_summary, summary_text
    from .evidence_anchor import anchor, anchor_json
    from .crops import crop_descriptors, crop_element
    from .answer import (
        answer_summary_text,
        check,
        check_answer,
        check_answer_json,
        render_html,
        render_result,
        render_words,
        tiktoken_counter,
        token_counts,
    )
    from .stream import AnswerText, verify_answer
    from .reply_extract import extract_json_block, extract_json_payload
    from .reply_verify import verify_anchors, verify_quotes
    from .edits import apply_edits
    from .normalization import normalize_text
    from .report_html import render_report_html
    from .notebook import ReportView

# name -> module that defines it; imported on first access (PEP 562).
_NATIVE_NAMES = {
    "Document": "document",
    "verify": "document",
    "proof_summary": "proof",
    "summary_text": "proof",
    "rag_chunks": "artifacts",
    "rag_chunks_jsonl": "artifacts",
    "security_report": "artifacts",
    "security_report_json": "artifacts",
    "anchor": "evidence_anchor",
    "anchor_json": "evidence_anchor",
    "verify_batch": "document",
    "crop_element": "crops",
    "crop_descriptors": "crops",
    "check": "answer",
    "check_answer": "answer",
    "check_answer_json": "answer",
    "answer_summary_text": "answer",
    "render_html": "answer",
    "render_result": "answer",
    "render_words": "answer",
    "token_counts": "answer",
    "tiktoken_counter": "answer",
    "verify_answer": "stream",
    "AnswerText": "stream",
    "extract_json_block": "reply_extract",
    "extract_json_payload": "reply_extract",
    "verify_anchors": "reply_verify",
    "render_report_html": "report_html",
    "ReportView": "notebook",
    "verify_quotes": "reply_verify",
    "apply_edits": "edits",
    "normalize_text": "normalization",
}

__all__ = [
    "CitationEmissionError",
    "CorruptPdfError",
    "Document",
    "EVIDENCE_HANDLE_CONTEXT_SCHEMA_VERSION",
    "EVIDENCE_HANDLE_EMISSION_SCHEMA_VERSION",
    "EthosCli",
    "EthosCommandError",
    "EthosError",
    "EthosNotFoundError",
    "EthosOutputError",
    "EthosPythonSurfaceError",
    "EthosTimeoutError",
    "FileTooLargeError",
    "InvalidInputError",
    "InvalidPdfError",
    "MemoryLimitExceededError",
    "OcrRequiredError",
    "PageLimitExceededError",
    "ParseTimeoutError",
    "PasswordProtectedError",
    "PdfiumNotFoundError",
    "UnsupportedPdfFeatureError",
    "__version__",
    "anchor",
    "anchor_json",
    "app_answer_release_decision",
    "build_citation_emission",
    "build_evidence_citation_emission",
    "build_evidence_handle_context",
    "build_langchain_context",
    "build_llamaindex_context",
    "citation_json_bytes",
    "emit_langchain_citations",
    "emit_llamaindex_citations",
    "hydrate_citations",
    "hydrate_evidence_citations",
    "parse_pdf",
    "parse_pdf_bytes",
    "parse_pdf_json",
    "parse_pdf_markdown",
    "parse_pdf_text",
    "project_evidence_states",
    "proof_summary",
    "rag_chunks",
    "rag_chunks_jsonl",
    "sanitize_answer_text",
    "sanitize_evidence_states",
    "sanitize_presentation_text",
    "security_report",
    "security_report_json",
    "summary_text",
    "verify",
    "verify_batch",
    "crop_element",
    "crop_descriptors",
    "check",
    "check_answer",
    "check_answer_json",
    "answer_summary_text",
    "render_html",
    "render_result",
    "render_words",
    "token_counts",
    "tiktoken_counter",
    "verify_answer",
    "AnswerText",
    "extract_json_block",
    "extract_json_payload",
    "verify_anchors",
    "verify_quotes",
    "apply_edits",
    "normalize_text",
    "render_report_html",
    "ReportView",
]


def __getattr__(name: str) -> Any:
    if name == "__version__":
        # Looked up on first use: importing importlib.metadata costs tens of milliseconds, which
        # every process importing ethos_py would pay (each worker of `ethos batch` among them).
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("ethos-verify")
        except PackageNotFoundError:  # a source checkout that was never installed
            found = "0+unknown"
        globals()["__version__"] = found
        return found
    module = _NATIVE_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'ethos_py' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
