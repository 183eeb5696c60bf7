"""test_pdf_cli - `ethos doc parse`, PDF `fingerprint` and `demo` as commands: help, argument errors,
and the rule that `ethos` passes ethos-core's output and exit code through unchanged."""

from __future__ import annotations

import sys
from pathlib import Path

import pdf_fixtures as fx
import pytest
from pdf_fixtures import parse_cache  # noqa: F401  (fixture)

pytestmark = pytest.mark.usefixtures("parse_cache")

ETHOS = [sys.executable, "-m", "ethos_py.cli"]


def _help(*command: str) -> str:
    result = fx.run_program([*ETHOS, *command, "--help"])
    assert (result.returncode, result.stderr) == (0, b"")
    return " ".join(result.stdout.decode().split())


def test_top_level_help_names_the_demo_and_the_exit_codes() -> None:
    text = _help()
    for words in ("ethos demo", "doc", "Exit codes", "12 internal error"):
        assert words in text


def test_doc_parse_help_states_the_limits_and_every_exit_code() -> None:
    text = _help("doc", "parse")
    for flag in ("--format", "--pages", "--password", "--out", "--max-file-bytes", "--max-pages", "--max-parse-ms",
                 "--max-memory-mib", "--workers", "--cache-dir", "--no-cache", "--pdfium-library"):  # fmt: skip
        assert flag in text
    for code in ("invalid_pdf", "corrupt_pdf", "password_protected", "page_limit_exceeded", "file_too_large",
                 "ocr_required", "unsupported_pdf_feature", "parse_timeout", "memory_limit_exceeded"):  # fmt: skip
        assert code in text
    for default in ("268435456", "5000", "120000", "2048"):
        assert default in text


def test_demo_help_says_it_exits_zero_with_caught_quotes() -> None:
    text = _help("demo")
    assert "--out-dir" in text and "Exits 0" in text


@pytest.mark.parametrize(
    "arguments",
    [
        ["--max-pages", "abc"],
        ["--max-parse-ms", "0"],
        ["--workers", "-1"],
        ["--pages", "3-1"],
        ["--pages", "x"],
        ["--format", "html"],
    ],
    ids=lambda a: " ".join(a),
)
def test_bad_parse_arguments_are_the_same_usage_error_on_both_clis(arguments: list[str], tmp_path: Path) -> None:
    pdf = fx.write_pdf(tmp_path, "a.pdf", fx.text_pdf([[fx.VISIBLE_SENTENCE]]))
    results = {name: fx.run_program([*program, "doc", "parse", *arguments, str(pdf)]) for name, program in fx.programs().items()}
    for name, result in results.items():
        assert (result.returncode, result.stdout) == (2, b""), name
        assert fx.envelope_code(result.stderr) == "invalid_arguments", name
    assert results["ethos"].stderr == results["ethos-core"].stderr


# `doc` alone lists its commands (exit 0; test_cli_errors pins it); these are incomplete or wrong.
@pytest.mark.parametrize("command", [["doc", "parse"], ["doc", "nosuch", "a.pdf"]])
def test_incomplete_doc_commands_are_usage_errors(command: list[str]) -> None:
    for name, program in fx.programs().items():
        result = fx.run_program([*program, *command])
        assert (result.returncode, result.stdout) == (2, b""), name
        assert fx.envelope_code(result.stderr) == "invalid_arguments", name


def test_a_missing_pdf_is_host_io_on_both_clis(tmp_path: Path) -> None:
    results = {n: fx.run_program([*p, "doc", "parse", str(tmp_path / "missing.pdf")]) for n, p in fx.programs().items()}
    for name, result in results.items():
        assert (result.returncode, fx.envelope_code(result.stderr)) == (2, "host_io"), name
    assert results["ethos"].stderr == results["ethos-core"].stderr


def test_fingerprint_of_a_pdf_without_pdf_suffix_is_recognised_by_its_header(tmp_path: Path) -> None:
    data = fx.text_pdf([[fx.VISIBLE_SENTENCE]])
    named = fx.write_pdf(tmp_path, "report.pdf", data)
    unnamed = fx.write_pdf(tmp_path, "report.bin", data)
    for name, program in fx.programs().items():
        first = fx.run_program([*program, "fingerprint", str(named)])
        second = fx.run_program([*program, "fingerprint", str(unnamed)])
        assert (first.returncode, second.returncode) == (0, 0), (name, first.stderr, second.stderr)
        assert first.stdout == second.stdout, name


def test_demo_out_dir_that_cannot_be_created_is_host_io(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_bytes(b"")
    result = fx.run_program([*ETHOS, "demo", "--out-dir", str(blocker / "sub")])
    assert (result.returncode, result.stdout) == (2, b"")
    assert fx.envelope_code(result.stderr) == "host_io"


def test_demo_rejects_extra_arguments() -> None:
    result = fx.run_program([*ETHOS, "demo", "extra"])
    assert (result.returncode, fx.envelope_code(result.stderr)) == (2, "invalid_arguments")
