"""test_notebook - ReportView in Jupyter: _repr_html_ holds the HTML evidence report's own entries (byte for byte, page images included), a CheckView one entry, no script; a console gets the text report and a one-line repr."""

from __future__ import annotations

import re
from typing import Any

import pytest

import ethos_py
from ethos_py.demo import SAMPLE_CITATIONS, SAMPLE_PDF
from ethos_py.notebook import CheckView, ReportView


@pytest.fixture(scope="module")
def sample() -> dict[str, Any]:
    document = ethos_py.parse_pdf_bytes(SAMPLE_PDF)
    with ethos_py.Document.from_bytes(document) as opened:
        report = opened.verify_json(SAMPLE_CITATIONS)
    page = ethos_py.render_report_html(report, source=document, pdf=SAMPLE_PDF)
    return {"report": report, "document": document, "page": page}


def _articles(html: str) -> list[str]:
    return re.findall(r'<article class="check.*?</article>', html, flags=re.S)


def test_repr_html_holds_the_reports_own_entries(sample: dict[str, Any]) -> None:
    view = ReportView(sample["report"], source=sample["document"], pdf=SAMPLE_PDF)
    shown = view._repr_html_()
    assert _articles(shown) == _articles(sample["page"]) and len(_articles(shown)) == 6
    assert "data:image/png;base64," in shown and "<script" not in shown and "<form" not in shown
    assert '<section id="summary">' in shown
    # Styles stay inside the fragment: nothing for the notebook's own body.
    assert "body{" not in shown


def test_a_check_view_is_that_checks_entry(sample: dict[str, Any]) -> None:
    view = ReportView(sample["report"], source=sample["document"], pdf=SAMPLE_PDF)
    by_id = {re.search(r'data-check-id="([^"]+)"', a).group(1): a for a in _articles(sample["page"])}  # type: ignore[union-attr]
    for check in view.checks:
        assert isinstance(check, CheckView)
        assert _articles(check._repr_html_()) == [by_id[check.id]]
    assert repr(view.check("v0005")) == "<CheckView v0005: mismatch (numeric_guard)>"
    with pytest.raises(KeyError, match="v9999"):
        view.check("v9999")


def test_a_console_gets_text(sample: dict[str, Any]) -> None:
    view = ReportView(sample["report"])
    assert repr(view) == "<ReportView: 6 checks, 4 grounded, 2 mismatch; proof status partially_verified>"
    assert str(view) == ethos_py.proof.report_text(sample["report"])
    assert "v0005" in str(view) and "numeric" in str(view)
