"""test_sources_odl - the OpenDataLoader adapter (`opendataloader-json` 0.2.0): the real ODL tree and the documented subset."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import schema_errors
from sources_support import envelope, verify_all, verify_library

import ethos_py

FIXTURE = Path(__file__).resolve().parent / "golden" / "sources" / "odl-quarterly.json"


def _quarterly_pdf() -> bytes:
    """One Letter page: a heading, a paragraph, a two-item bullet list and a 3x2 grid table."""
    from reportlab.lib.pagesizes import letter
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import ListFlowable, ListItem, Paragraph, SimpleDocTemplate, Spacer, Table

    styles = getSampleStyleSheet()
    buffer = io.BytesIO()
    document = SimpleDocTemplate(buffer, pagesize=letter, invariant=1)
    document.build([
        Paragraph("Quarterly Report", styles["Heading1"]),
        Paragraph("Revenue grew 12 percent year over year, reaching 4.2 million dollars.", styles["Normal"]),
        ListFlowable(
            [ListItem(Paragraph("First item of the list", styles["Normal"])),
             ListItem(Paragraph("Second item of the list", styles["Normal"]))],
            bulletType="bullet",
        ),
        Spacer(1, 12),
        Table([["Quarter", "Revenue"], ["Q1", "1.0M"], ["Q2", "1.1M"]], style=[("GRID", (0, 0), (-1, -1), 0.5, "black")]),
    ])
    return buffer.getvalue()


@pytest.fixture(scope="module")
def odl_output(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The JSON the real OpenDataLoader (its Java CLI) writes for the quarterly PDF."""
    opendataloader_pdf = pytest.importorskip("opendataloader_pdf", reason="the test extra installs opendataloader-pdf")
    directory = tmp_path_factory.mktemp("odl")
    pdf = directory / "quarterly.pdf"
    pdf.write_bytes(_quarterly_pdf())
    opendataloader_pdf.convert(input_path=[str(pdf)], output_dir=str(directory / "out"), format="json", quiet=True)
    return directory / "out" / "quarterly.json"


CLAIMS = [
    {"kind": "quote", "text": "12 percent year over year", "citation": {"element_id": "odl-2", "page": "page-1"}},
    {"kind": "value", "text": "Quarterly Report", "citation": {"page": "page-1"}},
    {"kind": "table_cell", "text": "1.1M", "citation": {"table_id": "odl-6", "cell": {"row": 2, "col": 1}}},
    {"kind": "table_cell", "text": "Quarter", "citation": {"table_id": "odl-6", "cell": {"row": 0, "col": 0}}},
    {"kind": "quote", "text": "Second item of the list", "citation": {"element_id": "odl-3"}},
    {"kind": "presence", "citation": {"page": "page-1", "bbox": [7800, 67375, 38590, 68531]}},
    {"kind": "table_cell", "text": "1.1M", "citation": {"table_id": "odl-6", "cell": {"row": 3, "col": 2}}},
]


def _check_tree_report(report: dict[str, Any]) -> None:
    assert schema_errors("verification-report", report) == []
    assert report["grounding"] == {
        "parser": {"name": "opendataloader-pdf", "version": "unknown", "adapter": "opendataloader-json",
                   "adapter_version": "0.2.0"},
        "capabilities": {"spans": False, "char_offsets": False, "tables": True, "fingerprint": False,
                         "coordinate_origin": "unknown", "crop_support": False},
    }
    assert "document_fingerprint" not in report
    assert report["capability_limits"] == ["missing_spans", "missing_char_offsets", "missing_fingerprint",
                                           "unknown_coordinate_origin"]
    assert [(c["status"], c.get("reason")) for c in report["checks"]] == [
        ("grounded", None),
        ("grounded", None),
        ("grounded", None),  # 0-based cells (ODL's own numbers are 1-based)
        ("grounded", None),
        ("grounded", None),  # a list's text is its items' texts
        ("capability_blocked", "unknown_coordinate_origin"),
        ("not_found", "table_cell_not_found"),
    ]


