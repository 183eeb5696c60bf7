"""test_matching_junctions - white space where the glyphs' font changes, and none where a URL or a path
wraps (docs/matching.md, "Font junctions and wrapped URLs"), on a PDF drawn here and cited by page:
pdftotext and readers put a space after a superscript ("xT x" for x-superscript-T-x, "1 https" for a
footnote's marker), a writer leaves a footnote marker out ("WYSIWYG editors" from "WYSIWYG¹ editors")
and a wrapped URL's wrap; the same characters with another figure, a space that splits a number, or
an exponent left out, stay refused. A code listing's small line numbers may be left out of a quote that runs
across its lines (also beside a footnote marker a quote keeps, and with an elision mark that is the
listing's own); a numbered list's numbers at the text's size may not."""

from __future__ import annotations

import io
import json
from typing import Any

import pdf_fixtures as fx
import pytest
from reportlab.pdfgen.canvas import Canvas

import ethos_py

BODY = "Helvetica"
ITALIC = "Helvetica-Oblique"


def _runs(canvas: Canvas, y: float, runs: list[tuple[str, str, float, float]]) -> None:
    """Draws (text, font, size, rise) runs one after another on one line, no gap between them."""
    x = 72.0
    for text, font, size, rise in runs:
        canvas.setFont(font, size)
        canvas.drawString(x, y + rise, text)
        x += canvas.stringWidth(text, font, size)


def junctions_pdf() -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=0)
    _runs(canvas, 720, [("The best way to compute ", BODY, 11, 0), ("x", ITALIC, 11, 0), ("T", BODY, 7, 4),
                        ("x", ITALIC, 11, 0), (" is crossprod of the two.", BODY, 11, 0)])
    _runs(canvas, 700, [("The grid holds 10", BODY, 11, 0), ("5", BODY, 7, 4), (" cells in all.", BODY, 11, 0)])
    _runs(canvas, 680, [("2", BODY, 7, 4), ("https://www.example-project.org is the home page.", BODY, 11, 0)])
    canvas.setFont(BODY, 11)
    canvas.drawString(72, 640, "The latest version is available from the web page (https://")
    canvas.drawString(72, 625, "ESS.example.org/) or from the archive in /usr/")
    canvas.drawString(72, 610, "share/doc/ess as shipped.")
    # Footnote markers: raised, smaller figures or symbols glued to a word or a sentence's end; and
    # raised figures after a number or a unit, which are exponents, not markers.
    _runs(canvas, 580, [("Most processors are WYSIWYG", BODY, 11, 0), ("1", BODY, 7, 4),
                        (" editors, as the survey found.", BODY, 11, 0)])
    _runs(canvas, 560, [("Readers see something like", BODY, 11, 0), ("2", BODY, 7, 4),
                        (" the final page while typing.", BODY, 11, 0)])
    _runs(canvas, 540, [("The tool was rebuilt in 2019", BODY, 11, 0), ("3", BODY, 7, 4),
                        (" by a small team.", BODY, 11, 0)])
    _runs(canvas, 520, [("The square covers 4 cm", BODY, 11, 0), ("2", BODY, 7, 4), (" of the sheet.", BODY, 11, 0)])
    _runs(canvas, 500, [("So the report says.", BODY, 11, 0), ("\u2020", BODY, 7, 4),
                        (" Then the list ends.", BODY, 11, 0)])
    # A footnote's own label, raised and glued to its first word at the start of the note's line.
    _runs(canvas, 480, [("4", BODY, 7, 4), ("If weights is a vector with less than n elements, the rest are zero.", BODY, 11, 0)])
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


