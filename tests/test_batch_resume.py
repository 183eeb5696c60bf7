"""test_batch_resume - ethos batch is crash-safe: SIGKILLed at seeded random points many times and rerun with --resume, it
writes the same output and summary bytes as an uninterrupted run (no record lost or duplicated), never leaves a partial
output or orphaned workers, keeps what was committed, and refuses to resume another job's work."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import harness
import pytest
from pdf_fixtures import text_pdf

ETHOS = [sys.executable, "-m", "ethos_py.cli"]
LINES = {
    "a.pdf": ["Alpha sales rose 4% in the second quarter.", "Alpha hired 12 engineers."],
    "b.pdf": ["Beta closed its Leeds office in May.", "Beta revenue reached 8.1 million."],
    "c.pdf": ["Gamma recalled 300 heaters.", "Gamma paid no dividend this year."],
}


@pytest.fixture
def job(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, lines in LINES.items():
        (corpus / name).write_bytes(text_pdf([lines]))
    names = sorted(LINES)
    records: list[Any] = []
    for i in range(400):
        name = names[(i * 5 + i // 7) % 3]
        claim = LINES[name][i % 2].rstrip(".")
        records.append({"n": i, "claim": claim if i % 4 else claim[::-1], "document": name})
        if i % 97 == 0:
            records.append("not a record")
    (tmp_path / "claims.jsonl").write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records))
    return tmp_path


def _env(job: Path) -> dict[str, str]:
    return {**os.environ, "ETHOS_CACHE_DIR": str(job / "cache")}


def _args(out: str, *extra: str) -> list[str]:
    return [*ETHOS, "batch", "claims.jsonl", "--corpus", "corpus", "-o", out, "--summary", out + ".summary",
            "--workers", "2", "--chunk-records", "9", *extra]


def _children(pid: int) -> set[int]:
    """Every live descendant of ``pid`` (from /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    fields = handle.read().rsplit(b")", 1)[1].split()
                parents[int(entry)] = int(fields[1])
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def test_killed_at_random_points_and_resumed_gives_the_same_bytes(job: Path) -> None:
    started = time.monotonic()
    reference = subprocess.run(_args("reference.jsonl"), cwd=job, env=_env(job), capture_output=True,
                               timeout=harness.SUBPROCESS_TIMEOUT, check=False)
    assert reference.returncode == 0, reference.stderr
    duration = time.monotonic() - started
    expected = (job / "reference.jsonl").read_bytes(), (job / "reference.jsonl.summary").read_bytes()
    assert len(expected[0].splitlines()) == 405
    rng = random.Random(20261207)
    kills = finished_runs = 0
    for cycle in range(5):
        out = f"out{cycle}.jsonl"
        for attempt in range(30):
            process = subprocess.Popen(_args(out, "--resume"), cwd=job, env=_env(job), stdout=subprocess.DEVNULL,
                                       stderr=subprocess.PIPE)
            # Kill points spread over a whole run (start-up, parsing, verifying, committing, the final write);
            # after a few kills the run is left to finish.
            delay = rng.uniform(0.0, duration * 0.8) if attempt < 8 else None
            try:
                process.wait(timeout=delay)
            except subprocess.TimeoutExpired:
                workers = _children(process.pid)
                process.send_signal(signal.SIGKILL)
                process.wait()
                kills += 1
                # Its workers end with it (they watch for their parent): none is left running.
                deadline = time.monotonic() + 5
                while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
                    time.sleep(0.05)
                assert not [pid for pid in workers if _alive(pid)]
                # Never a partial output: either none yet, or the complete one.
                if (job / out).exists():
                    assert (job / out).read_bytes() == expected[0]
                continue
            finally:
                assert process.stderr is not None
                stderr = process.stderr.read().decode()
                process.stderr.close()
            assert process.returncode == 0, stderr
            finished_runs += 1
            break
        assert ((job / out).read_bytes(), (job / (out + ".summary")).read_bytes()) == expected
        assert not (job / f".{out}.ethos-batch").exists()
    assert kills >= 12 and finished_runs == 5


def test_resume_keeps_committed_chunks_and_refuses_another_jobs_work(job: Path) -> None:
    work = job / ".out.jsonl.ethos-batch"
    process = subprocess.Popen(_args("out.jsonl"), cwd=job, env=_env(job), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + harness.SUBPROCESS_TIMEOUT
    # Killed once a few chunks are committed (their journal lines are written after their files).
    while time.monotonic() < deadline and process.poll() is None:
        journal = work / "journal.jsonl"
        if journal.exists() and len(journal.read_bytes().splitlines()) >= 5:
            break
        time.sleep(0.01)
    assert process.poll() is None, "the run ended before it could be interrupted"
    process.send_signal(signal.SIGKILL)
    process.wait()
    committed = len((work / "journal.jsonl").read_bytes().splitlines()) - 1
    assert committed >= 4
    # Another input: the interrupted job is not mixed into it.
    claims = job / "claims.jsonl"
    original = claims.read_bytes()
    claims.write_bytes(original + b'{"claim": "extra", "document": "a.pdf"}\n')
    other = subprocess.run(_args("out.jsonl", "--resume"), cwd=job, env=_env(job), capture_output=True, text=True,
                           timeout=harness.SUBPROCESS_TIMEOUT, check=False)
    assert other.returncode == 2
    error = json.loads(other.stderr)["error"]
    assert error["code"] == "invalid_input" and error["details"]["argument"] == "--resume"
    assert "without --resume" in error["details"]["reason"] and not (job / "out.jsonl").exists()
    claims.write_bytes(original)
    resumed = subprocess.run(_args("out.jsonl", "--resume"), cwd=job, env=_env(job), capture_output=True, text=True,
                             timeout=harness.SUBPROCESS_TIMEOUT, check=False)
    assert resumed.returncode == 0, resumed.stderr
    kept = int(resumed.stderr.split(" kept from the interrupted run")[0].rsplit(", ", 1)[1])
    assert kept >= committed * 9 - 9  # whole chunks, the last one possibly short
    fresh = subprocess.run(_args("fresh.jsonl"), cwd=job, env=_env(job), capture_output=True, timeout=harness.SUBPROCESS_TIMEOUT,
                           check=False)
    assert fresh.returncode == 0
    assert (job / "out.jsonl").read_bytes() == (job / "fresh.jsonl").read_bytes()
    # Without --resume an old work directory is discarded, never reused.
    work.mkdir()
    (work / "journal.jsonl").write_text("stale\n")
    again = subprocess.run(_args("out.jsonl"), cwd=job, env=_env(job), capture_output=True, text=True,
                           timeout=harness.SUBPROCESS_TIMEOUT, check=False)
    assert again.returncode == 0 and "kept from" not in again.stderr
    assert (job / "out.jsonl").read_bytes() == (job / "fresh.jsonl").read_bytes() and not work.exists()


def test_a_worker_killed_mid_run_is_replaced_and_the_output_is_unchanged(job: Path) -> None:
    reference = subprocess.run(_args("reference.jsonl"), cwd=job, env=_env(job), capture_output=True,
                               timeout=harness.SUBPROCESS_TIMEOUT, check=False)
    assert reference.returncode == 0
    work = job / ".out.jsonl.ethos-batch"
    process = subprocess.Popen(_args("out.jsonl", "--chunk-records", "30"), cwd=job, env=_env(job),
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    killed = None
    deadline = time.monotonic() + harness.SUBPROCESS_TIMEOUT
    while killed is None and process.poll() is None and time.monotonic() < deadline:
        # Killed as soon as it exists: the first chunks' tasks are already queued for it, so they fail
        # with it and must be given to its replacement.
        if (work / "journal.jsonl").exists():
            for pid in sorted(_children(process.pid)):
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as handle:
                        if b"spawn_main" in handle.read():  # a worker (spawned), not ethos-core or the resource tracker
                            os.kill(pid, signal.SIGKILL)
                            killed = pid
                            break
                except OSError:
                    continue
        time.sleep(0.01)
    assert killed is not None, "no worker was found to kill"
    assert process.stderr is not None
    stderr = process.stderr.read().decode()
    process.wait(timeout=harness.SUBPROCESS_TIMEOUT)
    process.stderr.close()
    assert process.returncode == 0, stderr
    assert (job / "out.jsonl").read_bytes() == (job / "reference.jsonl").read_bytes()
