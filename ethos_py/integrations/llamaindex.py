"""llamaindex - Ethos chunks as LlamaIndex ``TextNode`` objects, and the citation helpers for LlamaIndex retrieval results.

    pip install 'ethos-verify[llamaindex]'

Nodes carry the Ethos metadata contract; it is kept out of the embedding text (ids are not
meaning) but the page and element ids are shown to the LLM, which must cite them (the fingerprint
is not: hydration injects it from trusted data). ``emit_llamaindex_citations`` accepts the
``NodeWithScore`` results a retriever returns as they are. ``EthosPDFReader`` reads PDFs as such
documents, ``EthosNodeVerifier`` drops or flags retrieved nodes the source does not bear out, and
``EthosEvaluator`` grades a response deterministically beside ``FaithfulnessEvaluator``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from llama_index.core.schema import TextNode

from ..artifacts import DocumentInput, rag_chunks
from ..emit import build_llamaindex_context, emit_llamaindex_citations
from ._metadata import ETHOS_METADATA_KEYS, chunk_metadata
from .llamaindex_evaluator import EthosEvaluator
from .llamaindex_postprocessor import EthosNodeVerifier
from .llamaindex_reader import EthosPDFReader

__all__ = [
    "EthosEvaluator",
    "EthosNodeVerifier",
    "EthosPDFReader",
    "build_llamaindex_context",
    "chunk_nodes",
    "emit_llamaindex_citations",
    "nodes_from_chunks",
]


def nodes_from_chunks(chunks: Iterable[Mapping[str, Any]]) -> list[TextNode]:
    """One LlamaIndex ``TextNode`` per chunk record, in chunk order (``id_`` = chunk id).

        >>> nodes = nodes_from_chunks([{"id": "c000001", "text": "Revenue grew.",
        ...     "document_fingerprint": "sha256:" + "a" * 64, "page_refs": ["p0001"], "element_refs": ["e000002"]}])
        >>> nodes[0].node_id, nodes[0].metadata["page_refs"]
        ('c000001', ['p0001'])
    """
    return [
        TextNode(
            id_=chunk["id"],
            text=chunk["text"],
            metadata=chunk_metadata(chunk),
            excluded_embed_metadata_keys=list(ETHOS_METADATA_KEYS),
            # The model cites ids, never the fingerprint: hydration injects it from trusted data.
            excluded_llm_metadata_keys=["document_fingerprint"],
        )
        for chunk in chunks
    ]


def chunk_nodes(document: DocumentInput) -> list[TextNode]:
    """The chunks of a native Ethos document (``ethos rag chunk``) as LlamaIndex nodes.

        >>> [n.node_id for n in chunk_nodes("examples/quickstart/document.json")]
        ['c000001']
    """
    return nodes_from_chunks(rag_chunks(document))
