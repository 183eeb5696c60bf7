"""test_matching_contents_pages - extractors that read a contents page's right-aligned page numbers
as a column of their own (pdftotext) give entries without their numbers, so a quote copied from
them runs from one entry into the next ("Authors, affiliations, and collaborations III.3."). The
`contents_numbers_dropped` reading (docs/matching.md "Reading order") grounds it, with or without
leader dots, while a changed page number, section number or word is refused and body text whose
lines merely end in figures is not read without them."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from reportlab.pdfgen.canvas import Canvas

import ethos_py

ENTRIES = [("III.", "Marking up front matter", "2"), ("III.1.", "Title", "2"),
           ("III.2.", "Authors, affiliations, and collaborations", "2"), ("III.3.", "Abstract", "3"),
           ("III.4.", "Keywords and PACS numbers", "4")]
LEADERED = [("5.7", "Table level commands", "20"), ("5.8", "Long tables", "21"), ("5.9", "Sideways tables", "23")]


def _contents_pdf() -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=0)
    canvas.setFont("Helvetica-Bold", 14)
    canvas.drawString(72, 740, "Contents")
    canvas.setFont("Helvetica", 10)
    y = 710.0
    for number, title, page in ENTRIES:  # each number set apart after its title (a tab), no leaders
        entry = f"{number} {title}"
        canvas.drawString(72, y, entry)
        canvas.drawString(72 + canvas.stringWidth(entry, "Helvetica", 10) + 24, y, page)
        y -= 12
    y -= 30
    for number, title, page in LEADERED:  # TeX's leader dots, then the number
        canvas.drawString(72, y, f"{number} {title} " + " ." * 8 + f" {page}")
        y -= 12
    y -= 30
    for line in ("The first run measured 12", "and the second run measured 15", "while the third measured 18"):
        canvas.drawString(72, y, line)
        y -= 12
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _checks(tmp_path: Path, claims: list[str]) -> list[dict[str, Any]]:
    (tmp_path / "source.pdf").write_bytes(_contents_pdf())
    (tmp_path / "document.json").write_text(json.dumps(ethos_py.parse_pdf_json(tmp_path / "source.pdf")))
    with ethos_py.Document.open(tmp_path / "document.json") as opened:
        body = [{"kind": "quote", "text": text, "citation": {"page": "p0001"}} for text in claims]
        report = json.loads(opened.verify_json({"document_fingerprint": opened.fingerprint, "claims": body}))
    checks: list[dict[str, Any]] = report["checks"]
    return checks


def test_entries_without_their_page_numbers_ground(tmp_path: Path) -> None:
    checks = _checks(tmp_path, [
        "Authors, affiliations, and collaborations III.3.",
        "III.1. Title III.2. Authors, affiliations, and collaborations III.3. Abstract",
        "5.7 Table level commands . . . . . . . . 5.8 Long tables",
    ])
    for check in checks:
        assert check["status"] == "grounded", check
        assert check["match"]["reading"] == "contents_numbers_dropped", check["match"]
        assert check["match"]["boxes"], check["match"]
    # With its page number, the entry reads in the page's own order.
    with_number = _checks(tmp_path, ["Authors, affiliations, and collaborations 2"])[0]
    assert with_number["status"] == "grounded" and "reading" not in with_number["match"], with_number


def test_changed_numbers_and_words_are_refused(tmp_path: Path) -> None:
    checks = _checks(tmp_path, [
        "Authors, affiliations, and collaborations 3 III.3.",  # a page number changed
        "Authors, affiliations, and collaborations III.4.",  # a section number changed
        "Authors, affiliations, and referees III.3.",  # a word changed
        "The first run measured and the second run measured",  # body lines keep their figures
    ])
    assert [c["status"] for c in checks] == ["mismatch"] * 4, [(c["status"], c.get("reason")) for c in checks]
    assert checks[0]["reason"] == "numeric_guard" and checks[1]["reason"] == "numeric_guard", checks
