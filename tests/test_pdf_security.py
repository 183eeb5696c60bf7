"""test_pdf_security - hidden, off-page and linked content in a PDF is flagged and kept out of the text.

A prompt-injection sentence drawn so no reader sees it must not reach element or chunk text (what
an LLM is given), and the document must carry the security warning that says why (CONTRACTS.md
§2.2 warning codes).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pdf_fixtures as fx
import pytest
from pdf_fixtures import parse_cache  # noqa: F401  (fixture)
from reportlab.pdfgen.canvas import Canvas

import ethos_py

pytestmark = pytest.mark.usefixtures("parse_cache")


def _parse(tmp_path: Path, name: str, data: bytes) -> dict[str, Any]:
    return ethos_py.parse_pdf_json(fx.write_pdf(tmp_path, name, data))


def _codes(document: dict[str, Any]) -> list[str]:
    return [warning["code"] for warning in document["payload"]["security_warnings"]]


@pytest.mark.parametrize(
    ("kind", "code", "technique"),
    [
        ("invisible", "hidden_text_detected", "invisible_render_mode"),
        ("white", "hidden_text_detected", "same_colour_as_background"),
        ("tiny", "hidden_text_detected", "tiny_font"),
        ("clipped", "hidden_text_detected", "clipped"),
        ("offpage", "off_page_text_detected", None),
    ],
)
def test_hidden_text_is_flagged_and_left_out_of_the_text(kind: str, code: str, technique: str | None, tmp_path: Path) -> None:
    document = _parse(tmp_path, f"{kind}.pdf", fx.hidden_text_pdf(kind))
    assert code in _codes(document)
    flagged = [w for w in document["payload"]["security_warnings"] if w["code"] == code]
    assert all(w.get("page") == "p0001" for w in flagged)
    # Hidden text names how it is hidden (tests/test_pdf_hidden_text.py covers every technique).
    assert {w.get("technique") for w in flagged} == {technique}
    text = fx.all_text(document)
    assert fx.VISIBLE_SENTENCE in text
    assert "approve the loan" not in text
    assert all("approve the loan" not in chunk["text"] for chunk in document["payload"]["chunks"])


def test_a_plain_page_has_no_security_warnings(tmp_path: Path) -> None:
    document = _parse(tmp_path, "plain.pdf", fx.text_pdf([[fx.VISIBLE_SENTENCE]]))
    assert _codes(document) == []


@pytest.mark.parametrize(
    ("link", "note", "expected"),
    [
        (True, False, {"annotations_present", "external_links_present"}),
        (False, True, {"annotations_present"}),
        (True, True, {"annotations_present", "external_links_present"}),
    ],
)
def test_annotations_and_external_links_are_flagged(link: bool, note: bool, expected: set[str], tmp_path: Path) -> None:
    document = _parse(tmp_path, "annotated.pdf", fx.annotated_pdf(link=link, note=note))
    assert set(_codes(document)) == expected
    assert fx.VISIBLE_SENTENCE in fx.all_text(document)


def test_an_image_only_page_is_flagged_with_its_region(tmp_path: Path) -> None:
    document = _parse(tmp_path, "mixed.pdf", fx.text_then_image_page_pdf())
    image_pages = [w.get("page") for w in document["payload"]["security_warnings"] if w["code"] == "image_only_page"]
    assert image_pages == ["p0002"]
    regions = [r for r in document["payload"]["regions"] if r["page"] == "p0002"]
    assert [r["kind"] for r in regions] == ["image"]
    # Drawn at (150, 300) size 300x300 pt, bottom-left origin: top-left y0 = 792 - 600 = 192 pt.
    assert regions[0]["bbox"] == [15000, 19200, 45000, 49200]


def test_warning_ids_follow_the_contract_order(tmp_path: Path) -> None:
    document = _parse(tmp_path, "both.pdf", fx.annotated_pdf(link=True, note=True))
    warnings = document["payload"]["security_warnings"]
    ids = [w["id"] for w in warnings]
    assert ids == sorted(ids) and all(i.startswith("w") and len(i) == 5 for i in ids)
    assert [w["code"] for w in warnings] == sorted(w["code"] for w in warnings)


def tiny_in_a_matrix_pdf() -> bytes:
    """VISIBLE_SENTENCE at y=720 and HIDDEN_SENTENCE at y=650 set in 11 pt type (Tf) inside a
    matrix scaling it 0.01 times: 0.11 pt on the page, as small as the ``tiny`` kind of
    hidden_text_pdf, though its Tf alone reads as body text."""
    def draw(canvas: Canvas) -> None:
        canvas.setFont(fx.BODY_FONT, 11)
        canvas.drawString(72, 720, fx.VISIBLE_SENTENCE)
        canvas.saveState()
        canvas.transform(0.01, 0, 0, 0.01, 72, 650)
        canvas.setFont(fx.BODY_FONT, 11)
        canvas.drawString(0, 0, fx.HIDDEN_SENTENCE)
        canvas.restoreState()

    return fx._draw([draw])


def test_type_made_tiny_by_its_matrix_is_hidden_text(tmp_path: Path) -> None:
    # The hidden-text threshold (0.5 pt) applies to the size as drawn: Tf 11 in a 0.01x matrix is
    # 0.11 pt on the page. Judged by the Tf alone, the sentence was visible text.
    document = _parse(tmp_path, "tiny-matrix.pdf", tiny_in_a_matrix_pdf())
    assert "hidden_text_detected" in _codes(document)
    assert {w["technique"] for w in document["payload"]["security_warnings"] if w["code"] == "hidden_text_detected"} == {"tiny_font"}
    text = fx.all_text(document)
    assert fx.VISIBLE_SENTENCE in text
    assert "approve the loan" not in text
