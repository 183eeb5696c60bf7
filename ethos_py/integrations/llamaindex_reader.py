"""llamaindex_reader - EthosPDFReader, a LlamaIndex reader that parses PDFs with Ethos into citable documents.

    pip install 'ethos-verify[llamaindex]'

Each ``Document`` is one Ethos RAG chunk (``ethos rag chunk``) with the Ethos metadata contract
(fingerprint, page and element ids, chunk id), kept out of the embedding text, with the fingerprint
hidden from the LLM (it cites ids; hydration injects the fingerprint), as ``chunk_nodes`` does.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from llama_index.core.readers.base import BaseReader
from llama_index.core.schema import Document

from ..artifacts import rag_chunks
from ._metadata import ETHOS_METADATA_KEYS, chunk_metadata

__all__ = ["EthosPDFReader"]


class EthosPDFReader(BaseReader):
    """Reads PDFs as Ethos chunks, parsed by ethos-core through the parse cache; ``parse_options``
    are ``ethos_py.parse_pdf``'s keyword arguments (``pages``, ``password``, ``timeout_seconds``
    ...). Metadata: the Ethos contract plus ``file_path``. Works as a ``SimpleDirectoryReader``
    file extractor (``file_extractor={".pdf": EthosPDFReader()}``).

        >>> from ethos_py.demo import SAMPLE_PDF
        >>> documents = EthosPDFReader().load_data(SAMPLE_PDF)
        >>> documents[0].metadata["element_refs"], documents[0].excluded_llm_metadata_keys
        (['e000002', 'e000003'], ['document_fingerprint'])
    """

    def __init__(self, **parse_options: Any) -> None:
        super().__init__()
        self._parse_options = parse_options

    def lazy_load_data(self, file: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
                       extra_info: dict[str, Any] | None = None, **_: Any) -> Iterator[Document]:
        """One ``Document`` per chunk of each file, in chunk order (``id_`` = fingerprint#chunk id);
        ``extra_info`` is added to every document's metadata."""
        from ..pdf import parse_pdf_bytes

        files = [file] if isinstance(file, (str, os.PathLike)) else list(file)
        for path in files:
            for chunk in rag_chunks(parse_pdf_bytes(path, **self._parse_options)):
                yield Document(
                    id_=f"{chunk['document_fingerprint']}#{chunk['id']}",
                    text=chunk["text"],
                    metadata={**(extra_info or {}), **chunk_metadata(chunk), "file_path": str(Path(path))},
                    excluded_embed_metadata_keys=[*ETHOS_METADATA_KEYS, "file_path"],
                    excluded_llm_metadata_keys=["document_fingerprint"],
                )

    def load_data(self, file: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
                  extra_info: dict[str, Any] | None = None, **kwargs: Any) -> list[Document]:
        """``lazy_load_data`` as a list."""
        return list(self.lazy_load_data(file, extra_info, **kwargs))
