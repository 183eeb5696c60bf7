"""test_matching_math_accents - accents no letter composes with read one way on both sides
(docs/matching.md "Math accents, caret and tilde"): TeX's math accents are a spacing glyph drawn
before or after their variable ("ˆσ", "βˆ", "Bˆ"), which a writer types as the letter and a
combining mark ("σ̂", "β̂", "B̂"); TeX's typewriter caret and tilde ("xˆ2", "y ˜ x") are what code
types in ASCII. Each grounds at the typography tier with the evidence on the source's own
characters; a dropped accent, a changed letter or a changed figure is still refused."""

from __future__ import annotations

import pytest

from sources_support import text_quote_checks

# The forms PDFium gives for TeX output (accent after its variable, accent before it, a caret in
# code, a tilde in an R formula, a bar over a letter with no precomposed form), with the
# statistics papers' wording (sandwich, strucchange and lme4 vignettes).
SOURCE = ("While the bread is typically estimated by the Hessian matrix Bˆ from Equation 9, "
          "the estimator ˆσ is consistent. Hence βˆ(n) is the OLS estimate and x¯ = 0.89 here. "
          "To differentiate, type diff(sin(xˆ2),x); in a cell. Fit lm(y ˜ x, data = d) first. "
          "With aˆ = 2 the series converges.\n")


def _verdicts(source: str, claims: list[str]) -> list[tuple[str, str | None]]:
    checks = text_quote_checks(source.encode(), claims, {"element_id": "e000001"})
    return [(c["status"], c.get("match", {}).get("tier")) for c in checks]


def _evidence_at_typography(source: str, claims: list[str]) -> list[str]:
    """The source text each claim grounds on; every claim must ground at the typography tier."""
    checks = text_quote_checks(source.encode(), claims, {"element_id": "e000001"})
    assert [(c["status"], c["match"]["tier"]) for c in checks] == [("grounded", "typography")] * len(claims), checks
    return [c["match"]["source_text"] for c in checks]


def test_a_combining_accent_grounds_on_a_spacing_accent_after_its_letter() -> None:
    # The evidence is the source's own characters, the spacing accent included.
    assert _evidence_at_typography(SOURCE, ["estimated by the Hessian matrix B\u0302 from Equation 9",
                                            "Hence \u03b2\u0302(n) is the OLS estimate"]) == [
        "estimated by the Hessian matrix Bˆ from Equation 9", "Hence βˆ(n) is the OLS estimate"]


def test_a_combining_accent_grounds_on_a_spacing_accent_drawn_before_its_letter() -> None:
    assert _evidence_at_typography(SOURCE, ["the estimator \u03c3\u0302 is consistent"]) == [
        "the estimator ˆσ is consistent"]


def test_a_quote_copied_from_another_extractor_grounds_on_the_combining_form() -> None:
    # The other way round: the source has the combining marks, the quote an extractor's spacing accents.
    source = "the estimator \u03c3\u0302 is consistent and B\u0302 is the Hessian; x\u0304 = 0.89.\n"
    assert _verdicts(source, ["the estimator ˆσ is consistent and Bˆ is the Hessian; x¯ = 0.89."]) == [
        ("grounded", "typography")]
    assert _verdicts(source, ["the estimator σˆ is consistent"]) == [("grounded", "typography")]


def test_a_bar_over_a_letter_and_an_accent_composing_with_the_letter_before_it() -> None:
    assert _verdicts(SOURCE, ["the OLS estimate and x\u0304 = 0.89 here", "With \u00e2 = 2 the series converges"]) == [
        ("grounded", "typography"), ("grounded", "typography")]


def test_the_typewriter_caret_and_tilde_read_as_ascii() -> None:
    assert _evidence_at_typography(SOURCE, ["type diff(sin(x^2),x); in a cell", "Fit lm(y ~ x, data = d) first"]) == [
        "type diff(sin(xˆ2),x); in a cell", "Fit lm(y ˜ x, data = d) first"]


@pytest.mark.parametrize("claim", [
    "estimated by the Hessian matrix B from Equation 9",       # the accent dropped
    "the estimator \u03c3 is consistent",                        # the accent dropped (drawn before)
    "estimated by the Hessian matrix C\u0302 from Equation 9",  # another letter under the accent
    "the estimator \u03c3\u0303 is consistent",                  # another accent
    "type diff(sin(x2),x); in a cell",                           # the caret dropped
    "the OLS estimate and x = 0.89 here",                        # the bar dropped
])
def test_a_changed_or_dropped_accent_is_refused(claim: str) -> None:
    assert _verdicts(SOURCE, [claim])[0][0] != "grounded"


def test_a_changed_figure_beside_a_caret_is_refused_by_the_numeric_guard() -> None:
    check = text_quote_checks(SOURCE.encode(), ["type diff(sin(x^3),x); in a cell"], {"element_id": "e000001"})[0]
    assert (check["status"], check["reason"]) == ("mismatch", "numeric_guard"), check


def test_text_accents_keep_their_rules() -> None:
    # TeX's text accents (before their letter) still compose; an acute typed for an apostrophe stays.
    source = "Moir\u00b4e patterns, as P\u00b4eter Juh\u00b4asz notes, don\u00b4t fade.\n"
    assert _verdicts(source, ["Moiré patterns, as Péter Juhász notes"]) == [("grounded", "typography")]
    assert _verdicts(source, ["Moire patterns"])[0][0] != "grounded"
