"""test_cli_errors - docs/cli.md failure and output rules, run through both `ethos` (click) and `ethos-core`.

Each case runs the Python command (`python -m ethos_py.cli`) and the compiled `ethos-core` as
subprocesses on the same inputs and checks the envelope, exit code and empty stdout; outside
argument-parser errors the two must agree byte for byte.

ethos-core is found via $ETHOS_CORE, next to $ETHOS_LIBRARY (a CMake build directory), or in the
installed package (ethos_py/_lib).
"""

from __future__ import annotations

import json
import os
import resource
import signal
import stat
import subprocess
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import harness  # tests/golden, put on sys.path by conftest
import pytest


REPO = Path(__file__).resolve().parents[1]
MAX_INPUT_BYTES = 256 * 1024 * 1024

Arg = str | bytes | Path


# -- programs under test ------------------------------------------------------------------------


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    # A source checkout must be importable by `python -m ethos_py.cli` from any cwd.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


PROGRAMS = {
    "ethos": [sys.executable, "-m", "ethos_py.cli"],
    "ethos-core": None,  # resolved lazily so a missing build fails the tests, not collection
}


@dataclass
class Result:
    returncode: int
    stdout: bytes
    stderr: bytes

    def envelope(self) -> dict[str, Any]:
        """The single envelope line on stderr, checked for shape and canonical form."""
        assert self.stderr.endswith(b"\n") and self.stderr.count(b"\n") == 1, self.stderr
        line = self.stderr[:-1]
        parsed = json.loads(line)
        canonical = json.dumps(parsed, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()
        assert line == canonical
        assert set(parsed) == {"error"}
        assert set(parsed["error"]) <= {"code", "message", "details"}
        error: dict[str, Any] = parsed["error"]
        assert isinstance(error["message"], str) and error["message"]
        return error


def run(program: str, args: Sequence[Arg], *, cwd: Path | None = None, **kwargs: Any) -> Result:
    prefix = PROGRAMS[program] or [harness.ethos_core_binary()]
    completed = subprocess.run(  # noqa: PLW1510 - the exit code is what is under test
        [*prefix, *[os.fspath(a) if isinstance(a, Path) else a for a in args]],
        cwd=cwd,
        env=_child_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=120,
        **kwargs,
    )
    return Result(completed.returncode, completed.stdout, completed.stderr)


def run_both(args: Sequence[Arg], **kwargs: Any) -> tuple[Result, Result]:
    return run("ethos", args, **kwargs), run("ethos-core", args, **kwargs)


def assert_failure(
    args: Sequence[Arg],
    code: str,
    exit_code: int,
    *,
    details: dict[str, Any] | None = None,
    identical: bool = True,
    **kwargs: Any,
) -> dict[str, Any]:
    """Both programs fail with `code`/`exit_code` (and `details`), one envelope, no stdout."""
    py, core = run_both(args, **kwargs)
    for result in (py, core):
        assert result.stdout == b""
        assert result.returncode == exit_code, result.stderr
        assert result.envelope()["code"] == code
        if details is not None:
            assert result.envelope().get("details") == details
    if identical:
        assert py.stderr == core.stderr
    return core.envelope()


# -- fixtures -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def document(small_document: dict[str, Any]) -> dict[str, Any]:
    return small_document


@pytest.fixture
def files(tmp_path: Path, document: dict[str, Any], document_tool: Any) -> dict[str, Path]:
    """A valid source, grounded and ungrounded citations and a config in tmp_path."""
    tool = document_tool
    source = tmp_path / "doc.json"
    source.write_bytes(tool.render(document))

    def citations(text: str) -> dict[str, Any]:
        claim = {"kind": "quote", "text": text, "citation": {"element_id": "e000002"}}
        return {"document_fingerprint": document["fingerprint"], "claims": [claim]}

    grounded = tmp_path / "grounded.json"
    grounded.write_text(json.dumps(citations("Revenue grew to $12.4M")))
    ungrounded = tmp_path / "ungrounded.json"
    ungrounded.write_text(json.dumps(citations("Revenue fell to $10.1M")))
    return {"source": source, "grounded": grounded, "ungrounded": ungrounded}


# -- argument errors: code and exit code agree -------------------------------------------------


@pytest.mark.parametrize(
    ("args", "argument"),
    [
        (["verify", "SRC", "--citations", "CIT", "--bogus"], "--bogus"),
        (["verify", "SRC", "--citations", "CIT", "--bogus=1"], "--bogus"),
        (["verify", "SRC", "--citations", "CIT", "-x"], "-x"),
        (["--bogus", "verify"], "--bogus"),
        (["verify", "SRC"], "--citations"),
        (["verify", "--citations", "CIT"], "SOURCE"),
        (["verify", "SRC", "--citations"], "--citations"),
        (["verify", "SRC", "--citations", "CIT", "--format", "xml"], "--format"),
        (["verify", "SRC", "--citations", "CIT", "--grounding", "docx-json"], "--grounding"),
        (["verify", "SRC", "--citations", "CIT", "--statement=yes"], "--statement"),
        (["verify", "SRC", "--citations", "CIT", "extra"], "extra"),
        (["fingerprint"], "DOC"),
        (["fingerprint", "SRC", "extra"], "extra"),
        (["explain", "extra"], "extra"),
        (["frobnicate"], "COMMAND"),
        (["doc", "frobnicate"], "COMMAND"),
    ],
)
def test_argument_errors(files: dict[str, Path], args: list[str], argument: str) -> None:
    real = [str(files["source"]) if a == "SRC" else str(files["grounded"]) if a == "CIT" else a for a in args]
    # Only code and exit code are contractual here; both programs also name the same argument.
    assert_failure(real, "invalid_arguments", 2, details={"argument": argument}, identical=False)


def test_argument_errors_come_before_files(tmp_path: Path) -> None:
    # Missing files would be host_io; the bad --format is found first (docs/cli.md §5.2).
    assert_failure(
        ["verify", tmp_path / "none", "--citations", tmp_path / "none", "--format", "xml"],
        "invalid_arguments",
        2,
        identical=False,
    )


def test_help_wins_over_missing_arguments() -> None:
    for program in PROGRAMS:
        result = run(program, ["verify", "--help"])
        assert result.returncode == 0 and result.stderr == b""
        assert b"--fail-on-ungrounded" in result.stdout


def test_verify_help_says_ungrounded_exits_zero() -> None:
    for program in PROGRAMS:
        text = " ".join(run(program, ["verify", "--help"]).stdout.decode().split())
        assert "exits 0 unless --fail-on-ungrounded" in text


def test_program_help_and_version() -> None:
    py, core = run_both(["--version"])
    assert py.returncode == core.returncode == 0
    assert py.stdout == core.stdout and py.stdout.startswith(b"ethos ") and py.stdout.endswith(b"\n")
    for program in PROGRAMS:
        result = run(program, ["--help"])
        assert result.returncode == 0 and result.stderr == b""
        for command in (b"verify", b"fingerprint", b"explain"):
            assert command in result.stdout


# -- host-side failures: byte-identical envelopes ---------------------------------------------


@pytest.mark.parametrize("which", ["SOURCE", "--citations", "--config"])
def test_missing_file(files: dict[str, Path], tmp_path: Path, which: str) -> None:
    missing = tmp_path / "missing.json"
    source = missing if which == "SOURCE" else files["source"]
    citations = missing if which == "--citations" else files["grounded"]
    args: list[Arg] = ["verify", source, "--citations", citations]
    if which == "--config":
        args += ["--config", missing]
    assert_failure(args, "host_io", 2, details={"argument": which, "path": str(missing), "reason": "not_found"})


def test_missing_doc_for_fingerprint(tmp_path: Path) -> None:
    assert_failure(
        ["fingerprint", tmp_path / "nope.json"],
        "host_io",
        2,
        details={"argument": "DOC", "path": str(tmp_path / "nope.json"), "reason": "not_found"},
    )


@pytest.mark.parametrize("which", ["SOURCE", "--citations"])
def test_directory_given(files: dict[str, Path], tmp_path: Path, which: str) -> None:
    source = tmp_path if which == "SOURCE" else files["source"]
    citations = tmp_path if which == "--citations" else files["grounded"]
    assert_failure(
        ["verify", source, "--citations", citations],
        "host_io",
        2,
        details={"argument": which, "path": str(tmp_path), "reason": "is_directory"},
    )


@pytest.mark.parametrize("which", ["SOURCE", "--citations", "--config"])
def test_file_too_large(files: dict[str, Path], tmp_path: Path, which: str) -> None:
    # Sparse: 257 MiB of size costs no disk, and the limit is checked by stat before reading.
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:
        handle.truncate(MAX_INPUT_BYTES + 1024 * 1024)
    source = big if which == "SOURCE" else files["source"]
    citations = big if which == "--citations" else files["grounded"]
    args: list[Arg] = ["verify", source, "--citations", citations]
    if which == "--config":
        args += ["--config", big]
    assert_failure(args, "file_too_large", 7, details={"argument": which, "max_bytes": MAX_INPUT_BYTES})


def test_exactly_the_limit_is_not_too_large(files: dict[str, Path], tmp_path: Path) -> None:
    # 256 MiB is allowed; the file is read (sparse zeros) and rejected by the core as bad JSON.
    at_limit = tmp_path / "limit.json"
    with open(at_limit, "wb") as handle:
        handle.truncate(MAX_INPUT_BYTES)
    result = run("ethos-core", ["verify", files["source"], "--citations", at_limit])
    assert result.returncode == 2 and result.envelope()["code"] != "file_too_large"


def test_first_failing_file_wins(files: dict[str, Path], tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    not_found = {"path": str(missing), "reason": "not_found"}
    assert_failure(
        ["verify", missing, "--citations", missing, "--config", missing],
        "host_io",
        2,
        details={"argument": "SOURCE", **not_found},
    )
    assert_failure(
        ["verify", files["source"], "--citations", missing, "--config", missing],
        "host_io",
        2,
        details={"argument": "--citations", **not_found},
    )


def test_files_are_read_before_the_source_is_opened(files: dict[str, Path], tmp_path: Path) -> None:
    # An invalid source document is the core's error, but only after every file was read.
    bad_source = tmp_path / "bad.json"
    bad_source.write_text("{}")
    assert_failure(
        ["verify", bad_source, "--citations", files["grounded"], "--config", tmp_path / "missing.json"],
        "host_io",
        2,
        details={"argument": "--config", "path": str(tmp_path / "missing.json"), "reason": "not_found"},
    )


# -- core errors are printed verbatim ------------------------------------------------------------


@pytest.mark.parametrize(
    "citations",
    [b"not json", b"[]", b'[{"kind":"quote","text":"x","citation":{"element_id":"e000002"},"extra":1}]', b"\xff\xfe"],
)
def test_invalid_citations_are_the_cores_envelope(files: dict[str, Path], tmp_path: Path, citations: bytes) -> None:
    path = tmp_path / "citations.json"
    path.write_bytes(citations)
    assert_failure(["verify", files["source"], "--citations", path], "invalid_input", 2)


def test_tampered_document_is_rejected(files: dict[str, Path], tmp_path: Path, document: dict[str, Any]) -> None:
    tampered = json.loads(json.dumps(document))
    tampered["payload"]["elements"][1]["text"] = "Revenue fell to $10.1M in Q3 2025."
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(tampered))
    py, core = run_both(["fingerprint", path])
    assert py.returncode == core.returncode == 2 and py.stdout == core.stdout == b""
    assert py.stderr == core.stderr


# -- output rules ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "extra",
    [
        [],
        ["--format", "summary"],
        ["--statement"],
        ["--statement", "--format", "summary"],
        ["--grounding", "ethos-native"],
    ],
)
def test_success_is_byte_identical(files: dict[str, Path], extra: list[str]) -> None:
    py, core = run_both(["verify", files["source"], "--citations", files["grounded"], *extra])
    assert py.returncode == core.returncode == 0
    assert py.stderr == core.stderr == b""
    assert py.stdout == core.stdout and py.stdout.endswith(b"\n") and not py.stdout.endswith(b"\n\n")


