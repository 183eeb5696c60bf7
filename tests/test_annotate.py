"""test_annotate - ethos annotate: a copy of the PDF whose highlights lie over the glyphs of each grounded quote (on upright
and on turned pages, checked against PDFium's own character boxes), a squiggly mark and a note on each check that is not
grounded (with its guard and diff), the original untouched, the copy rendered by another viewer (poppler), and a report
about another document refused with nothing written."""

from __future__ import annotations

import ctypes
import hashlib
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import harness
import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

import ethos_py
from ethos_py.annotate import annotate_pdf
from ethos_py.demo import SAMPLE_PDF

REPO = Path(__file__).resolve().parents[1]
ETHOS = [sys.executable, "-m", "ethos_py.cli"]
LINE = "The turned page says the audit closed on time."


def _annotations(path: Path) -> list[dict[str, Any]]:
    """Every annotation of the PDF: page, subtype, rectangle (user space) and contents."""
    found = []
    pdf = pdfium.PdfDocument(str(path))
    try:
        for index in range(len(pdf)):
            page = pdf[index]
            for i in range(raw.FPDFPage_GetAnnotCount(page.raw)):
                annot = raw.FPDFPage_GetAnnot(page.raw, i)
                rect = raw.FS_RECTF()
                raw.FPDFAnnot_GetRect(annot, ctypes.byref(rect))
                size = raw.FPDFAnnot_GetStringValue(annot, b"Contents", None, 0)
                buffer = ctypes.create_string_buffer(size)
                raw.FPDFAnnot_GetStringValue(annot, b"Contents", ctypes.cast(buffer, ctypes.POINTER(raw.FPDF_WCHAR)), size)
                found.append({"page": index + 1, "subtype": raw.FPDFAnnot_GetSubtype(annot),
                              "rect": (rect.left, rect.bottom, rect.right, rect.top),
                              "contents": buffer.raw[: size - 2].decode("utf-16-le")})
                raw.FPDFPage_CloseAnnot(annot)
            page.close()
    finally:
        pdf.close()
    return found


