"""test_matching_tex_t1_codes - TeX's T1 (Cork) encoding puts the f-ligatures, the double quotation
marks and the dashes on control codes; a font without a Unicode map (dvips' Type 3 fonts in many R
and LaTeX vignettes) reaches every extractor as those codes ("\\x1Crst" for "ﬁrst"). The typography
tier reads them as the characters they draw (docs/matching.md "Typography"), on both sides, so the
proper spelling and the raw copy ground, and a changed word or figure beside them is still refused."""

from __future__ import annotations

from typing import Any

from sources_support import text_quote_checks

# As PDFium and pdftotext give the text of such a font: 0x1C = fi, 0x1B = ff, 0x1D = fl,
# 0x1E = ffi, 0x10/0x11 = the double quotation marks, 0x15 = the en dash.
TEXT = ("When we \x1crst observed it, the \x1ctted curves \x1datten out after 80 years; the age e\x1bect is "
        "far from proportional and the coe\x1ecients of the \x10PCM\x11 state cover 1990\x151999.\n").encode()


def _checks(claims: list[str]) -> list[dict[str, Any]]:
    return text_quote_checks(TEXT, claims, {"element_id": "e000001"})


def test_the_proper_spelling_grounds_at_the_typography_tier() -> None:
    checks = _checks([
        "When we first observed it, the fitted curves flatten out after 80 years",
        "the age effect is far from proportional and the coefficients",
        "the coeﬃcients of the “PCM” state cover 1990–1999.",
        'the "PCM" state cover 1990-1999',
    ])
    assert [(c["status"], c["match"]["tier"]) for c in checks] == [("grounded", "typography")] * 4, checks


def test_the_raw_copy_grounds_exactly() -> None:
    checks = _checks(["we \x1crst observed it, the \x1ctted curves \x1datten out"])
    assert (checks[0]["status"], checks[0]["match"]["tier"]) == ("grounded", "exact"), checks[0]


def test_changes_beside_the_codes_are_refused() -> None:
    checks = _checks([
        "the fitted curves flatten out after 90 years",  # a figure
        "the age effect is close to proportional",  # a word
        "When we first observed it, the fitted curves steepen",  # a word
        "the PCM state cover 1990-1998",  # a figure
    ])
    assert [c["status"] for c in checks] == ["mismatch"] * 4, [(c["status"], c.get("reason")) for c in checks]
    assert checks[0]["reason"] == "numeric_guard" and checks[3]["reason"] == "numeric_guard", checks
