"""test_matching_foot_notes - a sentence that goes on overleaf is read past the notes at the page's
foot (docs/matching.md "A page-cited quote may continue onto the next page"), on PDFs drawn here:
numbered notes in smaller type below the body are left out of the `foot_notes_skipped` reading, so a
quote across the break grounds, page-cited or range-cited, with boxes on both pages; an altered
quote does not, a quote wholly on the next page names the wrong page, and lines that only look like
notes (a code comment's asterisks, lines in body type) stay in the way."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from reportlab.pdfgen.canvas import Canvas

import ethos_py

BODY = [
    "The committee met in the spring and reviewed every proposal in detail.",
    "Its members agreed that the new rules apply to all packages, and that",
    "maintainers must record each change in the changelog before the upload",
]
OVERLEAF = ["is accepted by the archive, without exception.", "The next section lists the formats in detail."]
ACROSS = "changelog before the upload is accepted by the archive, without exception."


def _break_pdf(notes: list[str], *, note_size: float = 8, font: str = "Helvetica") -> bytes:
    """Two pages: a full body ending mid-sentence above `notes` at the foot, a page number, and the
    sentence's end at the top of page 2."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=0)
    for page in (1, 2):
        canvas.setFont("Helvetica", 9)
        canvas.drawString(72, 770, "Project Handbook, Release 4.2")
        if page == 1:
            y = 720.0
            lines = [f"Filler line {n} of the body text that keeps this page full of ordinary words." for n in range(30)]
            for line in lines + BODY:
                canvas.setFont("Helvetica", 11)
                canvas.drawString(72, y, line)
                y -= 14
            for n, note in enumerate(notes):
                canvas.setFont(font, note_size)
                canvas.drawString(72, 110 - 10 * n, note)
        else:
            canvas.setFont("Helvetica", 11)
            for n, line in enumerate(OVERLEAF):
                canvas.drawString(72, 720 - 14 * n, line)
        canvas.setFont("Helvetica", 9)
        canvas.drawString(300, 60, str(11 + page))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


NOTES = ["1 The changelog format is described in the appendix of this handbook.",
         "2 Older packages may keep their old format for one more release."]


def _report(tmp_path: Path, pdf: bytes, claims: list[tuple[str, dict[str, str]]]) -> list[dict[str, Any]]:
    (tmp_path / "source.pdf").write_bytes(pdf)
    (tmp_path / "document.json").write_text(json.dumps(ethos_py.parse_pdf_json(tmp_path / "source.pdf")))
    with ethos_py.Document.open(tmp_path / "document.json") as opened:
        body = [{"kind": "quote", "text": text, "citation": citation} for text, citation in claims]
        report = json.loads(opened.verify_json({"document_fingerprint": opened.fingerprint, "claims": body}))
    checks: list[dict[str, Any]] = report["checks"]
    return checks


def test_a_quote_across_the_break_is_read_past_the_notes_at_the_foot(tmp_path: Path) -> None:
    checks = _report(tmp_path, _break_pdf(NOTES), [
        (ACROSS, {"page": "p0001"}),
        (ACROSS, {"page": "p0001", "page_end": "p0002"}),
        ("changelog before the upload is refused by the archive, without exception.", {"page": "p0001"}),
        ("changelog before the upload is accepted by the archive, with exception.", {"page": "p0001", "page_end": "p0002"}),
        ("is accepted by the archive, without exception.", {"page": "p0001"}),
    ])
    for check in checks[:2]:
        assert check["status"] == "grounded", check
        assert check["match"]["reading"] == "foot_notes_skipped"
        assert check["match"]["source_text"] == "changelog before the upload\nis accepted by the archive, without exception."
        assert {box["page"] for box in check["match"]["boxes"]} == {"p0001", "p0002"}
    assert [c["status"] for c in checks[2:]] == ["mismatch"] * 3, checks[2:]
    assert checks[4]["reason"] == "located_elsewhere"  # wholly on page 2: the citation names the wrong page


def test_lines_that_only_look_like_notes_stay_in_the_way(tmp_path: Path) -> None:
    """A code comment's asterisk lines in small type, and numbered lines in body type, are no notes."""
    code = ["* The changelog format is described in the appendix of this handbook.", "* @param none"]
    numbered = ["1 The changelog format is described in the appendix of this handbook."]
    for n, (notes, size) in enumerate([(code, 8.0), (numbered, 11.0)]):
        directory = tmp_path / str(n)
        directory.mkdir()
        checks = _report(directory, _break_pdf(notes, note_size=size), [(ACROSS, {"page": "p0001"})])
        assert checks[0]["status"] == "mismatch", checks[0]


def test_a_note_labelled_by_a_symbol_the_page_marks_is_left_out(tmp_path: Path) -> None:
    """An asterisk note is a note when the body carries the asterisk as a raised marker."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=0)
    y = 720.0
    for n in range(30):
        canvas.setFont("Helvetica", 11)
        canvas.drawString(72, y, f"Filler line {n} of the body text that keeps this page full of ordinary words.")
        y -= 14
    canvas.drawString(72, y, "The archive keeps every upload")
    width = canvas.stringWidth("The archive keeps every upload", "Helvetica", 11)
    canvas.setFont("Helvetica", 7)
    canvas.drawString(72 + width, y + 4, "*")
    canvas.setFont("Helvetica", 11)
    canvas.drawString(72 + width + canvas.stringWidth("*", "Helvetica", 7), y, " for a year, and the maintainers")
    y -= 14
    canvas.drawString(72, y, "must record each change in the changelog before the upload")
    canvas.setFont("Helvetica", 8)
    canvas.drawString(72, 110, "* Uploads older than a year are moved to the snapshot service.")
    canvas.showPage()
    canvas.setFont("Helvetica", 11)
    canvas.drawString(72, 720, OVERLEAF[0])
    canvas.showPage()
    canvas.save()
    checks = _report(tmp_path, buffer.getvalue(), [(ACROSS, {"page": "p0001"})])
    assert checks[0]["status"] == "grounded", checks[0]
    assert checks[0]["match"]["reading"] == "foot_notes_skipped"
