"""test_report_html_browser - the HTML evidence report as a person sees it: opened in a real headless Chromium (Debian's chromium, driven by Playwright) with every request refused and none made, one entry per check, each highlight rectangle over its line's glyphs (the report's boxes, scaled), the status filters, the j/k keys, the print and dark styles, a smuggled script refused by the page's policy; screenshots are kept in $ETHOS_TEST_ARTIFACTS (else the test's tmp_path)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

import ethos_py
from ethos_py.demo import SAMPLE_CITATIONS, SAMPLE_PDF
from ethos_py.report_html import line_rectangles, render_report_html

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
LEAK = "http://127.0.0.1:9/leak.png"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert os.path.exists(CHROMIUM), "chromium is a test tool (tools/install-build-deps.sh --with-test-tools)"
    with sync_playwright() as playwright:
        # Debian's browser, never a downloaded one; --no-sandbox because tests may run as root (CI does).
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-dev-shm-usage"])
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    directory = tmp_path_factory.mktemp("report-html-browser")
    document = ethos_py.parse_pdf_bytes(SAMPLE_PDF)
    claims = json.loads(SAMPLE_CITATIONS.read_text(encoding="utf-8"))["claims"]
    claims.append({"kind": "quote", "text": f'<img src="{LEAK}"><script>document.title="pwned"</script>\u202e',
                   "citation": {"page": "p0001"}})
    with ethos_py.Document.from_bytes(document) as opened:
        report = json.loads(opened.verify_json({"document_fingerprint": opened.fingerprint, "claims": claims}))
    page = render_report_html(report, source=document, pdf=SAMPLE_PDF)
    (directory / "report.html").write_text(page, encoding="utf-8")
    return {"dir": directory, "report": report, "document": json.loads(document), "html": page}


@pytest.fixture
def artifacts(tmp_path: Path) -> Path:
    """Where screenshots are kept: $ETHOS_TEST_ARTIFACTS when set (CI collects it), else the test's tmp_path."""
    where = Path(os.environ.get("ETHOS_TEST_ARTIFACTS") or tmp_path) / "report-html"
    where.mkdir(parents=True, exist_ok=True)
    return where


class Opened:
    """The report opened from a file, as a person opens it, with every request the page tried to make
    (the browser is offline and every request but the file's own is refused)."""

    def __init__(self, browser: Browser, html: str, directory: Path, **context: Any) -> None:
        path = directory / "opened.html"
        path.write_text(html, encoding="utf-8")
        self.url = path.as_uri()
        self.context = browser.new_context(offline=True, viewport={"width": 1200, "height": 900}, **context)
        self.requests: list[str] = []
        self.refused: list[str] = []
        self.context.on("request", lambda request: self.requests.append(request.url))

        def refuse(route: Any) -> None:
            if route.request.url == self.url:
                route.continue_()
                return
            self.refused.append(route.request.url)
            route.abort()

        self.context.route("**/*", refuse)
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.console: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda message: self.console.append(message.text))
        self.page.goto(self.url, wait_until="load")

    def close(self) -> None:
        self.context.close()

    def outgoing(self) -> list[str]:
        return [url for url in self.requests + self.refused if url != self.url and not url.startswith(("data:", "about:"))]


@pytest.fixture
def opened(browser: Browser, sample: dict[str, Any], tmp_path: Path) -> Iterator[Opened]:
    shown = Opened(browser, sample["html"], tmp_path)
    yield shown
    shown.close()


def test_one_entry_per_check_and_no_request_leaves_the_page(opened: Opened, sample: dict[str, Any], artifacts: Path) -> None:
    page = opened.page
    ids = page.eval_on_selector_all("article.check", "nodes => nodes.map(n => n.dataset.checkId)")
    assert ids == [check["id"] for check in sample["report"]["checks"]]
    # Every page image decoded from its data: URI (natural size known) ...
    broken = page.eval_on_selector_all("img", "imgs => imgs.filter(i => !i.complete || i.naturalWidth === 0).length")
    assert broken == 0 and page.eval_on_selector_all("img", "imgs => imgs.length") >= 4
    # ... and nothing else was asked for: not the <img> smuggled into a claim, not anything.
    assert opened.outgoing() == [] and not any("leak" in url for url in opened.requests)
    assert page.title() == "Ethos evidence report" and opened.errors == []
    hostile = page.locator("article.check").last.locator("dd").first.inner_text()
    assert LEAK in hostile and "U+202E" in hostile  # shown as text, the override as a visible mark
    page.screenshot(path=str(artifacts / "report-light.png"), full_page=True)
    assert (artifacts / "report-light.png").stat().st_size > 10_000


def test_highlight_rectangles_lie_over_their_lines(opened: Opened, sample: dict[str, Any]) -> None:
    page = opened.page
    pages = {p["id"]: p for p in sample["document"]["payload"]["pages"]}
    measured = 0
    for check in sample["report"]["checks"]:
        boxes = [b for b in (check.get("match") or {}).get("boxes") or []]
        if check["status"] != "grounded" or not boxes:
            continue
        width_quanta = pages[boxes[0]["page"]]["width"]
        lines = line_rectangles([b["bbox"] for b in boxes])
        geometry = page.evaluate(
            """id => {
                const figure = document.querySelector(`article[data-check-id="${id}"] figure.region`);
                const img = figure.querySelector("img").getBoundingClientRect();
                const top = Number(figure.dataset.region.split(",")[1]);
                return {img: [img.left, img.top, img.width], top,
                        rects: Array.from(figure.querySelectorAll("rect.line")).map(r => {
                          const b = r.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; })};
            }""", check["id"])
        left, top, shown_width = geometry["img"]
        scale = shown_width / width_quanta  # CSS px per display quantum, as laid out
        assert len(geometry["rects"]) == len(lines)
        for (x0, y0, x1, y1), line in zip(geometry["rects"], lines):
            expected = (left + line[0] * scale, top + (line[1] - geometry["top"]) * scale,
                        left + line[2] * scale, top + (line[3] - geometry["top"]) * scale)
            assert all(abs(a - b) <= 2.0 for a, b in zip((x0, y0, x1, y1), expected)), (check["id"], expected, (x0, y0, x1, y1))
        measured += 1
    assert measured >= 3


