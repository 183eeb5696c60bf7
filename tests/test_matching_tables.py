"""test_matching_tables - a quote read off a table column by column (as pdftotext and many loaders
read tables) verifies in the table's column reading, a row printed without the table's separators or
with outer pipes in its row readings, each pointing at the cells it used; the same quotes altered are
refused."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pdf_fixtures as fx
import pytest
from conftest import TOOLS_DIR, schema_errors
from pdf_fixtures import parse_cache  # noqa: F401  (fixture)

sys.path.insert(0, str(TOOLS_DIR))
import make_native_document as tool  # noqa: E402

import ethos_py

CELLS = (("Region", "Units", "Revenue"), ("North", "120", "4,800"), ("South", "95", "3,610"))
LEFT, TOP, WIDTH, HEIGHT = 7200, 20000, 10000, 2000  # cell geometry in quanta


def _cell_bbox(row: int, col: int) -> list[int]:
    return [LEFT + col * WIDTH, TOP + row * HEIGHT, LEFT + (col + 1) * WIDTH, TOP + (row + 1) * HEIGHT]


def _document(rows: tuple[tuple[str, ...], ...] = CELLS) -> bytes:
    """A paragraph, then a table whose element text is the row projection (CONTRACTS §2.2)."""
    row_text = "\n".join(" | ".join(row) for row in rows)
    n_rows, n_cols = len(rows), len(rows[0])
    table_bbox = [LEFT, TOP, LEFT + n_cols * WIDTH, TOP + n_rows * HEIGHT]
    cells = [{"row": r, "col": c, "row_span": 1, "col_span": 1, "bbox": _cell_bbox(r, c), "text": text}
             for r, row in enumerate(rows) for c, text in enumerate(row)]
    payload = {
        "pages": [{"id": "p0001", "index": 1, "width": 61200, "height": 79200, "rotation": 0},
                  {"id": "p0002", "index": 2, "width": 61200, "height": 79200, "rotation": 0}],
        "elements": [
            {"id": "e000001", "type": "text_block", "page": "p0001", "bbox": [7200, 7200, 54000, 9000],
             "text": "Sales by region for the third quarter are shown below."},
            {"id": "e000002", "type": "table", "page": "p0001", "bbox": table_bbox, "text": row_text,
             "table_ref": "t0001"},
            {"id": "e000003", "type": "text_block", "page": "p0002", "bbox": [7200, 7200, 54000, 9000],
             "text": "Units are thousands of crates."},
        ],
        "tables": [{"id": "t0001", "page_refs": ["p0001"], "bbox": table_bbox, "n_rows": n_rows, "n_cols": n_cols,
                    "header_rows": 1, "header_cols": 0, "cells": cells}],
    }
    return tool.render(tool.build_document(payload))


def _verify(document: ethos_py.Document, claims: list[dict[str, Any]]) -> dict[str, Any]:
    report = json.loads(document.verify_json({"document_fingerprint": document.fingerprint, "claims": claims}))
    assert schema_errors("verification-report", report) == []
    return report


def _quote(text: str, citation: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "quote", "text": text, "citation": citation}


def _verify_parsed_table(pdf: Path, quotes: list[str]) -> tuple[list[dict[str, Any]], dict[tuple[int, int], Any]]:
    """Parse `pdf` (one table), verify `quotes` cited to its first page; the checks and cell boxes."""
    parsed = ethos_py.parse_pdf_json(pdf)
    (table,) = parsed["payload"]["tables"]
    boxes = {(cell["row"], cell["col"]): cell["bbox"] for cell in table["cells"]}
    with ethos_py.Document.from_bytes(json.dumps(parsed).encode()) as document:
        checks = _verify(document, [_quote(text, {"page": "p0001"}) for text in quotes])["checks"]
    return checks, boxes


CITATIONS = [{"element_id": "e000002"}, {"page": "p0001"}, {"page": "p0001", "page_end": "p0002"},
             {"scope": "document"}]


@pytest.mark.parametrize("citation", CITATIONS)
def test_a_quote_read_down_a_column_verifies_and_points_at_its_cells(citation: dict[str, Any]) -> None:
    with ethos_py.Document.from_bytes(_document()) as document:
        # Down the second column, then on into the top of the third: pdftotext's order.
        (check,) = _verify(document, [_quote("Units 120 95 Revenue", citation)])["checks"]
    assert check["status"] == "grounded", check
    assert check["evidence_tier"] == "element_scoped"
    match = check["match"]
    # Offsets index the table's column reading (the evidence text), whose characters are the cells'.
    columns = "Region\nNorth\nSouth\nUnits\n120\n95\nRevenue\n4,800\n3,610"
    assert check["evidence"]["text"] == columns
    assert match["source_text"] == "Units\n120\n95\nRevenue"
    assert columns[match["start"]:match["end"]] == match["source_text"]
    assert match["tier"] == "whitespace"
    assert [box["bbox"] for box in match["boxes"]] == [_cell_bbox(0, 1), _cell_bbox(1, 1), _cell_bbox(2, 1),
                                                       _cell_bbox(0, 2)]
    assert {box["page"] for box in match["boxes"]} == {"p0001"}


@pytest.mark.parametrize("citation", CITATIONS)
def test_the_column_quote_altered_is_refused(citation: dict[str, Any]) -> None:
    with ethos_py.Document.from_bytes(_document()) as document:
        (altered,) = _verify(document, [_quote("Units 120 96 Revenue", citation)])["checks"]
    assert altered["status"] == "mismatch", altered
    assert altered["reason"] == "numeric_guard", altered


ROW_QUOTES = [("North 120 4,800", "table_rows", "North\n120\n4,800"),
              ("| North | 120 | 4,800 |", "table_rows_piped", "| North | 120 | 4,800 |")]


@pytest.mark.parametrize("citation", CITATIONS)
@pytest.mark.parametrize(("quote", "reading", "source_text"), ROW_QUOTES)
def test_a_row_printed_the_way_tools_print_it_verifies_in_a_row_reading(citation: dict[str, Any], quote: str,
                                                                        reading: str, source_text: str) -> None:
    # pdftotext and pypdf print a row's cells with white space between them, Markdown writers
    # (ours too) between outer pipes: both are readings of the table, named in match.reading.
    with ethos_py.Document.from_bytes(_document()) as document:
        (check,) = _verify(document, [_quote(quote, citation)])["checks"]
    assert check["status"] == "grounded", check
    match = check["match"]
    assert match["reading"] == reading
    assert match["source_text"] == source_text
    assert [box["bbox"] for box in match["boxes"]] == [_cell_bbox(1, 0), _cell_bbox(1, 1), _cell_bbox(1, 2)]


@pytest.mark.parametrize("citation", CITATIONS)
def test_a_row_with_a_changed_figure_or_across_rows_is_refused(citation: dict[str, Any]) -> None:
    with ethos_py.Document.from_bytes(_document()) as document:
        altered, piped, across = _verify(document, [_quote("North 121 4,800", citation),
                                                    _quote("| North | 120 | 4,900 |", citation),
                                                    _quote("4,800 South 95 North", citation)])["checks"]
    assert altered["status"] == "mismatch", altered
    assert piped["status"] == "mismatch", piped
    assert across["status"] == "mismatch", across


def test_a_quote_in_the_row_reading_keeps_its_row_evidence() -> None:
    with ethos_py.Document.from_bytes(_document()) as document:
        (check,) = _verify(document, [_quote("North | 120", {"page": "p0001"})])["checks"]
    assert check["status"] == "grounded", check
    assert check["evidence"]["text"] == "\n".join(" | ".join(row) for row in CELLS)
    assert check["match"]["tier"] == "exact"


VOTES = (("Motion", "Result"), ("First", "None"), ("Second", "approved the budget"), ("Third", "unanimously"),
         ("Fourth", "did not approve the plan"), ("Fifth", "in March"))


def test_a_negator_in_the_cell_above_does_not_negate_a_quote_but_one_in_its_own_cell_does() -> None:
    with ethos_py.Document.from_bytes(_document(VOTES)) as document:
        below_none, cut = _verify(document, [_quote("approved the budget unanimously", {"page": "p0001"}),
                                             _quote("approve the plan in March", {"page": "p0001"})])["checks"]
    # "None" is the cell of another row: the quote starts a cell of its own.
    assert below_none["status"] == "grounded", below_none
    assert below_none["match"]["source_text"] == "approved the budget\nunanimously"
    # "did not approve the plan": the quote starts right after a negation inside one cell.
    assert (cut["status"], cut["reason"]) == ("mismatch", "polarity_guard"), cut
    assert cut["match"]["source_text"] == "approve the plan\nin March"


def test_a_parsed_ruled_table_verifies_a_column_quote(tmp_path: Path) -> None:
    path = fx.write_pdf(tmp_path, "table.pdf", fx.ruled_table_pdf())
    (column, altered), boxes = _verify_parsed_table(path, ["Units 120 95", "Units 120 59"])
    assert column["status"] == "grounded", column
    assert [box["bbox"] for box in column["match"]["boxes"]] == [boxes[0, 1], boxes[1, 1], boxes[2, 1]]
    assert altered["status"] == "mismatch", altered


# A method table drawn without rules (keys at x=72, descriptions at x=180): pdftotext reads the
# description column top to bottom, so a quote copied from it joins two rows' descriptions.
METHODS = [("Generic", ["Brief description"]), ("fixef (5.2.2)", ["Estimates of the fixed-effects coefficients"]),
           ("formula (2.2.1)", ["Mixed-model formula of fitted model."]), ("logLik", ["Maximum log-likelihood."])]


def test_a_parsed_key_description_table_verifies_a_column_quote(tmp_path: Path) -> None:
    path = fx.write_pdf(tmp_path, "methods.pdf", fx.method_table_pdf(METHODS, title="Methods", after="Other methods."))
    quote = "Estimates of the fixed-effects coefficients Mixed-model formula of fitted model."
    (column, altered), boxes = _verify_parsed_table(path, [quote, quote.replace("fitted", "nested")])
    assert column["status"] == "grounded", column
    assert column["match"]["source_text"] == "Estimates of the fixed-effects coefficients\nMixed-model formula of fitted model."
    # The two description cells of rows 1 and 2, not the keys beside them.
    assert [box["bbox"] for box in column["match"]["boxes"]] == [boxes[1, 1], boxes[2, 1]]
    assert altered["status"] == "mismatch", altered


def test_a_key_and_its_description_read_as_one_line_verify_in_a_two_column_table(tmp_path: Path) -> None:
    # Text extractors and running text read a key/description row as one line, without the
    # projection's ` | `: a two-column table is also read row by row without it.
    path = fx.write_pdf(tmp_path, "methods.pdf", fx.method_table_pdf(METHODS, title="Methods", after="Other methods."))
    (row, altered), boxes = _verify_parsed_table(path, ["formula (2.2.1) Mixed-model formula of fitted model.",
                                                        "formula (2.2.2) Mixed-model formula of fitted model."])
    assert row["status"] == "grounded", row
    assert row["match"]["source_text"] == "formula (2.2.1)\nMixed-model formula of fitted model."
    assert [box["bbox"] for box in row["match"]["boxes"]] == [boxes[2, 0], boxes[2, 1]]
    assert (altered["status"], altered["reason"]) == ("mismatch", "numeric_guard"), altered


def test_a_value_or_cell_that_states_another_figure_gets_the_numeric_guard() -> None:
    """A table cell or value claim whose figure differs from the cited text is refused by the numeric
    guard with its detail and a near miss's diff (as a quote's near miss is); a label that differs
    stays a plain text mismatch; the right figure grounds."""
    cell = {"table_id": "t0001", "cell": {"row": 1, "col": 2}}
    claims = [
        {"kind": "table_cell", "text": "4,800", "citation": cell},
        {"kind": "table_cell", "text": "48,00", "citation": cell},
        {"kind": "table_cell", "text": "4,900", "citation": cell},
        {"kind": "table_cell", "text": "Northern", "citation": {"table_id": "t0001", "cell": {"row": 1, "col": 0}}},
        {"kind": "table_cell", "text": "96", "citation": {"table_id": "t0001", "cell": {"row": 2, "col": 1}}},
    ]
    with ethos_py.Document.from_bytes(_document()) as document:
        checks = _verify(document, claims)["checks"]
    assert checks[0]["status"] == "grounded"
    for check, source in [(checks[2], "4,800"), (checks[4], "95")]:
        assert (check["status"], check["reason"]) == ("mismatch", "numeric_guard"), check
        (guard,) = [g for g in check["match"]["guards"] if g["name"] == "numeric"]
        assert guard["verdict"] == "block" and f'source "{source}"' in guard["detail"]
        assert check["match"]["diff"] == [{"op": "replace", "quote": check["claim"]["text"], "source": source}]
        assert check["match"]["source_text"] == source
    assert (checks[3]["status"], checks[3]["reason"]) == ("mismatch", "text_mismatch")
    assert checks[1]["status"] == "mismatch"


def _math_table_pdf() -> bytes:
    """A ruled 3x2 table whose first column sets a variable in italic inside upright text (`Jn(x)`),
    as reference cards set their formulas: each cell is glyph runs in two fonts that touch."""
    from reportlab.pdfgen.canvas import Canvas

    rows = [([("Bessel J", "Helvetica"), ("n", "Helvetica-Oblique"), ("(x)", "Helvetica")], "besselj(n, x)"),
            ([("k-th zero of J", "Helvetica"), ("n", "Helvetica-Oblique"), ("(x)", "Helvetica")], "besseljzero(n)"),
            ([("k-th zero of Y", "Helvetica"), ("n", "Helvetica-Oblique"), ("(x)", "Helvetica")], "besselyzero(n)")]

    def draw(canvas: Canvas) -> None:
        canvas.setFont("Helvetica", 11)
        canvas.drawString(72, 650, "Special functions are listed below.")
        left, top, width, height = 72.0, 600.0, 150.0, 20.0
        canvas.setLineWidth(0.75)
        for row in range(len(rows) + 1):
            canvas.line(left, top - row * height, left + 2 * width, top - row * height)
        for col in range(3):
            canvas.line(left + col * width, top, left + col * width, top - len(rows) * height)
        for row, (runs, command) in enumerate(rows):
            x, y = left + 6, top - (row + 1) * height + 6
            for text, font in runs:
                canvas.setFont(font, 10)
                canvas.drawString(x, y, text)
                x += canvas.stringWidth(text, font, 10)
            canvas.setFont("Courier", 10)
            canvas.drawString(left + width + 6, y, command)

    return fx._draw([draw])


def test_a_column_quote_with_spaces_where_a_cells_font_changes_verifies(tmp_path: Path) -> None:
    """pdftotext reads the column top to bottom and puts a space where the italic variable ends
    ("Jn (x)"): the column reading takes it at the cells' recorded font junctions; a changed
    character, a space taken out, or one inside a run of one font, is still refused."""
    path = fx.write_pdf(tmp_path, "math.pdf", _math_table_pdf())
    quotes = ["k-th zero of Jn (x) k-th zero of Yn (x)", "k-th zero of Jn (x) k-th zero of Yn (y)",
              "k-th zero of Jn (x) k-th zeroof Yn (x)", "k-th ze ro of Jn (x) k-th zero of Yn (x)"]
    checks, boxes = _verify_parsed_table(path, quotes)
    grounded = checks[0]
    assert grounded["status"] == "grounded", grounded
    assert grounded["match"]["reading"] == "table_columns"
    assert grounded["match"]["source_text"] == "k-th zero of Jn(x)\nk-th zero of Yn(x)"
    assert [box["bbox"] for box in grounded["match"]["boxes"]] == [boxes[1, 0], boxes[2, 0]]
    assert [check["status"] for check in checks[1:]] == ["mismatch"] * 3, checks[1:]
