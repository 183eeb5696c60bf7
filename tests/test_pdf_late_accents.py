"""test_pdf_late_accents - an accent glyph drawn after the rest of its line, back over a letter the line
already holds (lmtest's affiliations: "Institut fur ... Un", the diaeresis of "für", "iversität"), is
read with its letter: one line, one element, "f¨ur", and a quote of "für" grounds (docs/pdf-parsing.md,
"Lines")."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import schema_errors
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

import ethos_py

FONT, SIZE, X, Y = "Helvetica", 11.0, 72.0, 700.0
DIAERESIS = "\u00a8"


def _late_accent_pdf() -> bytes:
    """Line 1: "Institut fur Statistik und Un" drawn first, then the diaeresis back over the u of
    "fur", then "iversit", the diaeresis of the a in its place and "at Wien". Line 2, below: an
    ordinary line ending in "Wien", then a diaeresis drawn back over line 1's "Statistik" from
    line 2's band: it stays on line 2 (it lies in no band of line 1)."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=0)
    canvas.setFont(FONT, SIZE)
    first = "Institut fur Statistik und Un"
    canvas.drawString(X, Y, first)
    u_left = X + stringWidth("Institut f", FONT, SIZE)
    u_width = stringWidth("u", FONT, SIZE)
    accent_width = stringWidth(DIAERESIS, FONT, SIZE)
    canvas.drawString(u_left + (u_width - accent_width) / 2, Y, DIAERESIS)
    x = X + stringWidth(first, FONT, SIZE)
    canvas.drawString(x, Y, "iversit")
    x += stringWidth("iversit", FONT, SIZE)
    canvas.drawString(x + (stringWidth("a", FONT, SIZE) - accent_width) / 2, Y, DIAERESIS)
    canvas.drawString(x, Y, "at Wien")
    second_y = Y - 2 * SIZE
    canvas.drawString(X, second_y, "Second line of the address block, Wien")
    canvas.drawString(X + stringWidth("Institut fur Stat", FONT, SIZE), second_y - 1.5 * SIZE, DIAERESIS)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


@pytest.fixture(scope="module")
def parsed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    directory = tmp_path_factory.mktemp("late-accents")
    (directory / "late.pdf").write_bytes(_late_accent_pdf())
    document = ethos_py.parse_pdf_json(directory / "late.pdf")
    assert schema_errors("document", document) == []
    (directory / "document.json").write_text(json.dumps(document))
    return {"dir": directory, "document": document}


def test_the_late_accent_joins_its_letter_and_the_line_stays_whole(parsed: dict[str, Any]) -> None:
    texts = [element["text"] for element in parsed["document"]["payload"]["elements"]]
    assert texts[0] == "Institut f\u00a8ur Statistik und Universit\u00a8at Wien"


def test_an_accent_from_another_band_does_not_move_into_a_line(parsed: dict[str, Any]) -> None:
    texts = [element["text"] for element in parsed["document"]["payload"]["elements"]]
    assert "Second line of the address block, Wien" in " ".join(texts[1:])
    assert all(DIAERESIS not in text for text in texts[1:] if "Statistik" in text)


def test_a_quote_with_the_composed_letter_grounds(parsed: dict[str, Any]) -> None:
    directory: Path = parsed["dir"]
    with ethos_py.Document.open(directory / "document.json") as document:
        citations = {
            "document_fingerprint": document.fingerprint,
            "claims": [
                {"kind": "quote", "text": "Institut f\u00fcr Statistik und Universit\u00e4t Wien", "citation": {"page": "p0001"}},
                {"kind": "quote", "text": "Institut fur Statistik", "citation": {"page": "p0001"}},
            ],
        }
        report = json.loads(document.verify_json(json.dumps(citations).encode()))
    grounded, plain = report["checks"]
    assert grounded["status"] == "grounded" and grounded["match"]["tier"] == "typography"
    assert grounded["match"]["source_text"] == "Institut f\u00a8ur Statistik und Universit\u00a8at Wien"
    # The mark is the document's: dropping it is a change, as "resume" for "résumé".
    assert plain["status"] != "grounded"
