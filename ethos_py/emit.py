"""emit - citation emission v1: the model's citation output, the trusted retrieval vocabulary, and hydration into citations.json.

The flow (docs/contracts.md#citation-emission-and-evidence-handles): retrieval results carry explicit Ethos metadata
(``document_fingerprint`` plus ``page_refs`` / ``element_refs`` / ``span_refs`` / ``table_cells``);
the model answers with an emission v1 artifact naming only ids it was shown; hydration checks every
id against the retrieval vocabulary, injects the fingerprint from trusted data and yields the
citations input of ``ethos verify``. Any failure rejects the whole batch with a
``CitationEmissionError`` whose ``code`` is stable; nothing is repaired, dropped or guessed.

Same names, behaviour, codes and messages as the public ``ethos_pdf.emit`` (checked by differential
tests). Framework objects are read by duck typing (``.metadata``, ``.node``), so this module imports
neither LangChain nor LlamaIndex.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ._emission_rules import (
    CLAIM_KINDS,
    MAX_CLAIMS,
    CitationEmissionError,
    copy_claims,
    is_cell_coordinate,
    is_fingerprint,
    materialize_records,
    require_nonblank,
    require_source_id,
)
# ethos_pdf.emit also holds the evidence-handle helpers; re-exported so switching the import is enough.
from .handles import (
    EVIDENCE_HANDLE_CONTEXT_SCHEMA_VERSION,
    EVIDENCE_HANDLE_EMISSION_SCHEMA_VERSION,
    build_evidence_citation_emission,
    build_evidence_handle_context,
    hydrate_evidence_citations,
    project_evidence_states,
)

__all__ = [
    "DEFAULT_MAX_CLAIMS",
    "EMISSION_SCHEMA_VERSION",
    "EVIDENCE_HANDLE_CONTEXT_SCHEMA_VERSION",
    "EVIDENCE_HANDLE_EMISSION_SCHEMA_VERSION",
    "CitationEmissionError",
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
    "project_evidence_states",
]

EMISSION_SCHEMA_VERSION = "1.0.0"
DEFAULT_MAX_CLAIMS = MAX_CLAIMS

_EMISSION_FIELDS = frozenset({"schema_version", "answer", "claims"})
_CONTEXT_FIELDS = frozenset({"document_fingerprint", "pages", "elements", "spans", "table_cells"})
_TABLE_CELL_FIELDS = frozenset({"table_id", "row", "col"})
# Claim fields per kind: table cells are addressed by table + cell, the rest by page/element/span.
_TABLE_CLAIM_ALLOWED = frozenset({"kind", "text", "page", "table_id", "cell"})
_TABLE_CLAIM_REQUIRED = frozenset({"kind", "text", "table_id", "cell"})
_TEXT_LOCATORS = ("page", "element_id", "span_id")
_PRIMARY_LOCATORS = ("element_id", "span_id")
# Retrieval metadata list -> the context key it feeds, in the order records are read.
_REF_LISTS = (("page_refs", "pages"), ("element_refs", "elements"), ("span_refs", "spans"))


def citation_json_bytes(value: Mapping[str, Any]) -> bytes:
    """The bytes to store or send for an emission or hydrated citations artifact.

    Two-space indented JSON, ASCII-escaped, keys in insertion order, one trailing newline: the
    same bytes as ``ethos_pdf.citation_json_bytes``, so artifacts diff cleanly across both::

        >>> citation_json_bytes({"claims": [], "document_fingerprint": "sha256:" + "0" * 64})[:14]
        b'{\\n  "claims": '

    A non-mapping or a value JSON cannot hold raises ``CitationEmissionError`` ``invalid_artifact``.
    """
    if not isinstance(value, Mapping):
        raise CitationEmissionError("invalid_artifact", "expected a mapping")
    try:
        text = json.dumps(value, ensure_ascii=True, indent=2)
    except (TypeError, ValueError) as error:
        raise CitationEmissionError("invalid_artifact", str(error)) from error
    return (text + "\n").encode("utf-8")


def build_citation_emission(
    answer: str,
    claims: Iterable[Mapping[str, Any]],
    *,
    max_claims: int = DEFAULT_MAX_CLAIMS,
) -> dict[str, Any]:
    """Builds and validates an emission v1 artifact (what a model or callback returns).

    ``claims`` are copied; each is ``quote``/``value`` (``text`` + one of ``element_id``,
    ``span_id`` or a page-only ``page``), ``presence`` (a locator, no text) or ``table_cell``
    (``text``, ``table_id``, ``cell {row, col}``, optional ``page``)::

        >>> emission = build_citation_emission("Revenue grew.", [
        ...     {"kind": "quote", "text": "Revenue grew", "element_id": "e000002"}])
        >>> emission["schema_version"], len(emission["claims"])
        ('1.0.0', 1)

    Raises ``CitationEmissionError`` (``invalid_claim``, ``locator_conflict``, ``locator_missing``,
    ``claim_limit_exceeded``, ...) for anything the contract forbids, fingerprints and bboxes included.
    """
    emission = {"schema_version": EMISSION_SCHEMA_VERSION, "answer": answer, "claims": copy_claims(claims)}
    _check_emission(emission, max_claims)
    return emission


def build_langchain_context(documents: Iterable[Any]) -> dict[str, Any]:
    """The trusted retrieval vocabulary of LangChain ``Document`` results (or mappings like them).

    Each document's ``metadata`` must hold the Ethos metadata contract; numeric page numbers and
    other framework fields are ignored on purpose::

        >>> from langchain_core.documents import Document
        >>> build_langchain_context([Document(page_content="Revenue grew.", metadata={
        ...     "document_fingerprint": "sha256:" + "a" * 64, "element_refs": ["e000002"]})])["elements"]
        ['e000002']
    """
    metadata = []
    for index, document in enumerate(materialize_records(documents), 1):
        found = document.get("metadata") if isinstance(document, Mapping) else getattr(document, "metadata", None)
        metadata.append(_require_metadata(found, index))
    return _vocabulary(metadata)


def build_llamaindex_context(nodes: Iterable[Any]) -> dict[str, Any]:
    """The trusted retrieval vocabulary of LlamaIndex ``TextNode`` / ``NodeWithScore`` results.

    A ``NodeWithScore`` is unwrapped to its ``node``; the node's ``metadata`` must hold the Ethos
    metadata contract (see ``build_langchain_context``)::

        >>> from llama_index.core.schema import NodeWithScore, TextNode
        >>> node = TextNode(text="Revenue grew.", metadata={
        ...     "document_fingerprint": "sha256:" + "a" * 64, "page_refs": ["p0001"]})
        >>> build_llamaindex_context([NodeWithScore(node=node, score=0.9)])["pages"]
        ['p0001']
    """
    metadata = []
    for index, result in enumerate(materialize_records(nodes), 1):
        node = result.get("node", result) if isinstance(result, Mapping) else getattr(result, "node", result)
        found = node.get("metadata") if isinstance(node, Mapping) else getattr(node, "metadata", None)
        metadata.append(_require_metadata(found, index))
    return _vocabulary(metadata)


def hydrate_citations(
    emission: Mapping[str, Any],
    context: Mapping[str, Any],
    *,
    max_claims: int = DEFAULT_MAX_CLAIMS,
) -> dict[str, Any]:
    """Turns a validated emission into ``ethos verify`` citations, using only ids the context shows.

    The fingerprint comes from the context (never from the model); claim order and text are
    kept verbatim::

        >>> context = {"document_fingerprint": "sha256:" + "a" * 64, "pages": ["p0001"],
        ...            "elements": ["e000002"], "spans": [], "table_cells": []}
        >>> emission = build_citation_emission("Revenue grew.", [
        ...     {"kind": "quote", "text": "Revenue grew", "element_id": "e000002"}])
        >>> hydrate_citations(emission, context)["claims"][0]["citation"]
        {'element_id': 'e000002'}

    An id or cell that was not shown raises ``CitationEmissionError`` ``out_of_vocabulary``.
    """
    _check_emission(emission, max_claims)
    shown = _check_context(context)
    claims = []
    for index, emitted in enumerate(emission["claims"], 1):
        citation: dict[str, Any] = {}
        for field, vocabulary in (("page", "pages"), ("element_id", "elements"), ("span_id", "spans")):
            value = emitted.get(field)
            if value is None:
                continue
            if value not in shown[vocabulary]:
                raise CitationEmissionError("out_of_vocabulary", f"{field} {value} was not shown", claim_index=index)
            citation[field] = value
        table_id = emitted.get("table_id")
        if table_id is not None:
            row, col = emitted["cell"]["row"], emitted["cell"]["col"]
            if (table_id, row, col) not in shown["table_cells"]:
                raise CitationEmissionError(
                    "out_of_vocabulary", f"table_cell {table_id}[{row},{col}] was not shown", claim_index=index
                )
            citation["table_id"] = table_id
            citation["cell"] = {"row": row, "col": col}
        claim: dict[str, Any] = {"kind": emitted["kind"]}
        if "text" in emitted:
            claim["text"] = emitted["text"]
        claim["citation"] = citation
        claims.append(claim)
    return {"document_fingerprint": shown["document_fingerprint"], "claims": claims}


def emit_langchain_citations(
    documents: Iterable[Any],
    answer: str,
    claims: Iterable[Mapping[str, Any]],
    *,
    max_claims: int = DEFAULT_MAX_CLAIMS,
) -> dict[str, Any]:
    """``build_citation_emission`` then ``hydrate_citations`` against LangChain retrieval results.

        >>> from langchain_core.documents import Document
        >>> documents = [Document(page_content="Revenue grew.", metadata={
        ...     "document_fingerprint": "sha256:" + "a" * 64, "element_refs": ["e000002"]})]
        >>> emit_langchain_citations(documents, "Revenue grew.", [
        ...     {"kind": "quote", "text": "Revenue grew", "element_id": "e000002"}])["claims"][0]["kind"]
        'quote'
    """
    emission = build_citation_emission(answer, claims, max_claims=max_claims)
    return hydrate_citations(emission, build_langchain_context(documents), max_claims=max_claims)


def emit_llamaindex_citations(
    nodes: Iterable[Any],
    answer: str,
    claims: Iterable[Mapping[str, Any]],
    *,
    max_claims: int = DEFAULT_MAX_CLAIMS,
) -> dict[str, Any]:
    """``build_citation_emission`` then ``hydrate_citations`` against LlamaIndex retrieval results.

        >>> from llama_index.core.schema import TextNode
        >>> nodes = [TextNode(text="Revenue grew.", metadata={
        ...     "document_fingerprint": "sha256:" + "a" * 64, "page_refs": ["p0001"]})]
        >>> emit_llamaindex_citations(nodes, "Revenue grew.", [
        ...     {"kind": "presence", "page": "p0001"}])["claims"][0]["citation"]
        {'page': 'p0001'}
    """
    emission = build_citation_emission(answer, claims, max_claims=max_claims)
    return hydrate_citations(emission, build_llamaindex_context(nodes), max_claims=max_claims)


# -- validation ---------------------------------------------------------------------------------


def _check_emission(emission: Any, max_claims: Any) -> None:
    if not isinstance(emission, Mapping):
        raise CitationEmissionError("invalid_emission", "expected a mapping")
    if set(emission) != _EMISSION_FIELDS:
        raise CitationEmissionError("invalid_emission", "top-level fields do not match v1")
    if emission["schema_version"] != EMISSION_SCHEMA_VERSION:
        raise CitationEmissionError("unsupported_schema_version", "expected 1.0.0")
    require_nonblank(emission["answer"], "answer", code="invalid_emission")
    if isinstance(max_claims, bool) or not isinstance(max_claims, int) or not 1 <= max_claims <= MAX_CLAIMS:
        raise CitationEmissionError("invalid_claim_limit", f"max_claims must be in 1..{MAX_CLAIMS}")
    claims = emission["claims"]
    if not isinstance(claims, list):
        raise CitationEmissionError("invalid_claims", "claims must be an array")
    if not claims:
        raise CitationEmissionError("invalid_claims", "at least one claim is required")
    if len(claims) > max_claims:
        raise CitationEmissionError("claim_limit_exceeded", f"received {len(claims)} claims; limit is {max_claims}")
    for index, claim in enumerate(claims, 1):
        _check_claim(claim, index)


def _check_claim(claim: Any, index: int) -> None:
    if not isinstance(claim, Mapping):
        raise CitationEmissionError("invalid_claim", "expected a mapping", claim_index=index)
    kind = claim.get("kind")
    if not isinstance(kind, str) or kind not in CLAIM_KINDS:
        raise CitationEmissionError("invalid_claim", "unsupported kind", claim_index=index)
    if kind == "table_cell":
        _check_table_claim(claim, index)
    else:
        _check_text_claim(claim, kind, index)


def _check_table_claim(claim: Mapping[str, Any], index: int) -> None:
    fields = set(claim)
    if fields - _TABLE_CLAIM_ALLOWED or not _TABLE_CLAIM_REQUIRED <= fields:
        raise CitationEmissionError("invalid_claim", "table_cell fields do not match v1", claim_index=index)
    require_nonblank(claim["text"], "text", claim_index=index)
    require_source_id(claim["table_id"], "table_id", claim_index=index)
    if "page" in claim:
        require_source_id(claim["page"], "page", claim_index=index)
    cell = claim["cell"]
    if not isinstance(cell, Mapping) or set(cell) != {"row", "col"}:
        raise CitationEmissionError("invalid_claim", "cell must contain only row and col", claim_index=index)
    for axis in ("row", "col"):
        if not is_cell_coordinate(cell[axis]):
            raise CitationEmissionError("invalid_claim", f"cell.{axis} must be a non-negative integer", claim_index=index)


def _check_text_claim(claim: Mapping[str, Any], kind: str, index: int) -> None:
    allowed = {"kind", *_TEXT_LOCATORS}
    if kind == "presence":
        # Presence asserts only that the target exists; a text would look verified without being checked.
        if "text" in claim:
            raise CitationEmissionError("invalid_claim", "presence must not contain text", claim_index=index)
    else:
        allowed.add("text")
        if "text" not in claim:
            raise CitationEmissionError("invalid_claim", "text is required", claim_index=index)
        require_nonblank(claim["text"], "text", claim_index=index)
    if set(claim) - allowed:
        raise CitationEmissionError("invalid_claim", "claim contains forbidden fields", claim_index=index)
    for field in _TEXT_LOCATORS:
        if field in claim:
            require_source_id(claim[field], field, claim_index=index)
    primaries = sum(field in claim for field in _PRIMARY_LOCATORS)
    if primaries > 1:
        raise CitationEmissionError("locator_conflict", "multiple primary locators", claim_index=index)
    if primaries == 0 and "page" not in claim:
        raise CitationEmissionError("locator_missing", "no source locator", claim_index=index)


def _require_metadata(metadata: Any, record_index: int) -> Mapping[str, Any]:
    if not isinstance(metadata, Mapping):
        raise CitationEmissionError("missing_metadata", "metadata mapping is required", record_index=record_index)
    return metadata


def _vocabulary(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The ids shown across all records, first-seen order, duplicates dropped; one fingerprint for all."""
    fingerprint: str | None = None
    context: dict[str, Any] = {"document_fingerprint": None, "pages": [], "elements": [], "spans": [], "table_cells": []}
    seen: dict[str, set[Any]] = {"pages": set(), "elements": set(), "spans": set(), "table_cells": set()}
    for index, metadata in enumerate(records, 1):
        current = require_nonblank(
            metadata.get("document_fingerprint"),
            "document_fingerprint",
            code="missing_document_fingerprint",
            record_index=index,
        )
        if not is_fingerprint(current):
            raise CitationEmissionError(
                "invalid_document_fingerprint",
                "expected sha256 followed by 64 lowercase hexadecimal characters",
                record_index=index,
            )
        if fingerprint is None:
            fingerprint = current
        elif current != fingerprint:
            raise CitationEmissionError(
                "mixed_document_fingerprints", "all retrieval records must name the same document", record_index=index
            )
        locators = 0
        for field, key in _REF_LISTS:
            values = metadata.get(field, [])
            if not isinstance(values, list):
                raise CitationEmissionError("invalid_source_ids", f"{field} must be an array", record_index=index)
            for value in values:
                require_source_id(value, field, record_index=index)
                if value not in seen[key]:
                    seen[key].add(value)
                    context[key].append(value)
            locators += len(values)
        cells = metadata.get("table_cells", [])
        for cell_key in _table_cell_keys(cells, index):
            if cell_key not in seen["table_cells"]:
                seen["table_cells"].add(cell_key)
                context["table_cells"].append({"table_id": cell_key[0], "row": cell_key[1], "col": cell_key[2]})
        locators += len(cells)
        if locators == 0:
            raise CitationEmissionError(
                "missing_source_ids",
                "metadata must expose page_refs, element_refs, span_refs, or table_cells",
                record_index=index,
            )
    context["document_fingerprint"] = fingerprint
    return context


