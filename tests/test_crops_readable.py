"""test_crops_readable - rendered crops a reviewer can read (docs/pdf-parsing.md "Crops"): a table
cell is shown within its whole row and under its column's head, with the cell highlighted; a crop is
never narrower than 144 pt; a refused check's evidence is hatched in vermillion, a grounded one's
solid yellow. The descriptor keeps the evidence rectangle (CONTRACTS 2.11); only the PNG shows more."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pdf_fixtures as fx
from conftest import schema_errors
from pdf_fixtures import parse_cache  # noqa: F401  (fixture)
from PIL import Image

DPI, MARGIN_Q, MIN_WIDTH_Q = 144, 600, 14400


def _pixels(box: list[int], page: dict[str, Any]) -> tuple[int, int, int, int]:
    x0, y0 = max(0, box[0] - MARGIN_Q), max(0, box[1] - MARGIN_Q)
    x1, y1 = min(page["width"], box[2] + MARGIN_Q), min(page["height"], box[3] + MARGIN_Q)
    return (x0 * DPI // 7200, y0 * DPI // 7200, -(-x1 * DPI // 7200), -(-y1 * DPI // 7200))


def _unite(boxes: list[list[int]]) -> list[int]:
    return [min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)]


def _crops(tmp_path: Path, pdf: bytes, claims: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any], dict[str, tuple[dict[str, Any], Image.Image]]]:
    """(document, report, {check id: (descriptor, image)}) from verify --crop-dir on both CLIs (same bytes)."""
    path = fx.write_pdf(tmp_path, "source.pdf", pdf)
    done = fx.run_program([*fx.programs()["ethos-core"], "doc", "parse", str(path), "--out", str(tmp_path / "doc.json")])
    assert done.returncode == 0, done.stderr
    document = json.loads((tmp_path / "doc.json").read_text(encoding="utf-8"))
    citations = tmp_path / "citations.json"
    citations.write_text(json.dumps({"document_fingerprint": document["fingerprint"], "claims": claims}), encoding="utf-8")
    outputs = {}
    for program, argv in fx.programs().items():
        crop_dir = tmp_path / f"crops-{program}"
        done = fx.run_program([*argv, "verify", str(tmp_path / "doc.json"), "--citations", str(citations),
                               "--crop-dir", str(crop_dir), "--crop-source-pdf", str(path)])
        assert done.returncode == 0, done.stderr
        outputs[program] = {p.name: p.read_bytes() for p in sorted(crop_dir.iterdir())}
    assert outputs["ethos"] == outputs["ethos-core"]
    report = json.loads(done.stdout)
    crops = {}
    for name, data in outputs["ethos"].items():
        if name.endswith(".json"):
            descriptor = json.loads(data)
            assert schema_errors("crop-descriptor", descriptor) == []
            image = Image.open(io.BytesIO(outputs["ethos"][descriptor["rendered_ref"]])).convert("RGB")
            crops[descriptor["check_ids"][0]] = (descriptor, image)
    return document, report, crops


def _tinted(image: Image.Image) -> set[tuple[int, int]]:
    data = image.load()
    width, height = image.size
    return {(x, y) for y in range(height) for x in range(width) if data[x, y][0] - data[x, y][2] > 60}


def test_a_table_cell_is_shown_in_its_row_under_its_column_head_and_highlighted(tmp_path: Path, parse_cache: Path) -> None:  # noqa: F811
    claims = [{"kind": "table_cell", "text": "95", "citation": {"page": "p0001", "table_id": "t0001", "cell": {"row": 2, "col": 1}}}]
    document, report, crops = _crops(tmp_path, fx.ruled_table_pdf(), claims)
    check = report["checks"][0]
    assert check["status"] == "grounded", check
    descriptor, image = crops[check["id"]]
    table = document["payload"]["tables"][0]
    cells = {(c["row"], c["col"]): c["bbox"] for c in table["cells"]}
    # The descriptor names the evidence, the cell; the image shows row 2 whole and row 0's head.
    assert descriptor["bbox"] == check["evidence"]["bbox"] == cells[(2, 1)]
    page = document["payload"]["pages"][0]
    shown = _unite([cells[(2, c)] for c in range(3)] + [cells[(0, 1)], cells[(2, 1)]])
    x0, y0, x1, y1 = _pixels(shown, page)
    assert image.size == (x1 - x0, y1 - y0) == (descriptor["rendered_width_px"], descriptor["rendered_height_px"])
    # The cited cell, and only it, is highlighted.
    bx0, by0, bx1, by1 = cells[(2, 1)]
    cell_pixels = {(x, y) for x in range(bx0 * DPI // 7200 - x0, -(-bx1 * DPI // 7200) - x0)
                   for y in range(by0 * DPI // 7200 - y0, -(-by1 * DPI // 7200) - y0)}
    tinted = _tinted(image)
    assert tinted and tinted <= cell_pixels and len(tinted) > len(cell_pixels) // 2


def test_a_narrow_evidence_is_shown_at_least_144_pt_wide(tmp_path: Path, parse_cache: Path) -> None:  # noqa: F811
    claims = [{"kind": "quote", "text": "Units", "citation": {"page": "p0001", "table_id": "t0001", "cell": {"row": 0, "col": 1}}}]
    document, report, crops = _crops(tmp_path, fx.ruled_table_pdf(), claims)
    descriptor, image = crops[report["checks"][0]["id"]]
    width_q = descriptor["bbox"][2] - descriptor["bbox"][0]
    assert width_q < MIN_WIDTH_Q  # a 100 pt cell
    assert image.size[0] >= (MIN_WIDTH_Q + 2 * MARGIN_Q) * DPI // 7200


def test_a_refused_checks_evidence_is_hatched_in_vermillion_a_grounded_ones_solid_yellow(tmp_path: Path, parse_cache: Path) -> None:  # noqa: F811
    claims = [
        {"kind": "table_cell", "text": "120", "citation": {"page": "p0001", "table_id": "t0001", "cell": {"row": 1, "col": 1}}},
        {"kind": "table_cell", "text": "125", "citation": {"page": "p0001", "table_id": "t0001", "cell": {"row": 1, "col": 1}}},
    ]
    _, report, crops = _crops(tmp_path, fx.ruled_table_pdf(), claims)
    assert [c["status"] for c in report["checks"]] == ["grounded", "mismatch"], report["checks"]
    grounded, refused = (crops[c["id"]][1] for c in report["checks"])
    solid, hatched = _tinted(grounded), _tinted(refused)
    assert solid and hatched
    # Same rectangle: the refused one tints stripes, about half of it, and never the same colour.
    assert len(hatched) < 0.7 * len(solid)
    paper = lambda image, pixels: [image.getpixel(p) for p in pixels if sum(image.getpixel(p)) > 600]  # noqa: E731
    yellow, vermillion = paper(grounded, solid), paper(refused, hatched)
    assert all(g > 200 and b < 160 for _, g, b in yellow), yellow[:3]  # (255, 213, 0) over white
    assert all(g < 200 for _, g, _ in vermillion), vermillion[:3]  # (213, 94, 0) over white


def test_a_match_across_a_page_break_gets_a_crop_of_each_part(tmp_path: Path, parse_cache: Path) -> None:  # noqa: F811
    pages = [["The board met on Monday to review the annual accounts and", "the auditors reported that every ledger"],
             ["balanced to the cent after the corrections of March.", "The meeting closed at noon."]]
    quote = "the auditors reported that every ledger balanced to the cent"
    claims = [{"kind": "quote", "text": quote, "citation": {"page": "p0001"}}]
    document, report, _ = _crops(tmp_path, fx.text_pdf(pages), claims)
    check = report["checks"][0]
    assert check["status"] == "grounded", check
    assert {box["page"] for box in check["match"]["boxes"]} == {"p0001", "p0002"}
    descriptors = [json.loads(p.read_text()) for p in sorted((tmp_path / "crops-ethos").glob("crop-*.json"))]
    by_page = {d["page"]: d for d in descriptors}
    assert sorted(by_page) == ["p0001", "p0002"] and all(d["check_ids"] == [check["id"]] for d in descriptors)
    # The report names the first part's crop; the second is named by the same rule for its page.
    assert check["evidence"]["crop_ref"] == by_page["p0001"]["crop_ref"]
    second = by_page["p0002"]
    boxes = [box["bbox"] for box in check["match"]["boxes"] if box["page"] == "p0002"]
    assert second["bbox"] == _unite(boxes)
    image = Image.open(io.BytesIO((tmp_path / "crops-ethos" / second["rendered_ref"]).read_bytes())).convert("RGB")
    assert _tinted(image), "the continued words are highlighted on the second page"
