"""test_hostile_inputs - a named pipe without a writer ends in host_io/no_writer instead of blocking, and a PDF without pages is corrupt_pdf/no_pages, not ocr_required."""

from __future__ import annotations

import io
import json
import os
import threading
import time
from pathlib import Path

import pdf_fixtures as fx
import pikepdf
import pytest

from ethos_py import EthosError
from ethos_py.pdf import parse_pdf_json
from ethos_py._host_io import FIFO_WRITER_WAIT_MS, read_input_file

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "schemas" / "examples"


run_both = fx.run_on_both_clis


def test_a_named_pipe_without_a_writer_is_no_writer_within_the_wait(tmp_path: Path) -> None:
    fifo = tmp_path / "citations.fifo"
    os.mkfifo(fifo)
    started = time.monotonic()
    code, stdout, stderr = run_both(["verify", str(EXAMPLES / "document.example.json"), "--citations", str(fifo)])
    elapsed = time.monotonic() - started
    assert code == 2 and stdout == b""
    error = json.loads(stderr)["error"]
    assert error["code"] == "host_io"
    assert error["details"] == {"argument": "--citations", "path": str(fifo), "reason": "no_writer"}
    assert "named pipe" in error["message"] and "writer" in error["message"]
    # Two programs, each waiting FIFO_WRITER_WAIT_MS once (it blocked for ever before).
    assert FIFO_WRITER_WAIT_MS / 1000 * 2 <= elapsed < FIFO_WRITER_WAIT_MS / 1000 * 2 + 30


def test_a_named_pipe_with_a_writer_is_read(tmp_path: Path) -> None:
    fifo = tmp_path / "citations.fifo"
    os.mkfifo(fifo)
    data = (EXAMPLES / "citations.example.json").read_bytes()

    def write_later() -> None:
        time.sleep(0.5)  # the reader is already waiting
        with open(fifo, "wb") as stream:
            stream.write(data)

    for program in ("ethos", "ethos-core"):
        writer = threading.Thread(target=write_later)
        writer.start()
        done = fx.run_program([*fx.programs()[program], "verify", str(EXAMPLES / "document.example.json"),
                               "--citations", str(fifo)])
        writer.join()
        assert done.returncode == 0 and done.stderr == b"", done.stderr
    writer = threading.Thread(target=write_later)
    writer.start()
    assert read_input_file(fifo) == data
    writer.join()


def test_a_pdf_without_pages_is_corrupt_pdf_not_ocr_required(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    pikepdf.new().save(buffer)
    pdf = fx.write_pdf(tmp_path, "empty.pdf", buffer.getvalue())
    out = tmp_path / "document.json"
    code, stdout, stderr = run_both(["doc", "parse", str(pdf), "--no-cache", "--out", str(out)])
    assert code == 4 and stdout == b"" and not out.exists()
    error = json.loads(stderr)["error"]
    assert error["code"] == "corrupt_pdf" and error["details"] == {"reason": "no_pages"}
    assert "no pages" in error["message"]
    with pytest.raises(EthosError) as raised:
        parse_pdf_json(pdf, use_cache=False)
    assert raised.value.code == "corrupt_pdf" and raised.value.details == {"reason": "no_pages"}


def far_text_pdf(coordinate: str) -> bytes:
    """A page with visible text and a text object placed at (coordinate, coordinate)."""
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(612, 792))
    canvas.setFont("Helvetica", 12)
    canvas.drawString(72, 720, "Visible text here.")
    canvas.showPage()
    canvas.save()
    pdf = pikepdf.open(io.BytesIO(buffer.getvalue()))
    content = f"BT /F1 12 Tf 1 0 0 1 {coordinate} {coordinate} Tm (Far away words) Tj ET".encode()
    pdf.pages[0].contents_add(pikepdf.Stream(pdf, content), prepend=False)
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


@pytest.mark.parametrize("coordinate", ["1e6", "1e20", "-1e9"])
def test_text_far_off_the_page_is_warned_about(tmp_path: Path, coordinate: str) -> None:
    # PDFium's text page keeps no character of it, so there is no glyph to warn about; the page is.
    pdf = fx.write_pdf(tmp_path, "far.pdf", far_text_pdf(coordinate))
    code, stdout, _ = run_both(["doc", "parse", str(pdf), "--no-cache"])
    assert code == 0
    payload = json.loads(stdout)["payload"]
    warnings = [w for w in payload["parser_warnings"] + payload["security_warnings"] if w["code"] == "off_page_text_detected"]
    assert warnings and all(w["page"] == "p0001" and "span_ref" not in w for w in warnings)
    assert [element["text"] for element in payload["elements"]] == ["Visible text here."]


def test_text_just_off_the_page_keeps_its_span_warning(tmp_path: Path) -> None:
    pdf = fx.write_pdf(tmp_path, "near.pdf", far_text_pdf("900"))
    code, stdout, _ = run_both(["doc", "parse", str(pdf), "--no-cache"])
    payload = json.loads(stdout)["payload"]
    warnings = [w for w in payload["parser_warnings"] + payload["security_warnings"] if w["code"] == "off_page_text_detected"]
    assert code == 0 and len(warnings) == 1 and "span_ref" in warnings[0]