def test_fingerprint_and_explain_are_byte_identical(files: dict[str, Path], document: dict[str, Any]) -> None:
    py, core = run_both(["fingerprint", files["source"]])
    assert py.returncode == core.returncode == 0 and py.stdout == core.stdout
    assert json.loads(py.stdout)["document_fingerprint"] == document["fingerprint"]
    py, core = run_both(["explain"])
    assert py.returncode == core.returncode == 0 and py.stdout == core.stdout
    assert json.loads(py.stdout)["config_version"] == "default-v1"


def test_ungrounded_exits_zero_without_the_flag(files: dict[str, Path]) -> None:
    py, core = run_both(["verify", files["source"], "--citations", files["ungrounded"]])
    assert py.returncode == core.returncode == 0 and py.stdout == core.stdout
    assert json.loads(py.stdout)["all_evidence_grounded"] is False


@pytest.mark.parametrize("statement", [False, True])
def test_fail_on_ungrounded(files: dict[str, Path], statement: bool) -> None:
    flags = ["--fail-on-ungrounded"] + (["--statement"] if statement else [])
    py, core = run_both(["verify", files["source"], "--citations", files["ungrounded"], *flags])
    assert py.returncode == core.returncode == 1
    assert py.stderr == core.stderr == b""
    assert py.stdout == core.stdout  # the report is still written in full
    report = json.loads(py.stdout)
    assert (report["predicate"] if statement else report)["all_evidence_grounded"] is False
    py, core = run_both(["verify", files["source"], "--citations", files["grounded"], *flags])
    assert py.returncode == core.returncode == 0