def _char_boxes(path: Path, page_number: int, text: str) -> tuple[float, float, float, float]:
    """The union of PDFium's user-space boxes of ``text``'s characters on the page."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        page = pdf[page_number - 1]
        textpage = page.get_textpage()
        content = textpage.get_text_range()
        start = content.index(text)
        boxes = [textpage.get_charbox(i) for i in range(start, start + len(text)) if not content[i].isspace()]
        textpage.close()
        page.close()
    finally:
        pdf.close()
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _verify(directory: Path, pdf: Path, claims: list[dict[str, Any]]) -> Path:
    document = ethos_py.parse_pdf_bytes(pdf)
    (directory / "document.json").write_bytes(document)
    with ethos_py.Document.from_bytes(document) as opened:
        report = opened.verify_json({"document_fingerprint": opened.fingerprint, "claims": claims})
    (directory / "report.json").write_bytes(report)
    return directory / "report.json"


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    directory = tmp_path_factory.mktemp("annotate")
    pdf = directory / "report.pdf"
    shutil.copyfile(SAMPLE_PDF, pdf)
    claims = json.loads((REPO / "ethos_py" / "data" / "sample-citations.json").read_text(encoding="utf-8"))["claims"]
    report = _verify(directory, pdf, claims)
    before = hashlib.sha256(pdf.read_bytes()).hexdigest()
    done = subprocess.run([*ETHOS, "annotate", "report.pdf", "report.json", "--out", "annotated.pdf"], cwd=directory,
                          capture_output=True, text=True, timeout=harness.SUBPROCESS_TIMEOUT, check=False)
    assert done.returncode == 0, done.stderr
    return {"dir": directory, "pdf": pdf, "before": before, "summary": json.loads(done.stdout),
            "report": json.loads(report.read_text(encoding="utf-8")), "out": directory / "annotated.pdf"}


def test_every_check_is_drawn_and_the_original_is_untouched(sample: dict[str, Any]) -> None:
    assert hashlib.sha256(sample["pdf"].read_bytes()).hexdigest() == sample["before"]
    checks = sample["report"]["checks"]
    grounded = [c for c in checks if c["status"] == "grounded"]
    found = _annotations(sample["out"])
    highlights = [a for a in found if a["subtype"] == raw.FPDF_ANNOT_HIGHLIGHT]
    squiggles = [a for a in found if a["subtype"] == raw.FPDF_ANNOT_SQUIGGLY]
    notes = [a for a in found if a["subtype"] == raw.FPDF_ANNOT_TEXT]
    assert len(highlights) == sample["summary"]["highlights"] == len(grounded)
    assert len(notes) == len(squiggles) == sample["summary"]["notes"] == len(checks) - len(grounded)
    assert sample["summary"]["skipped_check_ids"] == []
    figure = next(n for n in notes if "numeric_guard" in n["contents"])
    assert 'guard numeric: figure changed: source "6.1", quote "3.1"' in figure["contents"]
    assert "[-6.1-]{+3.1+}" in figure["contents"]


def test_highlights_lie_over_the_quoted_glyphs(sample: dict[str, Any]) -> None:
    found = _annotations(sample["out"])
    for check in (c for c in sample["report"]["checks"] if c["status"] == "grounded" and c["claim"]["kind"] == "quote"):
        text = check["match"]["source_text"]
        [highlight] = [a for a in found if a["subtype"] == raw.FPDF_ANNOT_HIGHLIGHT and text[:40] in a["contents"]]
        left, bottom, right, top = _char_boxes(sample["pdf"], highlight["page"], text.split("\n")[0][:30])
        r_left, r_bottom, r_right, r_top = highlight["rect"]
        assert r_left <= left + 1.5 and r_top >= top - 1.5 and r_bottom <= bottom + 1.5, (highlight, (left, bottom, right, top))


def test_another_viewer_renders_the_highlights(sample: dict[str, Any], tmp_path: Path) -> None:
    pdftoppm = shutil.which("pdftoppm")
    assert pdftoppm is not None, "poppler-utils is a test tool (tools/install-build-deps.sh --with-test-tools)"
    for source, name in ((sample["pdf"], "plain"), (sample["out"], "annotated")):
        subprocess.run([pdftoppm, "-r", "100", "-png", "-f", "1", "-l", "1", str(source), str(tmp_path / name)], check=True,
                       timeout=120)
    plain = Image.open(next(tmp_path.glob("plain*.png"))).convert("RGB")
    annotated = Image.open(next(tmp_path.glob("annotated*.png"))).convert("RGB")

    def count(image: Image.Image, colour: tuple[int, int, int]) -> int:
        return sum(1 for pixel in image.convert("RGB").get_flattened_data() if all(abs(p - c) <= 12 for p, c in zip(pixel, colour)))

    # Translucent yellow over white paper, and the squiggles' orange-red: poppler draws PDFium's annotations.
    highlight, squiggle = (255, 237, 145), (230, 60, 0)
    assert count(plain, highlight) == 0 and count(annotated, highlight) > 2_000
    assert count(plain, squiggle) == 0 and count(annotated, squiggle) > 500


def _turned_pdf() -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=0)
    canvas.setPageRotation(90)  # reportlab then lays the media box landscape: 842 x 595 pt
    canvas.setFont("Helvetica", 12)
    canvas.drawString(72, 400, LINE)
    canvas.drawString(72, 380, "A second line that is not quoted at all.")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_a_turned_page_gets_its_highlight_over_the_glyphs(tmp_path: Path) -> None:
    pdf = tmp_path / "turned.pdf"
    pdf.write_bytes(_turned_pdf())
    report = _verify(tmp_path, pdf, [{"kind": "quote", "text": "the audit closed on time", "citation": {"page": "p0001"}}])
    summary = annotate_pdf(pdf, report, tmp_path / "out.pdf")
    assert summary["highlights"] == 1
    [highlight] = _annotations(tmp_path / "out.pdf")
    left, bottom, right, top = _char_boxes(pdf, 1, "the audit closed on time")
    line = _char_boxes(pdf, 1, LINE)
    r_left, r_bottom, r_right, r_top = highlight["rect"]
    # In user space the words run along x as drawn, whatever the page's /Rotate: the highlight holds
    # the quoted glyphs and stays on their line (turned text has no per-glyph advances, so its
    # evidence is the line's box: docs/pdf-parsing.md, "Turned text").
    assert r_left <= left + 1.5 and r_right >= right - 1.5 and r_bottom <= bottom + 1.5 and r_top >= top - 1.5
    assert r_left >= line[0] - 1.5 and r_right <= line[2] + 1.5 and r_bottom >= line[1] - 6 and r_top <= line[3] + 6


def test_a_report_about_another_document_is_refused_and_nothing_is_written(sample: dict[str, Any]) -> None:
    other = REPO / "examples" / "quickstart" / "expected-report.json"
    done = subprocess.run([*ETHOS, "annotate", "report.pdf", str(other), "--out", "wrong.pdf"], cwd=sample["dir"],
                          capture_output=True, text=True, timeout=harness.SUBPROCESS_TIMEOUT, check=False)
    assert done.returncode == 2 and json.loads(done.stderr)["error"]["code"] == "source_mismatch"
    assert not (sample["dir"] / "wrong.pdf").exists()


def test_the_plan_without_boxes_names_the_skipped_checks() -> None:
    from ethos_py.annotate import annotation_plan

    plan, skipped = annotation_plan({"checks": [{"id": "v0001", "status": "not_found", "claim": {"text": "x"}}]},
                                    {"payload": {"pages": [{"id": "p0001", "index": 1, "width": 100, "height": 100}]}})
    assert (plan, skipped) == ([], ["v0001"])
