"""langchain_loader - EthosPDFLoader, a LangChain document loader that parses PDFs with Ethos into citable documents.

    pip install 'ethos-verify[langchain]'

Each loaded ``Document`` is one Ethos RAG chunk (``ethos rag chunk``): its metadata carries the
document fingerprint, the page and element ids a model cites, and the chunk id, so the citations a
model makes from retrieved chunks hydrate and verify without mapping code (``EthosVerifier``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import Any

from langchain_core.document_loaders import BaseLoader
from langchain_core.documents import Document as LCDocument

from ..artifacts import rag_chunks
from ._metadata import chunk_metadata

__all__ = ["EthosPDFLoader"]


class EthosPDFLoader(BaseLoader):
    """Loads PDFs (one path or several) as Ethos chunks, parsed by ethos-core through the parse
    cache; ``parse_options`` are ``ethos_py.parse_pdf``'s keyword arguments (``pages``,
    ``password``, ``timeout_seconds`` ...). Metadata: the Ethos contract (``document_fingerprint``,
    ``page_refs``, ``element_refs``, ``chunk_id``) plus ``source`` (the path).

        >>> from ethos_py.demo import SAMPLE_PDF
        >>> documents = EthosPDFLoader(SAMPLE_PDF).load()
        >>> documents[0].metadata["document_fingerprint"][:7], documents[0].metadata["element_refs"][:2]
        ('sha256:', ['e000002', 'e000003'])

    ``parsed(path)`` gives the parsed document JSON bytes of a path (the same parse, from the
    cache) for ``ethos_py.Document.from_bytes`` or ``EthosVerifier``.
    """

    def __init__(self, paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], **parse_options: Any) -> None:
        self.paths = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
        self.parse_options = parse_options

    def parsed(self, path: str | os.PathLike[str]) -> bytes:
        """The Ethos document JSON of ``path`` under this loader's parse options."""
        from ..pdf import parse_pdf_bytes

        return parse_pdf_bytes(path, **self.parse_options)

    def lazy_load(self) -> Iterator[LCDocument]:
        """One ``Document`` per chunk, path by path, in chunk order (``id`` = fingerprint + chunk id)."""
        for path in self.paths:
            for chunk in rag_chunks(self.parsed(path)):
                metadata = {**chunk_metadata(chunk), "source": os.fspath(path)}
                yield LCDocument(page_content=chunk["text"], metadata=metadata,
                                 id=f"{chunk['document_fingerprint']}#{chunk['id']}")
