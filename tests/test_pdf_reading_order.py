"""test_pdf_reading_order - rows of fields and margin line numbers in the reading order of a page.

Each PDF is drawn here with reportlab (through tests/pdf_fixtures.py); the expectations follow
from where the text was drawn, never from an earlier parse. See docs/pdf-parsing.md "Reading order".
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pdf_fixtures as fx
import pytest
from pdf_fixtures import parse_cache  # noqa: F401  (fixture)
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas


pytestmark = pytest.mark.usefixtures("parse_cache")


def contents_pdf(entries: Sequence[tuple[str, str, str]], *, heading: str, after: str) -> bytes:
    """A table-of-contents page: ``heading`` (14 pt) at y=730, then one entry per row from y=700 down,
    14 pt apart, in 10 pt type: section number at x=90, title (ending in dot leaders) at x=130,
    page number 12 pt right of the longest title (gaps of 12 pt and more between the three, wider
    than the 4 pt between the rows), and the paragraph ``after`` at x=72 below the last row."""
    page_x = 130 + max(stringWidth(title, fx.BODY_FONT, 10) for _number, title, _page in entries) + 12

    def draw(canvas: Canvas) -> None:
        canvas.setFont(fx.BODY_FONT, 14)
        canvas.drawString(72, 730, heading)
        canvas.setFont(fx.BODY_FONT, 10)
        y = 700.0
        for number, title, page in entries:
            canvas.drawString(90, y, number)
            canvas.drawString(130, y, title)
            canvas.drawString(page_x, y, page)
            y -= 14
        canvas.drawString(72, y - 20, after)

    return fx._draw([draw])


def numbered_manuscript_pdf(body: Sequence[str], first_number: int) -> bytes:
    """A manuscript page with margin line numbers: ``body`` lines at x=72 from y=700 down, 14 pt
    apart, 10 pt type; beside each, at x=40 (left of all body text), its line number, counting up
    by one from ``first_number`` (8 pt type, on the line's baseline)."""

    def draw(canvas: Canvas) -> None:
        for index, line in enumerate(body):
            y = 700 - index * 14
            canvas.setFont(fx.BODY_FONT, 8)
            canvas.drawString(40, y, str(first_number + index))
            canvas.setFont(fx.BODY_FONT, 10)
            canvas.drawString(72, y, line)

    return fx._draw([draw])


SHORT_CONTENTS = [("3.9.1", "Floating captions . . . . . . . . .", "35"), ("3.9.2", "Side by side figures . . . . . . .", "36")]


def test_a_short_table_of_contents_is_read_entry_by_entry(tmp_path: Path) -> None:
    # Two entries are too few for a table, and the gaps between number, title and page number
    # are wider than the gap between the rows: a cut at those gaps read all numbers, then all
    # titles, then all page numbers. Every piece shares its row with the others of its entry, so
    # the rows are read one after the other.
    document = fx.parse_valid(tmp_path, "contents.pdf", contents_pdf(SHORT_CONTENTS, heading="Contents", after="The end."))
    expected = ["Contents"] + [word for entry in SHORT_CONTENTS for field in entry for word in field.split()] + ["The", "end."]
    assert fx.reading_words(document) == expected


LONG_CONTENTS = [
    ("1", "Introduction . . . . . . . . . . .", "3"),
    ("2", "Installation . . . . . . . . . . .", "7"),
    ("3", "First steps . . . . . . . . . . . .", "12"),
    ("4", "Configuration . . . . . . . . . .", "20"),
    ("5", "Command reference . . . . . . .", "21"),
    ("6", "Troubleshooting . . . . . . . . .", "30"),
]


def test_page_numbers_of_a_table_of_contents_are_not_line_numbers(tmp_path: Path) -> None:
    # The page numbers are integers right of every other line, ascending - but unevenly, as page
    # numbers do: they stay with their entries instead of leaving as margin line numbers.
    document = fx.parse_valid(tmp_path, "long-contents.pdf", contents_pdf(LONG_CONTENTS, heading="Contents", after="The end."))
    assert [e for e in document["payload"]["elements"] if e["type"] == "footer"] == []
    expected = ["Contents"] + [word for entry in LONG_CONTENTS for field in entry for word in field.split()] + ["The", "end."]
    assert fx.reading_words(document) == expected


MANUSCRIPT = [
    "The first line of the manuscript starts a sentence that",
    "runs on to the second line of the page and then to the",
    "third, which a reader follows without any interruption,",
    "while the line numbers in the left margin count along.",
    "A quotation across two of these lines must be found in",
    "the element text exactly as the author wrote it down, so",
    "no margin number may stand between two lines of it.",
]


def test_margin_line_numbers_leave_the_body_and_follow_it(tmp_path: Path) -> None:
    document = fx.parse_valid(tmp_path, "manuscript.pdf", numbered_manuscript_pdf(MANUSCRIPT, 101))
    elements = document["payload"]["elements"]
    body = " ".join(" ".join(e["text"].split()) for e in elements if e["type"] != "footer")
    assert body == " ".join(MANUSCRIPT), "no number interleaved with the body lines"
    # Page furniture (typed footer: CONTRACTS §2.2 has no line-number type), after the body.
    numbers = [e for e in elements if e["type"] == "footer"]
    assert len(numbers) == 1 and numbers[0] is elements[-1], "one element of line numbers, after the body"
    assert numbers[0]["text"].split() == [str(101 + i) for i in range(len(MANUSCRIPT))]
    x0, _y0, x1, _y1 = numbers[0]["bbox"]
    assert 4000 - 100 <= x0 < x1 < 7200, "the numbers' box lies in the left margin, left of the body at 72 pt"


def test_too_few_numbers_beside_the_text_stay_in_the_body(tmp_path: Path) -> None:
    # Four numbered lines are below the five a numbering needs: the numbers are read with their
    # lines, like any other short piece of a row.
    document = fx.parse_valid(tmp_path, "four.pdf", numbered_manuscript_pdf(MANUSCRIPT[:4], 1))
    assert [e for e in document["payload"]["elements"] if e["type"] == "footer"] == []
    expected = [word for index, line in enumerate(MANUSCRIPT[:4]) for word in [str(1 + index), *line.split()]]
    assert fx.reading_words(document) == expected


def keys_beside_page_columns_pdf(keys: Sequence[tuple[str, str]], column: Sequence[str]) -> bytes:
    """Narrow keys at x=40 with their descriptions at x=120 (a 60 pt gap after keys about 15 pt
    wide) on the first rows, and a page column of running text at x=300, 20 pt right of the
    longest description, on every row; 10 pt type, rows 13 pt apart from y=700 down, so row i of
    the keys, the descriptions and the page column shares a baseline."""

    def draw(canvas: Canvas) -> None:
        canvas.setFont(fx.BODY_FONT, 10)
        for index, line in enumerate(column):
            y = 700 - index * 13
            if index < len(keys):
                canvas.drawString(40, y, keys[index][0])
                canvas.drawString(120, y, keys[index][1])
            canvas.drawString(260, y, line)

    return fx._draw([draw])


# Two entries: too few for the key/description rows of a table (docs/pdf-parsing.md "Tables").
KEYS = [("k1", "describes entry 01 fully"), ("k2", "describes entry 02 fully")]
COLUMN = [f"Page column text line {row} runs on here" for row in range(1, 9)]


def test_rows_of_a_key_column_are_not_read_across_a_page_column(tmp_path: Path) -> None:
    # The widest gap is the one after the keys, and every key shares its row with a description:
    # but beyond the descriptions lies a page column (wider than a quarter of the rest), and the
    # region's rows would run through both - so the page column is read on its own, after them.
    document = fx.parse_valid(tmp_path, "keys-and-column.pdf", keys_beside_page_columns_pdf(KEYS, COLUMN))
    text = " ".join(fx.all_text(document).split())
    assert " ".join(COLUMN) in text, "the page column is read as one run"
    for key, description in KEYS:
        assert text.index(key) < text.index(COLUMN[0]) and text.index(description) < text.index(COLUMN[0])


def facing_headings_pdf(columns: Sequence[Sequence[tuple[str, Sequence[str]]]]) -> bytes:
    """Two page columns, the left at x=72, the right 14 pt after the left column's longest line
    (the gutter) and 6 pt lower (baselines of its own, as page columns have), each a run of
    sections: a bold 10 pt heading, then its body lines (10 pt, 12 pt apart) starting 36 pt below
    it, the next heading 26 pt below the last body line. Both columns have the same sections'
    shape, so their headings face each other and the white under the heading pairs (about 20 pt)
    runs across the page, wider than the gutter."""
    widest = max(
        max(stringWidth(heading, fx.BODY_FONT + "-Bold", 10), *(stringWidth(line, fx.BODY_FONT, 10) for line in body))
        for heading, body in columns[0]
    )

    def draw(canvas: Canvas) -> None:
        for x, y0, sections in zip((72, 72 + widest + 14), (720.0, 714.0), columns):
            y = y0
            for heading, body in sections:
                canvas.setFont(fx.BODY_FONT + "-Bold", 10)
                canvas.drawString(x, y, heading)
                canvas.setFont(fx.BODY_FONT, 10)
                y -= 36
                for line in body:
                    canvas.drawString(x, y, line)
                    y -= 12
                y -= 14

    return fx._draw([draw])


FACING = [
    [
        ("1. Lists", ["The left column opens with a section that", "runs over three lines of running text and", "ends here on its third line."]),
        ("2. Boxes", ["A second section of the left column that", "also holds three lines of running text to", "close the left column."]),
    ],
    [
        ("3. Markup", ["The right column begins with its own section", "whose heading stands level with the one on", "the left of the page."]),
        ("4. Figures", ["And a last section of the right column ends", "the page after three lines of running text", "like the others."]),
    ],
]


def test_headings_facing_each_other_across_two_columns_do_not_cut_the_page(tmp_path: Path) -> None:
    # The white under the facing headings is the widest horizontal gap of the page, wider than
    # the gutter: cut there first, the page read both columns' first sections before either
    # column's second. Both sides of that gap hold both columns, so it lies inside them.
    document = fx.parse_valid(tmp_path, "facing-headings.pdf", facing_headings_pdf(FACING))
    expected = [word for column in FACING for heading, body in column for word in [*heading.split(), *" ".join(body).split()]]
    assert fx.reading_words(document) == expected


def card_pdf(
    first: tuple[str, Sequence[tuple[str, str, str]]], second: tuple[str, Sequence[str]], third: tuple[str, Sequence[str]]
) -> bytes:
    """A landscape reference card of three page columns at x=25, 265 and 505, each under a bold
    9 pt heading at y=560 (the headings of the columns share a baseline). The first holds
    key/description entries (8 pt, rows 10 pt apart from y=545 down): the key at x=25, a second
    piece of the key (if any) at x=49 (a word gap past the key, less than a gutter past the
    longest key), the description at x=100. The second holds running text,
    the third one call form per line (8 pt, 11 pt apart from y=541 down: baselines of their own)."""

    def draw(canvas: Canvas) -> None:
        canvas.setFont(fx.BOLD_FONT, 9)
        for x, heading in zip((25, 265, 505), (first[0], second[0], third[0])):
            canvas.drawString(x, 560, heading)
        canvas.setFont(fx.BODY_FONT, 8)
        for row, (key, piece, description) in enumerate(first[1]):
            y = 545 - row * 10
            canvas.drawString(25, y, key)
            if piece:
                canvas.drawString(49, y, piece)
            canvas.drawString(100, y, description)
        for x, lines in ((265, second[1]), (505, third[1])):
            for row, line in enumerate(lines):
                canvas.drawString(x, 541 - row * 11, line)

    return fx._draw([draw], pagesize=(841.89, 595.27))


# The first column's descriptions are long (five words or more): with the running text of the
# second column they give the gap after the first column's keys running text on its right. Two
# of its keys are set in two pieces (`++ x  (-- x)`). The third column's lines are one word each,
# so the gutter between the first two columns has no running text on either side.
CARD_FIRST = (
    "Arithmetic Operators",
    [
        ("x + y", "", "addition of both operands, element-wise"),
        ("x - y", "", "subtraction of the second operand given"),
        ("x * y", "", "matrix multiplication of x by matrix y"),
        ("x .* y", "", "element by element multiplication of both"),
        ("x / y", "", "right division of x by matrix y"),
        ("x ./ y", "", "element by element right division here"),
        ("x ^ y", "", "power operator of the square matrix"),
        ("- x", "", "negation of every element of x"),
        ("++ x", "(-- x)", "increment, then return the new value"),
        ("x ++", "(x --)", "increment, but return the old value"),
        ("x < y", "", "true if x is less than y"),
        ("x > y", "", "true if x is greater than y"),
    ],
)
CARD_SECOND = ("Statements", [f"Execute the statement list once for column {n} here" for n in range(1, 13)])
CARD_THIRD = ("Function Handles", [f"cellfun(func,cell_array_{n},'UniformOutput',false)" for n in range(1, 13)])


def test_a_card_column_of_keys_is_not_cut_from_its_descriptions(tmp_path: Path) -> None:
    # The gap between the first column's keys and its descriptions has running text on its right,
    # but it is a key gap, no page gutter: the keys are far narrower than the descriptions and
    # beside them row by row - judged on the descriptions, not on the columns further right, and
    # a key in two pieces still starts its row on the key x. Taken for a gutter, it left the
    # first column too narrow to be cut from the second, and the lines of both were read as rows
    # across them, the headings as one.
    document = fx.parse_valid(tmp_path, "card.pdf", card_pdf(CARD_FIRST, CARD_SECOND, CARD_THIRD))
    expected = CARD_FIRST[0].split()
    for key, piece, description in CARD_FIRST[1]:
        expected += [*key.split(), *piece.split(), *description.split()]
    for heading, lines in (CARD_SECOND, CARD_THIRD):
        expected += [*heading.split(), *" ".join(lines).split()]
    assert fx.reading_words(document) == expected


def function_table_pdf(rows: Sequence[tuple[str, str]], *, title: str) -> bytes:
    """A function table without rules, as gnuplot's manual sets its name column: ``title`` (12 pt)
    centred at y=730, then one row per function from y=700 down, 13 pt apart, in 10 pt type - the
    name centred on x=110 (so the names start on many x) and what it returns from x=180 on (a 40 pt
    gap right of the widest name)."""

    def draw(canvas: Canvas) -> None:
        canvas.setFont(fx.BODY_FONT, 12)
        canvas.drawCentredString(300, 730, title)
        canvas.setFont(fx.BODY_FONT, 10)
        for index, (name, returns) in enumerate(rows):
            y = 700 - index * 13
            canvas.drawCentredString(110, y, name)
            canvas.drawString(180, y, returns)

    return fx._draw([draw])


FUNCTIONS = [
    ("asinh(x)", "inverse hyperbolic sine of x, for any argument"),
    ("atan2(y,x)", "inverse tangent of y over x, for int or real"),
    ("EllipticK(k)", "complete elliptic integral of the first kind"),
    ("besj0(x)", "Bessel function of x in radians"),
    ("besjn(n,x)", "Bessel function of order n of x"),
    ("ceil(x)", "smallest integer not less than x"),
    ("cos(x)", "cosine of x in radians"),
    ("expint(n,x)", "exponential integral of order n of x"),
    ("imag(x)", "imaginary part of x as a real number"),
    ("lambertw(x)", "Lambert W function of x"),
    ("norm(x)", "normal distribution function of real(x)"),
    ("voigt(x,y)", "Voigt profile of x and y"),
]


def test_a_function_table_with_a_centred_name_column_is_read_row_by_row(tmp_path: Path) -> None:
    # The gap before the descriptions has running text on its right, but it is a table's column
    # gap, no page gutter: the names are far narrower than the descriptions and every description
    # has its row's name beside it. The names are centred, so they start on many x - judged by
    # the one key x alone, the gap passed for a page gutter and every name was read before every
    # description (gnuplot's function tables, whose name and argument columns are centred).
    document = fx.parse_valid(tmp_path, "functions.pdf", function_table_pdf(FUNCTIONS, title="Math library functions"))
    expected = "Math library functions".split()
    for row in FUNCTIONS:
        expected += [word for field in row for word in field.split()]
    assert fx.reading_words(document) == expected


def index_pdf(columns: Sequence[Sequence[tuple[str, Sequence[tuple[str, str]]]]]) -> bytes:
    """A two-column index: each column a list of letter groups, the left column at x=72, the right
    at x=320, both 220 pt wide (a 28 pt gutter), on one baseline grid from y=700 down: a group's
    letter (12 pt), then its entries (10 pt, 13 pt apart), each term run out in leader dots to its
    page number, the entry set flush right at the column's edge; 40 pt between groups, the same in both
    columns, so the space between groups runs across the page and is wider than the gutter."""

    def draw(canvas: Canvas) -> None:
        for x, groups in zip((72, 320), columns):
            y = 700.0
            for letter, entries in groups:
                canvas.setFont(fx.BODY_FONT, 12)
                canvas.drawString(x, y, letter)
                y -= 15
                canvas.setFont(fx.BODY_FONT, 10)
                for term, page in entries:
                    # As many leader dots as fit: the entry, set flush right, starts within a
                    # dot's width of the column's left edge.
                    room = 220 - stringWidth(f"{term}  {page}", fx.BODY_FONT, 10)
                    dots = " ".join("." * int(room / stringWidth(". ", fx.BODY_FONT, 10)))
                    canvas.drawRightString(x + 220, y, f"{term} {dots} {page}")
                    y -= 13
                y -= 40

    return fx._draw([draw])


INDEX = [
    [
        ("A", [("Arrays", "20"), ("Assignment", "8"), ("Attributes", "14")]),
        ("B", [("Binary operators", "46"), ("Box plots", "40"), ("Bootstrap", "71")]),
        ("C", [("Character vectors", "11"), ("Classes", "52"), ("Contrasts", "57")]),
    ],
    [
        ("I", [("Indexing vectors", "12"), ("Indexing arrays", "20"), ("Inference", "39")]),
        ("K", [("Kernel density", "37"), ("Kolmogorov test", "39"), ("Kronecker product", "24")]),
        ("L", [("Least squares", "26"), ("Linear models", "58"), ("Lists", "29")]),
    ],
]


def test_an_index_in_two_columns_on_one_baseline_grid_is_read_column_by_column(tmp_path: Path) -> None:
    # Both columns of the index stand on one baseline grid, so nearly every line shares its visual
    # line with a line across the gutter, and the space between letter groups runs across the page,
    # wider than the gutter. Taken for the fields of rows, the page was cut at that space and read
    # A, I, B, K, C, L (R-intro's concept index). The entries run out to their page numbers on the
    # column's edge: both sides are filled page columns, read one after the other.
    document = fx.parse_valid(tmp_path, "index.pdf", index_pdf(INDEX))
    words = [word for word in fx.reading_words(document) if set(word) != {"."}]
    expected = [
        word
        for column in INDEX
        for letter, entries in column
        for word in [letter] + [w for term, page in entries for w in term.split() + [page]]
    ]
    assert words == expected


def two_column_contents_pdf(
    left: Sequence[tuple[int, str, str, str]],
    right: Sequence[tuple[int, str, str, str]],
    below: tuple[str, Sequence[tuple[str, str, str]]] | None = None,
) -> bytes:
    """A contents page in two columns, set as a book's contents pages are (A4, 10 pt type, rows
    15.5 pt apart from y=606 down). The title "Index" (14 pt) is centred on the text's width at
    y=680, over the gutter: it reaches into the gap past the right column's left edge, not as far
    as its section numbers. Each column's entries are (level, number, title, page): level 0 (a
    chapter) has its number and title at the column's left edge (x=72 left, x=285.03 right),
    level 1 its number 13 pt in and its title 38 pt in (11 pt right of a number like "2.1"),
    level 2 its number 38 pt in and its title 70 pt in; each title runs out in dot leaders to 6 pt
    before its page number, set flush right at the column's right edge (274.66 and 487.28: a
    10.4 pt gutter). The folio "vii" is centred under the gutter at y=55. ``below`` (a title and
    its (number, title, page) entries), if given, is a list across the whole text width under
    the columns, set off by 60 pt of white: its title (14 pt) centred, its entries 15.5 pt apart
    below it, the number at x=72, the title at x=100 run out in dot leaders to the page number
    flush right at 487.28 - lines crossing the gutter."""
    size = 10.0
    columns = ((72.0, 274.66), (285.03, 487.28))

    def entry(canvas: Canvas, title: str, x: float, edge: float, page: str, y: float) -> None:
        """``title`` at ``x``, dot leaders from it to 6 pt before the page number, the page number
        flush right at ``edge``: one line of three words, as the leaders close the gaps."""
        stop = edge - stringWidth(page, fx.BODY_FONT, size) - 6
        start = x + stringWidth(title + " ", fx.BODY_FONT, size)
        canvas.drawString(x, y, title)
        count = int((stop - start) // stringWidth(".", fx.BODY_FONT, size))
        canvas.drawRightString(stop, y, "." * count)  # leaders without spaces: one word
        canvas.drawRightString(edge, y, page)

    def draw(canvas: Canvas) -> None:
        canvas.setFont(fx.BODY_FONT, 14)
        canvas.drawCentredString((columns[0][0] + columns[1][1]) / 2, 680, "Index")
        canvas.setFont(fx.BODY_FONT, size)
        for (x0, x1), entries in zip(columns, (left, right)):
            y = 606.0
            for level, number, title, page in entries:
                number_x, title_x = ((x0, x0 + stringWidth(number + " ", fx.BODY_FONT, size)) if level == 0
                                     else (x0 + 13, x0 + 38) if level == 1 else (x0 + 38, x0 + 70))
                canvas.drawString(number_x, y, number)
                entry(canvas, title, title_x, x1, page, y)
                y -= 15.5
        if below is not None:
            y = 606.0 - 15.5 * max(len(left), len(right)) - 60
            canvas.setFont(fx.BODY_FONT, 14)
            canvas.drawCentredString((columns[0][0] + columns[1][1]) / 2, y, below[0])
            canvas.setFont(fx.BODY_FONT, size)
            for number, title, page in below[1]:
                y -= 15.5
                canvas.drawString(72, y, number)
                entry(canvas, title, 100, columns[1][1], page, y)
        canvas.drawCentredString((columns[0][1] + columns[1][0]) / 2, 55, "vii")

    return fx._draw([draw], pagesize=(595.28, 841.89))


def _contents_column(chapter: int, first_page: int) -> list[tuple[int, str, str, str]]:
    titles = ["Overview", "Starting", "Commands", "Packages", "Files", "Terms"]
    entries: list[tuple[int, str, str, str]] = [(0, f"Chapter {chapter}", "Basics", str(first_page))]
    page = first_page
    for s, title in enumerate(titles, start=1):
        entries.append((1, f"{chapter}.{s}", title, str(page)))
        for sub in range(1, 4):
            page += 1
            entries.append((2, f"{chapter}.{s}.{sub}", f"Part{chapter}{s}{sub}", str(page)))
    return entries


def test_a_title_centred_over_the_gutter_of_a_two_column_contents_page(tmp_path: Path) -> None:
    # lshort-zh-cn's first contents page. The short title is centred over the gutter and ends
    # inside the gap the gutter test measures (which runs on to the right column's section
    # numbers, past its few chapter lines): it stands over the gutter as a title crossing it does,
    # and must not close it. Before, it counted as a left-column line reaching into the gap, the
    # gutter was refused for leaving no room open, and the gap between the right column's section
    # numbers and its titles (crossed by its one chapter line) was taken for the page gutter: the
    # right column's chapter line and section numbers were read among the left column's entries.
    front = [(0, "", "Thanks", "i"), (0, "", "Preface", "iii"), (0, "", "Notes", "v"), (0, "", "Contents", "vii")]
    left, right = front + _contents_column(1, 1), _contents_column(2, 30)
    document = fx.parse_valid(tmp_path, "contents-two-columns.pdf", two_column_contents_pdf(left, right))
    words = [word for word in fx.reading_words(document) if word.strip(".")]
    expected = ["Index"]
    for column in (left, right):
        for _level, number, title, page in column:
            expected += [*number.split(), *title.split(), page]
    assert words == [*expected, "vii"]


EXAMPLES = ("Examples", [(f"{n}.1", f"The simplest source example of chapter {n}", str(3 + 10 * n)) for n in range(1, 9)])


def test_a_two_column_contents_over_a_one_column_list_is_read_column_by_column(tmp_path: Path) -> None:
    # lshort-zh-cn's third contents page: the end of the two-column contents, and below it, past a
    # wide white band, a one-column list whose entries run across the gutter. No gutter runs down
    # the whole page, and the two columns' entries, on one baseline grid, were read as rows across
    # both (`7.2.1 ... 88 | Appendix A ... 103`). The part above the white band has its gutter,
    # with entries run out in dot leaders on both sides: read the left column, then the right,
    # then the list.
    left, right = _contents_column(7, 88)[:10], _contents_column(8, 103)[:10]
    document = fx.parse_valid(tmp_path, "contents-over-list.pdf", two_column_contents_pdf(left, right, EXAMPLES))
    words = [word for word in fx.reading_words(document) if word.strip(".")]
    expected = ["Index"]
    for column in (left, right):
        for _level, number, title, page in column:
            expected += [*number.split(), *title.split(), page]
    expected.append(EXAMPLES[0])
    for number, title, page in EXAMPLES[1]:
        expected += [number, *title.split(), page]
    assert words == [*expected, "vii"]


def entity_list_pdf(rows: Sequence[tuple[str, str]], *, x_description: float = 158, key_font: str = "Courier") -> bytes:
    """A bulleted list of keys with their descriptions, as doxygen's manual lists HTML entities:
    each row a bullet at x=88 and its key at x=96 (``key_font``; one line piece, `• &Egrave;`),
    the description at ``x_description`` on the key's baseline; 10 pt type, rows 19.7 pt apart
    from y=700 down (about 10 pt of white between rows, narrower than the gap after the widest
    key)."""

    def draw(canvas: Canvas) -> None:
        for index, (key, description) in enumerate(rows):
            y = 700 - index * 19.7
            canvas.setFont(fx.BODY_FONT, 10)
            canvas.drawString(88, y, "\u2022")
            canvas.drawString(x_description, y, description)
            canvas.setFont(key_font, 10)
            canvas.drawString(96, y, key)

    return fx._draw([draw])


# The keys (up to `• &Ntilde;`, 56 pt) are about a third as wide as the descriptions (up to
# 180 pt): wider than the fields of rows are (a quarter), and, with four words and more on most
# description lines, the gap after them passes for a page gutter, so they make no table of two
# columns. Two descriptions (`&ang;`, `&or;`) are narrower than their keys.
ENTITIES = [
    ("&Egrave;", "latin capital letter E with grave"),
    ("&Eacute;", "latin capital letter E with acute"),
    ("&ang;", "angle"),
    ("&Ecirc;", "latin capital letter E with circumflex"),
    ("&Euml;", "latin capital letter E with diaeresis"),
    ("&or;", "logical or"),
    ("&Igrave;", "latin capital letter I with grave"),
    ("&Iacute;", "latin capital letter I with acute"),
    ("&sim;", "tilde operator = varies with = similar to"),
    ("&ETH;", "latin capital letter ETH"),
    ("&Ntilde;", "latin capital letter N with tilde"),
    ("&Ograve;", "latin capital letter O with grave"),
]


def test_a_bulleted_list_of_keys_is_read_with_its_descriptions_row_by_row(tmp_path: Path) -> None:
    # The gap after the keys is the widest gap of the list, and the keys are wider than a quarter
    # of the descriptions, the limit for the fields of rows: cut there, the page read every key,
    # then every description (doxygen's list of HTML entities). Each key is a bulleted line beside
    # exactly one description: a list's rows, read row by row - in the groups of rows the
    # horizontal cuts then leave too, where a few keys may be wider than their descriptions.
    document = fx.parse_valid(tmp_path, "entities.pdf", entity_list_pdf(ENTITIES))
    expected = [word for key, description in ENTITIES for word in ["\u2022", key, *description.split()]]
    assert fx.reading_words(document) == expected


BULLET_COLUMN = [f"point number {n} of the list" for n in range(1, 9)]
TEXT_COLUMN = [f"A page column of running text, line {n} of it" for n in range(1, 9)]


def test_a_column_of_bulleted_lines_beside_a_page_column_is_read_column_by_column(tmp_path: Path) -> None:
    # A page column of one-line bullet points beside a page column of running text on the same
    # baseline grid, 20 pt apart: every bullet line shares its visual line with exactly one line
    # across the gutter, but the bullet column is two thirds as wide as the other - two page
    # columns, read one after the other.
    gutter_x = 96 + max(stringWidth(line, fx.BODY_FONT, 10) for line in BULLET_COLUMN) + 20
    document = fx.parse_valid(
        tmp_path, "bullet-column.pdf", entity_list_pdf(list(zip(BULLET_COLUMN, TEXT_COLUMN)), x_description=gutter_x, key_font=fx.BODY_FONT)
    )
    expected = [w for line in BULLET_COLUMN for w in ["\u2022", *line.split()]] + " ".join(TEXT_COLUMN).split()
    assert fx.reading_words(document) == expected


def grammar_pdf(groups: Sequence[Sequence[tuple[str, str]]]) -> bytes:
    """Grammar rules as why3's manual sets them, 10 pt type: the rule's name at x=78, `::=` at
    x=142, the right-hand side at x=171 (a name of "" is a continuation line of the rule above,
    its right-hand side alone); rows 12 pt apart from y=700 down, 6 pt more between groups."""

    def draw(canvas: Canvas) -> None:
        canvas.setFont(fx.BODY_FONT, 10)
        y = 700.0
        for group in groups:
            for name, rule in group:
                if name:
                    canvas.drawString(78, y, name)
                    canvas.drawString(142, y, "::=")
                canvas.drawString(171, y, rule)
                y -= 12
            y -= 6

    return fx._draw([draw])


# The first group's right-hand sides reach 340 pt and more, so the names (75 pt with `::=`) are
# less than a quarter as wide: the region is read row by row. The horizontal cuts between the
# groups leave the last two groups with short right-hand sides, beside which the names are more
# than a quarter as wide.
GRAMMAR = [
    [
        ("term", "integer ; integer constant of any size, in decimal or hexadecimal notation"),
        ("", "| real ; real constant in decimal or hexadecimal notation with an exponent"),
        ("", "| qualid ; a symbol, qualified by the modules it comes from in the library"),
    ],
    [("formula", "term ; no distinction"), ("term_field", "lqualid \"=\" term")],
    [("quantifier", "\"forall\" | \"exists\""), ("binder", "\"_\" | bound_var"), ("trigger", "term (\",\" term)*")],
]


def test_groups_of_grammar_rules_keep_reading_row_by_row(tmp_path: Path) -> None:
    # The whole grammar is read row by row (its names far narrower than its rules); the cuts
    # between its groups then left groups whose rules are short, where the names were more than
    # a quarter of their width and were read as a block before the rules (why3's grammar pages:
    # `formula ::= term_field ::=`, then both rules). A group of rows keeps its region's verdict.
    document = fx.parse_valid(tmp_path, "grammar.pdf", grammar_pdf(GRAMMAR))
    expected = [w for group in GRAMMAR for name, rule in group for w in [*([name, "::="] if name else []), *rule.split()]]
    assert fx.reading_words(document) == [w for w in expected if w != "|"]  # "|": no word to reading_words


def long_table_pdf(first_row: int, rows: int, columns: int) -> bytes:
    """A longtable's page: row labels first_row.. at x=72 (a plain ascending integer per row, as R's
    xtable prints row names), then `columns` figures per row 48 pt apart from x=110, 9 pt type,
    rows 12 pt apart from y=720 down."""

    def draw(canvas: Canvas) -> None:
        canvas.setFont(fx.BODY_FONT, 9)
        for row in range(rows):
            y = 720 - row * 12
            canvas.drawString(72, y, str(first_row + row))
            for column in range(columns):
                canvas.drawString(110 + column * 48, y, f"{((row * 7 + column * 3) % 19 - 9) / 4:.2f}")

    return fx._draw([draw])


def test_a_long_tables_row_labels_are_cells_not_line_numbers(tmp_path: Path) -> None:
    # Ascending by one, left of every other line: the shape of margin line numbers; but each
    # number stands beside a row of figures, so it is the row's first cell.
    document = fx.parse_valid(tmp_path, "long-table.pdf", long_table_pdf(30, 20, 6))
    elements = document["payload"]["elements"]
    assert [e for e in elements if e["type"] == "footer"] == []
    tables = document["payload"]["tables"]
    assert len(tables) == 1
    first_column = sorted((cell["row"], cell["text"]) for cell in tables[0]["cells"] if cell["col"] == 0)
    assert [text for _row, text in first_column] == [str(30 + row) for row in range(20)]