def test_real_odl_output_verifies_on_every_surface(odl_output: Path, tmp_path: Path) -> None:
    citations = tmp_path / "citations.json"
    citations.write_text(json.dumps(CLAIMS))
    code, stdout, _ = verify_all(odl_output, citations, "opendataloader-json")
    assert code == 0
    _check_tree_report(json.loads(stdout))


def test_real_odl_output_shape_matches_the_committed_fixture(odl_output: Path) -> None:
    """The fixture the golden cases use is what today's ODL writes (same tree, same numbers)."""
    live = json.loads(odl_output.read_bytes())
    fixture = json.loads(FIXTURE.read_bytes())
    for value in (live, fixture):
        for key in ("file name", "creation date", "modification date", "author", "title"):
            value.pop(key, None)
    assert live == fixture


def test_tree_mapping(tmp_path: Path) -> None:
    with ethos_py.Document.open(FIXTURE, "opendataloader-json") as document:
        counts = document.describe()["counts"]
    # 18 nodes with a page and a box: heading, paragraph, list, 2 items, table, 6 cells, 6 cell
    # paragraphs; rows have neither and are walked through.
    assert counts == {"pages": 1, "elements": 18, "spans": 0, "tables": 1}
    citations = tmp_path / "citations.json"
    citations.write_text(json.dumps([
        {"kind": "presence", "citation": {"element_id": "odl-6"}},
        {"kind": "presence", "citation": {"element_id": "odl-4"}},
        {"kind": "presence", "citation": {"page": "page-1"}},
    ]))
    report = json.loads(verify_library(FIXTURE, citations, "opendataloader-json")[1])
    table, item, page = (c["evidence"] for c in report["checks"])
    assert table["text"] == "Quarter\nRevenue\nQ1\n1.0M\nQ2\n1.1M"
    assert item == {"bbox": [7800, 65930, 17991, 67331], "page": "page-1", "text": "• First item of the list"}
    # The page extent is the far corner of the boxes seen on it (the tree has no page sizes).
    assert page["bbox"] == [0, 0, 38590, 71332]


# ------------------------------------------------------------------------------------------ documented subset

SUBSET: dict[str, Any] = {
    "tool": {"name": "opendataloader-pdf", "version": "2.4.1"},
    "source_fingerprint": "sha256:" + "0" * 64,
    "pages": [{"number": 1, "width": 612, "height": 792}, {"number": 2, "width": 612.0, "height": 792.0}],
    "elements": [
        {"id": "h1", "page": 1, "bbox": [72, 72.004, 300, 90], "type": "Heading", "text": "Annual Summary"},
        {"page": 1, "bbox": [72, 100, 540, 130.555], "text": "Net income rose to 3.1 million."},
        {"id": "p2", "page": 2, "bbox": [72, 72, 540, 100], "type": "paragraph", "text": "Second page text."},
    ],
    "tables": [{"id": "t1", "page": 2, "bbox": [72, 200, 540, 300], "cells": [
        {"row": 0, "col": 0, "bbox": [72, 200, 300, 250], "text": "Year"},
        {"row": 0, "col": 1, "bbox": [300, 200, 540, 250], "text": "2025"},
        {"row": 1, "col": 0, "col_span": 2, "bbox": [72, 250, 540, 300], "text": "Totals follow"},
    ]}],
}


