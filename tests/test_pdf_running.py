"""test_pdf_running - running headers and footers: which page-edge text the parser types as furniture.

Every PDF is drawn here with reportlab (no corpus); the expectations come from what each page was
drawn with (docs/pdf-parsing.md "Running headers and footers"), never from an earlier parse.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pdf_fixtures as fx
import pytest
from pdf_fixtures import parse_cache  # noqa: F401  (fixture)
from reportlab.pdfgen.canvas import Canvas

import ethos_py

pytestmark = pytest.mark.usefixtures("parse_cache")

WIDTH, HEIGHT = fx.LETTER
BOOK = "A Short Book of Examples"
#: (chapter number, title, pages): chapter 2 has one odd page only, so its odd-page header
#: ("Chapter 2: Second Steps 5") is drawn once in the whole book.
CHAPTERS = [(1, "First Steps", 3), (2, "Second Steps", 2), (3, "Further Reading", 3)]


def _types_by_page(document: dict[str, Any]) -> dict[int, list[tuple[str, str]]]:
    """(type, text) of each page's elements, by 1-based page index."""
    index_of = {page["id"]: page["index"] for page in document["payload"]["pages"]}
    out: dict[int, list[tuple[str, str]]] = {}
    for element in document["payload"]["elements"]:
        out.setdefault(index_of[element["page"]], []).append((element["type"], element.get("text", "")))
    return out


def _body(canvas: Canvas, page: int, first: str | None = None, last: str | None = None, top: float = 640) -> None:
    lines = [f"Body line {n} of page {page} tells the story of the example in plain words." for n in range(1, 9)]
    if first is not None:
        lines[0] = first
    if last is not None:
        lines[-1] = last
    fx._lines(canvas, lines, top=top)


def _book_pages() -> list[tuple[int, int, str, int]]:
    """(page, chapter, title, page within chapter) for every page of the book."""
    pages, number = [], 1
    for chapter, title, count in CHAPTERS:
        for within in range(1, count + 1):
            pages.append((number, chapter, title, within))
            number += 1
    return pages


def book_pdf() -> bytes:
    """A book with alternating running headers, per-chapter titles and lone page-number footers.

    Chapter openers: a 20 pt bold "Chapter K: Title" at y=700 (no running header) and the page
    number alone, centred, at y=40. Other pages: 9 pt headers at y=752 - even pages
    "N   A Short Book of Examples" from x=72, odd pages "Chapter K: Title   N" ending at x=540 -
    and no footer. Body: eight 11 pt lines from y=640 down; the last line of page 2 and the first
    of page 3 are the two halves of one sentence.
    """

    def draw(page: int, chapter: int, title: str, within: int) -> Callable[[Canvas], None]:
        def run(canvas: Canvas) -> None:
            if within == 1:
                canvas.setFont(fx.BOLD_FONT, 20)
                canvas.drawString(72, 700, f"Chapter {chapter}: {title}")
                canvas.setFont(fx.BODY_FONT, 9)
                canvas.drawCentredString(WIDTH / 2, 40, str(page))
            else:
                canvas.setFont(fx.BODY_FONT, 9)
                if page % 2 == 0:
                    canvas.drawString(72, 752, f"{page}   {BOOK}")
                else:
                    canvas.drawRightString(540, 752, f"Chapter {chapter}: {title}   {page}")
            first = "continues on this page with a second half that closes the sentence." if page == 3 else None
            last = "This sentence begins at the foot of the second page and" if page == 2 else None
            _body(canvas, page, first, last, top=640 if within > 1 else 660)

        return run

    return fx._draw([draw(*entry) for entry in _book_pages()])


def test_book_headers_and_page_numbers_are_furniture_and_chapter_titles_stay_headings(tmp_path: Path) -> None:
    document = fx.parse_valid(tmp_path, "book.pdf", book_pdf())
    by_page = _types_by_page(document)
    assert sorted(by_page) == list(range(1, 9))
    for page, chapter, title, within in _book_pages():
        elements = by_page[page]
        furniture = [(kind, " ".join(text.split())) for kind, text in elements if kind in ("header", "footer")]
        if within == 1:
            assert furniture == [("footer", str(page))], page
            assert ("heading", f"Chapter {chapter}: {title}") in elements, page
        elif page % 2 == 0:
            assert furniture == [("header", f"{page} {BOOK}")], page
        else:
            assert furniture == [("header", f"Chapter {chapter}: {title} {page}")], page
        body = [text for kind, text in elements if kind not in ("header", "footer", "heading")]
        assert len(" ".join(body).split()) >= 8 * 10, f"page {page}: the body stays body text"


def test_a_quote_across_the_page_break_is_grounded_past_the_running_header(tmp_path: Path) -> None:
    # The reason furniture is typed: the verifier leaves it out of the running text, so the two
    # halves of the sentence on pages 2 and 3 meet without page 3's header between them.
    document = fx.parse_valid(tmp_path, "book.pdf", book_pdf())
    quote = "foot of the second page and continues on this page with a second half"
    citations = {
        "document_fingerprint": document["fingerprint"],
        "claims": [{"kind": "quote", "text": quote, "citation": {"page": "p0002", "page_end": "p0003"}}],
    }
    with ethos_py.Document.from_bytes(json.dumps(document).encode()) as opened:
        report = opened.verify(citations)
    (check,) = report["checks"]
    assert check["status"] == "grounded", check


