"""test_hostile_under_sanitizers - the hostile-PDF generator and the hostile JSON matrix run again on the ASan + UBSan build, with every process's sanitizer reports (the parse workers' too) written to files that must stay empty."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import hostile_json as matrix
import hostile_pdfs as hostile
import pdf_fixtures as fx
from conftest import REPO_DIR, sanitizer_environment
from ethos_cli_server import CORE_LEAKS_ENV

from ethos_py._pdfium import parse_environment

SANITIZER_MEMBERS = 24
HOSTILE_TESTS = ["tests/test_hostile_pdf_generator.py", "tests/test_hostile_json_matrix.py"]


def _reports(log_dir: Path) -> str:
    return "\n".join(f"== {path.name}\n{path.read_text(errors='replace')[-6000:]}" for path in sorted(log_dir.iterdir()))


def test_hostile_pdfs_and_json_matrix_under_sanitizers(sanitizer_build: Path, tmp_path: Path) -> None:
    """Every hostile kind and matrix case through `ethos` and `ethos-core` of the sanitizer build.
    A worker's stderr is a pipe its parent keeps only the tail of, and only for --diagnostics (the
    parent's stderr carries exactly one envelope), so reports are collected through log_path: an
    empty log directory is the proof that no process of the run reported anything."""
    log_dir = tmp_path / "sanitizer-logs"
    log_dir.mkdir()
    env = sanitizer_environment(sanitizer_build, log_dir)
    # Every top-level member and a seeded sample of 24 a slot (883 cases, not 1396): the
    # sanitizers slow each run several times, and the members left out run in the ordinary build.
    env[matrix.MEMBERS_ENV] = str(SANITIZER_MEMBERS)
    env[CORE_LEAKS_ENV] = "1"  # and LeakSanitizer on every ethos-core the tests start
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_DIR), env.get("PYTHONPATH")]))
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *HOSTILE_TESTS],
                            cwd=REPO_DIR, env=env, capture_output=True, text=True, check=False, timeout=1800)
    assert list(log_dir.iterdir()) == [], _reports(log_dir)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-3000:]
    assert " passed" in result.stdout and "failed" not in result.stdout


def _children(pid: int) -> list[int]:
    children = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        children += [int(child) for child in (task / "children").read_text().split()]
    return children


def _kill_a_parse_worker(sanitizer_build: Path, tmp_path: Path, env: dict[str, str],
                         *options: str) -> tuple[int, subprocess.CompletedProcess[bytes], Path]:
    """Parses a slow PDF with ethos-core of the sanitizer build and one worker, and sends that
    worker SIGSEGV mid-parse (the way a wild pointer would end it): the worker's pid, the run, and
    the output path."""
    pdf = fx.write_pdf(tmp_path, "slow.pdf", hostile.content_stream_bomb())
    out = tmp_path / "document.json"
    args = [str(sanitizer_build / "ethos-core"), "doc", "parse", str(pdf), "--no-cache", "--quiet", "--workers", "1",
            *options, "--out", str(out)]
    core = subprocess.Popen(args, env=parse_environment(env), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while not workers and time.monotonic() < deadline and core.poll() is None:
        workers = _children(core.pid)
        time.sleep(0.01)
    assert workers, "no parse worker started"
    time.sleep(0.2)  # past the fork: the worker runs its own code
    os.kill(workers[0], signal.SIGSEGV)
    stdout, stderr = core.communicate(timeout=120)
    return workers[0], subprocess.CompletedProcess(args, core.returncode, stdout, stderr), out


def test_a_parse_workers_sanitizer_report_reaches_the_log_directory(sanitizer_build: Path, tmp_path: Path) -> None:
    """The capture above is real: a worker that dies in the sanitizer's signal handler leaves its
    report in the log directory, and the parse ends in internal_error with no output file."""
    log_dir = tmp_path / "sanitizer-logs"
    log_dir.mkdir()
    worker, run, out = _kill_a_parse_worker(sanitizer_build, tmp_path, sanitizer_environment(sanitizer_build, log_dir))
    assert run.returncode == 12 and run.stdout == b"" and not out.exists(), run.stderr
    assert json.loads(run.stderr)["error"]["code"] == "internal_error"
    reports = {path.name: path.read_text(errors="replace") for path in log_dir.iterdir()}
    assert f"asan.{worker}" in reports, sorted(reports)
    assert "AddressSanitizer" in reports[f"asan.{worker}"] and "SEGV" in reports[f"asan.{worker}"]


def test_a_parse_workers_stderr_reaches_the_diagnostics(sanitizer_build: Path, tmp_path: Path) -> None:
    """Without log_path the sanitizer writes its report to the worker's stderr, which is a pipe the
    parent reads: with --diagnostics the envelope's failure carries the report's tail, and the
    parent's stderr is still exactly one envelope (nothing of the worker's leaks into it)."""
    worker, run, out = _kill_a_parse_worker(sanitizer_build, tmp_path, sanitizer_environment(sanitizer_build),
                                            "--diagnostics")
    assert run.returncode == 12 and run.stdout == b"" and not out.exists(), run.stderr
    envelope = json.loads(run.stderr)  # one JSON document: the worker's report is not in it raw
    assert envelope["error"]["code"] == "internal_error"
    failure = envelope["diagnostics"]["failure"]
    assert failure["worker"] == 0 and failure["signal"] in (signal.SIGSEGV, signal.SIGABRT), failure
    assert "AddressSanitizer" in failure["stderr"] and "SEGV" in failure["stderr"], failure
    assert f"=={worker}==" in failure["stderr"]  # the report of that worker