def test_documented_subset_on_every_surface(tmp_path: Path) -> None:
    source = tmp_path / "subset.json"
    source.write_text(json.dumps(SUBSET))
    citations = tmp_path / "citations.json"
    citations.write_text(json.dumps({"document_fingerprint": SUBSET["source_fingerprint"], "claims": [
        {"kind": "value", "text": "Annual Summary", "citation": {"element_id": "h1"}},
        {"kind": "quote", "text": "3.1 million", "citation": {"element_id": "odl-el-2"}},
        {"kind": "table_cell", "text": "Totals follow", "citation": {"table_id": "t1", "cell": {"row": 1, "col": 1}}},
        {"kind": "presence", "citation": {"page": "page-2"}},
        {"kind": "presence", "citation": {"page": "page-3"}},
    ]}))
    code, stdout, _ = verify_all(source, citations, "opendataloader-json")
    report = json.loads(stdout)
    assert code == 0 and schema_errors("verification-report", report) == []
    assert report["grounding"]["parser"] == {"name": "opendataloader-pdf", "version": "2.4.1",
                                             "adapter": "opendataloader-json", "adapter_version": "0.2.0"}
    assert report["grounding"]["capabilities"]["tables"] is True
    assert report["grounding"]["capabilities"]["fingerprint"] is True
    assert report["document_fingerprint"] == SUBSET["source_fingerprint"]
    assert report["capability_limits"] == ["missing_spans", "missing_char_offsets", "unknown_coordinate_origin"]
    assert [(c["status"], c.get("reason")) for c in report["checks"]] == [
        ("grounded", None), ("grounded", None), ("grounded", None), ("grounded", None), ("not_found", "page_not_found")]
    # points x 100, rounded half away from zero
    assert report["checks"][0]["evidence"]["bbox"] == [7200, 7200, 30000, 9000]
    assert report["checks"][1]["evidence"]["bbox"] == [7200, 10000, 54000, 13056]
    assert report["checks"][3]["evidence"]["bbox"] == [0, 0, 61200, 79200]


def test_unknown_fields_are_read_past_and_named_in_the_report(tmp_path: Path) -> None:
    """OpenDataLoader adds fields between versions: the loader keeps reading and the report names
    each unknown field once, indexes as [*] (it used to reject the file; issue 23 item 8)."""
    doc = copy.deepcopy(SUBSET)
    doc["_comment"] = "written by a newer producer"
    for element in doc["elements"]:
        element["confidence"] = 0.9
    doc["tables"][0]["cells"][2]["style"] = {"bold": True}
    source = tmp_path / "subset.json"
    source.write_text(json.dumps(doc))
    citations = tmp_path / "citations.json"
    citations.write_text(json.dumps({"document_fingerprint": SUBSET["source_fingerprint"], "claims": [
        {"kind": "quote", "text": "3.1 million", "citation": {"element_id": "odl-el-2"}},
    ]}))
    code, stdout, _ = verify_all(source, citations, "opendataloader-json")
    report = json.loads(stdout)
    assert code == 0 and schema_errors("verification-report", report) == []
    assert report["checks"][0]["status"] == "grounded"
    assert report["warnings"] == [
        "capability_limited",
        "unknown_field:$._comment",
        "unknown_field:$.elements[*].confidence",
        "unknown_field:$.tables[*].cells[*].style",
    ]
    # The same file without the additions reports no unknown field.
    source.write_text(json.dumps(SUBSET))
    assert json.loads(verify_all(source, citations, "opendataloader-json")[1])["warnings"] == ["capability_limited"]


def test_subset_without_tables_or_fingerprint_declares_neither(tmp_path: Path) -> None:
    doc = copy.deepcopy(SUBSET)
    del doc["tables"], doc["source_fingerprint"]
    source = tmp_path / "subset.json"
    source.write_text(json.dumps(doc))
    with ethos_py.Document.open(source, "opendataloader-json") as document:
        capabilities = document.describe()["grounding"]["capabilities"]
    assert capabilities["tables"] is False and capabilities["fingerprint"] is False


