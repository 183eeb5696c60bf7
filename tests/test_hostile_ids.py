"""test_hostile_ids - four-digit ids bound the parse: --max-pages above 9999 and PDFs with more warnings than ids are stable errors."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pdf_fixtures as fx
import pytest
from pdf_fixtures import parse_cache  # noqa: F401  (fixture)
from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen.canvas import Canvas


def envelopes_of(argv: list[str]) -> bytes:
    """stderr of the command on both CLIs, asserted identical, with exit 2 and no stdout."""
    outputs = []
    for program in ("ethos", "ethos-core"):
        done = fx.run_program([*fx.programs()[program], *argv])
        assert done.returncode == 2, (program, done.returncode, done.stderr)
        assert done.stdout == b""
        outputs.append(done.stderr)
    assert outputs[0] == outputs[1]
    return outputs[0]


@pytest.mark.parametrize("value", ["10000", "20000", "1000000000"])
def test_max_pages_above_the_page_ids_is_invalid_arguments(tmp_path: Path, parse_cache: Path, value: str) -> None:  # noqa: F811
    pdf = fx.write_pdf(tmp_path, "one.pdf", fx.text_pdf([["One page of text."]]))
    stderr = envelopes_of(["doc", "parse", str(pdf), "--max-pages", value, "--out", str(tmp_path / "doc.json")])
    error = json.loads(stderr)["error"]
    assert error["code"] == "invalid_arguments"
    assert error["details"] == {"argument": "--max-pages"}
    assert "--max-pages" in error["message"]
    assert not (tmp_path / "doc.json").exists()


def test_max_pages_9999_is_accepted(tmp_path: Path, parse_cache: Path) -> None:  # noqa: F811
    pdf = fx.write_pdf(tmp_path, "one.pdf", fx.text_pdf([["One page of text."]]))
    done = fx.run_program([*fx.programs()["ethos-core"], "doc", "parse", str(pdf), "--max-pages", "9999"])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["payload"]["pages"][0]["id"] == "p0001"


def hidden_lines_pdf(pages: int, lines_per_page: int) -> bytes:
    """Each page: one visible line and `lines_per_page` lines in text render mode 3 (invisible),
    each of which the parser reports as one hidden_text_detected warning."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=LETTER, invariant=1, pageCompression=0)
    for page in range(pages):
        canvas.setFont("Helvetica", 9)
        canvas.drawString(72, 760, f"Visible text on page {page + 1}.")
        text = canvas.beginText(72, 745)
        text.setFont("Helvetica", 5)
        text.setLeading(7)
        text.setTextRenderMode(3)
        for line in range(lines_per_page):
            text.textLine(f"hidden line {line} of page {page}")
        canvas.drawText(text)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_more_warnings_than_warning_ids_is_input_limit_exceeded(tmp_path: Path, parse_cache: Path) -> None:  # noqa: F811
    # 100 pages x 101 hidden lines = 10,100 warnings; warning ids stop at w9999.
    pdf = fx.write_pdf(tmp_path, "hidden.pdf", hidden_lines_pdf(100, 101))
    out = tmp_path / "doc.json"
    stderr = envelopes_of(["doc", "parse", str(pdf), "--no-cache", "--out", str(out)])
    error = json.loads(stderr)["error"]
    assert error["code"] == "input_limit_exceeded", error
    assert error["details"] == {"identifiers": "warnings", "input": "PDF", "limit": 9999}
    assert not out.exists()


def test_warnings_up_to_the_last_id_still_parse(tmp_path: Path, parse_cache: Path) -> None:  # noqa: F811
    # 99 pages x 101 hidden lines = 9,999 warnings: the last id is w9999.
    pdf = fx.write_pdf(tmp_path, "hidden.pdf", hidden_lines_pdf(99, 101))
    done = fx.run_program([*fx.programs()["ethos-core"], "doc", "parse", str(pdf), "--no-cache"])
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)["payload"]
    ids = sorted(warning["id"] for warning in payload["security_warnings"] + payload["parser_warnings"])
    assert len(ids) == 9999 and ids[-1] == "w9999"
