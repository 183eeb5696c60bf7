"""test_progress - `doc parse` draws a progress bar on stderr only when it is a terminal (a real
pseudo-terminal here), never with --quiet, and erases it before an error envelope."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
import tty
from pathlib import Path

import pdf_fixtures as fx
import pytest

PAGES = 400


@pytest.fixture(scope="module")
def long_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pages = [[f"Line {i} of page {p} with some words to read." for i in range(40)] for p in range(PAGES)]
    return fx.write_pdf(tmp_path_factory.mktemp("progress"), "long.pdf", fx.text_pdf(pages))


def _environment() -> dict[str, str]:
    from ethos_py._pdfium import parse_environment

    env = parse_environment()
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [os.fspath(fx.REPO_DIR), env.get("PYTHONPATH")]))
    env.pop("ETHOS_PROGRESS_FD", None)
    env["COLUMNS"] = "100"
    return env


def _run(argv: list[str], *, terminal: bool) -> tuple[int, bytes, bytes]:
    """Runs argv with stdout captured and stderr on a pseudo-terminal (raw: bytes as written) or a
    pipe; returns (exit status, stdout, stderr)."""
    env = _environment()
    if not terminal:
        result = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=300, check=False)
        return result.returncode, result.stdout, result.stderr
    leader, follower = pty.openpty()
    tty.setraw(follower)
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # 24 rows, 100 columns
    try:
        process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=follower)
    finally:
        os.close(follower)
    captured: dict[str, bytes] = {}
    reader = threading.Thread(target=lambda: captured.update(stdout=process.stdout.read() if process.stdout else b""))
    reader.start()
    terminal_bytes: list[bytes] = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:  # EIO: every writer of the terminal has closed it
            break
        if not data:
            break
        terminal_bytes.append(data)
    reader.join()
    process.wait(timeout=300)
    os.close(leader)
    return process.returncode, captured["stdout"], b"".join(terminal_bytes)


def _programs() -> dict[str, list[str]]:
    return fx.programs()


@pytest.mark.parametrize("name", ["ethos", "ethos-core"])
def test_a_bar_is_drawn_on_a_terminal_and_erased(name: str, long_pdf: Path, tmp_path: Path) -> None:
    program = _programs()[name]
    status, stdout, stderr = _run(
        [*program, "doc", "parse", "--no-cache", "--workers", "1", "--out", os.fspath(tmp_path / "out.json"), os.fspath(long_pdf)],
        terminal=True,
    )
    assert status == 0, stderr
    assert stdout == b""
    text = stderr.decode("utf-8", "replace")
    # pages done of the total, a rate and an ETA, redrawn in place with carriage returns
    assert f"/{PAGES}" in text and "pages" in text and "/s" in text and "<" in text, text[-500:]
    # Erased at the end: nothing of the bar is left on the terminal's line.
    if name == "ethos-core":
        assert text.endswith("\r\x1b[K")
    else:
        assert text.endswith("\r") and text[:-1].rsplit("\r", 1)[-1].strip(" ") == ""
    assert len(json.loads((tmp_path / "out.json").read_bytes())["payload"]["pages"]) == PAGES


@pytest.mark.parametrize("name", ["ethos", "ethos-core"])
@pytest.mark.parametrize("terminal", [True, False], ids=["terminal", "pipe"])
def test_quiet_or_no_terminal_draws_nothing(name: str, terminal: bool, long_pdf: Path, tmp_path: Path) -> None:
    program = _programs()[name]
    options = ["--quiet"] if terminal else []
    status, stdout, stderr = _run(
        [*program, "doc", "parse", "--no-cache", *options, "--out", os.fspath(tmp_path / "out.json"), os.fspath(long_pdf)],
        terminal=terminal,
    )
    assert (status, stdout, stderr) == (0, b"", b"")


@pytest.mark.parametrize("name", ["ethos", "ethos-core"])
def test_the_bar_is_erased_before_an_error_envelope(name: str, tmp_path: Path) -> None:
    program = _programs()[name]
    # Thirty blank pages: every page is parsed (the bar is drawn), then assembly finds no text.
    blank = fx.write_pdf(tmp_path, "blank.pdf", fx.text_pdf([[] for _ in range(30)]))
    status, stdout, stderr = _run([*program, "doc", "parse", "--no-cache", "--workers", "1", os.fspath(blank)], terminal=True)
    assert (status, stdout) == (8, b"")
    assert b"/30" in stderr and b"pages" in stderr  # the bar was there
    # What follows the bar's last erase is exactly one envelope line, parseable as it stands.
    erase = b"\r\x1b[K" if name == "ethos-core" else b"\r"
    bar, _, envelope = stderr.rpartition(erase)
    assert bar and envelope.endswith(b"\n") and envelope.count(b"\n") == 1, stderr[-300:]
    assert json.loads(envelope)["error"]["code"] == "ocr_required"
    assert b"\r" not in envelope and b"\x1b" not in envelope


def test_progress_is_only_wanted_on_a_terminal_without_quiet() -> None:
    from ethos_py.progress import wants_progress

    leader, follower = pty.openpty()
    try:
        with os.fdopen(follower, "w", closefd=False) as terminal:
            assert wants_progress(["doc", "parse", "a.pdf"], terminal)
            assert not wants_progress(["doc", "parse", "--quiet", "a.pdf"], terminal)
            # A file named --quiet after "--" is a PDF, not the option.
            assert wants_progress(["doc", "parse", "--", "--quiet"], terminal)
    finally:
        os.close(leader)
        os.close(follower)
    with open(os.devnull, "w", encoding="utf-8") as not_a_terminal:
        assert not wants_progress(["doc", "parse", "a.pdf"], not_a_terminal)


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The sample document and 20,000 requests (the sample's citations, once per line)."""
    import ethos_py

    directory = tmp_path_factory.mktemp("batch")
    source = directory / "sample.json"
    source.write_bytes(ethos_py.parse_pdf_bytes(fx.REPO_DIR / "examples" / "sample" / "sample.pdf", use_cache=False))
    citations = json.loads((fx.REPO_DIR / "examples" / "sample" / "citations.json").read_bytes())
    requests = directory / "requests.ndjson"
    requests.write_text((json.dumps(citations, separators=(",", ":")) + "\n") * 20000, encoding="utf-8")
    return source, requests


@pytest.mark.parametrize("name", ["ethos", "ethos-core"])
def test_verify_batch_draws_records_done_on_a_terminal_only(name: str, batch: tuple[Path, Path], tmp_path: Path) -> None:
    source, requests = batch
    program = _programs()[name]
    outputs = {}
    for case, terminal, options in (("bar", True, []), ("quiet", True, ["--quiet"]), ("pipe", False, [])):
        out = tmp_path / f"{case}.ndjson"
        status, stdout, stderr = _run(
            [*program, "verify-batch", os.fspath(source), "--citations-ndjson", os.fspath(requests), "--statement",
             *options, "--out", os.fspath(out)],
            terminal=terminal,
        )
        assert (status, stdout) == (0, b""), stderr
        if case == "bar":
            text = stderr.decode("utf-8", "replace")
            assert "verify-batch" in text and "/20000" in text and "records/s" in text, text[-300:]
            assert text.endswith("\r\x1b[K") if name == "ethos-core" else text.endswith("\r")
        else:
            assert stderr == b"", case
        outputs[case] = out.read_bytes()
    # The bar never changes the output (ethos runs the batch in ethos-core to draw it).
    assert outputs["bar"] == outputs["quiet"] == outputs["pipe"]
    assert outputs["pipe"].count(b"\n") == 20000
