"""emission_cases - seeded generators of valid and broken emission inputs for the differential tests against ethos_pdf."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

FINGERPRINT = "sha256:" + "ab" * 32
OTHER_FINGERPRINT = "sha256:" + "cd" * 32
PAGES = ["p0001", "p0002"]
ELEMENTS = ["e000001", "e000002", "e000003"]
SPANS = ["s000001", "s000002"]
CELLS = [("t0001", 0, 0), ("t0001", 1, 2)]

# Values that break an id field in different ways (type, blank, length).
BAD_IDS: list[Any] = ["", "   ", 7, None, True, "x" * 257, ["e000001"]]
# Ids that are valid but were never shown to the model.
UNSHOWN_IDS = ["p0009", "e000099", "s000099", "x" * 256]
BAD_FINGERPRINTS: list[Any] = ["", " ", None, 5, "sha256:" + "AB" * 32, "sha256:abc", FINGERPRINT + "\n", "sha1:" + "a" * 40]
BAD_COORDINATES: list[Any] = [-1, True, False, 1.0, "1", None]


def outcome(call: Callable[[], Any]) -> Any:
    """What a call did: ("ok", result) or ("error", class name, code, claim_index, record_index, message)."""
    try:
        return ("ok", call())
    except ValueError as error:  # CitationEmissionError is a ValueError in both packages
        return (
            "error",
            type(error).__name__,
            getattr(error, "code", None),
            getattr(error, "claim_index", None),
            getattr(error, "record_index", None),
            str(error),
        )


# -- retrieval metadata ---------------------------------------------------------------------------


def valid_metadata(rng: random.Random, fingerprint: str = FINGERPRINT) -> dict[str, Any]:
    metadata: dict[str, Any] = {"document_fingerprint": fingerprint}
    fields = rng.sample(["page_refs", "element_refs", "span_refs", "table_cells"], rng.randint(1, 4))
    for field in fields:
        if field == "table_cells":
            metadata[field] = [{"table_id": t, "row": r, "col": c} for t, r, c in rng.sample(CELLS, rng.randint(1, 2))]
        else:
            pool = {"page_refs": PAGES, "element_refs": ELEMENTS, "span_refs": SPANS}[field]
            # duplicates on purpose: the vocabulary keeps first-seen order and drops repeats
            metadata[field] = [rng.choice(pool) for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.3:
        metadata["page"] = rng.randint(0, 3)  # a framework's numeric page: must be ignored
        metadata["source"] = "report.pdf"
    return metadata


def broken_metadata(rng: random.Random) -> Any:
    metadata = valid_metadata(rng)
    choice = rng.randrange(12)
    if choice == 0:
        del metadata["document_fingerprint"]
    elif choice == 1:
        metadata["document_fingerprint"] = rng.choice(BAD_FINGERPRINTS)
    elif choice == 2:
        for field in ("page_refs", "element_refs", "span_refs", "table_cells"):
            metadata.pop(field, None)
    elif choice == 3:
        metadata[rng.choice(["page_refs", "element_refs", "span_refs"])] = rng.choice(["e000001", None, {"a": 1}, 3])
    elif choice == 4:
        metadata[rng.choice(["page_refs", "element_refs", "span_refs"])] = ["e000001", rng.choice(BAD_IDS)]
    elif choice == 5:
        metadata["table_cells"] = rng.choice(["t0001", None, {"table_id": "t0001", "row": 0, "col": 0}])
    elif choice == 6:
        cell: dict[str, Any] = {"table_id": "t0001", "row": 0, "col": 0}
        mutation = rng.randrange(4)
        if mutation == 0:
            cell[rng.choice(["row", "col"])] = rng.choice(BAD_COORDINATES)
        elif mutation == 1:
            cell["page"] = "p0001"
        elif mutation == 2:
            del cell[rng.choice(["row", "col", "table_id"])]
        else:
            cell["table_id"] = rng.choice(BAD_IDS)
        metadata["table_cells"] = [cell]
    elif choice == 7:
        return rng.choice([None, 5, "metadata", ["page_refs"]])
    elif choice == 8:
        metadata["page_refs"] = []
        metadata["element_refs"] = []
        metadata.pop("span_refs", None)
        metadata.pop("table_cells", None)
    elif choice == 9:
        metadata["document_fingerprint"] = OTHER_FINGERPRINT
    elif choice == 10:
        metadata["element_refs"] = ELEMENTS[:1] * 2
    return metadata


def metadata_batch(rng: random.Random) -> list[Any]:
    count = rng.randint(1, 4)
    batch: list[Any] = [valid_metadata(rng) for _ in range(count)]
    if rng.random() < 0.5:
        batch[rng.randrange(count)] = broken_metadata(rng)
    return batch


# -- model claims -----------------------------------------------------------------------------


def valid_claim(rng: random.Random) -> dict[str, Any]:
    kind = rng.choice(["quote", "value", "presence", "table_cell"])
    text = rng.choice(["Revenue grew to $12.4M", "42", "  padded text  ", "ünïcode ✓"])
    if kind == "table_cell":
        table_id, row, col = rng.choice(CELLS)
        claim: dict[str, Any] = {"kind": kind, "text": text, "table_id": table_id, "cell": {"row": row, "col": col}}
        if rng.random() < 0.3:
            claim["page"] = rng.choice(PAGES)
        return claim
    claim = {"kind": kind}
    if kind != "presence":
        claim["text"] = text
    primary = rng.choice(["element_id", "span_id", None])
    if primary is not None:
        claim[primary] = rng.choice(ELEMENTS if primary == "element_id" else SPANS)
    if primary is None or rng.random() < 0.3:
        claim["page"] = rng.choice(PAGES)
    return claim


def broken_claim(rng: random.Random) -> Any:
    claim = valid_claim(rng)
    choice = rng.randrange(14)
    if choice == 0:
        claim[rng.choice(["bbox", "document_fingerprint", "chunk_id", "confidence", "citation"])] = [0, 0, 1, 1]
    elif choice == 1:
        claim["kind"] = rng.choice(["region", "other", "", None, 3, "Quote"])
    elif choice == 2:
        claim.pop("text", None) if claim["kind"] != "presence" else claim.update(text="x")
    elif choice == 3:
        if "text" in claim:
            claim["text"] = rng.choice(["", "  \n", None, 12])
    elif choice == 4:
        claim["element_id"], claim["span_id"] = ELEMENTS[0], SPANS[0]
    elif choice == 5:
        for field in ("element_id", "span_id", "page"):
            claim.pop(field, None)
    elif choice == 6:
        field = rng.choice(["page", "element_id", "span_id", "table_id"])
        claim[field] = rng.choice(BAD_IDS)
    elif choice == 7:
        field = rng.choice(["page", "element_id", "span_id"]) if claim["kind"] != "table_cell" else rng.choice(["page", "table_id"])
        if field == "table_id":
            claim["table_id"] = "t0009"
        else:
            claim[field] = rng.choice(UNSHOWN_IDS)
    elif choice == 8 and claim["kind"] == "table_cell":
        claim["cell"] = rng.choice([{"row": 0}, {"row": 0, "col": 0, "x": 1}, [0, 0], {"row": rng.choice(BAD_COORDINATES), "col": 0}, {"row": 0, "col": rng.choice(BAD_COORDINATES)}])
    elif choice == 9 and claim["kind"] == "table_cell":
        claim["cell"] = {"row": 5, "col": 5}  # a cell that was never shown
    elif choice == 10:
        return rng.choice([None, "claim", 7, ["kind"]])
    elif choice == 11 and claim["kind"] == "table_cell":
        claim[rng.choice(["element_id", "span_id"])] = ELEMENTS[0]
    elif choice == 12 and claim["kind"] == "table_cell":
        del claim[rng.choice(["table_id", "cell", "text"])]
    elif choice == 13:
        claim.pop("kind")
    return claim


def claim_list(rng: random.Random) -> list[Any]:
    claims: list[Any] = [valid_claim(rng) for _ in range(rng.randint(1, 5))]
    if rng.random() < 0.5:
        claims[rng.randrange(len(claims))] = broken_claim(rng)
    return claims


ANSWERS: list[Any] = ["Revenue grew in Q3.", "", "   ", None, 12, "ünïcode answer"]
MAX_CLAIMS_VALUES: list[Any] = [256, 256, 1, 3, 0, 257, True, "3", -1]


def emission_variant(rng: random.Random, emission: dict[str, Any]) -> Any:
    """An emission, sometimes broken at the top level (fields, version, answer, claims shape)."""
    variant = copy.deepcopy(emission)
    choice = rng.randrange(10)
    if choice == 0:
        variant["schema_version"] = rng.choice(["1.0", "2.0.0", None, 1])
    elif choice == 1:
        variant[rng.choice(["document_fingerprint", "citations", "notes"])] = FINGERPRINT
    elif choice == 2:
        del variant[rng.choice(["schema_version", "answer", "claims"])]
    elif choice == 3:
        variant["claims"] = rng.choice([[], tuple(variant["claims"]), {"0": 1}, None])
    elif choice == 4:
        return rng.choice([None, [variant], "emission"])
    elif choice == 5:
        variant["answer"] = rng.choice(ANSWERS[1:])
    return variant


def shown_context(rng: random.Random) -> dict[str, Any]:
    """A retrieval context showing every id and cell, sometimes broken."""
    context: dict[str, Any] = {
        "document_fingerprint": FINGERPRINT,
        "pages": list(PAGES),
        "elements": list(ELEMENTS),
        "spans": list(SPANS),
        "table_cells": [{"table_id": t, "row": r, "col": c} for t, r, c in CELLS],
    }
    choice = rng.randrange(12)
    if choice == 0:
        context["document_fingerprint"] = rng.choice(BAD_FINGERPRINTS)
    elif choice == 1:
        context[rng.choice(["pages", "elements", "spans", "table_cells"])] = rng.choice([None, "p0001", {}])
    elif choice == 2:
        context["extra"] = True
    elif choice == 3:
        del context[rng.choice(list(context))]
    elif choice == 4:
        context = {**context, "pages": [], "elements": [], "spans": [], "table_cells": []}
    elif choice == 5:
        context["elements"] = ["e000001", rng.choice(BAD_IDS)]
    elif choice == 6:
        context["table_cells"] = [{"table_id": "t0001", "row": -1, "col": 0}]
    elif choice == 7:
        return rng.choice([None, [], "context"])
    elif choice == 8:
        context["elements"] = ELEMENTS[:1]
        context["spans"] = []
    return context
