"""llamaindex_postprocessor - EthosNodeVerifier, a LlamaIndex node postprocessor that drops or flags retrieved nodes the source does not bear out.

    pip install 'ethos-verify[llamaindex]'

A retrieved node is checked before it reaches the LLM: it must carry the Ethos metadata contract,
name a document the postprocessor has a source for, and its text must be in that document on the
pages it names (verified by the core, at the default policy, as a quote cited by its page range).
A node that fails - a stale chunk after the document changed, text edited in the vector store,
a node from another document - is dropped (``mode="drop"``) or kept with its verdict in its
metadata (``mode="flag"``: ``ethos_status``, ``ethos_reason``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from llama_index.core.bridge.pydantic import ConfigDict, PrivateAttr
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import NodeWithScore, QueryBundle

from ..document import Document

__all__ = ["EthosNodeVerifier"]

SourceInput = Document | str | os.PathLike[str]


def _citation(metadata: Mapping[str, Any]) -> dict[str, Any] | None:
    pages = metadata.get("page_refs")
    if not isinstance(pages, list) or not pages or not all(isinstance(page, str) for page in pages):
        return None
    first, last = min(pages), max(pages)
    return {"page": first} if first == last else {"page": first, "page_end": last}


class EthosNodeVerifier(BaseNodePostprocessor):
    """Keeps the retrieved nodes whose text the source document bears out.

    ``sources`` maps a document fingerprint to its source (an open ``ethos_py.Document`` or a path;
    a PDF is parsed through the parse cache), or is one source for all nodes. ``mode`` is ``"drop"``
    (default) or ``"flag"``.

        >>> from ethos_py.integrations.llamaindex import chunk_nodes
        >>> from llama_index.core.schema import NodeWithScore
        >>> nodes = [NodeWithScore(node=n, score=1.0) for n in chunk_nodes("examples/quickstart/document.json")]
        >>> nodes[0].node.text = nodes[0].node.text.replace("30%", "50%")  # edited in the store
        >>> EthosNodeVerifier(sources="examples/quickstart/document.json").postprocess_nodes(nodes)
        []
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)
    sources: Any
    mode: str = "drop"
    policy: str | None = None
    _opened: dict[str, Document] = PrivateAttr(default_factory=dict)

    @classmethod
    def class_name(cls) -> str:
        """The name LlamaIndex serializes the component under.

            >>> EthosNodeVerifier.class_name()
            'EthosNodeVerifier'
        """
        return "EthosNodeVerifier"

    def _open(self, source: SourceInput) -> Document:
        if isinstance(source, Document):
            return source
        key = os.path.realpath(os.fspath(source))
        if key not in self._opened:
            from ..testing import open_source

            self._opened[key] = open_source(source)
        return self._opened[key]

    def _document_for(self, fingerprint: Any) -> Document | None:
        if isinstance(self.sources, Mapping):
            source = self.sources.get(fingerprint) if isinstance(fingerprint, str) else None
            return None if source is None else self._open(source)
        document = self._open(self.sources)
        return document if fingerprint == document.fingerprint else None

    def _postprocess_nodes(self, nodes: list[NodeWithScore], query_bundle: QueryBundle | None = None) -> list[NodeWithScore]:
        if self.mode not in ("drop", "flag"):
            raise ValueError(f"mode must be 'drop' or 'flag', not {self.mode!r}")
        verdicts: list[tuple[str, str | None]] = [("unverifiable", "missing_ethos_metadata")] * len(nodes)
        by_document: dict[int, tuple[Document, list[int], list[dict[str, Any]]]] = {}
        for index, scored in enumerate(nodes):
            metadata = scored.node.metadata
            citation = _citation(metadata)
            if citation is None:
                continue
            document = self._document_for(metadata.get("document_fingerprint"))
            if document is None:
                verdicts[index] = ("unverifiable", "unknown_document")
                continue
            entry = by_document.setdefault(id(document), (document, [], []))
            entry[1].append(index)
            entry[2].append({"kind": "quote", "text": scored.node.get_content(), "citation": citation})
        for document, indexes, claims in by_document.values():
            citations = {"document_fingerprint": document.fingerprint, "claims": claims}
            report = json.loads(document.verify_json(citations, policy=self.policy))
            for index, check in zip(indexes, report["checks"]):
                verdicts[index] = (check["status"], check.get("reason"))
        kept: list[NodeWithScore] = []
        for scored, (status, reason) in zip(nodes, verdicts):
            if self.mode == "flag":
                # A copy: the retrieved node may be the vector store's own object.
                node = scored.node.model_copy()
                node.metadata = {**scored.node.metadata, "ethos_status": status, "ethos_reason": reason}
                kept.append(NodeWithScore(node=node, score=scored.score))
            elif status == "grounded":
                kept.append(scored)
        return kept