def _table_cell_keys(cells: Any, record_index: int) -> list[tuple[str, int, int]]:
    if not isinstance(cells, list):
        raise CitationEmissionError("invalid_table_cells", "table_cells must be an array", record_index=record_index)
    keys = []
    for cell in cells:
        if not isinstance(cell, Mapping) or set(cell) != _TABLE_CELL_FIELDS:
            raise CitationEmissionError(
                "invalid_table_cells", "each table cell must contain only table_id, row, and col", record_index=record_index
            )
        table_id = require_source_id(cell["table_id"], "table_id", record_index=record_index)
        for axis in ("row", "col"):
            if not is_cell_coordinate(cell[axis]):
                raise CitationEmissionError(
                    "invalid_table_cells", f"{axis} must be a non-negative integer", record_index=record_index
                )
        keys.append((table_id, cell["row"], cell["col"]))
    return keys


def _check_context(context: Any) -> dict[str, Any]:
    """The context re-validated like retrieval metadata (as record 1), with sets for lookup."""
    if not isinstance(context, Mapping):
        raise CitationEmissionError("invalid_context", "expected a mapping")
    if set(context) != _CONTEXT_FIELDS:
        raise CitationEmissionError("invalid_context", "context fields do not match v1")
    fingerprint = require_nonblank(
        context["document_fingerprint"], "document_fingerprint", code="missing_document_fingerprint"
    )
    if not is_fingerprint(fingerprint):
        raise CitationEmissionError(
            "invalid_document_fingerprint", "expected sha256 followed by 64 lowercase hexadecimal characters"
        )
    rebuilt = _vocabulary([{
        "document_fingerprint": fingerprint,
        "page_refs": context["pages"],
        "element_refs": context["elements"],
        "span_refs": context["spans"],
        "table_cells": context["table_cells"],
    }])
    return {
        "document_fingerprint": fingerprint,
        "pages": frozenset(rebuilt["pages"]),
        "elements": frozenset(rebuilt["elements"]),
        "spans": frozenset(rebuilt["spans"]),
        "table_cells": frozenset((c["table_id"], c["row"], c["col"]) for c in rebuilt["table_cells"]),
    }
