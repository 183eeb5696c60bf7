"""test_pdf_hanging_indent - a reference card's description that wraps with a hanging indent stays in
its entry's cell, and the entries after it stay in the card's table (docs/pdf-parsing.md, key and
description rows): the octave reference card's "getenv (string)  return value of named environment" /
"      variable" cut the table there, and the description column no longer read on."""

from __future__ import annotations

from pathlib import Path

import pdf_fixtures as fx

ROWS = [
    ("cd dir", ["change working directory to dir"]),
    ("pwd", ["print working directory"]),
    ("ls [options]", ["print directory listing"]),
    ("getenv (string)", ["return value of named environment", "variable"]),
    ("system (cmd)", ["execute arbitrary shell command string"]),
    ("exit", ["leave the interpreter"]),
]


def test_a_wrapped_description_with_a_hanging_indent_stays_in_its_cell(tmp_path: Path) -> None:
    document = fx.parse_valid(tmp_path, "card.pdf", fx.hanging_indent_card_pdf(ROWS, indent=12))
    tables = document["payload"]["tables"]
    assert [(t["n_rows"], t["n_cols"]) for t in tables] == [(len(ROWS), 2)]
    text = " ".join(fx.all_text(document).split())
    assert "getenv (string) | return value of named environment variable" in text
    assert "system (cmd) | execute arbitrary shell command string" in text


def test_the_description_column_reads_on_past_the_wrapped_line(tmp_path: Path) -> None:
    quote = "print directory listing return value of named environment variable execute arbitrary shell command string"
    report = fx.page_quote_report(fx.hanging_indent_card_pdf(ROWS, indent=12), [quote], tmp_path)
    check = report["checks"][0]
    fx.assert_verdict(check, "grounded")
    assert check["match"].get("reading") == "table_columns", check["match"]


def test_a_line_indented_far_past_the_descriptions_is_no_wrap(tmp_path: Path) -> None:
    # Six ems in (60 pt at 10 pt type) is past a hanging indent: the table ends at the row above.
    document = fx.parse_valid(tmp_path, "card.pdf", fx.hanging_indent_card_pdf(ROWS, indent=60))
    text = " ".join(fx.all_text(document).split())
    assert "getenv (string) | return value of named environment variable" not in text