#: (quote, expected: "grounded" or the mismatch reason)
CLAIMS: list[tuple[str, str]] = [
    ("The best way to compute xT x is crossprod of the two.", "grounded"),
    ("The best way to compute xTx is crossprod of the two.", "grounded"),
    ("The best way to compute xT y is crossprod of the two.", "near_miss"),
    ("The grid holds 105 cells in all.", "grounded"),
    ("The grid holds 10 5 cells in all.", "numeric_guard"),
    ("The grid holds 10 6 cells in all.", "numeric_guard"),
    ("2 https://www.example-project.org is the home page.", "grounded"),
    ("3 https://www.example-project.org is the home page.", "numeric_guard"),
    # 8- a URL or a path wrapped at a slash reads also as nothing
    ("available from the web page (https://ESS.example.org/) or from the archive", "grounded"),
    ("available from the web page (https:// ESS.example.org/) or from the archive", "grounded"),
    ("in /usr/share/doc/ess as shipped.", "grounded"),
    ("in /usr/share/doc/less as shipped.", "near_miss"),
    ("web page (https://ESS.example.com/) or", "near_miss"),
    # 13- a quote too short for a near miss is read on the page's running text
    ("xT x is", "grounded"),
    ("xT y is", "text_mismatch"),
    # 15- a footnote marker glued to a word or a sentence's end may be left out
    ("Most processors are WYSIWYG editors, as the survey found.", "grounded"),
    ("Most processors are WYSIWYG1 editors, as the survey found.", "grounded"),
    # (a near miss is explained on the text as printed: the marker it lacks reads as a figure dropped)
    ("Most processors are WYSIWYG editors, as the survey lost.", "numeric_guard"),
    ("Most processors are WYSIWYG2 editors, as the survey found.", "numeric_guard"),
    ("Readers see something like the final page while typing.", "grounded"),
    ("Readers see something like", "grounded"),
    ("So the report says. Then the list ends.", "grounded"),
    # 22- a raised figure after a number or a two-letter unit is an exponent: it stays
    ("The tool was rebuilt in 2019 by a small team.", "numeric_guard"),
    ("The square covers 4 cm of the sheet.", "numeric_guard"),
    # 24- a note's label before its first word may be left out too
    ("If weights is a vector with less than n elements, the rest are zero.", "grounded"),
    ("4If weights is a vector with less than n elements, the rest are zero.", "grounded"),
    ("If weights is a vector with less than m elements, the rest are zero.", "near_miss"),
]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return fx.page_quote_report(junctions_pdf(), [text for text, _ in CLAIMS], tmp_path_factory.mktemp("junctions"))


@pytest.mark.parametrize("index", range(len(CLAIMS)), ids=[quote for quote, _ in CLAIMS])
def test_junctions_and_wraps(report: dict[str, Any], index: int) -> None:
    fx.assert_verdict(report["checks"][index], CLAIMS[index][1])


def test_the_match_covers_the_glyphs_without_the_space(report: dict[str, Any]) -> None:
    check = report["checks"][0]
    assert check["match"]["tier"] == "whitespace"
    assert check["match"]["source_text"] == "The best way to compute xTx is crossprod of the two."
    check = report["checks"][8]
    assert check["match"]["source_text"].startswith("available from the web page (https:// ESS.example.org/)")


def test_a_dropped_footnote_marker_is_matched_around_it(report: dict[str, Any]) -> None:
    check = report["checks"][15]
    assert check["match"]["tier"] == "whitespace"
    assert check["match"]["source_text"] == "Most processors are WYSIWYG1 editors, as the survey found."
    assert report["checks"][16]["match"]["tier"] == "exact"


def test_a_callout_marker_at_a_line_start_may_be_left_out() -> None:
    """A circled number that starts a line beside a listing (a callout) reads as white space: a quote
    running past it without it grounds; one with another figure, or dropping a marker inside a line,
    does not (native document)."""
    import sys

    from conftest import TOOLS_DIR

    sys.path.insert(0, str(TOOLS_DIR))
    import make_native_document as tool

    first = "Will be completed if you use the pdfform option (see Sec-"
    elements = [
        {"bbox": [7200, 6000, 54000, 7400], "id": "e000001", "page": "p0001", "text": first,
         "hyphen_breaks": [len(first) - 1], "type": "text_block"},
        {"bbox": [7200, 7600, 54000, 9000], "id": "e000002", "page": "p0001", "text": "\u2461 tion 5.4.1).",
         "type": "text_block"},
        {"bbox": [7200, 9200, 54000, 10600], "id": "e000003", "page": "p0001",
         "text": "Steps \u2461 and \u2462 run in turn.", "type": "text_block"},
    ]
    payload = {"pages": [{"height": 79200, "id": "p0001", "index": 1, "rotation": 0, "width": 61200}],
               "elements": elements}
    quotes = [("if you use the pdfform option (see Section 5.4.1).", "grounded"),
              ("if you use the pdfform option (see Section 5.4.2).", "mismatch"),
              ("Steps and \u2462 run in turn.", "mismatch")]
    with ethos_py.Document.from_bytes(tool.render(tool.build_document(payload))) as document:
        claims = [{"kind": "quote", "text": q, "citation": {"page": "p0001"}} for q, _ in quotes]
        report = json.loads(document.verify_json({"document_fingerprint": document.fingerprint, "claims": claims}))
    assert [c["status"] for c in report["checks"]] == [status for _, status in quotes], report["checks"]
    assert report["checks"][0]["match"]["source_text"].endswith("Sec-\n\u2461 tion 5.4.1).")


