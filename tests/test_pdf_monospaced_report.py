"""test_pdf_monospaced_report - a monospaced report printed as a table is read row by row to its last column.

The page is drawn here with reportlab: a solver's sensitivity report set line for line in Courier
(the layout of glpk's manual, pages 93-94), so its columns stand wherever its characters put them.
The expectations follow from the report's lines, never from an earlier parse. See
docs/pdf-parsing.md "Tables".
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pdf_fixtures as fx
import pytest
from pdf_fixtures import parse_cache  # noqa: F401  (fixture)
from reportlab.pdfgen.canvas import Canvas


pytestmark = pytest.mark.usefixtures("parse_cache")

# The report as the solver prints it: a title, the problem, a header of two lines, a rule of
# dashes, then two lines per row (the row's values, then its marginal and ranges), a blank line
# between rows. The last three columns (objective coefficient range, objective value at the break
# point, limiting variable) start after a gap a little wider than the others'.
REPORT = [
    "GLPK 4.42 - SENSITIVITY ANALYSIS REPORT                                                                        Page   1",
    "",
    "Problem:   PLAN",
    "Objective: VALUE = 296.2166065 (MINimum)",
    "",
    "  No. Row name     St      Activity         Slack   Lower bound       Activity      Obj coef  Obj value at Limiting",
    "                                         Marginal   Upper bound          range         range   break point variable",
    "------ ------------ -- ------------- ------------- ------------- ------------- ------------- ------------- ------------",
    "    1 VALUE        BS     296.21661    -296.21661          -Inf      299.25255      -1.00000        .      MN",
    "                                           .               +Inf      296.21661          +Inf          +Inf",
    "",
    "    2 YIELD        NS    2000.00000        .         2000.00000     1995.06864          -Inf     296.28365 BIN3",
    "                                          -.01360    2000.00000     2014.03479          +Inf     296.02579 CU",
    "",
    "    3 FE           NU      60.00000        .               -Inf       55.89016          -Inf     306.77162 BIN4",
    "                                         -2.56823      60.00000       62.69978       2.56823     289.28294 BIN3",
    "",
    "    4 CU           BS      83.96751      16.03249          -Inf       93.88467       -.30613     270.51157 MN",
    "                                           .          100.00000       79.98213        .21474     314.24798 BIN5",
    "",
    "    5 MN           NU      40.00000        .               -Inf       34.42336          -Inf     299.25255 BIN4",
    "                                          -.54440      40.00000       41.68691        .54440     295.29825 BIN3",
    "",
    "    6 MG           BS      19.96029      10.03971          -Inf       24.74427      -1.79618     260.36433 BIN1",
    "                                           .           30.00000        9.40292        .28757     301.95652 MN",
    "",
    "    7 AL           NL    1500.00000        .         1500.00000     1485.78425       -.25199     292.63444 CU",
    "                                           .25199          +Inf     1504.92126          +Inf     297.45669 BIN3",
]

# The report's second page, on the columns: the activity column holds a figure on the first line
# of each row only, so the column beside it has twice as many lines as it has.
COLUMN_REPORT = [
    "GLPK 4.42 - SENSITIVITY ANALYSIS REPORT                                                                        Page   2",
    "",
    "Problem:   PLAN",
    "Objective: VALUE = 296.2166065 (MINimum)",
    "",
    "  No. Column name  St      Activity      Obj coef   Lower bound       Activity      Obj coef  Obj value at Limiting",
    "                                         Marginal   Upper bound          range         range   break point variable",
    "------ ------------ -- ------------- ------------- ------------- ------------- ------------- ------------- ------------",
    "    1 BIN1         NL        .             .03000        .           -28.82475       -.22362     288.90594 BIN4",
    "                                           .25362     200.00000       33.88040          +Inf     304.80951 BIN4",
    "",
    "    2 BIN2         BS     665.34296        .08000        .           802.22222        .01722     254.44822 BIN1",
    "                                           .         2500.00000      313.43066        .08863     301.95652 MN",
    "",
    "    3 BIN3         BS     490.25271        .17000     400.00000      788.61314        .15982     291.22807 MN",
    "                                           .          800.00000     -347.42857        .17948     300.86548 BIN5",
    "",
    "    4 BIN4         BS     424.18773        .12000     100.00000      710.52632        .10899     291.54745 MN",
    "                                           .          700.00000     -256.15524        .14651     307.46010 BIN1",
    "",
    "    5 BIN5         NL        .             .15000        .          -201.78739        .13544     293.27940 BIN3",
    "                                           .01456    1500.00000       58.79586          +Inf     297.07244 BIN3",
    "",
    "    6 ALUM         BS     299.63899        .21000        .           358.26772        .18885     289.87879 AL",
    "                                           .               +Inf      112.40876        .22622     301.07527 MN",
    "",
    "    7 SILICON      BS     120.57762        .38000        .           124.27093        .14828     268.27586 BIN5",
    "                                           .               +Inf       85.54745        .46667     306.66667 MN",
    "",
    "End of report",
]


def report_pdf(lines: Sequence[str], *, size: float = 7.85, leading: float = 10.96) -> bytes:
    """A landscape page (792 x 612 pt) with ``lines`` in Courier at ``size`` pt from x=36, y=560
    down, ``leading`` pt apart - glpk's manual prints the report this way, only turned."""

    def draw(canvas: Canvas) -> None:
        canvas.setFont("Courier", size)
        for index, line in enumerate(lines):
            if line:
                canvas.drawString(36, 560 - index * leading, line)

    return fx._draw([draw], pagesize=(792, 612))


def _holds_in_a_row(words: list[str], run: list[str]) -> bool:
    return any(words[start : start + len(run)] == run for start in range(len(words) - len(run) + 1))


# REPORT: the gap before the report's last three columns is its widest column gap, and only the
# rule of dashes crosses it; but it is the table's: every row runs on across it. Read as a page
# gutter between two columns of a card, the last three columns came after the whole report, each
# row's values cut from its name. COLUMN_REPORT: the activity column has a figure on every row's
# first line only, so only half the lines of the column right of it have one beside them; its own
# lines all do. The gaps either side of it passed for page gutters, and the report was read in
# three blocks.
@pytest.mark.parametrize(("name", "report"), [("report.pdf", REPORT), ("columns.pdf", COLUMN_REPORT)])
def test_a_monospaced_report_is_read_row_by_row_to_its_last_column(tmp_path: Path, name: str, report: list[str]) -> None:
    document = fx.parse_valid(tmp_path, name, report_pdf(report))
    words = fx.reading_words(document)
    for line in report[8:]:
        if line:
            assert _holds_in_a_row(words, line.split()), line
    if report is REPORT:
        assert any(element["type"] == "table" for element in document["payload"]["elements"])
