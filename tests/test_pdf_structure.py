"""test_pdf_structure - what a parsed PDF says about its pages and elements, for PDFs built to show it.

Expectations come from how each fixture was drawn (tests/pdf_fixtures.py) and from CONTRACTS.md
§2.1/§2.2 (ids, quanta, top-left origin), never from an earlier parse.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pdf_fixtures as fx
import pytest
from pdf_fixtures import parse_cache  # noqa: F401  (fixture)
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas


pytestmark = pytest.mark.usefixtures("parse_cache")

LETTER_Q = (61200, 79200)  # US Letter in quanta (1/100 pt)


def _inside(bbox: list[int], width: int, height: int) -> bool:
    x0, y0, x1, y1 = bbox
    return 0 <= x0 <= x1 <= width and 0 <= y0 <= y1 <= height


ROTATED_LINES = ["Rotation keeps every box on the page", "and the text the same"]


@pytest.mark.parametrize("upright", [True, False], ids=["upright", "turned"])
@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_rotated_pages_give_in_page_boxes_and_the_same_text(rotation: int, upright: bool, tmp_path: Path) -> None:
    # Turned content (drawn unrotated on a /Rotate page) is read along its glyphs, so every case
    # gives the lines in their order.
    document = fx.parse_valid(tmp_path, f"rot{rotation}.pdf", fx.rotated_pdf(rotation, ROTATED_LINES, upright=upright))
    (page,) = document["payload"]["pages"]
    width, height = LETTER_Q if rotation in (0, 180) else LETTER_Q[::-1]
    assert (page["rotation"], page["width"], page["height"]) == (rotation, width, height)
    payload = document["payload"]
    boxes = [item["bbox"] for key in ("elements", "spans") for item in payload[key]]
    assert boxes and all(_inside(bbox, width, height) for bbox in boxes)
    assert " ".join(fx.all_text(document).split()) == " ".join(ROTATED_LINES)


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_upright_rotated_pages_read_like_unrotated_ones(rotation: int, tmp_path: Path) -> None:
    # Counter-rotated content (how landscape pages are made) is shown upright from 72 pt left of
    # the displayed page, first baseline 72 pt below its top: the first line's box starts at
    # x = 72 pt and spans about the 11 pt type size around that baseline.
    document = fx.parse_valid(tmp_path, f"up{rotation}.pdf", fx.rotated_pdf(rotation, ROTATED_LINES, upright=True))
    assert " ".join(fx.all_text(document).split()) == " ".join(ROTATED_LINES)
    first = min(document["payload"]["spans"], key=lambda span: span["bbox"][1])
    x0, y0, _x1, y1 = first["bbox"]
    assert abs(x0 - 7200) <= 100 and 7200 - 1100 <= y0 < 7200 < y1 <= 7200 + 400


LEFT = [f"Left column sentence number {n} about apples." for n in range(1, 9)]
RIGHT = [f"Right column sentence number {n} about pears." for n in range(1, 9)]


# Three page columns of short key/description entries (no line of running text anywhere): a
# reference card. Descriptions are three words long, each column about a quarter of the text width.
CARD = [
    [(f"K{column}{row}", f"describes {name} entry{row:02d}") for row in range(1, 13)]
    for column, name in ((1, "alphabetical"), (2, "bibliographic"), (3, "chronological"))
]


def test_a_reference_card_is_read_page_column_by_page_column(tmp_path: Path) -> None:
    document = fx.parse_valid(tmp_path, "card.pdf", fx.reference_card_pdf(CARD))
    text = " ".join(fx.all_text(document).split())
    # Each page column is a key/description table: each key is followed by its own description
    # (the entry is one row), and every entry of a page column comes before the next column's
    # first entry, although their rows share baselines across the page.
    assert [(t["n_rows"], t["n_cols"]) for t in document["payload"]["tables"]] == [(len(rows), 2) for rows in CARD]
    entries = [f"{key} | {description}" for rows in CARD for key, description in rows]
    for entry in entries:
        assert entry in text, entry
    positions = [text.index(entry) for entry in entries]
    assert positions == sorted(positions), "page column by page column, top to bottom"


SYMBOLS = [[(f"S{row}{group}", f"\\longcommand{{{row:02d}{group}}}") for group in "abc"] for row in range(1, 11)]
RUNNING_ABOVE = [
    "Running text above the table runs across the full measure of the page, from margin to margin.",
    "A second line of that paragraph is just as long and crosses both gaps of the table below it.",
]
RUNNING_BELOW = ["Running text below the table again spans the whole measure of the page, left to right."]


def test_a_table_of_wide_column_groups_inside_running_text_is_read_row_by_row(tmp_path: Path) -> None:
    document = fx.parse_valid(tmp_path, "symbols.pdf", fx.symbol_table_pdf(SYMBOLS, RUNNING_ABOVE, RUNNING_BELOW))
    text = " ".join(fx.all_text(document).split())
    # Running text crosses the gaps between the groups, so they are a table's, not page columns:
    # the rows are read one after the other, each across all three groups.
    cells = [cell for row in SYMBOLS for entry in row for cell in entry]
    positions = [text.index(cell) for cell in cells]
    assert positions == sorted(positions), "row by row, each row left to right"
    assert text.index(RUNNING_ABOVE[1]) < positions[0] and positions[-1] < text.index(RUNNING_BELOW[0])


# A two-column back-of-book index: short entries, a few long ones reaching far into the gap
# between the columns, and a title line with the page number at the far right of the measure
# (gnuplot's index). The left column's text reaches over a third of the measure although most of
# its entries end far left of the gap.
INDEX_LEFT = [f"ab{n:02d}, {n}" for n in range(1, 38)]
for _row in (9, 21, 33):
    INDEX_LEFT[_row] = f"postscript{_row}, 47, 277, 279, 280, 281"
INDEX_RIGHT = [f"rgbformulae{n:02d}, 183" for n in range(1, 38)]


# Two page columns are read column by column: every line whole, the left column top to bottom
# before the right one - running text, and an index whose rows share baselines across the two
# columns (its left entries narrower than the right ones).
@pytest.mark.parametrize(
    ("name", "make", "left", "right"),
    [
        ("columns", fx.two_column_pdf, LEFT, RIGHT),
        ("index", fx.index_pdf, INDEX_LEFT, INDEX_RIGHT),
    ],
)
def test_two_page_columns_are_read_column_by_column(tmp_path: Path, name, make, left, right) -> None:
    document = fx.parse_valid(tmp_path, f"{name}.pdf", make(left, right))
    text = " ".join(fx.all_text(document).split())
    positions = [text.index(line) for line in left + right]
    assert positions == sorted(positions), "left column first, top to bottom, then the right one"


# A key column beside its descriptions, with one key long enough to make the key column a
# quarter of the measure: its lines are still far narrower than the descriptions, so no page
# column - a key/description table, each key read with its description.
KEY_ROWS = [(f"K{n:02d}", f"Characteristically-overwhelming-documentation entry{n:02d} description") for n in range(1, 21)]
KEY_ROWS[7] = ("a-very-long-key-of-this-listing", KEY_ROWS[7][1])


def test_a_key_column_with_one_long_key_is_read_with_its_descriptions(tmp_path: Path) -> None:
    document = fx.parse_valid(tmp_path, "keys.pdf", fx.key_list_pdf(KEY_ROWS))
    assert [(t["n_rows"], t["n_cols"]) for t in document["payload"]["tables"]] == [(len(KEY_ROWS), 2)]
    text = " ".join(fx.all_text(document).split())
    entries = [f"{key} | {description}" for key, description in KEY_ROWS]
    for entry in entries:
        assert entry in text, entry
    positions = [text.index(entry) for entry in entries]
    assert positions == sorted(positions)


# Two column groups of (symbol, command, note) fields and nothing else. On one row the first
# group's command runs over its note field to within 4 pt of the second group, whose symbol is
# missing on that row (so the two pieces stay apart). The gap between the groups is nearly
# closed: they are one table's groups, not two page columns (in each of which the long command
# would cut the table in two).
LONG_COMMAND = "\\l" + "o" * 26 + "ngcommand"
GROUP_ROWS = [[(f"S{row:02d}{g}", f"\\cmd{row:02d}{g}", f"n{row:02d}{g}") for g in "ab"] for row in range(1, 13)]
GROUP_ROWS[5] = [("S06a", LONG_COMMAND, ""), ("", "\\cmd06b", "n06b")]


def test_column_groups_whose_gap_a_line_nearly_closes_form_one_table(tmp_path: Path) -> None:
    pdf = fx.column_groups_pdf(GROUP_ROWS, group_x=(72, 320), field_dx=(0, 40, 110))
    document = fx.parse_valid(tmp_path, "groups.pdf", pdf)
    tables = document["payload"]["tables"]
    assert [(table["n_rows"], table["n_cols"]) for table in tables] == [(12, 5)]
    # The long command's field covers the first group's note field: those two share a column.
    cells = {cell["text"] for cell in tables[0]["cells"]}
    assert {"S01a", "S01b", "\\cmd01b", "n01b", "S12a", "n12b"} <= cells


def test_running_headers_and_footers_are_typed(tmp_path: Path) -> None:
    body = ["First page body text.", "Second page body text.", "Third page body text."]
    document = fx.parse_valid(tmp_path, "running.pdf", fx.running_header_pdf(3, body))
    elements = document["payload"]["elements"]
    by_page: dict[str, dict[str, list[str]]] = {}
    for element in elements:
        by_page.setdefault(element["page"], {}).setdefault(element["type"], []).append(element.get("text", ""))
    assert sorted(by_page) == ["p0001", "p0002", "p0003"]
    for number, page in enumerate(sorted(by_page), start=1):
        assert by_page[page]["header"] == ["Northwind Annual Review"]
        assert by_page[page]["footer"] == [f"Page {number} of 3"]
        assert body[number - 1] in " ".join(by_page[page]["text_block"])


def test_headings_have_levels_and_bullets_are_list_items(tmp_path: Path) -> None:
    document = fx.parse_valid(tmp_path, "headings.pdf", fx.headings_and_list_pdf())
    headings = {e["text"]: e.get("heading_level") for e in document["payload"]["elements"] if e["type"] == "heading"}
    assert set(headings) == {"Project Status", "1. Scope of work"}
    # Levels follow the heading font sizes: the 20 pt title above the 14 pt (numbered) section.
    assert headings == {"Project Status": 1, "1. Scope of work": 2}
    items = fx.element_texts(document, "list_item")
    assert [item.lstrip("\u2022 ").strip() for item in items] == ["Survey the site", "Draft the plan", "Review the budget"]
    assert "The team agreed" in " ".join(fx.element_texts(document, "text_block"))


def test_heading_levels_follow_distinct_sizes_then_section_depth(tmp_path: Path) -> None:
    def draw(canvas: Any) -> None:
        for y, font, size, text in (
            (740, fx.BOLD_FONT, 22, "Annual Report"),
            (700, fx.BOLD_FONT, 16, "Overview"),
            (676, fx.BODY_FONT, 11, "The year brought steady growth across every region we serve."),
            (640, fx.BOLD_FONT, 16, "2 Results"),
            (616, fx.BODY_FONT, 11, "Revenue rose while costs stayed flat for the third year running."),
            (580, fx.BOLD_FONT, 13, "2.1 Revenue by region"),
            (556, fx.BODY_FONT, 11, "The north grew fastest, followed by the coastal markets."),
            (520, fx.BOLD_FONT, 16, "2.1 Costs in detail"),
            (496, fx.BODY_FONT, 11, "Costs were held by renegotiating the largest supply contracts."),
        ):
            canvas.setFont(font, size)
            canvas.drawString(72, y, text)

    document = fx.parse_valid(tmp_path, "levels.pdf", fx._draw([draw]))
    headings = {e["text"]: e.get("heading_level") for e in document["payload"]["elements"] if e["type"] == "heading"}
    # 22 pt -> 1; 16 pt unnumbered and depth-1 numbered are peers -> 2; 16 pt depth 2 -> 3;
    # 13 pt -> 4 (one level per distinct size and depth, largest first).
    assert headings == {
        "Annual Report": 1,
        "Overview": 2,
        "2 Results": 2,
        "2.1 Costs in detail": 3,
        "2.1 Revenue by region": 4,
    }


def test_a_line_end_hyphen_is_kept_and_recorded(tmp_path: Path) -> None:
    data = fx.text_pdf([["The board asked for an independent assess-", "ment of the new queue."]])
    document = fx.parse_valid(tmp_path, "hyphen.pdf", data)
    (element,) = [e for e in document["payload"]["elements"] if "assess" in e.get("text", "")]
    text = element["text"]
    # The document's own characters: the hyphen stays, the lines are joined by one space.
    assert text == "The board asked for an independent assess- ment of the new queue."
    assert element["hyphen_breaks"] == [text.index("-")]
    assert element["line_breaks"] == [text.index("-") + 1]


def test_ruled_table_cells_have_rows_columns_and_text(tmp_path: Path) -> None:
    document = fx.parse_valid(tmp_path, "table.pdf", fx.ruled_table_pdf())
    (table,) = document["payload"]["tables"]
    assert (table["n_rows"], table["n_cols"]) == (3, 3)
    cells = {(cell["row"], cell["col"]): cell for cell in table["cells"]}
    for row, texts in enumerate(fx.TABLE_CELLS):
        for col, text in enumerate(texts):
            cell = cells[(row, col)]
            assert (cell["text"], cell["row_span"], cell["col_span"]) == (text, 1, 1)
    # Each cell box lies inside the table box, and cells in one row share their top edge.
    for cell in table["cells"]:
        assert table["bbox"][0] <= cell["bbox"][0] and cell["bbox"][2] <= table["bbox"][2]
    for row in range(3):
        assert len({cells[(row, col)]["bbox"][1] for col in range(3)}) == 1
    table_elements = [e for e in document["payload"]["elements"] if e["type"] == "table"]
    assert [e.get("table_ref") for e in table_elements] == [table["id"]]


# A method table without rules (lme4's "List of currently available methods"): keys at x=72,
# descriptions at x=180, the second description wrapped onto a line of its own; then a paragraph
# set at the description indent after the last key.
METHODS = [
    ("Generic (Section)", ["Brief description of return value"]),
    ("anova (5.2.4)", ["Decomposition of fixed-effects contributions", "or model comparison."]),
    ("coef", ["Sum of the random and fixed effects for each level."]),
    ("fixef (5.2.2)", ["Estimates of the fixed-effects coefficients"]),
    ("formula (2.2.1)", ["Mixed-model formula of fitted model."]),
    ("logLik", ["Maximum log-likelihood."]),
]
METHODS_TITLE = "Methods for fitted models"
METHODS_AFTER = "Methods not listed here are inherited."


def test_key_description_rows_without_rules_are_a_table_of_two_columns(tmp_path: Path) -> None:
    document = fx.parse_valid(tmp_path, "methods.pdf", fx.method_table_pdf(METHODS, title=METHODS_TITLE, after=METHODS_AFTER))
    (table,) = document["payload"]["tables"]
    assert (table["n_rows"], table["n_cols"]) == (len(METHODS), 2)
    cells = {(cell["row"], cell["col"]): cell for cell in table["cells"]}
    assert len(cells) == 2 * len(METHODS)
    for row, (key, description) in enumerate(METHODS):
        # A wrapped description stays in its cell, its lines joined by a space.
        assert (cells[row, 0]["text"], cells[row, 1]["text"]) == (key, " ".join(description))
        key_box, text_box = cells[row, 0]["bbox"], cells[row, 1]["bbox"]
        assert abs(key_box[0] - 7200) <= 100 and abs(text_box[0] - 18000) <= 100
        assert key_box[2] < text_box[0] and key_box[1] == text_box[1]
    # The wrapped line makes its description cell two lines tall; the next row starts below it.
    assert cells[1, 1]["bbox"][3] - cells[1, 1]["bbox"][1] > 1300 > cells[1, 0]["bbox"][3] - cells[1, 0]["bbox"][1]
    assert cells[1, 1]["bbox"][3] <= cells[2, 0]["bbox"][1]
    (element,) = [e for e in document["payload"]["elements"] if e["type"] == "table"]
    assert element["table_ref"] == table["id"]
    assert element["text"] == "\n".join(f"{key} | {' '.join(description)}" for key, description in METHODS)
    # The title above and the paragraph at the description indent after the last key are no rows.
    texts = fx.element_texts(document, "text_block", "heading")
    assert METHODS_TITLE in texts and METHODS_AFTER in texts


def test_the_last_description_keeps_its_wrapped_line_when_it_runs_out_to_the_edge(tmp_path: Path) -> None:
    # The last description's first line is as wide as the widest (coef's), so the line below it is
    # its wrap; the paragraph after that short line is not.
    rows = [*METHODS[:-1], ("logLik", [METHODS[2][1][0], "once more."])]
    document = fx.parse_valid(tmp_path, "wrapped.pdf", fx.method_table_pdf(rows, title=METHODS_TITLE, after=METHODS_AFTER))
    (table,) = document["payload"]["tables"]
    cells = {(cell["row"], cell["col"]): cell["text"] for cell in table["cells"]}
    assert cells[len(rows) - 1, 1] == f"{METHODS[2][1][0]} once more."
    assert METHODS_AFTER in fx.element_texts(document, "text_block", "heading")


def test_a_table_of_contents_with_page_numbers_at_the_right_stays_rows(tmp_path: Path) -> None:
    # Titles at x=72 and their page numbers at x=230: the narrow side stands right, so these are
    # no key/description table but rows read entry by entry.
    entries = [(f"Chapter {n} about the subject matter", f"{10 * n}") for n in range(1, 7)]
    document = fx.parse_valid(tmp_path, "contents.pdf", fx.key_list_pdf(entries))
    assert document["payload"]["tables"] == []
    text = " ".join(fx.all_text(document).split())
    assert all(f"{title} {page}" in text for title, page in entries)


def test_page_labels_become_page_fields(tmp_path: Path) -> None:
    plain = fx.text_pdf([["front one"], ["front two"], ["body one"], ["body two"]])
    labelled = fx.with_page_labels(plain, [(0, "r", 1), (2, "D", 1)])
    document = fx.parse_valid(tmp_path, "labels.pdf", labelled)
    assert [page.get("label") for page in document["payload"]["pages"]] == ["i", "ii", "1", "2"]
    unlabelled = fx.parse_valid(tmp_path, "plain.pdf", plain)
    assert all("label" not in page for page in unlabelled["payload"]["pages"])


def test_selected_pages_keep_their_original_ids(tmp_path: Path) -> None:
    data = fx.text_pdf([["page one text"], ["page two text"], ["page three text"]])
    document = fx.parse_valid(tmp_path, "three.pdf", data, pages="2-3")
    assert [(p["id"], p["index"]) for p in document["payload"]["pages"]] == [("p0002", 2), ("p0003", 3)]
    assert "page one text" not in fx.all_text(document)


# Word gaps PDFium does not mark (docs/pdf-parsing.md "Lines"): pieces drawn with a pen gap of
# 0.18 em and no space character between them - TeX's thin space after a comma in a formula is
# 0.167 em, PDFium (Helvetica) starts a space at about 0.25 em.
def _pen_gap_lines(tmp_path: Path, name: str, lines: list[tuple[list[str], float, float]], **options: Any) -> list[str]:
    document = fx.parse_valid(tmp_path, name, fx.pen_gaps_pdf(lines, **options))
    return [" ".join(text.split()) for text in fx.all_text(document).splitlines() if text.strip()]


def test_a_thin_pen_gap_is_a_word_gap_and_a_kern_is_not(tmp_path: Path) -> None:
    lines = _pen_gap_lines(tmp_path, "gaps.pdf", [(["f(y,", "u)"], 0.18, 0.0), (["x", "k,"], 0.05, 0.0), (["2011 11"], 0.0, 0.0)])
    assert lines == ["f(y, u)", "xk,", "2011 11"]


def test_letter_spacing_opens_no_word_gaps(tmp_path: Path) -> None:
    # Every glyph is followed by 0.2 em (Tc): wider than the word-gap share, but it is the
    # line's usual gap, so only the real space separates words - and a gap 0.18 em wider than
    # the letter spacing still does.
    lines = _pen_gap_lines(tmp_path, "spaced.pdf", [(["letterspaced words"], 0.0, 0.2), (["spaced,", "apart"], 0.18, 0.2)])
    assert lines == ["letterspaced words", "spaced, apart"]


def test_cjk_characters_set_apart_get_no_space_but_latin_beside_them_does(tmp_path: Path) -> None:
    lines = _pen_gap_lines(tmp_path, "cjk.pdf", [(["中文", "文字"], 0.16, 0.0), (["中文", "abc"], 0.16, 0.0)], font="STSong-Light")
    assert lines == ["中文文字", "中文 abc"]


def test_a_glyph_whose_font_metrics_reach_far_below_it_does_not_pull_the_next_line_before_it(tmp_path: Path) -> None:
    # The hat's font declares a descent of 2.96 em (TeX's cmex does): its font-metric box reaches
    # over the line below, which was then read first, as if beside the formula.
    formula = ("v = L(u - ", "^", "b) + R(b) is the variable change")
    below = "The Jacobian determinant of the transformation from u to v"
    document = fx.parse_valid(tmp_path, "descent.pdf", fx.deep_descent_pdf(formula, below))
    text = " ".join(fx.all_text(document).split())
    assert text.index("v = L(u") < text.index("The Jacobian")
    assert below in text
    # The hat stays on its line, where it was drawn (its ink alone, above the letters, would
    # make a line of its own).
    assert "v = L(u - ^b) + R(b) is the variable change" in text


def test_a_formula_whose_symbols_are_mostly_set_apart_keeps_its_word_gaps(tmp_path: Path) -> None:
    # Three of five pen gaps are 0.18 em (after each comma; PDFium marks none of them): the
    # line's usual gap is its lower quartile, zero here, not its median (0.18 em).
    lines = _pen_gap_lines(tmp_path, "commas.pdf", [(["xy,", ",", ",", "u"], 0.18, 0.0)])
    assert lines == ["xy, , , u"]


def scaled_type_pdf(words: str, *, font_size: float, scale: float, jitter: float) -> bytes:
    """``words`` drawn glyph by glyph as graph labels drawn through cairo are: ``font_size`` pt
    type (Tf) in a matrix scaling it ``scale`` times, each glyph placed on its own at x=72 plus the
    advances so far, every second glyph ``jitter`` pt further right (the rounding of such
    placements), on the baseline y=700; spaces are drawn as space glyphs."""

    def draw(canvas: Canvas) -> None:
        x = 72.0
        for index, char in enumerate(words):
            canvas.saveState()
            canvas.transform(scale, 0, 0, scale, x + (jitter if index % 2 else 0.0), 700)
            canvas.setFont(fx.BODY_FONT, font_size)
            canvas.drawString(0, 0, char)
            canvas.restoreState()
            x += stringWidth(char, fx.BODY_FONT, font_size) * scale

    return fx._draw([draw])


def test_type_set_small_in_a_scaling_matrix_is_measured_at_its_drawn_size(tmp_path: Path) -> None:
    # 1 pt type in a 10x matrix is 10 pt type: its em is 10 pt, so glyphs placed 0.3 pt apart
    # (0.03 em) stay one word - measured against the 1 pt of the font size alone, every such
    # placement was a word gap (`Th e Seco n d G ro u p`, doxygen's collaboration diagrams).
    document = fx.parse_valid(tmp_path, "scaled.pdf", scaled_type_pdf("The Second Group", font_size=1, scale=10, jitter=0.3))
    assert " ".join(fx.all_text(document).split()) == "The Second Group"
    # Type of 0.4 pt in a 25x matrix is 10 pt type a reader sees, no hidden text.
    document = fx.parse_valid(tmp_path, "tiny.pdf", scaled_type_pdf("Visible label", font_size=0.4, scale=25, jitter=0.0))
    assert " ".join(fx.all_text(document).split()) == "Visible label"
    assert document["payload"]["security_warnings"] == []
