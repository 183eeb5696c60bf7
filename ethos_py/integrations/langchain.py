"""langchain - Ethos chunks as LangChain ``Document`` objects, and the citation helpers for LangChain retrieval results.

    pip install 'ethos-verify[langchain]'

A retriever built over these documents returns documents whose metadata already follows the Ethos
contract, so ``emit_langchain_citations(retrieved, answer, claims)`` hydrates the model's citations
without any mapping code. ``EthosPDFLoader`` loads PDFs as such documents, and ``EthosVerifier`` is
the LCEL step after the model that verifies its cited answer and attaches the verdict;
``EthosAnswerVerifier`` checks a free-form answer's quotations while it streams.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from langchain_core.documents import Document

from ..artifacts import DocumentInput, rag_chunks
from ..emit import build_langchain_context, emit_langchain_citations
from ._metadata import chunk_metadata
from .langchain_answer_verifier import EthosAnswerVerifier
from .langchain_loader import EthosPDFLoader
from .langchain_parser import EthosCitationParser
from .langchain_verifier import DEFAULT_CLAIM_LABELS, EthosVerifier

__all__ = [
    "DEFAULT_CLAIM_LABELS",
    "EthosAnswerVerifier",
    "EthosCitationParser",
    "EthosPDFLoader",
    "EthosVerifier",
    "build_langchain_context",
    "chunk_documents",
    "documents_from_chunks",
    "emit_langchain_citations",
]


def documents_from_chunks(chunks: Iterable[Mapping[str, Any]]) -> list[Document]:
    """One LangChain ``Document`` per chunk record, in chunk order (``id`` = chunk id).

        >>> docs = documents_from_chunks([{"id": "c000001", "text": "Revenue grew.",
        ...     "document_fingerprint": "sha256:" + "a" * 64, "page_refs": ["p0001"], "element_refs": ["e000002"]}])
        >>> docs[0].page_content, docs[0].metadata["element_refs"]
        ('Revenue grew.', ['e000002'])
    """
    return [Document(page_content=chunk["text"], metadata=chunk_metadata(chunk), id=chunk["id"]) for chunk in chunks]


def chunk_documents(document: DocumentInput) -> list[Document]:
    """The chunks of a native Ethos document (``ethos rag chunk``) as LangChain documents.

        >>> [d.id for d in chunk_documents("examples/quickstart/document.json")]
        ['c000001']

    The document is validated by the core first (``EthosError`` for a bad or tampered document).
    """
    return documents_from_chunks(rag_chunks(document))
