"""test_report_text - verify --format text: the same bytes from ethos, ethos-core and ethos_py.proof.report_text; a check
per block with its guard and marked diff; colour only when asked or on a terminal (NO_COLOR, --no-color, --out and a pipe
turn it off), every mark printed without colour too; a claim cannot drive the terminal."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import harness
import pytest

import ethos_py
from ethos_py.demo import SAMPLE_PDF
from ethos_py.proof import report_text

REPO = Path(__file__).resolve().parents[1]
SGR = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("report-text")
    (directory / "document.json").write_bytes(ethos_py.parse_pdf_bytes(SAMPLE_PDF))
    shutil.copyfile(REPO / "ethos_py" / "data" / "sample-citations.json", directory / "citations.json")
    return directory


def _cli(command: list[str], directory: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*command, "verify", "document.json", "--citations", "citations.json", "--format", "text", *args],
                          cwd=directory, capture_output=True, timeout=harness.SUBPROCESS_TIMEOUT, check=False,
                          env={**os.environ, **(env or {})})


@pytest.mark.parametrize(("args", "color", "palette"), [((), False, "classic"), (("--color", "always"), True, "classic"),
                                                       (("--color", "always", "--palette", "mono"), True, "mono"),
                                                       (("--color", "always", "--palette", "colorblind"), True, "colorblind")])
def test_three_surfaces_print_the_same_text(sample: Path, args: tuple[str, ...], color: bool, palette: str) -> None:
    report = ethos_py.verify(sample / "document.json", sample / "citations.json")
    library = report_text(report, color=color, palette=palette).encode("utf-8")
    for command in ([sys.executable, "-m", "ethos_py.cli"], [harness.ethos_core_binary()]):
        done = _cli(command, sample, *args)
        assert (done.returncode, done.stdout) == (0, library), (command, done.stderr)


def test_a_check_that_is_not_grounded_shows_its_guard_and_marked_diff(sample: Path) -> None:
    text = report_text(ethos_py.verify(sample / "document.json", sample / "citations.json"))
    assert text.startswith("ethos verify: 4 of 6 checks grounded\n") and text.endswith("proof: partially_verified\n")
    block = text[text.index("v0005"):text.index("v0006")]
    assert block.splitlines() == [
        "v0005 mismatch quote, numeric_guard, p0001",
        '  "Median time to resolution fell from 9.2 days to 3.1 days"',
        '  guard numeric: figure changed: source "6.1", quote "3.1"',
        "  diff: Median time to resolution fell from 9.2 days to [-6.1-]{+3.1+} days",
    ]
    coloured = report_text(ethos_py.verify(sample / "document.json", sample / "citations.json"), color=True)
    assert SGR.sub("", coloured) == text  # colour adds styles, never words or marks
    assert "\x1b[1;31m[-6.1-]\x1b[0m" in coloured


def test_colour_follows_the_terminal_rules(sample: Path) -> None:
    plain = _cli([sys.executable, "-m", "ethos_py.cli"], sample).stdout
    assert not SGR.search(plain.decode())  # stdout is a pipe here: auto means no colour
    for args, env in ((("--color", "always", "--no-color"), {}), (("--color", "never"), {})):
        done = _cli([harness.ethos_core_binary()], sample, *args, env=env)
        assert done.stdout == plain
    forced = _cli([sys.executable, "-m", "ethos_py.cli"], sample, "--color", "always", env={"NO_COLOR": "1"})
    assert SGR.search(forced.stdout.decode())  # the flag beats the environment
    mono = report_text(ethos_py.verify(sample / "document.json", sample / "citations.json"), color=True, palette="mono")
    assert set(SGR.findall(mono)) <= {"\x1b[1;4m", "\x1b[7m", "\x1b[4m", "\x1b[0m"}  # no hue at all


def test_a_claim_cannot_drive_the_terminal(tmp_path: Path) -> None:
    source = tmp_path / "source.txt"
    source.write_text("Nothing to see here.\n", encoding="utf-8")
    hostile = "clear \x1b[2J\x1b]0;owned\x07 screen\nnext line \x9b31m"
    with ethos_py.Document.open(source, "text") as document:
        report = json.loads(document.verify_json({"document_fingerprint": document.fingerprint,
                                                  "claims": [{"kind": "quote", "text": hostile, "citation": {"scope": "document"}}]}))
    for color in (False, True):
        text = report_text(report, color=color)
        assert "\x07" not in text and "\x9b" not in text and "\x1b[2J" not in text and "\x1b]" not in text
        assert "\ufffd[2J" in text and "\u23ce" in text  # shown, not obeyed; the newline as ⏎
    huge = json.loads(json.dumps(report))
    huge["checks"][0]["claim"]["text"] = "word " * 100_000
    assert len(report_text(huge)) < 2_000


def test_an_unknown_palette_is_refused() -> None:
    report = ethos_py.verify(REPO / "examples" / "quickstart" / "document.json", REPO / "examples" / "quickstart" / "citations.json")
    with pytest.raises(ethos_py.EthosError) as caught:
        report_text(report, palette="sepia")
    assert caught.value.code == "invalid_input"