def test_highlights_cover_the_glyphs_on_screen(opened: Opened, sample: dict[str, Any], artifacts: Path) -> None:
    from io import BytesIO

    from PIL import Image

    page = opened.page
    check = next(c for c in sample["report"]["checks"] if c["status"] == "grounded" and c["claim"]["kind"] == "quote")
    figure = page.locator(f'article[data-check-id="{check["id"]}"] figure.region .frame')
    figure.scroll_into_view_if_needed()
    shot = Image.open(BytesIO(figure.screenshot(path=str(artifacts / f"region-{check['id']}.png")))).convert("RGB")
    box = figure.bounding_box()
    assert box is not None
    rects = page.eval_on_selector_all(f'article[data-check-id="{check["id"]}"] rect.line',
                                      "rs => rs.map(r => { const b = r.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; })")
    ratio = shot.width / box["width"]
    for x0, y0, x1, y1 in rects:
        inside = shot.crop((int((x0 - box["x"]) * ratio) + 3, int((y0 - box["y"]) * ratio) + 3,
                            int((x1 - box["x"]) * ratio) - 3, int((y1 - box["y"]) * ratio) - 3))
        pixels = list(inside.get_flattened_data())
        tinted = sum(1 for r, g, b in pixels if b > r + 25)  # the grounded highlight's blue over the paper
        ink = sum(1 for r, g, b in pixels if r + g + b < 240)  # the glyphs under it
        assert tinted > 0.5 * len(pixels) and ink > 0.03 * len(pixels), (check["id"], tinted, ink, len(pixels))


def test_status_filters_and_keyboard_navigation(opened: Opened, sample: dict[str, Any]) -> None:
    page = opened.page
    total = len(sample["report"]["checks"])
    grounded = sum(1 for c in sample["report"]["checks"] if c["status"] == "grounded")
    assert page.locator("form.filters").is_visible()  # the script ran: the policy allows the page's own script
    assert page.locator("#shown-count").inner_text() == str(total)
    page.locator('form.filters input[value="grounded"]').uncheck()
    assert page.locator("article.check:visible").count() == total - grounded
    assert page.locator("#shown-count").inner_text() == str(total - grounded)
    visible = page.eval_on_selector_all("article.check:not([hidden])", "ns => ns.map(n => n.dataset.checkId)")
    page.locator("h1").click()
    page.keyboard.press("j")
    assert page.evaluate("document.activeElement.dataset.checkId") == visible[0]
    page.keyboard.press("j")
    assert page.evaluate("document.activeElement.dataset.checkId") == visible[1]
    page.keyboard.press("k")
    assert page.evaluate("document.activeElement.dataset.checkId") == visible[0]
    # Printed, every check is on paper whatever the filters, and the controls are not.
    page.emulate_media(media="print")
    assert page.locator("article.check:visible").count() == total
    assert not page.locator("form.filters").is_visible()


def test_colour_is_never_the_only_signal_and_dark_mode_applies(browser: Browser, sample: dict[str, Any], artifacts: Path,
                                                               tmp_path: Path) -> None:
    shown = Opened(browser, sample["html"], tmp_path, color_scheme="dark")
    try:
        page = shown.page
        styles = page.evaluate("""() => Array.from(document.querySelectorAll("article.check")).map(a => {
            const s = getComputedStyle(a); return [a.dataset.status, s.borderLeftStyle, a.querySelector(".mark").textContent]; })""")
        for status, border, mark in styles:
            assert (border, mark) == (("solid", "✓") if status == "grounded" else ("dashed", "✗") if status in ("mismatch", "not_found")
                                      else ("dotted", "?"))
        background = page.evaluate("getComputedStyle(document.querySelector('.ethos-report')).backgroundColor")
        assert background == "rgb(21, 23, 26)"  # the dark scheme
        page.screenshot(path=str(artifacts / "report-dark.png"), full_page=False)
        assert shown.outgoing() == []
    finally:
        shown.close()


def test_a_smuggled_script_is_refused_by_the_policy(browser: Browser, sample: dict[str, Any], tmp_path: Path) -> None:
    # Someone edits the page: an extra inline script and a remote image. The policy names only the
    # page's own script by hash and allows only data: images, so neither runs nor loads.
    tampered = sample["html"].replace("<body>", f'<body><script>document.title = "pwned";</script><img src="{LEAK}">', 1)
    shown = Opened(browser, tampered, tmp_path)
    try:
        assert shown.page.title() == "Ethos evidence report"
        assert shown.page.locator("form.filters").is_visible()  # the page's own script still runs
        # Chromium announces the image's request, then blocks it by the policy before any network
        # layer (Playwright's routing included) sees it.
        assert shown.refused == []
        assert any(LEAK in line and "Content Security Policy" in line and "blocked" in line for line in shown.console), shown.console
        assert any("Content Security Policy" in line and "script" in line for line in shown.console), shown.console
    finally:
        shown.close()
