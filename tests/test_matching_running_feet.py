"""test_matching_running_feet - a quote copied from an extractor that reads a page's running foot as
its last line (pdftotext, pypdf, PyMuPDF) starts in the chapter title the footer repeats and goes on
at the top of the next page: it grounds in the `running_feet_kept` reading (docs/matching.md
"Reading order"), page-cited or range-cited, with glyph boxes on both pages; the footer's page number
is never part of that reading, a changed figure or word is refused, and the running header of the
next page stays out of the way."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from reportlab.pdfgen.canvas import Canvas

import ethos_py

FOOT_TITLE = "3.3. Problem 2: Inverting an Injection"


def _book_pdf() -> bytes:
    """Four pages of a manual with a running head, a running foot (the section title and the page
    number) and body text; the body of page 2 ends with a code line, page 3 opens with the next."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=0)
    for page in range(1, 5):
        canvas.setFont("Helvetica", 9)
        canvas.drawString(72, 770, "Why3 Documentation, Release 1.5.1")
        canvas.setFont("Helvetica", 11)
        y = 720.0
        if page == 3:
            canvas.drawString(72, y, "forall i. 0 <= i < n -> exists j: int. (0 <= j < n /\\ a[j] = i)")
            y -= 14
        for n in range(12):
            canvas.drawString(72, y, f"Body line {n} of page {page} says something ordinary about arrays and proofs.")
            y -= 14
        if page == 2:
            canvas.drawString(72, y, "predicate surjective (a: array int) (n: int) =")
        canvas.setFont("Helvetica", 9)
        canvas.drawString(72, 60, f"{FOOT_TITLE} {18 + page}")
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _checks(tmp_path: Path, claims: list[tuple[str, dict[str, str]]]) -> list[dict[str, Any]]:
    (tmp_path / "source.pdf").write_bytes(_book_pdf())
    document = ethos_py.parse_pdf_json(tmp_path / "source.pdf")
    kinds = {(e["page"], e["type"]) for e in document["payload"]["elements"]}
    assert ("p0002", "footer") in kinds and ("p0003", "header") in kinds, kinds  # the premise: running text found
    (tmp_path / "document.json").write_text(json.dumps(document))
    with ethos_py.Document.open(tmp_path / "document.json") as opened:
        body = [{"kind": "quote", "text": text, "citation": citation} for text, citation in claims]
        report = json.loads(opened.verify_json({"document_fingerprint": opened.fingerprint, "claims": body}))
    checks: list[dict[str, Any]] = report["checks"]
    return checks


def test_a_quote_from_the_running_foot_into_the_next_page_grounds(tmp_path: Path) -> None:
    across = "Inverting an Injection forall i. 0 <= i < n -> exists j: int."
    checks = _checks(tmp_path, [(across, {"page": "p0002", "page_end": "p0003"}), (across, {"page": "p0002"})])
    for check in checks:
        assert check["status"] == "grounded", check
        assert check["match"]["reading"] == "running_feet_kept"
        pages = {box["page"] for box in check["match"]["boxes"]}
        assert pages == {"p0002", "p0003"}, check["match"]["boxes"]


def test_the_page_number_and_altered_text_never_ground_through_the_foot(tmp_path: Path) -> None:
    checks = _checks(tmp_path, [
        # The footer's page number between the halves is not in any reading.
        ("Inverting an Injection 20 forall i. 0 <= i < n", {"page": "p0002", "page_end": "p0003"}),
        # A figure changed after the break, and a word of the footer changed.
        ("Inverting an Injection forall i. 1 <= i < n", {"page": "p0002", "page_end": "p0003"}),
        ("Inverting a Projection forall i. 0 <= i < n", {"page": "p0002", "page_end": "p0003"}),
        # The next page's running head is not read between the halves either.
        ("Inverting an Injection Why3 Documentation, Release 1.5.1 forall i.", {"page": "p0002", "page_end": "p0003"}),
    ])
    assert [c["status"] for c in checks] == ["mismatch"] * 4, [(c["status"], c.get("reason")) for c in checks]
    assert checks[1]["reason"] == "numeric_guard", checks[1]
