"""test_matching_reading_order - a quote read in the page's content-stream order (pdftotext -raw, pypdf
and PyMuPDF read a two-column card row by row) grounds on the same glyphs, with the reading named in
`match.reading` (docs/matching.md, "Reading order"); a figure changed in that order is refused by the
numeric guard, and words that are on the page in no reading stay refused. PDFs are drawn here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pdf_fixtures as fx
import pytest

import ethos_py

# Drawn row by row (left line, then right line of the same row): the content stream reads the card
# row by row, the layout column by column (two columns with an empty gutter between them).
LEFT = ["The first sample held 120 grams", "of dry material kept in a jar", "and sealed before the count",
        "so that nothing was lost there", "while the room stayed cool"]
RIGHT = ["measured at noon on each day", "by the same two assistants", "who wrote it all in the book",
         "before the evening meeting", "of the whole research group"]
ROW_BY_ROW = "The first sample held 120 grams measured at noon on each day"
QUOTES = [
    ROW_BY_ROW,                                                      # 0 grounded in the stream reading
    "of dry material kept in a jar by the same two assistants",      # 1 the next row, too
    "The first sample held 125 grams measured at noon on each day",  # 2 a changed figure
    "measured at noon on each day The first sample held 120 grams",  # 3 the row's halves swapped: no reading
    "The first sample held 120 grams of dry material kept in a jar",  # 4 the layout's own order
]


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], bytes, Path]:
    directory = tmp_path_factory.mktemp("reading-order")
    pdf = fx.two_column_pdf(LEFT, RIGHT)
    report = fx.page_quote_report(pdf, QUOTES, directory)
    return report, pdf, directory


def test_the_layout_reads_the_card_column_by_column(reports: tuple[dict[str, Any], bytes, Path]) -> None:
    # The premise: the document's own reading order is not the stream's (else nothing is tested).
    report, _, _ = reports
    check = report["checks"][4]
    fx.assert_verdict(check, "grounded")
    assert "reading" not in check["match"], check


def test_a_row_by_row_quote_grounds_on_the_right_glyphs(reports: tuple[dict[str, Any], bytes, Path]) -> None:
    report, _, _ = reports
    for index in (0, 1):
        check = report["checks"][index]
        fx.assert_verdict(check, "grounded")
        match = check["match"]
        assert match["reading"] == "content_stream", check
        assert match["tier"] == "whitespace"
        # The evidence text is the stream reading; the offsets and source text index it.
        assert match["source_text"] == "\n".join([LEFT[index], RIGHT[index]])
        # One box over the left line, one over the right line of the same row, same baseline band.
        left, right = (box["bbox"] for box in match["boxes"])
        assert [box["page"] for box in match["boxes"]] == ["p0001", "p0001"]
        assert 7100 <= left[0] <= 7300 and left[2] < 32400 <= right[0] + 100
        assert left[2] < right[0] and abs(left[1] - right[1]) < 100
        assert len(check["resolved_element_ids"]) == 2 if "resolved_element_ids" in check else True


def test_a_changed_figure_in_stream_order_is_refused_by_the_numeric_guard(
        reports: tuple[dict[str, Any], bytes, Path]) -> None:
    report, _, _ = reports
    check = report["checks"][2]
    fx.assert_verdict(check, "numeric_guard")
    # Aligned in whichever reading holds it best (here our own order's running text already does).
    assert check["match"].get("reading", "content_stream") == "content_stream", check
    assert any(guard["name"] == "numeric" and guard["verdict"] == "block" for guard in check["match"]["guards"])


def test_words_on_the_page_in_no_reading_stay_refused(reports: tuple[dict[str, Any], bytes, Path]) -> None:
    report, _, _ = reports
    check = report["checks"][3]
    assert check["status"] == "mismatch", check


def test_the_three_surfaces_give_byte_identical_reports(reports: tuple[dict[str, Any], bytes, Path]) -> None:
    _, _, directory = reports
    document = directory / "document.json"
    with ethos_py.Document.open(document) as opened:
        citations = {"document_fingerprint": opened.fingerprint,
                     "claims": [{"kind": "quote", "text": text, "citation": {"page": "p0001"}} for text in QUOTES]}
        library = opened.verify_json(citations)
    (directory / "citations.json").write_text(json.dumps(citations))
    for name, program in fx.programs().items():
        out = directory / f"report-{name}.json"
        done = fx.run_program([*program, "verify", str(document), "--citations", str(directory / "citations.json"),
                               "--out", str(out)])
        assert done.returncode in (0, 1), done.stderr
        assert out.read_bytes().rstrip(b"\n") == library.rstrip(b"\n"), name


def _subscript_card_pdf() -> bytes:
    """The two-column page of `two_column_pdf`, drawn row by row, whose first row sets a subscript
    and a superscript in smaller type (PARI/GP's elliptic-curve card: "over Qp, precision n" beside
    "D = O(pⁿ)"): pdftotext reads that row with a space after each (a font junction)."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=0)
    rows = [([("over Q", 10, 0), ("p", 7, -2), (", precision n", 10, 0)], [("D = O(p", 10, 0), ("n", 7, 4), (")", 10, 0)])]
    rows += [([(left, 10, 0)], [(right, 10, 0)]) for left, right in zip(LEFT[1:], RIGHT[1:], strict=True)]
    for index, line_pair in enumerate(rows):
        y = 700 - index * 14
        for x, runs in zip((72, 324), line_pair, strict=True):
            for text, size, rise in runs:
                canvas.setFont("Helvetica", size)
                canvas.drawString(x, y + rise, text)
                x += canvas.stringWidth(text, "Helvetica", size)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_a_row_by_row_quote_with_spaces_at_font_junctions_grounds(tmp_path: Path) -> None:
    """The stream reading takes a space where two glyph runs of one line touch, as an element's text
    does; a changed letter or a space inside a run is still refused."""
    quotes = ["over Qp , precision n D = O(pn )", "over Qp , precision m D = O(pn )", "over Qp , prec ision n D = O(pn )"]
    report = fx.page_quote_report(_subscript_card_pdf(), quotes, tmp_path)
    grounded = report["checks"][0]
    fx.assert_verdict(grounded, "grounded")
    assert grounded["match"]["reading"] == "content_stream", grounded
    assert grounded["match"]["source_text"] == "over Qp, precision n\nD = O(pn)"
    assert [check["status"] for check in report["checks"][1:]] == ["mismatch", "mismatch"], report["checks"][1:]