def listing_pdf() -> bytes:
    """Prose, then a code listing whose lines carry small line numbers in a column to their left (as
    LaTeX's listings and minted set them), then a numbered list set at the text's own size."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=0)
    canvas.setFont(BODY, 11)
    canvas.drawString(72, 720, "To remove the old release, run a command such as")
    for n, (y, code) in enumerate([(704, "sudo apt remove --purge texlive-base"), (692, "sudo apt autoremove --yes"),
                                   (680, "rm -rf /usr/local/texlive/2022")], start=1):
        canvas.setFont(BODY, 6)
        canvas.drawRightString(79.6, y, str(n))
        canvas.setFont("Courier", 9)
        canvas.drawString(86, y, code)
    canvas.setFont(BODY, 11)
    canvas.drawString(72, 660, "and keep the rest of the system as it was.")
    canvas.drawString(72, 630, "1 Install the packages again.")
    canvas.drawString(72, 615, "2 Restart the editor once.")
    # A footnote marker ends the prose; the listing's one line holds a literal elision.
    _runs(canvas, 580, [("Fill in the name User4 and the command", BODY, 11, 0), ("9", BODY, 7, 4)])
    canvas.setFont(BODY, 6)
    canvas.drawRightString(79.6, 564, "1")
    canvas.setFont("Courier", 9)
    canvas.drawString(86, 564, '"C:\\Windows\\WinSxS\\...\\bash.exe" -i -c')
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


#: (quote, expected, the evidence's text when grounded) on listing_pdf: a listing's line numbers may be
#: left out of a quote across its lines; the evidence is the page's own characters, numbers included.
LISTING_CLAIMS: list[tuple[str, str, str]] = [
    ("run a command such as sudo apt remove --purge texlive-base", "grounded",
     "run a command such as\n1 sudo apt remove --purge texlive-base"),
    ("sudo apt autoremove --yes rm -rf /usr/local/texlive/2022 and keep the rest", "grounded",
     "sudo apt autoremove --yes 3 rm -rf /usr/local/texlive/2022\nand keep the rest"),
    # as printed, with the numbers, too
    ("run a command such as 1 sudo apt remove --purge texlive-base 2 sudo apt autoremove", "grounded",
     "run a command such as\n1 sudo apt remove --purge texlive-base 2 sudo apt autoremove"),
    # another number, another year, or a number of the list at the text's size left out: refused
    ("run a command such as 1 sudo apt remove --purge texlive-base 3 sudo apt autoremove", "numeric_guard", ""),
    ("sudo apt autoremove --yes rm -rf /usr/local/texlive/2021 and keep the rest", "numeric_guard", ""),
    ("Install the packages again. Restart the editor once.", "numeric_guard", ""),
    # 6- a footnote marker kept, the line number left out; the elision is the listing's own
    ('the command9 "C:\\Windows\\WinSxS\\...\\bash.exe" -i -c', "grounded",
     'the command9\n1 "C:\\Windows\\WinSxS\\...\\bash.exe" -i -c'),
    ('the command9 "C:\\Windows\\WinSxS\\...\\bash.exe" -i -d', "stitched_quotation", ""),
    ('Fill in the name ... "C:\\Windows\\WinSxS\\...\\bash.exe" -i -c', "stitched_quotation", ""),
]


@pytest.fixture(scope="module")
def listing_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return fx.page_quote_report(listing_pdf(), [quote for quote, _, _ in LISTING_CLAIMS], tmp_path_factory.mktemp("listing"))


@pytest.mark.parametrize("index", range(len(LISTING_CLAIMS)), ids=[quote for quote, _, _ in LISTING_CLAIMS])
def test_a_listings_line_numbers_may_be_left_out(listing_report: dict[str, Any], index: int) -> None:
    _, expected, source_text = LISTING_CLAIMS[index]
    check = listing_report["checks"][index]
    fx.assert_verdict(check, expected)
    if expected == "grounded":
        assert check["match"]["source_text"] == source_text