@pytest.mark.parametrize(
    "footer",
    [
        lambda n, total: f"- {n} -",
        lambda n, total: f"Page {n}",
        lambda n, total: f"{n} of {total}",
        lambda n, total: f"\u2013 {n} \u2013",
        lambda n, total: ["i", "ii", "iii", "iv"][n - 1],
        lambda n, total: str(n + 10),
        lambda n, total: f"{n + 92} / 233",
        lambda n, total: f"Page {n} of {total}",
        lambda n, total: f"[{n}]",
    ],
    ids=["dashed", "page-n", "n-of-m", "en-dashes", "roman", "offset-numbers", "n-slash-total", "page-n-of-m",
         "bracketed"],
)
def test_page_number_footers_of_every_shape(footer: Callable[[int, int], str], tmp_path: Path) -> None:
    def draw(number: int) -> Callable[[Canvas], None]:
        def run(canvas: Canvas) -> None:
            _body(canvas, number)
            canvas.setFont(fx.BODY_FONT, 9)
            canvas.drawCentredString(WIDTH / 2, 36, footer(number, 4))

        return run

    document = fx.parse_valid(tmp_path, "numbers.pdf", fx._draw([draw(n) for n in range(1, 5)]))
    by_page = _types_by_page(document)
    for number in range(1, 5):
        assert [text for kind, text in by_page[number] if kind == "footer"] == [footer(number, 4)], number


def test_a_two_page_document_has_its_header_and_page_numbers_typed(tmp_path: Path) -> None:
    def draw(number: int) -> Callable[[Canvas], None]:
        def run(canvas: Canvas) -> None:
            canvas.setFont(fx.BODY_FONT, 9)
            canvas.drawString(72, 760, "Internal memo - confidential")
            canvas.drawRightString(540, 36, str(number))
            _body(canvas, number)

        return run

    document = fx.parse_valid(tmp_path, "memo.pdf", fx._draw([draw(1), draw(2)]))
    by_page = _types_by_page(document)
    for number in (1, 2):
        furniture = [(kind, text) for kind, text in by_page[number] if kind in ("header", "footer")]
        assert furniture == [("header", "Internal memo - confidential"), ("footer", str(number))]


def test_a_first_page_title_at_the_top_stays_a_heading(tmp_path: Path) -> None:
    # Page 1 opens with a 20 pt title in the top band, at the height where pages 2 and 3 carry
    # their 9 pt running header of the same words: the title is not furniture.
    title = "Northwind Annual Review"

    def draw(number: int) -> Callable[[Canvas], None]:
        def run(canvas: Canvas) -> None:
            if number == 1:
                canvas.setFont(fx.BOLD_FONT, 20)
                canvas.drawString(72, 750, title)
            else:
                canvas.setFont(fx.BODY_FONT, 9)
                canvas.drawString(72, 756, title)
            _body(canvas, number)

        return run

    document = fx.parse_valid(tmp_path, "titled.pdf", fx._draw([draw(n) for n in (1, 2, 3)]))
    by_page = _types_by_page(document)
    assert [kind for kind, text in by_page[1] if text == title] == ["heading"]
    for number in (2, 3):
        assert [kind for kind, text in by_page[number] if text == title] == ["header"]


def test_edge_text_that_does_not_recur_is_not_furniture(tmp_path: Path) -> None:
    # A one-off line at the top of page 2, a lone number at the foot of page 3 that does not
    # number the pages, and a heading at the top of page 4: none of them repeats, so all stay.
    oneoffs: dict[int, Sequence[tuple[float, str]]] = {
        2: [(752, "Results of the spring survey")],
        3: [(40, "42")],
        4: [(748, "Appendix")],
    }

    def draw(number: int) -> Callable[[Canvas], None]:
        def run(canvas: Canvas) -> None:
            for y, text in oneoffs.get(number, []):
                canvas.setFont(fx.BOLD_FONT if text == "Appendix" else fx.BODY_FONT, 16 if text == "Appendix" else 11)
                canvas.drawString(72, y, text)
            _body(canvas, number)

        return run

    document = fx.parse_valid(tmp_path, "oneoffs.pdf", fx._draw([draw(n) for n in (1, 2, 3, 4)]))
    by_page = _types_by_page(document)
    assert all(kind not in ("header", "footer") for elements in by_page.values() for kind, _ in elements)
    assert ("heading", "Appendix") in by_page[4]
    assert any(text == "42" for _, text in by_page[3])


