"""test_matching_accents - TeX's spacing accents on a PDF drawn here: quotes with accented letters ground
at the typography tier on all three surfaces (byte-identical reports), the evidence covering the accent
and letter glyphs; mark-only differences stay refused (docs/matching.md, typography tier)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import harness
import pytest
from conftest import schema_errors
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

import ethos_py

FONT, SIZE, X, Y = "Helvetica", 11.0, 72.0, 700.0
#: How far TeX's \accent sets an accent glyph left of its letter's origin in cmr10, where the acute
#: (0.5 em) is wider than the e (0.444 em) it is centred over: (0.444 - 0.5) / 2 em.
ACCENT_SHIFT = 0.028 * SIZE


def _tex_pdf() -> tuple[bytes, tuple[float, float]]:
    """One line set as TeX sets OT1 accents: each accent a glyph of its own, drawn in the content
    stream before the letter it sits over. Returns the PDF and the x range
    (pt) of "Moir´e"."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=0)
    canvas.setFont(FONT, SIZE)
    x = X

    def plain(text: str) -> None:
        nonlocal x
        canvas.drawString(x, Y, text)
        x += stringWidth(text, FONT, SIZE)

    def above(accent: str, letter: str) -> None:
        nonlocal x
        canvas.drawString(x - ACCENT_SHIFT, Y, accent)
        canvas.drawString(x, Y, letter)
        x += stringWidth(letter, FONT, SIZE)

    def below(accent: str, letter: str) -> None:
        # LaTeX's \c on a letter of x-height is \accent too: the cedilla first, on the letter's origin
        # (cmr10's cedilla and c are both 0.444 em wide).
        nonlocal x
        canvas.drawString(x, Y, accent)
        canvas.drawString(x, Y, letter)
        x += stringWidth(letter, FONT, SIZE)

    plain("The ")
    start = x
    plain("Moir")
    above("\u00b4", "e")
    end = x
    plain(" pattern was described by P")
    above("\u00b4", "e")
    plain("ter Juh")
    above("\u00b4", "a")
    plain("sz and Fran")
    below("\u00b8", "c")
    plain("ois in 1990.")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue(), (start, end)


#: (quote, the tier that grounds it or None for refused) - the quotes an LLM or pdftotext-based text
#: holds, a quote copied from the parse's own text, and mark-only differences that must stay refused.
CLAIMS = [
    ("Moir\u00e9", "typography"),
    ("The Moir\u00e9 pattern was described by P\u00e9ter Juh\u00e1sz and Fran\u00e7ois", "typography"),
    ("the moire\u0301 pattern", "case"),
    ("Moir\u00b4e pattern", "exact"),
    ("Moire pattern", None),
    ("Peter Juhasz", None),
    ("Fran\u00e7ois", "typography"),
    ("Francois", None),
]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    directory = tmp_path_factory.mktemp("accents")
    data, span = _tex_pdf()
    (directory / "tex.pdf").write_bytes(data)
    document = ethos_py.parse_pdf_json(directory / "tex.pdf")
    assert schema_errors("document", document) == []
    (directory / "document.json").write_text(json.dumps(document))
    with ethos_py.Document.open(directory / "document.json") as opened:
        fingerprint = opened.fingerprint
    claims = [{"kind": "quote", "text": text, "citation": {"page": "p0001"}} for text, _ in CLAIMS]
    (directory / "citations.json").write_text(json.dumps({"document_fingerprint": fingerprint, "claims": claims}))
    return {"dir": directory, "document": document, "span": span}


@pytest.fixture(scope="module")
def report_bytes(files: dict[str, Any]) -> bytes:
    with ethos_py.Document.open(files["dir"] / "document.json") as document:
        return document.verify_json((files["dir"] / "citations.json").read_bytes())


def test_the_parse_keeps_the_documents_own_characters(files: dict[str, Any]) -> None:
    texts = [element["text"] for element in files["document"]["payload"]["elements"]]
    assert texts == ["The Moir\u00b4e pattern was described by P\u00b4eter Juh\u00b4asz and Fran\u00b8cois in 1990."]


def test_accented_quotes_ground_at_typography_and_mark_differences_are_refused(report_bytes: bytes) -> None:
    report = json.loads(report_bytes)
    assert schema_errors("verification-report", report) == []
    for (quote, tier), check in zip(CLAIMS, report["checks"]):
        assert (check["status"] == "grounded") == (tier is not None), quote
        if tier is not None:
            assert check["match"]["tier"] == tier, quote


def test_the_evidence_covers_the_accent_and_the_letter(report_bytes: bytes, files: dict[str, Any]) -> None:
    check = json.loads(report_bytes)["checks"][0]
    match = check["match"]
    assert match["source_text"] == "Moir\u00b4e" and (match["start"], match["end"]) == (4, 10)
    [box] = match["boxes"]
    start, end = files["span"]
    left, right = box["bbox"][0] / 100, box["bbox"][2] / 100
    # From the M to the e's right edge; the acute, drawn before the e, lies inside that span.
    assert abs(left - start) < 1.5 and abs(right - end) < 1.5, (box, files["span"])


def test_three_surfaces_print_the_same_bytes(files: dict[str, Any], report_bytes: bytes) -> None:
    for command in ([sys.executable, "-m", "ethos_py.cli"], [harness.ethos_core_binary()]):
        done = subprocess.run([*command, "verify", str(files["dir"] / "document.json"), "--citations",
                               str(files["dir"] / "citations.json")],
                              capture_output=True, timeout=harness.SUBPROCESS_TIMEOUT, check=False)
        assert done.returncode == 0, done.stderr
        assert done.stdout == report_bytes + b"\n"


def test_the_same_document_refused_the_accented_quote_before_the_fold(files: dict[str, Any]) -> None:
    """Under the strict preset (exact and white-space tiers only) the accented quote is refused:
    what grounds it is the typography tier's reading, not the parse."""
    with ethos_py.Document.open(files["dir"] / "document.json") as document:
        report = json.loads(document.verify_json((files["dir"] / "citations.json").read_bytes(), policy="strict"))
    assert report["checks"][0]["status"] == "mismatch"
    assert report["checks"][0]["match"]["tier"] == "typography"
