"""test_pdf_python_api - the Python parse surface without parsing: options, command lines, PDFium path, errors."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

import ethos_py
from ethos_py import EthosCli, errors
from ethos_py._pdfium import PDFIUM_ENV_VAR, bundled_pdfium_library, parse_environment
from ethos_py.pdf import ParseOptions

# A fake "ethos" that records its argv and environment, so the command line is observable.
_RECORDER = """#!{python}
import json, os, sys
with open(os.environ["RECORD_TO"], "w") as handle:
    json.dump({{"argv": sys.argv[1:], "pdfium": os.environ.get("{env}"),
               "password": os.environ.get("ETHOS_PDF_PASSWORD")}}, handle)
sys.stdout.write(os.environ.get("REPLY", "{{}}\\n"))
"""


@pytest.fixture()
def recorder(tmp_path: Path) -> tuple[Path, Path]:
    program = tmp_path / "fake-ethos"
    program.write_text(_RECORDER.format(python=sys.executable, env=PDFIUM_ENV_VAR))
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return program, tmp_path / "record.json"


def _recorded(record: Path) -> dict:  # type: ignore[type-arg]
    import json

    return json.loads(record.read_text())  # type: ignore[no-any-return]


def test_options_become_flags_in_one_fixed_order() -> None:
    options = ParseOptions(
        output_format="markdown",
        pages="1-3,7",
        password="pw",
        max_file_bytes=1000,
        max_pages=9,
        max_parse_ms=500,
        max_memory_mib=64,
        workers=2,
        cache_dir="cache",
        use_cache=False,
        pdfium_library="lib.so",
    )
    assert options.arguments() == [
        "--format", "markdown", "--pages", "1-3,7", "--max-file-bytes", "1000",
        "--max-pages", "9", "--max-parse-ms", "500", "--max-memory-mib", "64", "--workers", "2",
        "--cache-dir", "cache", "--no-cache", "--pdfium-library", "lib.so",
    ]  # fmt: skip
    # The password travels in the child's environment, never on its command line.
    assert options.environment({"A": "b"}) == {"A": "b", "ETHOS_PDF_PASSWORD": "pw"}
    assert ParseOptions().environment() == {}
    assert ParseOptions().arguments() == ["--format", "json"]
    assert ParseOptions().arguments(include_format=False) == []


@pytest.mark.parametrize(
    "bad",
    [
        {"output_format": "html"},
        {"pages": ""},
        {"pages": "   "},
        {"max_pages": 0},
        {"max_parse_ms": -5},
        {"max_memory_mib": True},
        {"workers": 1.5},
        {"max_file_bytes": "10"},
        {"cache_dir": ""},
    ],
)
def test_invalid_options_raise_value_error_before_anything_runs(bad: dict, tmp_path: Path) -> None:  # type: ignore[type-arg]
    pdf = tmp_path / "a.pdf"
    pdf.write_bytes(b"%PDF-1.7\n")
    with pytest.raises(ValueError):
        ethos_py.parse_pdf(pdf, ethos_bin="/nonexistent/ethos", **bad)


def test_missing_pdf_raises_file_not_found_before_spawning(tmp_path: Path) -> None:
    # The binary does not exist either: FileNotFoundError proves nothing was spawned.
    with pytest.raises(FileNotFoundError):
        ethos_py.parse_pdf_json(tmp_path / "missing.pdf", ethos_bin="/nonexistent/ethos")
    with pytest.raises(FileNotFoundError):
        EthosCli("/nonexistent/ethos").parse_pdf_text(tmp_path / "missing.pdf")
    with pytest.raises(FileNotFoundError):
        EthosCli("/nonexistent/ethos").fingerprint(tmp_path / "missing.pdf")


def test_pdfium_is_found_inside_pypdfium2_without_importing_it() -> None:
    library = bundled_pdfium_library()
    assert library is not None and library.is_file()
    assert library.parent.name == "pypdfium2_raw"


def test_parse_environment_points_at_pypdfium2_unless_overridden(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PDFIUM_ENV_VAR, raising=False)
    assert parse_environment()[PDFIUM_ENV_VAR] == os.fspath(bundled_pdfium_library())
    assert parse_environment({PDFIUM_ENV_VAR: "/custom/libpdfium.so"})[PDFIUM_ENV_VAR] == "/custom/libpdfium.so"
    monkeypatch.setenv(PDFIUM_ENV_VAR, "/from/environment.so")
    assert parse_environment()[PDFIUM_ENV_VAR] == "/from/environment.so"


def test_cli_runs_doc_parse_with_the_pdf_after_double_dash(recorder: tuple[Path, Path], tmp_path: Path) -> None:
    program, record = recorder
    pdf = tmp_path / "-odd name.pdf"
    pdf.write_bytes(b"%PDF-1.7\n")
    cli = EthosCli(program, env={"RECORD_TO": os.fspath(record), "REPLY": '{"ok":1}\n'})
    assert cli.parse_pdf_json(pdf, pages="2", workers=3, use_cache=False) == {"ok": 1}
    seen = _recorded(record)
    assert seen["argv"] == [
        "doc", "parse", "--format", "json", "--pages", "2", "--workers", "3", "--no-cache", "--", os.fspath(pdf)
    ]  # fmt: skip
    assert seen["pdfium"] == os.fspath(bundled_pdfium_library())


def test_markdown_and_text_come_back_exactly_as_printed(recorder: tuple[Path, Path], tmp_path: Path) -> None:
    program, record = recorder
    pdf = tmp_path / "a.pdf"
    pdf.write_bytes(b"%PDF-1.7\n")
    reply = "# Title\n\nBody \u2014 text\n"
    cli = EthosCli(program, env={"RECORD_TO": os.fspath(record), "REPLY": reply})
    assert cli.parse_pdf_markdown(pdf) == reply
    assert _recorded(record)["argv"][:4] == ["doc", "parse", "--format", "markdown"]
    assert ethos_py.parse_pdf_text(pdf, ethos_bin=program, env={"RECORD_TO": os.fspath(record), "REPLY": reply}) == reply
    assert _recorded(record)["argv"][:4] == ["doc", "parse", "--format", "text"]


def test_fingerprint_of_a_pdf_passes_parse_options_without_format(recorder: tuple[Path, Path], tmp_path: Path) -> None:
    program, record = recorder
    pdf = tmp_path / "a.pdf"
    pdf.write_bytes(b"%PDF-1.7\n")
    EthosCli(program, env={"RECORD_TO": os.fspath(record)}).fingerprint(pdf, password="pw")
    assert _recorded(record)["argv"] == ["fingerprint", "--", os.fspath(pdf)]
    assert _recorded(record)["password"] == "pw"


@pytest.mark.parametrize(
    ("code", "exit_code", "cls"),
    [
        ("invalid_pdf", 3, errors.InvalidPdfError),
        ("corrupt_pdf", 4, errors.CorruptPdfError),
        ("password_protected", 5, errors.PasswordProtectedError),
        ("page_limit_exceeded", 6, errors.PageLimitExceededError),
        ("file_too_large", 7, errors.FileTooLargeError),
        ("ocr_required", 8, errors.OcrRequiredError),
        ("unsupported_pdf_feature", 9, errors.UnsupportedPdfFeatureError),
        ("parse_timeout", 10, errors.ParseTimeoutError),
        ("memory_limit_exceeded", 11, errors.MemoryLimitExceededError),
    ],
)
def test_each_parse_code_has_its_exception_class(code: str, exit_code: int, cls: type) -> None:
    stderr = '{"error":{"code":"%s","message":"m"}}\n' % code
    by_envelope = errors.command_error(("ethos",), exit_code, "", stderr)
    assert type(by_envelope) is cls and by_envelope.error_code == code
    # Without an envelope (an old binary) only the public wrapper's exit codes 3, 4, 10 choose a
    # class; the others stay the base class, as in the public wrapper.
    by_exit = errors.command_error(("ethos",), exit_code, "", "plain text")
    assert type(by_exit) is (cls if exit_code in (3, 4, 10) else errors.EthosCommandError)
    assert by_exit.error_code is None
    assert issubclass(cls, ethos_py.EthosCommandError)
    assert getattr(ethos_py, cls.__name__) is cls


def test_pdfium_not_found_message_gives_pdfium_not_found_error() -> None:
    stderr = '{"error":{"code":"internal_error","message":"PDFium not found"}}\n'
    error = errors.command_error(("ethos",), 12, "", stderr)
    assert type(error) is errors.PdfiumNotFoundError and error.error_code == "internal_error"


def test_timeout_kills_the_whole_process_group(tmp_path: Path) -> None:
    # A "binary" that starts a grandchild which would outlive a plain kill of the child.
    pid_file = tmp_path / "grandchild.pid"
    script = tmp_path / "slow-ethos"
    script.write_text(
        f"#!{sys.executable}\n"
        "import subprocess, sys, time\n"
        f"child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"open({os.fspath(pid_file)!r}, 'w').write(str(child.pid))\n"
        "time.sleep(60)\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    pdf = tmp_path / "a.pdf"
    pdf.write_bytes(b"%PDF-1.7\n")
    with pytest.raises(ethos_py.EthosTimeoutError):
        EthosCli(script).parse_pdf_json(pdf, timeout_seconds=1.0)
    grandchild = int(pid_file.read_text())
    # Killed with its group; reaped by init once orphaned, so poll briefly.
    import time

    for _ in range(100):
        try:
            os.kill(grandchild, 0)
        except ProcessLookupError:
            break
        with open(f"/proc/{grandchild}/stat") as handle:
            if handle.read().split(")")[-1].split()[0] == "Z":
                break
        time.sleep(0.05)
    else:
        pytest.fail("the grandchild outlived the timeout")
