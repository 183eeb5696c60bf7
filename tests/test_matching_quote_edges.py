"""test_matching_quote_edges - where a quote's edges fall, on a PDF drawn here and cited by page: a quote cut
inside a hyphenated compound whose other part negates it is refused by the polarity guard, an ordinary
compound's hyphen is a token edge (docs/matching.md, "A quote cut inside a compound"); an ellipsis at a
quote's start or end marks truncation, only one between fragments stitches, and TeX's spaced ". . ." reads
as an ellipsis (docs/matching.md, "Stitched quotation"); the pronoun "one" is no figure to the numeric
guard."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import schema_errors
import pdf_fixtures as fx
from pdf_fixtures import text_pdf

import ethos_py

LINES = [
    "A stochastic matrix is a square matrix with non-negative real entries",
    "whose row sums are all equal to one. Its non-zero entries lie on a path.",
    "Emission levels returned to pre-2020 values in the second year.",
    "The new syrup is sugar-free and costs the same as the old one.",
    "A state-of-the-art method was used for a well-known result.",
    "The terms a1, a2, . . . , an are summed in the order given.",
    "Moreover, one may specify the range of the axes by hand.",
]

#: (quote, expected: "grounded" or the mismatch reason)
CLAIMS: list[tuple[str, str]] = [
    ("negative real entries whose row sums", "polarity_guard"),
    ("non-negative real entries whose row sums", "grounded"),
    ("real entries whose row sums", "grounded"),
    ("zero entries lie on a path", "polarity_guard"),
    ("2020 values in the second year", "polarity_guard"),
    ("pre-2020 values in the second year", "grounded"),
    ("The new syrup is sugar", "polarity_guard"),
    ("The new syrup is sugar-free", "grounded"),
    ("art method was used", "grounded"),
    ("known result", "grounded"),
    # 10- ellipses
    ("\u2026 real entries whose row sums", "grounded"),
    ("A stochastic matrix is a square matrix with ...", "grounded"),
    ("... square matrix with non-negative real entries ...", "grounded"),
    ("\u2026 negative real entries", "polarity_guard"),
    ("A stochastic matrix \u2026 real entries", "stitched_quotation"),
    ("\u2026 real entries whose row sums are all equal to two", "numeric_guard"),
    ("a1, a2, \u2026 , an are summed", "grounded"),
    ("a1, a2, ... , an are summed", "grounded"),
    ("a1, a2, . . . , an are summed", "grounded"),
    # 19- the numeric guard reads numbers, not the pronoun "one"
    ("Moreover, we may specify the range of the axes by hand", "near_miss"),
    ("Moreover, two may specify the range of the axes by hand", "numeric_guard"),
]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    result = fx.page_quote_report(text_pdf([LINES]), [text for text, _ in CLAIMS], tmp_path_factory.mktemp("quote-edges"))
    assert schema_errors("verification-report", result) == []
    return result


@pytest.mark.parametrize("index", range(len(CLAIMS)), ids=[quote for quote, _ in CLAIMS])
def test_compound_edges(report: dict[str, Any], index: int) -> None:
    fx.assert_verdict(report["checks"][index], CLAIMS[index][1])


def test_the_guard_names_the_part_left_out(report: dict[str, Any]) -> None:
    [guard] = report["checks"][0]["match"]["guards"]
    assert (guard["name"], guard["verdict"]) == ("polarity", "block")
    assert '"non-"' in guard["detail"]
    [guard] = report["checks"][6]["match"]["guards"]
    assert '"-free"' in guard["detail"]


def test_truncated_quotes_match_the_rest_at_its_own_tier(report: dict[str, Any]) -> None:
    check = report["checks"][10]
    assert (check["match"]["tier"], check["match"]["source_text"]) == ("exact", "real entries whose row sums")
    check = report["checks"][11]
    assert (check["match"]["tier"], check["match"]["source_text"]) == ("exact", "A stochastic matrix is a square matrix with")


def test_the_spaced_ellipsis_is_a_typography_reading(report: dict[str, Any]) -> None:
    assert report["checks"][16]["match"]["tier"] == "typography"
    assert report["checks"][16]["match"]["source_text"] == "a1, a2, . . . , an are summed"
    assert report["checks"][18]["match"]["tier"] == "exact"


def test_a_truncated_quote_that_misses_is_the_near_miss_of_the_rest(report: dict[str, Any]) -> None:
    check = report["checks"][15]
    assert "fragments" not in check["match"]
    assert [g["verdict"] for g in check["match"]["guards"] if g["name"] == "numeric"] == ["block"]
    assert all("\u2026" not in op.get("quote", "") for op in check["match"]["diff"])


def test_the_pronoun_one_is_no_figure(report: dict[str, Any]) -> None:
    guards = {g["name"]: g for g in report["checks"][19]["match"]["guards"]}
    assert guards["numeric"]["verdict"] == "pass"
    guards = {g["name"]: g for g in report["checks"][20]["match"]["guards"]}
    assert guards["numeric"]["verdict"] == "block" and "figure changed" in guards["numeric"]["detail"]


def test_white_space_beside_cjk_punctuation_is_a_wrap() -> None:
    """A wrap before "（" or "。", or an extractor's space after "、", is no difference (native document)."""
    import sys

    from conftest import TOOLS_DIR

    sys.path.insert(0, str(TOOLS_DIR))
    import make_native_document as tool

    text = "\u8a3b\u8a18\u3092\u4f7f\u7528\u3067\u304d\u307e\u3059\n\uff08\u9805 5.6 \u53c2\u7167\uff09\n\u3002\u5217\u6319\u3057\u3066\u3001--list \u3067\u6307\u5b9a"
    payload = {"pages": [{"height": 79200, "id": "p0001", "index": 1, "rotation": 0, "width": 61200}],
               "elements": [{"bbox": [7200, 6000, 54000, 7400], "id": "e000001", "page": "p0001", "text": text,
                             "type": "text_block"}]}
    quotes = [("\u4f7f\u7528\u3067\u304d\u307e\u3059\uff08\u9805 5.6 \u53c2\u7167\uff09\u3002", "grounded"),
              ("\u5217\u6319\u3057\u3066\u3001 --list \u3067\u6307\u5b9a", "grounded"),
              ("\u5217\u6319\u3057\u3066\u3001 --lists \u3067\u6307\u5b9a", "mismatch")]
    with ethos_py.Document.from_bytes(tool.render(tool.build_document(payload))) as document:
        claims = [{"kind": "quote", "text": q, "citation": {"element_id": "e000001"}} for q, _ in quotes]
        report = json.loads(document.verify_json({"document_fingerprint": document.fingerprint, "claims": claims}))
    assert [c["status"] for c in report["checks"]] == [status for _, status in quotes]
    assert report["checks"][0]["match"]["tier"] == "whitespace"
