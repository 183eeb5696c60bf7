"""_metadata - the Ethos metadata contract a retrieval record must carry, built from a chunk record (docs/python-api.md, "Citation emission v1")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._emission_rules import CitationEmissionError

__all__ = ["ETHOS_METADATA_KEYS", "chunk_metadata"]

#: The metadata keys ``build_langchain_context`` / ``build_llamaindex_context`` read, plus the chunk id.
ETHOS_METADATA_KEYS = ("document_fingerprint", "page_refs", "element_refs", "chunk_id")


def chunk_metadata(chunk: Mapping[str, Any]) -> dict[str, Any]:
    """The retrieval metadata of one chunk record: fingerprint, page and element ids, chunk id.

        >>> chunk_metadata({"id": "c000001", "document_fingerprint": "sha256:" + "a" * 64,
        ...                 "page_refs": ["p0001"], "element_refs": ["e000001"], "text": "..."})["element_refs"]
        ['e000001']

    The lists are copied; a record without them raises ``CitationEmissionError``
    ``invalid_chunk_record`` (a chunk that cannot be cited must not be retrieved silently).
    """
    if not isinstance(chunk, Mapping):
        raise CitationEmissionError("invalid_chunk_record", "expected a chunk record mapping")
    fingerprint, chunk_id = chunk.get("document_fingerprint"), chunk.get("id")
    pages, elements = chunk.get("page_refs"), chunk.get("element_refs")
    if not isinstance(fingerprint, str) or not isinstance(chunk_id, str) or not isinstance(chunk.get("text"), str):
        raise CitationEmissionError("invalid_chunk_record", "chunk record needs id, text and document_fingerprint")
    if not isinstance(pages, list) or not isinstance(elements, list):
        raise CitationEmissionError("invalid_chunk_record", "chunk record needs page_refs and element_refs arrays")
    return {"document_fingerprint": fingerprint, "page_refs": list(pages), "element_refs": list(elements),
            "chunk_id": chunk_id}