def test_statement_subject_is_the_source_basename(files: dict[str, Path]) -> None:
    result = run("ethos-core", ["verify", files["source"], "--citations", files["grounded"], "--statement"])
    statement = json.loads(result.stdout)
    assert statement["subject"][0]["name"] == "doc.json"
    assert statement["predicate"]["all_evidence_grounded"] is True


def test_statement_with_non_utf8_source_name(files: dict[str, Path], tmp_path: Path) -> None:
    odd = os.fsencode(tmp_path) + b"/\xff.json"
    with open(odd, "wb") as handle:
        handle.write(files["source"].read_bytes())
    assert_failure(
        ["verify", odd, "--citations", files["grounded"], "--statement"],
        "invalid_arguments",
        2,
        details={"argument": "SOURCE"},
    )
    # Without --statement the name is never used, so the file verifies normally.
    py, core = run_both(["verify", odd, "--citations", files["grounded"]])
    assert py.returncode == core.returncode == 0 and py.stdout == core.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["verify", "doc.json", "--citations", "missing.json", "--citations", "grounded.json"],  # last one wins
        ["verify", "doc.json", "--citations=grounded.json"],
        ["verify", "--format=summary", "doc.json", "--citations", "grounded.json", "--format", "json"],
        ["verify", "doc.json", "--citations", "--format", "json"],  # "--format" is the value
        ["verify", "-", "--citations", "grounded.json"],  # a file named "-", not stdin
    ],
)
def test_option_syntax_is_shared(files: dict[str, Path], args: list[str]) -> None:
    py, core = run_both(args, cwd=files["source"].parent)
    assert py.returncode == core.returncode
    assert py.stdout == core.stdout and py.stderr == core.stderr


