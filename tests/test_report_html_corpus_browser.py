"""test_report_html_corpus_browser - the corpus view as a person sees it: a real `ethos batch --html` page opened in headless Chromium (Debian's, driven by Playwright) with every request refused and none made, no console message or page error under its policy, every table shown with the summary's rows, the hostile claim shown as text, the dark and print styles, a script added to the file refused; screenshots are kept in $ETHOS_TEST_ARTIFACTS (else the test's tmp_path)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from corpus_view_job import HOSTILE_CLAIM, HOSTILE_LABEL, batch, make_job
from playwright.sync_api import Browser
from test_report_html_browser import LEAK, Opened, artifacts, browser

__all__ = ["artifacts", "browser"]  # the browser and the screenshot directory: the evidence report's fixtures

#: The tables of the view and the summary list each one shows (statuses: the summary's counts).
TABLES = {"statuses": "counts", "documents": "by_document", "kinds": "by_kind", "reasons": "by_reason",
          "tiers": "by_tier", "most-failed": "most_failed"}


@pytest.fixture(scope="module")
def job(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = make_job(tmp_path_factory.mktemp("corpus-view-browser"))
    done = batch(root, "out.jsonl", "--html", "out.html", "--workers", "2")
    assert done.returncode == 0, done.stderr
    return {"summary": json.loads((root / "out.summary.json").read_bytes()),
            "html": (root / "out.html").read_text(encoding="utf-8")}


@pytest.fixture
def opened(browser: Browser, job: dict[str, Any], tmp_path: Path) -> Iterator[Opened]:
    shown = Opened(browser, job["html"], tmp_path)
    yield shown
    shown.close()


def test_the_page_loads_under_its_policy_and_shows_every_table(opened: Opened, job: dict[str, Any], artifacts: Path) -> None:
    page, summary = opened.page, job["summary"]
    assert page.title() == "Ethos corpus report"
    # Nothing asked for, nothing refused, nothing said: no policy violation, no error of any kind.
    assert opened.outgoing() == [] and opened.refused == [] and opened.errors == [] and opened.console == []
    for section, field in TABLES.items():
        table = page.locator(f"section#{section} table")
        assert table.is_visible(), section
        assert table.locator("tbody tr").count() == len(summary[field]), section
    headline = page.locator("#grounded-rate").inner_text()
    assert headline.endswith("%") and page.locator("#record-count").inner_text() == str(summary["records"])
    # The rate meters are drawn (a meter's value is read by the browser, not by a script).
    values = page.eval_on_selector_all("section#documents meter", "ms => ms.map(m => m.value)")
    assert sorted(values) == values and values == sorted(row["grounded_rate"] for row in summary["by_document"])
    page.screenshot(path=str(artifacts / "corpus-light.png"), full_page=True)
    assert (artifacts / "corpus-light.png").stat().st_size > 10_000


def test_hostile_claims_and_labels_are_shown_as_text(opened: Opened) -> None:
    page = opened.page
    claims = page.locator("section#most-failed tbody td:nth-child(2)").all_inner_texts()
    shown = next(text for text in claims if "pwned" in text)
    assert shown == HOSTILE_CLAIM.replace("\u202e", "U+202E")  # the markup as characters, the override as a mark
    assert page.title() == "Ethos corpus report" and page.locator("section#most-failed img").count() == 0
    assert HOSTILE_LABEL in page.locator("section#documents tbody td:first-child").all_inner_texts()
    assert not any(LEAK in url for url in opened.requests)


def test_dark_and_print_styles_apply(browser: Browser, job: dict[str, Any], tmp_path: Path, artifacts: Path) -> None:
    shown = Opened(browser, job["html"], tmp_path, color_scheme="dark")
    try:
        page = shown.page
        assert page.evaluate("getComputedStyle(document.querySelector('.ethos-report')).backgroundColor") == "rgb(21, 23, 26)"
        # Numbers are right-aligned in their columns, whatever the scheme.
        assert page.evaluate("getComputedStyle(document.querySelector('section#documents td.num')).textAlign") == "right"
        page.screenshot(path=str(artifacts / "corpus-dark.png"), full_page=True)
        page.emulate_media(media="print", color_scheme="light")
        assert all(page.locator(f"section#{section} table").is_visible() for section in TABLES)
        assert page.evaluate("getComputedStyle(document.querySelector('section#documents tr')).breakInside") == "avoid"
        assert shown.outgoing() == [] and shown.errors == []
    finally:
        shown.close()


def test_a_script_added_to_the_file_is_refused(browser: Browser, job: dict[str, Any], tmp_path: Path) -> None:
    # The view needs no script, so its policy allows none: one added to the file later does not run.
    tampered = job["html"].replace("<body>", '<body><script>document.title = "pwned";</script>', 1)
    shown = Opened(browser, tampered, tmp_path)
    try:
        assert shown.page.title() == "Ethos corpus report"
        assert any("Content Security Policy" in line and "script" in line for line in shown.console), shown.console
    finally:
        shown.close()
