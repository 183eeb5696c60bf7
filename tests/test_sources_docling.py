"""test_sources_docling - DoclingDocument JSON (`docling-json`) built with the real docling-core package."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import schema_errors
from sources_support import envelope, verify_all, verify_library

docling = pytest.importorskip("docling_core.types.doc", reason="the test extra installs docling-core")


def build_document() -> Any:
    """Two Letter pages: a heading (bottom-left box), a paragraph with two provenances, a list
    item, a 2x2 table with a header cell spanning two columns, and a picture."""
    from docling_core.types.doc import (
        BoundingBox,
        CoordOrigin,
        DocItemLabel,
        DoclingDocument,
        GroupLabel,
        ProvenanceItem,
        Size,
        TableCell,
        TableData,
    )

    def box(l: float, t: float, r: float, b: float, origin: Any = CoordOrigin.TOPLEFT) -> BoundingBox:
        return BoundingBox(l=l, t=t, r=r, b=b, coord_origin=origin)

    doc = DoclingDocument(name="report")
    doc.add_page(page_no=1, size=Size(width=612, height=792))
    doc.add_page(page_no=2, size=Size(width=612, height=792))
    doc.add_heading(text="Quarterly Report", level=1,
                    prov=ProvenanceItem(page_no=1, bbox=box(72, 720, 300, 700.5, CoordOrigin.BOTTOMLEFT), charspan=(0, 16)))
    paragraph = doc.add_text(label=DocItemLabel.TEXT, text="Revenue grew 12 percent. Costs fell.",
                             prov=ProvenanceItem(page_no=1, bbox=box(72, 100, 540, 112), charspan=(0, 24)))
    paragraph.prov.append(ProvenanceItem(page_no=1, bbox=box(72, 112, 200, 124), charspan=(25, 36)))
    group = doc.add_group(label=GroupLabel.LIST, name="list")
    doc.add_list_item(text="Hiring continues", parent=group,
                      prov=ProvenanceItem(page_no=1, bbox=box(80, 140, 300, 152), charspan=(0, 16)))
    cells = [
        TableCell(text="Results", start_row_offset_idx=0, end_row_offset_idx=1, start_col_offset_idx=0,
                  end_col_offset_idx=2, row_span=1, col_span=2, bbox=box(72, 200, 400, 220)),
        TableCell(text="Q3", start_row_offset_idx=1, end_row_offset_idx=2, start_col_offset_idx=0, end_col_offset_idx=1),
        TableCell(text="4.2M", start_row_offset_idx=1, end_row_offset_idx=2, start_col_offset_idx=1, end_col_offset_idx=2),
    ]
    doc.add_table(data=TableData(num_rows=2, num_cols=2, table_cells=cells),
                  prov=ProvenanceItem(page_no=2, bbox=box(72, 200, 400, 260), charspan=(0, 0)))
    doc.add_picture(prov=ProvenanceItem(page_no=2, bbox=box(72, 300, 200, 400), charspan=(0, 0)))
    return doc


@pytest.fixture()
def source(tmp_path: Path) -> Path:
    path = tmp_path / "report.docling.json"
    path.write_text(json.dumps(build_document().export_to_dict()), encoding="utf-8")
    return path


def _pinned(source: Path, claims: list[dict[str, Any]]) -> bytes:
    fingerprint = "sha256:" + hashlib.sha256(source.read_bytes()).hexdigest()
    return json.dumps({"document_fingerprint": fingerprint, "claims": claims}).encode()


CLAIMS = [
    {"kind": "value", "text": "Quarterly Report", "citation": {"element_id": "#/texts/0", "page": "page-1"}},
    {"kind": "value", "text": "Costs fell.", "citation": {"span_id": "#/texts/1/prov/1"}},
    {"kind": "quote", "text": "12 percent", "citation": {"page": "page-1"}},
    {"kind": "table_cell", "text": "Results", "citation": {"table_id": "#/tables/0", "cell": {"row": 0, "col": 1}}},
    {"kind": "table_cell", "text": "4.2M", "citation": {"table_id": "#/tables/0", "cell": {"row": 1, "col": 1}}},
    {"kind": "presence", "citation": {"page": "page-1", "bbox": [8000, 14000, 9000, 15000]}},
    {"kind": "presence", "citation": {"element_id": "#/pictures/0"}},
    {"kind": "quote", "text": "Hiring stopped", "citation": {"element_id": "#/texts/2"}},
]


def test_docling_document_on_every_surface(source: Path, tmp_path: Path) -> None:
    citations = tmp_path / "citations.json"
    citations.write_bytes(_pinned(source, CLAIMS))
    code, stdout, _ = verify_all(source, citations, "docling-json")
    report = json.loads(stdout)
    assert code == 0 and schema_errors("verification-report", report) == []
    document = json.loads(source.read_bytes())
    assert report["grounding"] == {
        "parser": {"name": "docling-document", "version": document["version"], "adapter": "docling-json",
                   "adapter_version": "1.0.0"},
        "capabilities": {"spans": True, "char_offsets": True, "tables": True, "fingerprint": True,
                         "coordinate_origin": "top-left", "crop_support": False},
    }
    assert report["capability_limits"] == []
    assert [(c["status"], c.get("reason"), c.get("evidence_tier")) for c in report["checks"]] == [
        ("grounded", None, "element_scoped"),
        ("grounded", None, "exact_span"),
        ("grounded", None, "element_scoped"),
        ("grounded", None, "table_cell"),
        ("grounded", None, "table_cell"),
        ("grounded", None, "element_scoped"),
        ("grounded", None, "element_scoped"),
        ("mismatch", "text_mismatch", "element_scoped"),
    ]
    evidence = [c["evidence"] for c in report["checks"]]
    # bottom-left box (72, 720, 300, 700.5) on a 792 pt page -> top-left quanta
    assert evidence[0]["bbox"] == [7200, 7200, 30000, 9150]
    assert evidence[1] == {"bbox": [7200, 11200, 20000, 12400], "page": "page-1", "text": "Costs fell."}
    assert evidence[5]["text"] == "Hiring continues"  # the list item inside the list group
    assert evidence[6] == {"bbox": [7200, 30000, 20000, 40000], "page": "page-2"}


def test_table_element_text_and_counts(source: Path) -> None:
    import ethos_py

    with ethos_py.Document.open(source, "docling-json") as document:
        description = document.describe()
    assert description["counts"] == {"pages": 2, "elements": 5, "spans": 4, "tables": 1}
    assert description["document_fingerprint"] == "sha256:" + hashlib.sha256(source.read_bytes()).hexdigest()


def _edited(source: Path, edit: Any) -> bytes:
    document = json.loads(source.read_bytes())
    edit(document)
    return json.dumps(document).encode()


ERRORS = [
    ("not-docling", lambda d: d.update(schema_name="Other"), "not a DoclingDocument (schema_name)", "$.schema_name"),
    ("bad-origin", lambda d: d["texts"][0]["prov"][0]["bbox"].update(coord_origin="CENTER"), "unknown coord_origin",
     "#/texts/0.prov[0].bbox.coord_origin"),
    ("unknown-page", lambda d: d["texts"][0]["prov"][0].update(page_no=7), "unknown page", "#/texts/0.prov[0].page_no"),
    ("dangling-ref", lambda d: d["body"]["children"].append({"$ref": "#/texts/99"}), "unknown reference",
     "$.body.children[5].$ref"),
    ("overlap", lambda d: d["tables"][0]["data"]["table_cells"][1].update(start_col_offset_idx=1, end_col_offset_idx=2,
                                                                         start_row_offset_idx=0, end_row_offset_idx=1),
     "overlapping cells", "#/tables/0.data.table_cells"),
]


@pytest.mark.parametrize(("name", "edit", "reason", "path"), ERRORS, ids=[e[0] for e in ERRORS])
def test_mapping_errors_exit_2(source: Path, tmp_path: Path, name: str, edit: Any, reason: str, path: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(_edited(source, edit))
    citations = tmp_path / "citations.json"
    citations.write_text('[{"kind":"presence","citation":{"page":"page-1"}}]')
    run = verify_all if name == "not-docling" else verify_library
    code, stdout, stderr = run(bad, citations, "docling-json")
    assert (code, stdout) == (2, b""), name
    error = envelope(stderr)["error"]
    assert (error["code"], error["message"], error["details"]["path"]) == ("invalid_input", f"docling-json adapter: {reason}", path)