def test_dash_dash_ends_options(files: dict[str, Path], tmp_path: Path) -> None:
    dashed = tmp_path / "-doc.json"
    dashed.write_bytes(files["source"].read_bytes())
    py, core = run_both(["verify", "--citations", files["grounded"], "--", "-doc.json"], cwd=tmp_path)
    assert py.returncode == core.returncode == 0 and py.stdout == core.stdout


# -- --out ------------------------------------------------------------------------------------------


def _leftovers(directory: Path) -> list[str]:
    return sorted(name for name in os.listdir(directory) if name.startswith(".ethos-out-"))


@pytest.mark.parametrize("output_format", ["json", "summary"])
def test_out_replaces_atomically_with_the_stdout_bytes(
    files: dict[str, Path], tmp_path: Path, output_format: str
) -> None:
    expected = run(
        "ethos-core", ["verify", files["source"], "--citations", files["grounded"], "--format", output_format]
    ).stdout
    for program in PROGRAMS:
        out = tmp_path / f"report-{program}.txt"
        out.write_text("old report\n")
        result = run(
            program,
            ["verify", files["source"], "--citations", files["grounded"], "--format", output_format, "--out", out],
        )
        assert result.returncode == 0 and result.stdout == b"" and result.stderr == b""
        assert out.read_bytes() == expected
        mask = os.umask(0)
        os.umask(mask)
        assert out.stat().st_mode & 0o777 == 0o666 & ~mask
    assert _leftovers(tmp_path) == []


def test_out_onto_a_pipe_writes_through_and_keeps_the_pipe(files: dict[str, Path], tmp_path: Path) -> None:
    """--out onto a FIFO (as onto /dev/null or /dev/stdout) writes into it; the atomic rename would
    replace the node itself (as root: /dev/null becoming a regular file)."""
    expected = run("ethos-core", ["verify", files["source"], "--citations", files["grounded"]]).stdout
    for program in PROGRAMS:
        fifo = tmp_path / f"{program}.fifo"
        os.mkfifo(fifo)
        received: list[bytes] = []
        reader = threading.Thread(target=lambda path=fifo: received.append(path.read_bytes()))
        reader.start()
        result = run(program, ["verify", files["source"], "--citations", files["grounded"], "--out", fifo])
        reader.join(timeout=60)
        assert result.returncode == 0 and result.stdout == b"" and result.stderr == b""
        assert received == [expected]
        assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert _leftovers(tmp_path) == []


