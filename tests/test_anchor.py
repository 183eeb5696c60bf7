"""test_anchor - `evidence anchor` (CONTRACTS §2.8, §3.9): every request rule, every axis, status and level, on every surface."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

import ethos_py
from ethos_py import EthosCli, EthosCommandError, EthosError

REQUEST_TYPE = "ethos.evidence_anchor_request.v1"
COORDS = "ethos_quantized_top_left_v1"
TEXT_PROFILE = "ethos_collapse_whitespace_v1"

PAYLOAD: dict[str, Any] = {
    "pages": [
        {"id": "p0001", "index": 1, "width": 61200, "height": 79200, "rotation": 0},
        {"id": "p0002", "index": 2, "width": 61200, "height": 79200, "rotation": 0},
        {"id": "p0003", "index": 3, "width": 61200, "height": 79200, "rotation": 0},
    ],
    "elements": [
        {"id": "e000001", "type": "heading", "page": "p0001", "bbox": [7200, 6000, 40000, 8400], "text": "Loan terms"},
        {"id": "e000002", "type": "text_block", "page": "p0001", "bbox": [7200, 10000, 54000, 11500],
         "text": "The rate is 4.1% fixed.", "span_refs": ["s000001", "s000002"]},
        {"id": "e000003", "type": "table", "page": "p0001", "bbox": [7200, 13000, 54000, 20000],
         "text": "Rate | Term\n4.1% | 20 years\nTotal", "table_ref": "t0001"},
        {"id": "e000004", "type": "region", "page": "p0002", "bbox": [7200, 22000, 30000, 40000]},
        {"id": "e000005", "type": "text_block", "page": "p0002", "bbox": [7200, 10000, 54000, 11500],
         "text": "Repayment starts in May."},
    ],
    "spans": [
        {"id": "s000001", "page": "p0001", "bbox": [7200, 10000, 20000, 11500], "text": "The rate is",
         "char_start": 0, "char_end": 11},
        {"id": "s000002", "page": "p0001", "bbox": [20500, 10000, 54000, 11500], "text": "4.1% fixed.",
         "char_start": 12, "char_end": 23},
        # Text that only a span carries: found by the page search's span pass.
        {"id": "s000003", "page": "p0002", "bbox": [7200, 70000, 30000, 71000], "text": "Footnote: early repayment is free."},
    ],
    "tables": [
        {"id": "t0001", "page_refs": ["p0001"], "bbox": [7200, 13000, 54000, 20000], "n_rows": 3, "n_cols": 2,
         "header_rows": 1, "header_cols": 0,
         "cells": [
             {"row": 0, "col": 0, "row_span": 1, "col_span": 1, "bbox": [7200, 13000, 30000, 15000], "text": "Rate"},
             {"row": 0, "col": 1, "row_span": 1, "col_span": 1, "bbox": [30000, 13000, 54000, 15000], "text": "Term"},
             {"row": 1, "col": 0, "row_span": 1, "col_span": 1, "bbox": [7200, 15000, 30000, 17000], "text": "4.1%"},
             {"row": 1, "col": 1, "row_span": 1, "col_span": 1, "bbox": [30000, 15000, 54000, 17000], "text": "20  years"},
             {"row": 2, "col": 0, "row_span": 1, "col_span": 2, "bbox": [7200, 17000, 54000, 20000], "text": "Total"},
         ]},
    ],
}


@pytest.fixture(scope="module")
def document(document_tool: Any) -> dict[str, Any]:
    built: dict[str, Any] = document_tool.build_document(PAYLOAD)
    return built


@pytest.fixture(scope="module")
def source_bytes(document: dict[str, Any]) -> bytes:
    return json.dumps(document).encode()


def core_cli() -> EthosCli:
    """EthosCli on the ethos-core under test ($ETHOS_CORE, the build next to $ETHOS_LIBRARY, or the package's)."""
    import harness

    return EthosCli(harness.ethos_core_binary())


def request(*refs: dict[str, Any], fingerprint: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"artifact_type": REQUEST_TYPE, "schema_version": "1.0.0", "evidence_refs": list(refs)}
    if fingerprint is not None:
        out["source_fingerprint"] = fingerprint
    return out


def ref(kind: str, level: str, locator: dict[str, Any], text: str | None = None, evidence_id: str = "r1", **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"evidence_id": evidence_id, "evidence_kind": kind, "required_anchor_level": level, "locator": locator}
    if text is not None:
        out["expected_text"] = text
    out.update(extra)
    return out


def box(*bbox: int, **locator: Any) -> dict[str, Any]:
    return {**locator, "bbox": list(bbox), "coordinate_profile": COORDS}


def anchor_one(source_bytes: bytes, evidence: dict[str, Any], fingerprint: str | None = None) -> dict[str, Any]:
    report = ethos_py.anchor(source_bytes, request(evidence, fingerprint=fingerprint))
    (only,) = report["anchors"]
    anchor: dict[str, Any] = only
    return anchor


def axes(anchor: dict[str, Any]) -> tuple[str, str, dict[str, str]]:
    changed = {name: value for name, value in anchor["checks"].items() if value != "not_checked"}
    return anchor["anchor_status"], anchor["achieved_anchor_level"], changed


# -- axes, status and achieved level -------------------------------------------------------------

E = ("element_id",)
CASES: list[tuple[str, dict[str, Any], tuple[str, str, dict[str, str]]]] = [
    # page kind
    ("page by index", ref("page", "page", {"page_index": 2}), ("bound", "page", {"page": "found"})),
    ("page by id", ref("page", "page", {"page_id": "p0003"}), ("bound", "page", {"page": "found"})),
    ("page id unknown", ref("page", "page", {"page_id": "p0009"}), ("not_found", "none", {"page": "not_found"})),
    ("page index past the end", ref("page", "page", {"page_index": 4}), ("not_found", "none", {"page": "not_found"})),
    # text kind: span locator
    ("span contains", ref("text", "text", {"span_id": "s000002"}, "4.1%"),
     ("bound", "text", {"text": "matched"})),
    ("span does not contain", ref("text", "text", {"span_id": "s000002"}, "4.2%"),
     ("mismatch", "none", {"text": "mismatch"})),
    ("span unknown", ref("text", "text", {"span_id": "s000099"}, "4.1%"), ("not_found", "none", {"text": "not_found"})),
    ("span on another page than cited", ref("text", "text", {"span_id": "s000002", "page_id": "p0002"}, "4.1%"),
     ("not_found", "none", {"page": "found", "text": "not_found"})),
    ("span on the cited page", ref("text", "text", {"span_id": "s000002", "page_index": 1}, "4.1%"),
     ("bound", "text", {"page": "found", "text": "matched"})),
    # text kind: element locator
    ("element contains", ref("text", "text", {"element_id": "e000002"}, "rate is 4.1%"),
     ("bound", "text", {"text": "matched"})),
    ("element is searched, not its spans: text across spans", ref("text", "text", {"element_id": "e000002"}, "is 4.1% fixed"),
     ("bound", "text", {"text": "matched"})),
    ("element mismatch", ref("text", "text", {"element_id": "e000002"}, "rate is 4.2%"),
     ("mismatch", "none", {"text": "mismatch"})),
    ("element without text", ref("text", "text", {"element_id": "e000004"}, "chart"),
     ("mismatch", "none", {"text": "mismatch"})),
    ("element unknown", ref("text", "text", {"element_id": "e000099"}, "x"), ("not_found", "none", {"text": "not_found"})),
    ("element on another page than cited", ref("text", "text", {"element_id": "e000005", "page_index": 1}, "May"),
     ("not_found", "none", {"page": "found", "text": "not_found"})),
    ("span locator wins over element locator", ref("text", "text", {"span_id": "s000001", "element_id": "e000002"}, "fixed"),
     ("mismatch", "none", {"text": "mismatch"})),
    # text kind: page search (elements, then spans)
    ("page search finds an element", ref("text", "text", {"page_index": 2}, "starts in May"),
     ("bound", "text", {"page": "found", "text": "matched"})),
    ("page search finds a span no element carries", ref("text", "text", {"page_id": "p0002"}, "early repayment is free"),
     ("bound", "text", {"page": "found", "text": "matched"})),
    ("page with content but no match", ref("text", "text", {"page_index": 1}, "Repayment starts"),
     ("mismatch", "none", {"page": "found", "text": "mismatch"})),
    ("page without content", ref("text", "text", {"page_index": 3}, "anything"),
     ("not_found", "none", {"page": "found", "text": "not_found"})),
    ("page not found", ref("text", "text", {"page_index": 9}, "Loan"),
     ("not_found", "none", {"page": "not_found", "text": "not_found"})),
    # the fixed collapse-whitespace profile: whitespace runs collapse, edges trim, case counts
    ("whitespace collapses", ref("text", "text", {"element_id": "e000002"}, "  The\trate \n is "),
     ("bound", "text", {"text": "matched"})),
    ("case-sensitive", ref("text", "text", {"element_id": "e000002"}, "the rate"),
     ("mismatch", "none", {"text": "mismatch"})),
    ("containment, no token boundary", ref("text", "text", {"element_id": "e000001"}, "oan ter"),
     ("bound", "text", {"text": "matched"})),
    ("no typography folding", ref("text", "text", {"element_id": "e000002"}, "The rate is 4.1\u00a0%"),
     ("mismatch", "none", {"text": "mismatch"})),
    # text_region
    ("text_region at level text", ref("text_region", "text", {"page_index": 1}, "Loan terms"),
     ("bound", "text", {"page": "found", "text": "matched"})),
    ("bbox inside an element", ref("text_region", "bbox", box(8000, 6100, 30000, 8000, page_index=1)),
     ("bound", "bbox", {"page": "found", "bbox": "valid"})),
    ("bbox inside a table", ref("text_region", "bbox", box(7200, 13000, 54000, 20000, page_id="p0001")),
     ("bound", "bbox", {"page": "found", "bbox": "valid"})),
    ("bbox inside a span only", ref("text_region", "bbox", box(7300, 70100, 29000, 70900, page_id="p0002")),
     ("bound", "bbox", {"page": "found", "bbox": "valid"})),
    ("bbox over by the tolerance", ref("text_region", "bbox", box(7150, 5950, 40050, 8450, page_index=1)),
     ("bound", "bbox", {"page": "found", "bbox": "valid"})),
    ("bbox over the tolerance", ref("text_region", "bbox", box(7149, 6000, 40000, 8400, page_index=1)),
     ("not_found", "none", {"page": "found", "bbox": "not_found"})),
    ("bbox on a page without it", ref("text_region", "bbox", box(8000, 6100, 30000, 8000, page_index=3)),
     ("not_found", "none", {"page": "found", "bbox": "not_found"})),
    ("bbox on a missing page", ref("text_region", "bbox", box(8000, 6100, 30000, 8000, page_index=5)),
     ("not_found", "none", {"page": "not_found", "bbox": "not_found"})),
    ("text and bbox", ref("text_region", "text_bbox", box(7200, 10000, 54000, 11500, page_index=1), "4.1% fixed"),
     ("bound", "text_bbox", {"page": "found", "text": "matched", "bbox": "valid"})),
    ("text found, bbox not", ref("text_region", "text_bbox", box(100, 100, 200, 200, page_index=1), "4.1% fixed"),
     ("not_found", "text", {"page": "found", "text": "matched", "bbox": "not_found"})),
    ("bbox found, text wrong", ref("text_region", "text_bbox", box(7200, 10000, 54000, 11500, page_index=1), "4.2% fixed"),
     ("mismatch", "bbox", {"page": "found", "text": "mismatch", "bbox": "valid"})),
    ("not_found beats mismatch", ref("text_region", "text_bbox", box(100, 100, 200, 200, page_index=1), "4.2% fixed"),
     ("not_found", "none", {"page": "found", "text": "mismatch", "bbox": "not_found"})),
    ("text_region by element at level text", ref("text_region", "text", {"element_id": "e000005"}, "May"),
     ("bound", "text", {"text": "matched"})),
    # table_cell
    ("cell equals expected text", ref("table_cell", "table_cell", {"table_id": "t0001", "cell": {"row": 1, "col": 0}}, "4.1%"),
     ("bound", "table_cell", {"table_cell": "matched"})),
    ("cell equality after normalization", ref("table_cell", "table_cell", {"table_id": "t0001", "cell": {"row": 1, "col": 1}}, " 20 years "),
     ("bound", "table_cell", {"table_cell": "matched"})),
    ("cell equality, not containment", ref("table_cell", "table_cell", {"table_id": "t0001", "cell": {"row": 1, "col": 1}}, "20"),
     ("mismatch", "none", {"table_cell": "mismatch"})),
    ("cell without expected text", ref("table_cell", "table_cell", {"table_id": "t0001", "cell": {"row": 0, "col": 1}}),
     ("bound", "table_cell", {"table_cell": "matched"})),
    ("cell covered by a spanning cell", ref("table_cell", "table_cell", {"table_id": "t0001", "cell": {"row": 2, "col": 1}}, "Total"),
     ("bound", "table_cell", {"table_cell": "matched"})),
    ("cell outside the table", ref("table_cell", "table_cell", {"table_id": "t0001", "cell": {"row": 3, "col": 0}}),
     ("not_found", "none", {"table_cell": "not_found"})),
    ("table unknown", ref("table_cell", "table_cell", {"table_id": "t0009", "cell": {"row": 0, "col": 0}}),
     ("not_found", "none", {"table_cell": "not_found"})),
    ("cell with a missing page", ref("table_cell", "table_cell", {"table_id": "t0001", "cell": {"row": 0, "col": 0}, "page_index": 8}),
     ("not_found", "table_cell", {"page": "not_found", "table_cell": "matched"})),
    # kinds without an anchoring rule
    ("region", ref("region", "bbox", box(8000, 6100, 30000, 8000, page_index=1)), ("unsupported_evidence_kind", "none", {})),
    ("other", ref("other", "text", {"page_index": 1}, "Loan"), ("unsupported_evidence_kind", "none", {})),
]


@pytest.mark.parametrize(("evidence", "expected"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_axes_status_and_level(source_bytes: bytes, evidence: dict[str, Any], expected: tuple[str, str, dict[str, str]]) -> None:
    anchor = anchor_one(source_bytes, evidence)
    assert axes(anchor) == expected
    # Native sources have every capability: nothing is ever limited here.
    assert anchor["capability_limits"] == []
    assert (anchor["evidence_id"], anchor["evidence_kind"], anchor["required_anchor_level"]) == (
        evidence["evidence_id"], evidence["evidence_kind"], evidence["required_anchor_level"])


def test_fingerprint_axis(source_bytes: bytes, document: dict[str, Any]) -> None:
    page = ref("page", "page", {"page_index": 1})
    matched = anchor_one(source_bytes, page, fingerprint=document["fingerprint"])
    assert axes(matched) == ("bound", "page", {"fingerprint": "matched", "page": "found"})
    stale_fp = "sha256:" + "0" * 64
    # Stale stops everything else: no axis beyond the fingerprint is checked.
    stale = anchor_one(source_bytes, ref("text", "text", {"page_index": 1}, "Loan terms"), fingerprint=stale_fp)
    assert axes(stale) == ("stale_fingerprint", "none", {"fingerprint": "stale"})
    # An unsupported kind reports the fingerprint axis and nothing else.
    region = anchor_one(source_bytes, ref("region", "page", {"page_index": 1}), fingerprint=stale_fp)
    assert axes(region) == ("unsupported_evidence_kind", "none", {"fingerprint": "stale"})
    region = anchor_one(source_bytes, ref("other", "page", {"page_index": 1}), fingerprint=document["fingerprint"])
    assert axes(region) == ("unsupported_evidence_kind", "none", {"fingerprint": "matched"})


def test_report_shape_and_order(source_bytes: bytes, document: dict[str, Any]) -> None:
    from conftest import schema_errors

    refs = [ref("page", "page", {"page_index": i}, evidence_id=f"id-{i}") for i in (3, 1, 2, 7)]
    data = ethos_py.anchor_json(source_bytes, request(*refs))
    report = json.loads(data)
    assert data == json.dumps(report, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()
    assert [a["evidence_id"] for a in report["anchors"]] == ["id-3", "id-1", "id-2", "id-7"]
    assert report["artifact_type"] == "ethos.evidence_anchor_report.v1"
    assert report["schema_version"] == "1.0.0"
    assert report["source_fingerprint"] == document["fingerprint"]
    assert report["grounding"]["capabilities"]["coordinate_origin"] == "top-left"
    assert schema_errors("evidence-anchor-report", report) == []
    empty = ethos_py.anchor(source_bytes, request())
    assert empty["anchors"] == []


def test_every_case_output_validates(source_bytes: bytes) -> None:
    from conftest import schema_errors

    refs = [dict(case[1], evidence_id=f"case-{i}") for i, case in enumerate(CASES)]
    req = request(*refs)
    assert schema_errors("evidence-anchor-request", req) == []
    report = ethos_py.anchor(source_bytes, req)
    assert schema_errors("evidence-anchor-report", report) == []
    # One request of many refs gives the same anchors as one request per ref.
    assert [axes(a) for a in report["anchors"]] == [case[2] for case in CASES]


def test_schema_examples_are_the_output_for_the_document_example(repo_dir: Path) -> None:
    examples = repo_dir / "schemas" / "examples"
    expected = json.loads((examples / "evidence-anchor-report.example.json").read_text())
    assert ethos_py.anchor(examples / "document.example.json", examples / "evidence-anchor-request.example.json") == expected
    statuses = {a["anchor_status"] for a in expected["anchors"]}
    assert statuses == {"bound", "mismatch", "not_found", "unsupported_evidence_kind"}


def test_statement_wraps_the_report(tmp_path: Path, source_bytes: bytes) -> None:
    from conftest import schema_errors

    path = tmp_path / "loan.json"
    path.write_bytes(source_bytes)
    req = request(ref("page", "page", {"page_index": 1}))
    bare = ethos_py.anchor(path, req)
    statement = ethos_py.anchor(path, req, statement=True)
    assert statement["_type"] == "https://in-toto.io/Statement/v1"
    assert statement["predicateType"] == "https://docushell.com/ethos/evidence-anchor/v1"
    assert statement["predicate"] == bare
    assert statement["subject"] == [{"name": "loan.json", "digest": {"sha256": hashlib.sha256(source_bytes).hexdigest()}}]
    assert schema_errors("proof-statement", statement) == []
    named = ethos_py.anchor(source_bytes, req, statement=True, subject_name="x.json")
    assert named["subject"][0]["name"] == "x.json"
    with ethos_py.Document.open(path) as doc:
        assert ethos_py.anchor(doc, req, statement=True) == statement


# -- request validation: every rule is exit 2 / invalid_input naming its path --------------------

SHA_OK = "sha256:" + hashlib.sha256(b"Loan terms").hexdigest()
PAGE = {"page_index": 1}
INVALID: list[tuple[str, Any, str]] = [
    ("not an object", [], "$"),
    ("wrong artifact_type", {**request(), "artifact_type": "ethos.evidence_anchor_report.v1"}, "$.artifact_type"),
    ("wrong schema_version", {**request(), "schema_version": "1.1.0"}, "$.schema_version"),
    ("missing evidence_refs", {"artifact_type": REQUEST_TYPE, "schema_version": "1.0.0"}, "$.evidence_refs"),
    ("unknown top-level field", {**request(), "extra": 1}, "$.extra"),
    ("bad source_fingerprint", request(fingerprint="sha256:ABC"), "$.source_fingerprint"),
    ("unprefixed source_fingerprint", request(fingerprint="0" * 64), "$.source_fingerprint"),
    ("evidence_refs not a list", {**request(), "evidence_refs": {}}, "$.evidence_refs"),
    ("unknown ref field", request({**ref("page", "page", PAGE), "note": "x"}), "$.evidence_refs[0].note"),
    ("unknown locator field", request(ref("page", "page", {"page_index": 1, "line": 3})), "$.evidence_refs[0].locator.line"),
    ("unknown cell field", request(ref("table_cell", "table_cell", {"table_id": "t0001", "cell": {"row": 0, "col": 0, "x": 1}})),
     "$.evidence_refs[0].locator.cell.x"),
    ("empty evidence_id", request(ref("page", "page", PAGE, evidence_id="")), "$.evidence_refs[0].evidence_id"),
    ("duplicate evidence_id", request(ref("page", "page", PAGE), ref("page", "page", {"page_index": 2})),
     "$.evidence_refs[1].evidence_id"),
    ("unknown kind", request(ref("figure", "page", PAGE)), "$.evidence_refs[0].evidence_kind"),
    ("unknown level", request(ref("page", "element", PAGE)), "$.evidence_refs[0].required_anchor_level"),
    ("page_index 0", request(ref("page", "page", {"page_index": 0})), "$.evidence_refs[0].locator.page_index"),
    ("negative page_index", request(ref("page", "page", {"page_index": -1})), "$.evidence_refs[0].locator.page_index"),
    ("page_index and page_id", request(ref("page", "page", {"page_index": 1, "page_id": "p0001"})), "$.evidence_refs[0].locator"),
    ("bbox without coordinate profile", request(ref("text_region", "bbox", {"page_index": 1, "bbox": [0, 0, 10, 10]})),
     "$.evidence_refs[0].locator.bbox"),
    ("unknown coordinate profile", request(ref("text_region", "bbox", {**box(0, 0, 10, 10, page_index=1), "coordinate_profile": "pdf_points"})),
     "$.evidence_refs[0].locator.coordinate_profile"),
    ("bbox of three numbers", request(ref("text_region", "bbox", {**box(0, 0, 10, page_index=1)})), "$.evidence_refs[0].locator.bbox"),
    ("inverted bbox", request(ref("text_region", "bbox", box(10, 0, 0, 10, page_index=1))), "$.evidence_refs[0].locator.bbox"),
    ("float in bbox", request(ref("text_region", "bbox", {**box(0, 0, 10, 10, page_index=1), "bbox": [0, 0, 10.5, 10]})),
     "$.evidence_refs[0].locator.bbox[2]"),
    ("table_id without cell", request(ref("text", "text", {"page_index": 1, "table_id": "t0001"}, "x")), "$.evidence_refs[0].locator"),
    ("cell without table_id", request(ref("text", "text", {"page_index": 1, "cell": {"row": 0, "col": 0}}, "x")), "$.evidence_refs[0].locator"),
    ("negative cell row", request(ref("table_cell", "table_cell", {"table_id": "t0001", "cell": {"row": -1, "col": 0}})),
     "$.evidence_refs[0].locator.cell.row"),
    ("expected_text empty", request(ref("text", "text", PAGE, "")), "$.evidence_refs[0].expected_text"),
    ("expected_text only whitespace", request(ref("text", "text", PAGE, " \t\n ")), "$.evidence_refs[0].expected_text"),
    ("expected_text only NBSP", request(ref("text", "text", PAGE, "\u00a0")), "$.evidence_refs[0].expected_text"),
    ("sha without text", request(ref("page", "page", PAGE, expected_text_sha256=SHA_OK, text_normalization_profile=TEXT_PROFILE)),
     "$.evidence_refs[0].expected_text_sha256"),
    ("sha without profile", request(ref("text", "text", PAGE, "Loan terms", expected_text_sha256=SHA_OK)),
     "$.evidence_refs[0].expected_text_sha256"),
    ("sha not matching", request(ref("text", "text", PAGE, "Loan term", expected_text_sha256=SHA_OK, text_normalization_profile=TEXT_PROFILE)),
     "$.evidence_refs[0].expected_text_sha256"),
    ("sha of the raw, not the normalized text", request(ref("text", "text", PAGE, "Loan  terms",
     expected_text_sha256="sha256:" + hashlib.sha256(b"Loan  terms").hexdigest(), text_normalization_profile=TEXT_PROFILE)),
     "$.evidence_refs[0].expected_text_sha256"),
    ("sha not prefixed", request(ref("text", "text", PAGE, "Loan terms", expected_text_sha256=SHA_OK[7:], text_normalization_profile=TEXT_PROFILE)),
     "$.evidence_refs[0].expected_text_sha256"),
    ("unknown text profile", request(ref("text", "text", PAGE, "Loan terms", text_normalization_profile="nfkc")),
     "$.evidence_refs[0].text_normalization_profile"),
    ("page kind at level text", request(ref("page", "text", PAGE, "x")), "$.evidence_refs[0].required_anchor_level"),
    ("text kind at level bbox", request(ref("text", "bbox", box(0, 0, 10, 10, page_index=1))), "$.evidence_refs[0].required_anchor_level"),
    ("text kind at level text_bbox", request(ref("text", "text_bbox", box(0, 0, 10, 10, page_index=1), "x")),
     "$.evidence_refs[0].required_anchor_level"),
    ("text_region at level page", request(ref("text_region", "page", PAGE)), "$.evidence_refs[0].required_anchor_level"),
    ("text_region at level table_cell", request(ref("text_region", "table_cell", PAGE)), "$.evidence_refs[0].required_anchor_level"),
    ("table_cell at level text", request(ref("table_cell", "text", {"table_id": "t0001", "cell": {"row": 0, "col": 0}}, "x")),
     "$.evidence_refs[0].required_anchor_level"),
    ("table_cell without table locator", request(ref("table_cell", "table_cell", PAGE)), "$.evidence_refs[0].locator"),
    ("level text without expected_text", request(ref("text", "text", PAGE)), "$.evidence_refs[0].expected_text"),
    ("level text_bbox without expected_text", request(ref("text_region", "text_bbox", box(0, 0, 10, 10, page_index=1))),
     "$.evidence_refs[0].expected_text"),
    ("level bbox without bbox", request(ref("text_region", "bbox", PAGE)), "$.evidence_refs[0].locator.bbox"),
    ("region at level bbox without bbox", request(ref("region", "bbox", PAGE)), "$.evidence_refs[0].locator.bbox"),
    ("page kind without page", request(ref("page", "page", {"element_id": "e000001"})), "$.evidence_refs[0].locator"),
    ("bbox without page", request(ref("text_region", "bbox", box(0, 0, 10, 10, element_id="e000001"))), "$.evidence_refs[0].locator"),
    ("no target and no page", request(ref("text", "text", {}, "x")), "$.evidence_refs[0].locator"),
    ("other kind with an empty locator", request(ref("other", "page", {})), "$.evidence_refs[0].locator"),
    ("evidence_id not a string", request({**ref("page", "page", PAGE), "evidence_id": 7}), "$.evidence_refs[0].evidence_id"),
    ("null expected_text", request({**ref("page", "page", PAGE), "expected_text": None}), "$.evidence_refs[0].expected_text"),
]


def _invalid_id(case: tuple[str, Any, str]) -> str:
    return case[0]


@pytest.mark.parametrize("case", INVALID, ids=_invalid_id)
def test_invalid_request_is_invalid_input_at_its_path(source_bytes: bytes, case: tuple[str, Any, str]) -> None:
    _name, body, path = case
    with pytest.raises(EthosError) as caught:
        ethos_py.anchor(source_bytes, body)
    assert caught.value.error_code == "invalid_input"
    assert caught.value.exit_code == 2
    assert caught.value.details["path"] == path


def test_the_schema_rejects_what_the_core_rejects() -> None:
    from conftest import schema_errors

    # Rules a schema can state: every such invalid request fails the schema too.
    stated = [case for case in INVALID if case[0] not in {
        "duplicate evidence_id", "expected_text only whitespace", "expected_text only NBSP", "sha not matching",
        "sha of the raw, not the normalized text", "inverted bbox", "not an object"}]
    for name, body, _path in stated:
        assert schema_errors("evidence-anchor-request", body) != [], name


def test_bad_json_and_bad_options(source_bytes: bytes) -> None:
    for data in (b"", b"{", b'{"a":1,"a":1}', b"\xef\xbb\xbf{}"):
        with pytest.raises(EthosError) as caught:
            ethos_py.anchor(source_bytes, data)
        assert caught.value.error_code == "invalid_input"
        assert caught.value.details["input"] == "evidence_refs"


# -- the three surfaces ---------------------------------------------------------------------------


@pytest.fixture
def files(tmp_path: Path, source_bytes: bytes) -> dict[str, Path]:
    source = tmp_path / "doc.json"
    source.write_bytes(source_bytes)
    refs = tmp_path / "refs.json"
    refs.write_text(json.dumps(request(*[dict(case[1], evidence_id=f"case-{i}") for i, case in enumerate(CASES)])))
    return {"source": source, "refs": refs}


@pytest.mark.parametrize("statement", [False, True])
def test_three_surfaces_give_identical_bytes(files: dict[str, Path], tmp_path: Path, statement: bool) -> None:
    from test_cli_errors import run

    expected = ethos_py.anchor_json(files["source"], files["refs"], statement=statement) + b"\n"
    flag = ["--statement"] if statement else []
    for program in ("ethos", "ethos-core"):
        result = run(program, ["evidence", "anchor", files["source"], "--evidence-refs", files["refs"], *flag])
        assert (result.returncode, result.stdout, result.stderr) == (0, expected, b""), program
        out = tmp_path / f"{program}.out"
        written = run(program, ["evidence", "anchor", files["source"], "--evidence-refs", files["refs"], *flag, "--out", out])
        assert (written.returncode, written.stdout, written.stderr) == (0, b"", b"")
        assert out.read_bytes() == expected
    assert core_cli().anchor_bytes(files["source"], files["refs"], statement=statement) == expected


@pytest.mark.parametrize("case", INVALID[:3] + INVALID[12:13] + INVALID[30:31], ids=_invalid_id)
def test_clis_reject_invalid_requests_with_identical_envelopes(tmp_path: Path, files: dict[str, Path], case: tuple[str, Any, str]) -> None:
    from test_cli_errors import run

    refs = tmp_path / "bad.json"
    refs.write_text(json.dumps(case[1]))
    out = tmp_path / "report.json"
    results = [run(p, ["evidence", "anchor", files["source"], "--evidence-refs", refs, "--out", out]) for p in ("ethos", "ethos-core")]
    for result in results:
        assert result.returncode == 2 and result.stdout == b""
        envelope = result.envelope()
        assert envelope["code"] == "invalid_input" and envelope["details"]["path"] == case[2]
    assert results[0].stderr == results[1].stderr
    assert not out.exists()


def test_cli_host_errors(tmp_path: Path, files: dict[str, Path]) -> None:
    from test_cli_errors import assert_failure

    missing = tmp_path / "missing.json"
    assert_failure(["evidence", "anchor", files["source"], "--evidence-refs", missing], "host_io", 2,
                   details={"argument": "--evidence-refs", "path": str(missing), "reason": "not_found"})
    assert_failure(["evidence", "anchor", missing, "--evidence-refs", files["refs"]], "host_io", 2,
                   details={"argument": "SOURCE", "path": str(missing), "reason": "not_found"})
    assert_failure(["evidence", "anchor", files["source"]], "invalid_arguments", 2, identical=False)
    assert_failure(["evidence", "anchor", files["source"], "--evidence-refs", files["refs"], "--grounding", "odl"],
                   "invalid_arguments", 2, identical=False)
    # `ethos evidence` alone lists its commands (exit 0): test_cli_errors pins that.
    tampered = json.loads(files["source"].read_text())
    tampered["payload"]["elements"][0]["text"] = "Loan terms (revised)"
    files["source"].write_text(json.dumps(tampered))
    assert_failure(["evidence", "anchor", files["source"], "--evidence-refs", files["refs"]], "invalid_input", 2)


def test_help_says_unbound_anchors_exit_zero() -> None:
    from test_cli_errors import run

    for program in ("ethos", "ethos-core"):
        result = run(program, ["evidence", "anchor", "--help"])
        assert result.returncode == 0
        text = b" ".join(result.stdout.split())
        assert b"--evidence-refs" in text and b"exits 0" in text, program


# -- EthosCli.anchor -----------------------------------------------------------------------------


def test_wrapper_anchor(files: dict[str, Path], tmp_path: Path) -> None:
    cli = core_cli()
    report = cli.anchor(files["source"], files["refs"])
    assert report == ethos_py.anchor(files["source"], files["refs"])
    statement = cli.anchor(files["source"], files["refs"], statement=True)
    assert statement["predicate"] == report
    assert statement["subject"][0]["name"] == "doc.json"
    with pytest.raises(FileNotFoundError):
        cli.anchor(files["source"], tmp_path / "nope.json")
    with pytest.raises(FileNotFoundError):
        cli.anchor(tmp_path / "nope.json", files["refs"])
    with pytest.raises(ValueError):
        cli.anchor(files["source"], files["refs"], timeout=0)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(request(ref("page", "page", {"page_index": 0}))))
    with pytest.raises(EthosCommandError) as caught:
        cli.anchor(files["source"], bad)
    assert caught.value.error_code == "invalid_input"
    assert caught.value.exit_code == 2


def test_wrapper_anchor_through_the_python_cli(files: dict[str, Path]) -> None:
    import sys

    from test_cli_errors import _child_env

    cli = EthosCli([sys.executable, "-m", "ethos_py.cli"], env={"PYTHONPATH": _child_env()["PYTHONPATH"]})
    assert cli.anchor(files["source"], files["refs"]) == core_cli().anchor(files["source"], files["refs"])


def test_a_large_request_binds_every_ref(source_bytes: bytes) -> None:
    refs = [ref("text", "text", {"page_index": 1 + i % 3}, "Loan terms", evidence_id=f"r{i}") for i in range(3000)]
    report = ethos_py.anchor(source_bytes, request(*refs))
    statuses = [a["anchor_status"] for a in report["anchors"]]
    assert statuses == ["bound", "mismatch", "not_found"] * 1000


def test_request_is_not_modified(source_bytes: bytes) -> None:
    body = request(ref("page", "page", PAGE))
    before = copy.deepcopy(body)
    ethos_py.anchor(source_bytes, body)
    assert body == before
