"""artifacts - what the core derives from a parsed document: RAG chunks and the security report."""

from __future__ import annotations

import json
import os
from typing import Any

from . import _ffi
from ._host_io import read_input_file

__all__ = ["rag_chunks", "rag_chunks_jsonl", "security_report", "security_report_json"]

#: A native document: a path (``str`` or ``os.PathLike``) or the document JSON bytes.
DocumentInput = str | os.PathLike[str] | bytes | bytearray | memoryview


def _document_bytes(document: DocumentInput) -> bytes:
    if isinstance(document, (bytes, bytearray, memoryview)):
        return bytes(document)
    return read_input_file(document)


def rag_chunks_jsonl(document: DocumentInput) -> bytes:
    """The document's chunks as chunks.jsonl bytes (docs/cli.md §3.6a), exactly as ``ethos rag chunk``.

    Each line is one canonical JSON object carrying ``document_fingerprint`` so a retrieval
    pipeline can pin the citations a model later makes from that chunk::

        >>> lines = rag_chunks_jsonl("examples/quickstart/document.json").splitlines()
        >>> json.loads(lines[0])["id"]
        'c000001'

    The document is validated like ``Document.open`` (``EthosError`` ``invalid_input`` ...).
    """
    data = _document_bytes(document)
    return _ffi.call_string(_ffi.lib.ethos_rag_chunks, data, len(data))


def rag_chunks(document: DocumentInput) -> list[dict[str, Any]]:
    """The chunk records of :func:`rag_chunks_jsonl`, parsed, in chunk order.

        >>> chunks = rag_chunks("examples/quickstart/document.json")
        >>> len(chunks), chunks[0]["document_fingerprint"][:7]
        (1, 'sha256:')
    """
    return [json.loads(line) for line in rag_chunks_jsonl(document).splitlines()]


def security_report_json(document: DocumentInput) -> bytes:
    """The security report (docs/cli.md §3.6a) as canonical JSON bytes, as ``ethos security report``.

        >>> data = security_report_json("schemas/examples/document.example.json")
        >>> sorted(json.loads(data))[:3]
        ['document_fingerprint', 'findings', 'inventories']
    """
    data = _document_bytes(document)
    return _ffi.call_string(_ffi.lib.ethos_security_report, data, len(data))


def security_report(document: DocumentInput) -> dict[str, Any]:
    """The security report as a dict: one finding per security warning of the document::

        >>> report = security_report("schemas/examples/document.example.json")
        >>> [(f["code"], f["span_ref"]) for f in report["findings"]]
        [('hidden_text_detected', 's000003')]
    """
    parsed: dict[str, Any] = json.loads(security_report_json(document))
    return parsed