def test_out_with_fail_on_ungrounded_still_writes(files: dict[str, Path], tmp_path: Path) -> None:
    for program in PROGRAMS:
        out = tmp_path / f"{program}.json"
        result = run(
            program,
            ["verify", files["source"], "--citations", files["ungrounded"], "--fail-on-ungrounded", "--out", out],
        )
        assert result.returncode == 1 and result.stdout == b"" and result.stderr == b""
        assert json.loads(out.read_bytes())["all_evidence_grounded"] is False


def test_out_in_missing_directory_leaves_nothing(files: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "no-such-dir" / "report.json"
    assert_failure(
        ["verify", files["source"], "--citations", files["grounded"], "--out", out],
        "host_io",
        2,
        details={"argument": "--out", "path": str(out), "reason": "not_found"},
    )
    assert not out.parent.exists()


def test_out_onto_a_directory_leaves_it_untouched(files: dict[str, Path], tmp_path: Path) -> None:
    target = tmp_path / "existing-dir"
    target.mkdir()
    (target / "keep.txt").write_text("keep")
    assert_failure(
        ["verify", files["source"], "--citations", files["grounded"], "--out", target],
        "host_io",
        2,
        details={"argument": "--out", "path": str(target), "reason": "is_directory"},
    )
    assert sorted(os.listdir(target)) == ["keep.txt"]
    assert _leftovers(tmp_path) == []


def _small_file_limit() -> None:
    # Runs in the child before exec: writes beyond 16 bytes fail with EFBIG instead of killing it.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (16, 16))


def test_failed_write_leaves_the_old_file_untouched(files: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    out.write_text("old\n")
    assert_failure(
        ["verify", files["source"], "--citations", files["grounded"], "--out", out],
        "host_io",
        2,
        details={"argument": "--out", "path": str(out), "reason": "io_error"},
        preexec_fn=_small_file_limit,
    )
    assert out.read_text() == "old\n"
    assert _leftovers(tmp_path) == []


def test_failed_core_run_does_not_touch_out(files: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    out.write_text("old\n")
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    assert_failure(["verify", files["source"], "--citations", bad, "--out", out], "invalid_input", 2)
    assert out.read_text() == "old\n"
    assert _leftovers(tmp_path) == []


def test_closed_stdout_is_an_internal_error(files: dict[str, Path]) -> None:
    results = []
    for command in PROGRAMS.values():
        read_end, write_end = os.pipe()
        os.close(read_end)  # every write to the pipe now fails with EPIPE
        try:
            prefix = command or [harness.ethos_core_binary()]
            completed = subprocess.run(  # noqa: PLW1510 - the exit code is what is under test
                [*prefix, "verify", str(files["source"]), "--citations", str(files["grounded"])],
                env=_child_env(),
                stdin=subprocess.DEVNULL,
                stdout=write_end,
                stderr=subprocess.PIPE,
                timeout=120,
            )
        finally:
            os.close(write_end)
        results.append(Result(completed.returncode, b"", completed.stderr))
    for result in results:
        assert result.returncode == 12
        assert result.envelope() == {
            "code": "internal_error",
            "details": {"stream": "stdout"},
            "message": result.envelope()["message"],
        }
    assert results[0].stderr == results[1].stderr


def test_python_cli_without_library_prints_an_envelope(tmp_path: Path) -> None:
    env = _child_env()
    env["ETHOS_LIBRARY"] = str(tmp_path / "missing-libethos.so")
    completed = subprocess.run(
        [sys.executable, "-m", "ethos_py.cli", "explain"],
        check=False,
        env=env,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert completed.returncode == 12 and completed.stdout == b""
    error = Result(12, b"", completed.stderr).envelope()
    assert error["code"] == "internal_error" and error["details"]["reason"] == "library_unavailable"
    assert b"Traceback" not in completed.stderr


# -- messages a person can act on (issue 22): the same sentence from both programs ----------------


def test_missing_option_names_it_and_points_at_help(files: dict[str, Path]) -> None:
    error = assert_failure(["verify", files["source"]], "invalid_arguments", 2, details={"argument": "--citations"})
    assert "--citations" in error["message"] and "--help" in error["message"]


def test_unknown_command_points_at_help() -> None:
    error = assert_failure(["frobnicate"], "invalid_arguments", 2, details={"argument": "COMMAND"})
    assert error["message"] == "the command is missing or unknown: run with --help to list the commands"


def test_unexpected_argument_is_quoted(files: dict[str, Path]) -> None:
    error = assert_failure(["explain", "extra"], "invalid_arguments", 2, details={"argument": "extra"})
    assert error["message"].startswith('unexpected argument "extra"') and "--help" in error["message"]


def test_host_io_names_the_path(files: dict[str, Path], tmp_path: Path) -> None:
    missing = tmp_path / "my citations.json"
    error = assert_failure(["verify", files["source"], "--citations", missing], "host_io", 2)
    assert error["message"] == f'cannot find "{missing}" (--citations): check the path'


def test_host_io_leaves_out_a_non_utf8_path(files: dict[str, Path], tmp_path: Path) -> None:
    # JSON holds only UTF-8: both programs then name the argument alone, with the same bytes.
    missing = os.fsencode(tmp_path) + b"/caf\xe9.json"
    error = assert_failure(
        ["verify", files["source"], "--citations", missing], "host_io", 2,
        details={"argument": "--citations", "reason": "not_found"},
    )
    assert error["message"] == "cannot find a file (--citations): check the path"


@pytest.mark.parametrize("command", [["verify", "PDF", "--citations", "CIT"], ["rag", "chunk", "PDF"], ["security", "report", "PDF"]])
def test_a_pdf_where_a_document_json_belongs_says_to_parse_it(files: dict[str, Path], tmp_path: Path, command: list[str]) -> None:
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n%%EOF\n")
    args = [str(pdf) if a == "PDF" else str(files["grounded"]) if a == "CIT" else a for a in command]
    error = assert_failure(args, "invalid_input", 2)
    assert error["message"].startswith("this is a PDF: run `ethos doc parse` first")


def _pdf_failure(args: list[str]) -> dict[str, Any]:
    """Both programs fail the same way on a PDF command (PDFium from pypdfium2); the envelope."""
    import pdf_fixtures as fx

    results = [fx.run_program([*prefix, *args]) for prefix in fx.programs().values()]
    for done in results:
        assert done.stdout == b"" and done.stderr.count(b"\n") == 1, done.stderr
    assert results[0].stderr == results[1].stderr
    assert results[0].returncode == results[1].returncode
    error: dict[str, Any] = json.loads(results[0].stderr)["error"]
    return error


def test_password_protected_names_every_way_to_give_the_password(tmp_path: Path) -> None:
    import pdf_fixtures as fx

    pdf = fx.write_pdf(tmp_path, "locked.pdf", fx.encrypted_pdf("s3cret"))
    error = _pdf_failure(["doc", "parse", "--no-cache", str(pdf)])
    assert error["code"] == "password_protected"
    for way in ("--password", "--password-file", "ETHOS_PDF_PASSWORD"):
        assert way in error["message"]


def test_pages_beyond_the_end_says_how_many_pages_there_are(tmp_path: Path) -> None:
    import pdf_fixtures as fx

    pdf = fx.write_pdf(tmp_path, "two.pdf", fx.text_pdf([["page one"], ["page two"]]))
    error = _pdf_failure(["doc", "parse", "--no-cache", "--pages", "2-5", str(pdf)])
    assert error == {
        "code": "invalid_arguments",
        "details": {"argument": "--pages", "page_count": 2},
        "message": "--pages names a page the PDF does not have: it has 2 pages",
    }


def test_not_a_pdf_says_to_give_the_pdf(tmp_path: Path) -> None:
    text = tmp_path / "notes.pdf"
    text.write_text("just text\n")
    error = _pdf_failure(["doc", "parse", "--no-cache", str(text)])
    assert error["code"] == "invalid_pdf" and "give the PDF itself" in error["message"]


# -- an unexpected exception: internal_error with details.exception; ETHOS_DEBUG=1 adds a traceback --

_FAULTY_DEMO = (
    "import sys, ethos_py.demo, ethos_py.cli\n"
    "def broken(out_dir):\n"
    "    raise RuntimeError('boom: caf\\u00e9')\n"
    "ethos_py.demo.demo_report_html = broken\n"
    "ethos_py.cli.main(['demo'])\n"
)


def _run_faulty_demo(debug: bool) -> Result:
    env = _child_env()
    env.pop("ETHOS_DEBUG", None)
    if debug:
        env["ETHOS_DEBUG"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", _FAULTY_DEMO], env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=120, check=False
    )
    return Result(done.returncode, done.stdout, done.stderr)


def test_unexpected_exception_is_an_internal_error_with_the_exception() -> None:
    from conftest import schema_errors

    result = _run_faulty_demo(debug=False)
    assert result.returncode == 12 and result.stdout == b""
    error = result.envelope()
    assert error["code"] == "internal_error"
    assert error["details"] == {"exception": {"message": "boom: café", "type": "RuntimeError"}}
    assert "ETHOS_DEBUG=1" in error["message"]
    assert schema_errors("error-envelope", json.loads(result.stderr)) == []


def test_ethos_debug_prints_the_traceback_before_the_envelope() -> None:
    result = _run_faulty_demo(debug=True)
    assert result.returncode == 12 and result.stdout == b""
    lines = result.stderr.decode().splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert "RuntimeError: boom: café" in lines
    assert json.loads(lines[-1])["error"]["details"]["exception"]["type"] == "RuntimeError"


# -- the command list, -h, python -m ethos_py --------------------------------------------------------


@pytest.mark.parametrize("args", [[], ["doc"], ["evidence"]])
def test_a_program_or_group_alone_lists_its_commands(args: list[str]) -> None:
    # Like pip (and click before 8.2): the list on stdout, exit 0; `--help` prints the same.
    for program in PROGRAMS:
        result = run(program, args)
        assert result.returncode == 0 and result.stderr == b"", result.stderr
        assert b"Commands:" in result.stdout
        assert result.stdout == run(program, [*args, "--help"]).stdout
    listed = run("ethos", args).stdout.decode()
    if args == ["doc"]:
        assert "parse" in listed
    elif not args:
        assert "verify" in listed and "doc" in listed


@pytest.mark.parametrize("args", [["-h"], ["verify", "-h"], ["doc", "parse", "-h"], ["evidence", "anchor", "-h"]])
def test_short_help_is_help(args: list[str]) -> None:
    for program in PROGRAMS:
        short = run(program, args)
        assert short.returncode == 0 and short.stderr == b""
        assert short.stdout == run(program, [*args[:-1], "--help"]).stdout
        assert b"-h, --help" in short.stdout


def test_python_dash_m_ethos_py_runs_the_cli(files: dict[str, Path]) -> None:
    module = subprocess.run(
        [sys.executable, "-m", "ethos_py", "verify", str(files["source"]), "--citations", str(files["grounded"])],
        env=_child_env(), stdin=subprocess.DEVNULL, capture_output=True, timeout=120, check=False,
    )
    cli = run("ethos", ["verify", files["source"], "--citations", files["grounded"]])
    assert module.returncode == cli.returncode == 0
    assert module.stdout == cli.stdout and module.stdout.startswith(b"{")
    failing = subprocess.run(
        [sys.executable, "-m", "ethos_py", "frobnicate"], env=_child_env(), capture_output=True, timeout=120, check=False
    )
    assert failing.returncode == 2 and failing.stderr == run("ethos", ["frobnicate"]).stderr
    usage = subprocess.run([sys.executable, "-m", "ethos_py", "--help"], env=_child_env(), capture_output=True, timeout=120, check=False)
    assert usage.stdout.startswith(b"Usage: ethos ")


def test_doc_parse_diagnostics_on_both_programs(tmp_path: Path) -> None:
    import pdf_fixtures as fx

    pdf = fx.write_pdf(tmp_path, "one.pdf", fx.text_pdf([["Revenue grew to $12.4M"]]))
    outputs = {}
    for name, prefix in fx.programs().items():
        done = fx.run_program([*prefix, "doc", "parse", "--no-cache", "--diagnostics", str(pdf)])
        assert done.returncode == 0, done.stderr
        outputs[name] = json.loads(done.stdout)
    for document in outputs.values():
        assert document["diagnostics"]["cache"] == "off" and document["diagnostics"]["page_count"] == 1
    # Runtime facts aside, the documents are the same.
    assert {k: v for k, v in outputs["ethos"].items() if k != "diagnostics"} == {
        k: v for k, v in outputs["ethos-core"].items() if k != "diagnostics"
    }