def _edit(path: list[Any], value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(SUBSET)
    node: Any = doc
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return doc


ERRORS = [
    ("outside-page", _edit(["elements", 0, "bbox"], [72, 72, 613, 90]), "bbox outside its page", "$.elements[0].bbox"),
    ("inverted", _edit(["elements", 0, "bbox"], [300, 72, 72, 90]), "inverted bbox", "$.elements[0].bbox"),
    ("no-area", _edit(["elements", 0, "bbox"], [72, 72, 72, 90]), "bbox without area", "$.elements[0].bbox"),
    ("three-numbers", _edit(["elements", 0, "bbox"], [72, 72, 90]), "a bbox has four numbers", "$.elements[0].bbox"),
    ("string-number", _edit(["elements", 0, "bbox"], [72, "72", 300, 90]), "expected a number", "$.elements[0].bbox[1]"),
    ("duplicate-id", _edit(["elements", 2, "id"], "h1"), "duplicate id", "$.elements[2].id"),
    ("unknown-page", _edit(["elements", 0, "page"], 3), "unknown page", "$.elements[0].page"),
    ("zero-width", _edit(["pages", 0, "width"], 0), "page size must be positive", "$.pages[0]"),
    ("overlap", _edit(["tables", 0, "cells", 0, "col_span"], 2), "overlapping cells", "$.tables[0].cells"),
    ("blank-cell", _edit(["tables", 0, "cells", 1, "text"], "  "), "blank cell text", "$.tables[0].cells[1].text"),
    ("bad-fingerprint", _edit(["source_fingerprint"], "sha256:XYZ"), "invalid source_fingerprint", "$.source_fingerprint"),
    ("unknown-shape", {"pages": []}, "neither the documented subset (tool) nor an OpenDataLoader tree (file name, number of pages, kids)", "$"),
    ("too-many-pages", {"file name": "x.pdf", "number of pages": 10001, "kids": []}, "too many pages", "$.number of pages"),
    ("tree-bad-box", {"file name": "x.pdf", "number of pages": 1, "kids": [
        {"type": "paragraph", "id": 1, "page number": 1, "bounding box": [1, 2, 3], "content": "x"}]},
     "a bbox has four numbers", "$.kids[0].bounding box"),
    ("tree-page-out-of-range", {"file name": "x.pdf", "number of pages": 1, "kids": [
        {"type": "paragraph", "id": 1, "page number": 2, "bounding box": [1, 2, 3, 4], "content": "x"}]},
     "unknown page", "$.kids[0].page number"),
    ("tree-duplicate-id", {"file name": "x.pdf", "number of pages": 1, "kids": [
        {"type": "paragraph", "id": 1, "page number": 1, "bounding box": [1, 2, 3, 4], "content": "x"},
        {"type": "paragraph", "id": 1, "page number": 1, "bounding box": [1, 2, 3, 4], "content": "y"}]},
     "duplicate id", "$.kids[1].id"),
]


@pytest.mark.parametrize(("name", "doc", "reason", "path"), ERRORS, ids=[e[0] for e in ERRORS])
def test_mapping_errors_exit_2(tmp_path: Path, name: str, doc: dict[str, Any], reason: str, path: str) -> None:
    source = tmp_path / "odl.json"
    source.write_text(json.dumps(doc))
    citations = tmp_path / "citations.json"
    citations.write_text('[{"kind":"presence","citation":{"page":"page-1"}}]')
    run = verify_all if name in ("outside-page", "too-many-pages") else verify_library
    code, stdout, stderr = run(source, citations, "opendataloader-json")
    assert (code, stdout) == (2, b""), name
    error = envelope(stderr)["error"]
    assert error["code"] == "invalid_input"
    assert error["message"] == f"opendataloader-json adapter: {reason}"
    assert error["details"]["path"] == path


@pytest.mark.parametrize("data", [b"{", b'{"tool":{"name":"a","version":"1","name":"b"},"pages":[],"elements":[]}', b"[]"])
def test_malformed_json_is_an_adapter_error(tmp_path: Path, data: bytes) -> None:
    source = tmp_path / "odl.json"
    source.write_bytes(data)
    citations = tmp_path / "citations.json"
    citations.write_text('[{"kind":"presence","citation":{"page":"page-1"}}]')
    code, stdout, stderr = verify_library(source, citations, "opendataloader-json")
    assert (code, stdout) == (2, b"")
    assert envelope(stderr)["error"]["message"].startswith("opendataloader-json adapter: ")