def test_headers_far_apart_in_a_long_document_still_match_their_neighbours(tmp_path: Path) -> None:
    # 12 pages; a header on every page, its section name changing every third page
    # ("Section A" x3, "Section B" x3, ...): each page's header recurs within its neighbours.
    def draw(number: int) -> Callable[[Canvas], None]:
        def run(canvas: Canvas) -> None:
            canvas.setFont(fx.BODY_FONT, 9)
            canvas.drawString(72, 760, f"Field Guide - Section {'ABCD'[(number - 1) // 3]}")
            _body(canvas, number)

        return run

    document = fx.parse_valid(tmp_path, "guide.pdf", fx._draw([draw(n) for n in range(1, 13)]))
    by_page = _types_by_page(document)
    for number in range(1, 13):
        headers = [text for kind, text in by_page[number] if kind == "header"]
        assert headers == [f"Field Guide - Section {'ABCD'[(number - 1) // 3]}"], number


def test_page_numbers_in_a_wide_bottom_margin_are_footers(tmp_path: Path) -> None:
    # A4 pages with wide margins (as LaTeX sets them): the page number sits 150 pt above the foot,
    # 18% of the height - outside the 12% band, but nothing of the page lies below it. Page 3 has
    # no number; a one-line closing remark sits where the others have theirs: it is the outermost
    # text of its page too, but neither recurs nor numbers the page, so it stays text.
    a4 = (595.28, 841.89)

    def draw(number: int) -> Callable[[Canvas], None]:
        def run(canvas: Canvas) -> None:
            _body(canvas, number, top=700)
            canvas.setFont(fx.BODY_FONT, 10)
            canvas.drawCentredString(a4[0] / 2, 150, str(number) if number < 3 else "A closing remark ends the third page.")

        return run

    document = fx.parse_valid(tmp_path, "a4.pdf", fx._draw([draw(n) for n in (1, 2, 3)], pagesize=a4))
    by_page = _types_by_page(document)
    for number in (1, 2):
        assert [text for kind, text in by_page[number] if kind == "footer"] == [str(number)], number
    assert ("text_block", "A closing remark ends the third page.") in by_page[3]
    assert all(kind not in ("header", "footer") for kind, _ in by_page[3])


def test_reference_manual_lookalikes_are_not_furniture(tmp_path: Path) -> None:
    # Four pages of the kind a reference manual has: two appendix headings that open pages 1 and
    # 2 ("Appendix A" / "Appendix B": nearly the same text, but headings); one sentence that ends
    # pages 1 and 3 (a sentence, on only one other page); "Example:" ending pages 2 and 4, which
    # page 3 also has in its body; table-of-contents lines with dot leaders opening pages 3 and 4.
    sentence = "The options are listed in the table below for every terminal."
    top = {1: "Appendix A", 2: "Appendix B", 3: "Installation . . . . . . . . . . . 12", 4: "Configuration . . . . . . . . . 14"}
    bottom = {1: sentence, 2: "Example:", 3: sentence, 4: "Example:"}

    def draw(number: int) -> Callable[[Canvas], None]:
        def run(canvas: Canvas) -> None:
            heading = number <= 2
            canvas.setFont(fx.BOLD_FONT if heading else fx.BODY_FONT, 14 if heading else 11)
            canvas.drawString(72, 752, top[number])
            canvas.setFont(fx.BODY_FONT, 11)
            canvas.drawString(72, 60, bottom[number])
            if number == 3:
                canvas.drawString(72, 400, "Example:")
            _body(canvas, number)

        return run

    document = fx.parse_valid(tmp_path, "manual.pdf", fx._draw([draw(n) for n in (1, 2, 3, 4)]))
    by_page = _types_by_page(document)
    furniture = [(page, kind, text) for page, elements in by_page.items() for kind, text in elements if kind in ("header", "footer")]
    assert furniture == []
    assert ("heading", "Appendix A") in by_page[1] and ("heading", "Appendix B") in by_page[2]
    assert sum(text == "Example:" for _, text in by_page[3]) == 1


@pytest.mark.parametrize("pages_with_note", [(3, 12, 25), (3, 25)], ids=["three-far-apart", "only-two"])
def test_a_label_repeated_far_apart_is_furniture_from_three_pages_on(pages_with_note: tuple[int, ...],
                                                                     tmp_path: Path) -> None:
    # "(continued from previous page)" atop the few pages a listing runs over onto, further apart
    # than the neighbours the running window compares: on three pages it is furniture, on two it
    # proves nothing and stays text.
    note = "(continued from previous page)"

    def draw(number: int) -> Callable[[Canvas], None]:
        def run(canvas: Canvas) -> None:
            if number in pages_with_note:
                canvas.setFont(fx.BODY_FONT, 8)
                canvas.drawRightString(WIDTH - 72, 752, note)
            _body(canvas, number)

        return run

    document = fx.parse_valid(tmp_path, "notes.pdf", fx._draw([draw(n) for n in range(1, 28)]))
    by_page = _types_by_page(document)
    expected = "header" if len(pages_with_note) >= 3 else "text_block"
    for number in pages_with_note:
        assert [kind for kind, text in by_page[number] if text == note] == [expected], number
