"""test_check_answer_html - check-answer --format html: one self-contained, escaped page, the same bytes on three surfaces."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO_DIR
from test_check_answer import ANSWER, PDF_ANSWER, QUICKSTART, _core, _ethos, _pdf

import ethos_py
from ethos_py.errors import EthosError


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Page(HTMLParser):
    """The page as a real HTML parser reads it: every start tag with its attributes, the words of
    the answer block with their class, title and link, and the text of each element by id."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.words: list[dict[str, Any]] = []
        self.ids: dict[str, str] = {}
        self.answer_text = ""
        self._stack: list[tuple[str, dict[str, str | None]]] = []
        self._word: dict[str, Any] | None = None
        self._open_ids: list[list[str]] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag in VOID:
            return  # no end tag follows
        inside_answer = any(a.get("class") == "answer" for _, a in self._stack)
        if inside_answer and tag in ("a", "span") and attributes.get("class") != "invisible":
            self._word = {"class": attributes.get("class"), "title": attributes.get("title"),
                          "href": attributes.get("href"), "text": ""}
        if "id" in attributes:
            self._open_ids.append([str(attributes["id"]), ""])
        self._stack.append((tag, attributes))

    def handle_endtag(self, tag: str) -> None:
        _, attributes = self._stack.pop()
        if self._word is not None and tag in ("a", "span") and attributes.get("class") != "invisible":
            self.words.append(self._word)
            self._word = None
        if "id" in attributes:
            key, text = self._open_ids.pop()
            self.ids[key] = text

    def handle_data(self, data: str) -> None:
        if any(a.get("class") == "answer" for _, a in self._stack):
            self.answer_text += data
        if self._word is not None:
            self._word["text"] += data
        for entry in self._open_ids:
            entry[1] += data


def _expected_class(result: dict[str, Any], word: dict[str, Any]) -> str:
    """A word's verdict: its quotation's when it is in one, else whether it is verbatim."""
    verdict = "verbatim" if word["verbatim"] else "novel"
    for quote in result["quotes"]:
        if quote["start"] <= word["start"] and word["end"] <= quote["end"]:
            verdict = {"grounded": "grounded", "too_short": "unchecked"}.get(quote["status"], "failed")
    return verdict


@pytest.mark.parametrize("palette", ["classic", "colorblind", "neon", "mono"])
def test_the_three_surfaces_write_the_same_page(tmp_path: Path, palette: str) -> None:
    args = ["check-answer", str(QUICKSTART), "--answer", ANSWER, "--format", "html", "--palette", palette]
    core = _core(args)
    assert core[0] == 0 and core[2] == b""
    assert _ethos(args) == core
    library = ethos_py.render_html(ethos_py.check_answer_json(ANSWER, QUICKSTART), ANSWER, palette=palette)
    assert core[1] == library.encode("utf-8")
    # --out writes the same bytes atomically.
    out = tmp_path / "page.html"
    assert _ethos([*args, "--out", str(out)])[0] == 0
    assert out.read_bytes() == core[1]


def test_each_word_carries_its_verdict_and_links_to_its_run_or_quotation() -> None:
    result = ethos_py.check_answer(ANSWER, QUICKSTART)
    page = Page(ethos_py.render_html(result, ANSWER))
    assert [word["text"] for word in page.words] == [word["text"] for word in result["words"]]
    for word, shown in zip(result["words"], page.words):
        verdict = _expected_class(result, word)
        assert shown["class"] == verdict
        # Colour is not the only signal: the title names the verdict, and a link leads to the entry.
        if verdict == "novel":
            assert shown["title"] == "not verbatim" and shown["href"] is None
        else:
            assert shown["href"].lstrip("#") in page.ids
            assert shown["title"].startswith("verbatim, run" if verdict == "verbatim" else "quotation ")
    assert page.answer_text == ANSWER  # the answer's text itself, unchanged, in order
    # Every run's entry names its element, page number and boxes.
    for n, run in enumerate(result["runs"], start=1):
        entry = page.ids[f"run-{n}"]
        element = run["source"]["elements"][0]
        assert run["text"] in entry and element["element_id"] in entry
        assert f"page {element['page_index']}" in entry
        assert all(str(box["bbox"]) in entry for part in run["source"]["elements"] for box in part["boxes"])
    assert any(part["boxes"] for run in result["runs"] for part in run["source"]["elements"])
    for n, quote in enumerate(result["quotes"], start=1):
        assert page.ids[f"quote-{n}"].startswith(quote["status"])


