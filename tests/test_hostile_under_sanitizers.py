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
    Worker processes write nothing to their stderr (it is /dev/null: the parent's stderr carries
    exactly one envelope), so their reports are only seen through log_path: an empty log
    directory is the proof that no process of the run reported anything."""
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


def test_a_parse_workers_sanitizer_report_reaches_the_log_directory(sanitizer_build: Path, tmp_path: Path) -> None:
    """The capture above is real: a worker that dies in the sanitizer's signal handler (a SIGSEGV
    sent from here, the way a wild pointer would end it) leaves its report in the log directory,
    and the parse ends in internal_error with no output file."""
    log_dir = tmp_path / "sanitizer-logs"
    log_dir.mkdir()
    pdf = fx.write_pdf(tmp_path, "slow.pdf", hostile.content_stream_bomb())
    out = tmp_path / "document.json"
    env = parse_environment(sanitizer_environment(sanitizer_build, log_dir))
    core = subprocess.Popen([str(sanitizer_build / "ethos-core"), "doc", "parse", str(pdf), "--no-cache", "--quiet",
                             "--workers", "1", "--out", str(out)], env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while not workers and time.monotonic() < deadline and core.poll() is None:
        workers = _children(core.pid)
        time.sleep(0.01)
    assert workers, "no parse worker started"
    time.sleep(0.2)  # past the fork: the worker runs its own code
    os.kill(workers[0], signal.SIGSEGV)
    stdout, stderr = core.communicate(timeout=120)
    assert core.returncode == 12 and stdout == b"" and not out.exists(), stderr
    assert json.loads(stderr)["error"]["code"] == "internal_error"
    reports = {path.name: path.read_text(errors="replace") for path in log_dir.iterdir()}
    assert f"asan.{workers[0]}" in reports, sorted(reports)
    assert "AddressSanitizer" in reports[f"asan.{workers[0]}"] and "SEGV" in reports[f"asan.{workers[0]}"]
