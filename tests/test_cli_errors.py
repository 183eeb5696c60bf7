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
        ([], "COMMAND"),
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
    assert_failure(args, "host_io", 2, details={"argument": which, "reason": "not_found"})


def test_missing_doc_for_fingerprint(tmp_path: Path) -> None:
    assert_failure(
        ["fingerprint", tmp_path / "nope.json"], "host_io", 2, details={"argument": "DOC", "reason": "not_found"}
    )


@pytest.mark.parametrize("which", ["SOURCE", "--citations"])
def test_directory_given(files: dict[str, Path], tmp_path: Path, which: str) -> None:
    source = tmp_path if which == "SOURCE" else files["source"]
    citations = tmp_path if which == "--citations" else files["grounded"]
    assert_failure(
        ["verify", source, "--citations", citations],
        "host_io",
        2,
        details={"argument": which, "reason": "is_directory"},
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
    not_found = {"reason": "not_found"}
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
        details={"argument": "--config", "reason": "not_found"},
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
        details={"argument": "--out", "reason": "not_found"},
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
        details={"argument": "--out", "reason": "is_directory"},
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
        details={"argument": "--out", "reason": "io_error"},
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