def test_the_page_loads_nothing_and_forbids_scripts() -> None:
    page = Page(ethos_py.render_html(ethos_py.check_answer_json(ANSWER, QUICKSTART), ANSWER))
    tags = [tag for tag, _ in page.tags]
    assert "script" not in tags and "link" not in tags and "img" not in tags and "iframe" not in tags
    policies = [attrs["content"] for tag, attrs in page.tags if tag == "meta" and attrs.get("http-equiv") == "Content-Security-Policy"]
    assert len(policies) == 1
    directives = {part.split()[0]: part.split()[1:] for part in str(policies[0]).split("; ")}
    assert directives["default-src"] == ["'none'"] and "script-src" not in directives
    # Every link stays on the page (no PDF was named).
    assert all(str(attrs["href"]).startswith("#") for tag, attrs in page.tags if tag == "a")


HOSTILE = (
    'Pilot </div><script>alert(1)</script> "cut average response time by 30%" '
    "\"><img src=x onerror=alert(2)> a\u202edesrever\u202c b\u200bc \x1b[31mred\x1b[0m & 'quoted' <b>bold</b>"
)


def test_hostile_answer_text_is_escaped() -> None:
    html = ethos_py.render_html(ethos_py.check_answer_json(HOSTILE, QUICKSTART), HOSTILE)
    page = Page(html)
    tags = [tag for tag, _ in page.tags]
    assert "script" not in tags and "img" not in tags and "b" not in tags
    # No invisible or control character reaches the page as itself: each shows as its code point.
    for character in ("\u202e", "\u202c", "\u200b", "\x1b"):
        assert character not in html
    invisible = [attrs for tag, attrs in page.tags if attrs.get("class") == "invisible"]
    assert len(invisible) == 3
    assert "U+202E" in page.answer_text and "U+200B" in page.answer_text and "\ufffd[31mred" in page.answer_text
    assert "</div><script>alert(1)</script>" in page.answer_text  # shown as text, verbatim
    assert "<img src=x onerror=alert(2)>" in page.answer_text


def test_pdf_sources_link_each_run_to_its_page(tmp_path: Path) -> None:
    pdf = _pdf(tmp_path)
    out_dir = tmp_path / "reports"
    out_dir.mkdir()
    out = out_dir / "page.html"
    cache = ["--cache-dir", str(tmp_path / "cache")]
    args = ["check-answer", str(pdf), "--answer", PDF_ANSWER, "--format", "html", "--out", str(out), *cache]
    assert _core(args)[0] == 0
    core_page = out.read_bytes()
    assert _ethos(args)[0] == 0 and out.read_bytes() == core_page
    page = Page(core_page.decode("utf-8"))
    result = ethos_py.check_answer(PDF_ANSWER, pdf, parse_options={"cache_dir": tmp_path / "cache"})
    hrefs = [str(attrs["href"]) for tag, attrs in page.tags if tag == "a" and not str(attrs["href"]).startswith("#")]
    pages = {element["page_index"] for run in result["runs"] for element in run["source"]["elements"]}
    assert pages == {1, 2}
    # Relative to the page's directory, so the page and the PDF can move together.
    assert sorted(set(hrefs)) == [f"../minutes.pdf#page={n}" for n in sorted(pages)]
    assert core_page.decode("utf-8") == ethos_py.render_html(result, PDF_ANSWER, pdf_links=["../minutes.pdf"])


def test_a_link_is_always_a_path() -> None:
    result = ethos_py.check_answer_json(ANSWER, QUICKSTART)
    page = Page(ethos_py.render_html(result, ANSWER, pdf_links=["javascript:alert(1)//my file.pdf"]))
    hrefs = {str(attrs["href"]) for tag, attrs in page.tags if tag == "a" and not str(attrs["href"]).startswith("#")}
    assert hrefs == {"javascript%3Aalert%281%29//my%20file.pdf#page=1"}


def test_palettes_style_the_page_as_the_terminal() -> None:
    result = ethos_py.check_answer_json(ANSWER, QUICKSTART)
    rules = {}
    for palette in ethos_py.answer.PALETTES:
        html = ethos_py.render_html(result, ANSWER, palette=palette)
        rules[palette] = [line for line in html.splitlines() if line.startswith(".answer .")]
    assert len({tuple(lines) for lines in rules.values()}) == 4
    # mono uses no colour but inverse video's, as in the terminal.
    mono = "\n".join(rules["mono"])
    assert "font-weight:bold" in mono and "text-decoration:underline" in mono
    assert mono.count("color:") == 1 and "background:" in mono
    assert all("color:" not in line for line in rules["mono"] if ".answer .failed" not in line)


def test_bad_options_are_errors() -> None:
    result = ethos_py.check_answer_json(ANSWER, QUICKSTART)
    with pytest.raises(ValueError):
        ethos_py.render_html(result, ANSWER, palette="sepia")
    with pytest.raises(EthosError):
        ethos_py.render_html(result, "another answer")
    with pytest.raises(EthosError):
        ethos_py.render_html(b"{}", ANSWER)
