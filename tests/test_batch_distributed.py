"""test_batch_distributed - ethos batch --engine dask: on a real Dask cluster (a scheduler and 2 worker processes
started by the test with the commands docs/scale.md gives, then stopped) and on a local cluster ethos starts itself,
the output and summary are byte-identical to the local engine's; an unreachable --address or a missing Dask is one envelope, fast,
leaving nothing behind; a job killed on the local engine is finished by --resume on the cluster, and a cluster worker
killed mid-run is replaced, both with the same bytes."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import harness
import pytest
from pdf_fixtures import text_pdf

# The test extra installs Dask's distributed: a missing one fails here rather than skipping the engine's tests.
import distributed  # noqa: E402,F401

REPO = Path(__file__).resolve().parents[1]
ETHOS = [sys.executable, "-m", "ethos_py.cli"]
REPORTS = {
    "north.pdf": ["Northwind revenue grew 12% in 2024.", "The board approved a dividend of 40 cents."],
    "south.pdf": ["Southwind opened four new stores in Lyon.", "Staff turnover fell to 9 percent."],
    "deep/east.pdf": ["Eastwind shipped 3,200 units in March.", "Warranty claims doubled year on year."],
}
CLAIMS = ["Northwind revenue grew 12% in 2024", "Staff turnover fell to 9 percent", "Eastwind shipped 3,200 units",
          "Northwind revenue grew 15% in 2024", "Southwind opened four new stores in Lyon", "Warranty claims doubled"]


@pytest.fixture(scope="module")
def job(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A corpus of three PDFs and a JSON document, and 60 claims over them (with errors among them)."""
    root = tmp_path_factory.mktemp("job")
    for name, lines in REPORTS.items():
        (root / "corpus" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "corpus" / name).write_bytes(text_pdf([lines]))
    shutil.copyfile(REPO / "examples" / "quickstart" / "document.json", root / "corpus" / "pilot.json")
    names = [*REPORTS, "pilot.json", "missing.pdf"]
    records: list[Any] = [{"id": i, "claim": CLAIMS[i % len(CLAIMS)], "document": names[i % len(names)]}
                          for i in range(60)]
    records[7] = "not JSON"
    (root / "claims.jsonl").write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records))
    return root


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """A real Dask cluster on this machine: `dask scheduler` and `dask worker --nworkers 2`, stopped after the tests
    (the scheduler's address, and the process id of the command that runs the workers)."""
    directory = tmp_path_factory.mktemp("cluster")
    scheduler_file = directory / "scheduler.json"
    env = {**os.environ, "ETHOS_CACHE_DIR": str(directory / "cache")}
    scheduler = subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--port", "0", "--no-dashboard",
                                  "--scheduler-file", str(scheduler_file)], env=env, cwd=directory,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    workers = subprocess.Popen([sys.executable, "-m", "dask", "worker", "--scheduler-file", str(scheduler_file),
                                "--nworkers", "2", "--nthreads", "1", "--no-dashboard"], env=env, cwd=directory,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while not scheduler_file.exists() or not scheduler_file.read_text().strip():
            assert time.monotonic() < deadline, "the Dask scheduler did not start"
            time.sleep(0.1)
        address = json.loads(scheduler_file.read_text())["address"]
        from distributed import Client

        with Client(address, timeout=30) as client:  # both workers connected before a test counts them
            client.wait_for_workers(2, timeout=30)
        yield address, workers.pid
    finally:
        for process in (workers, scheduler):
            os.killpg(process.pid, signal.SIGTERM)
        for process in (workers, scheduler):
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def _batch(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*ETHOS, "batch", "claims.jsonl", "--corpus", "corpus", "--quiet", *args], cwd=cwd,
                          capture_output=True, text=True, env={**os.environ, "ETHOS_CACHE_DIR": str(cwd / "cache")},
                          timeout=harness.SUBPROCESS_TIMEOUT, check=False)


def _local(job: Path) -> tuple[bytes, bytes]:
    if not (job / "local.jsonl").exists():
        result = _batch(job, "-o", "local.jsonl", "--workers", "2", "--chunk-records", "7")
        assert result.returncode == 0, result.stderr
    return (job / "local.jsonl").read_bytes(), (job / "local.summary.json").read_bytes()


def test_a_running_cluster_gives_the_local_engines_bytes(job: Path, cluster: tuple[str, int]) -> None:
    result = _batch(job, "-o", "remote.jsonl", "--engine", "dask", "--address", cluster[0], "--chunk-records", "7",
                    "--stats", "remote-stats.json")
    assert result.returncode == 0, result.stderr
    output, summary = _local(job)
    assert (job / "remote.jsonl").read_bytes() == output
    assert (job / "remote.summary.json").read_bytes() == summary
    lines = [json.loads(line) for line in output.splitlines()]
    assert len(lines) == 60 and lines[0]["ethos"]["status"] == "grounded"
    assert lines[3]["ethos"]["status"] != "grounded" and "error" in lines[7]["ethos"]
    stats = json.loads((job / "remote-stats.json").read_text())
    # Both worker processes of the cluster are the job's workers; each PDF was opened by a worker, not shipped.
    assert stats["workers"] == 2 and stats["records"] == 60 and 1 <= stats["documents_opened"] <= 8
    assert not (job / ".remote.jsonl.ethos-batch").exists()


def test_without_an_address_a_local_cluster_is_started_and_stopped(job: Path) -> None:
    result = _batch(job, "-o", "own.jsonl", "--engine", "dask", "--workers", "2", "--chunk-records", "25")
    assert result.returncode == 0, result.stderr
    output, summary = _local(job)
    assert (job / "own.jsonl").read_bytes() == output and (job / "own.summary.json").read_bytes() == summary
    assert "on 2 workers" in result.stderr


def test_a_job_interrupted_on_the_local_engine_is_resumed_on_the_cluster(job: Path, cluster: tuple[str, int]) -> None:
    """The engine is not part of the job: chunks a killed local run committed are kept by a dask run."""
    work = job / "switch"
    work.mkdir()
    (work / "corpus").symlink_to(job / "corpus")
    (work / "claims.jsonl").write_bytes((job / "claims.jsonl").read_bytes() * 8)
    args = [*ETHOS, "batch", "claims.jsonl", "--corpus", "corpus", "--quiet", "-o", "out.jsonl", "--chunk-records", "5"]
    env = {**os.environ, "ETHOS_CACHE_DIR": str(work / "cache")}
    process = subprocess.Popen([*args, "--workers", "1"], cwd=work, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    journal = work / ".out.jsonl.ethos-batch" / "journal.jsonl"
    deadline = time.monotonic() + harness.SUBPROCESS_TIMEOUT
    while time.monotonic() < deadline and process.poll() is None:
        if journal.exists() and len(journal.read_bytes().splitlines()) >= 4:
            break
        time.sleep(0.01)
    assert process.poll() is None, "the run ended before it could be interrupted"
    process.send_signal(signal.SIGKILL)
    process.wait()
    resumed = subprocess.run([*args, "--resume", "--engine", "dask", "--address", cluster[0]], cwd=work, env=env,
                             capture_output=True, text=True, timeout=harness.SUBPROCESS_TIMEOUT, check=False)
    assert resumed.returncode == 0, resumed.stderr
    assert " kept from the interrupted run" in resumed.stderr
    fresh = subprocess.run([*args, "-o", "fresh.jsonl", "--workers", "2"], cwd=work, env=env, capture_output=True,
                           text=True, timeout=harness.SUBPROCESS_TIMEOUT, check=False)
    assert fresh.returncode == 0, fresh.stderr
    assert (work / "out.jsonl").read_bytes() == (work / "fresh.jsonl").read_bytes()
    assert (work / "out.summary.json").read_bytes() == (work / "fresh.summary.json").read_bytes()


def test_an_unreachable_address_is_one_envelope_fast_and_leaves_nothing(job: Path, tmp_path: Path) -> None:
    shutil.copyfile(job / "claims.jsonl", tmp_path / "claims.jsonl")
    (tmp_path / "corpus").symlink_to(job / "corpus")
    started = time.monotonic()
    result = _batch(tmp_path, "-o", "out.jsonl", "--engine", "dask", "--address", "tcp://127.0.0.1:9",
                    "--connect-timeout", "2")
    assert time.monotonic() - started < 20
    assert result.returncode == 2, result.stderr
    error = json.loads(result.stderr)["error"]
    assert error["code"] == "invalid_input" and error["details"]["argument"] == "--address"
    assert "tcp://127.0.0.1:9" in error["details"]["reason"] and "dask scheduler" in error["details"]["reason"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["claims.jsonl", "corpus"]
    result = _batch(tmp_path, "-o", "out.jsonl", "--address", "tcp://127.0.0.1:9")
    assert json.loads(result.stderr)["error"]["details"]["argument"] == "--address"


def test_without_dask_installed_the_envelope_names_the_pip_command(job: Path, tmp_path: Path) -> None:
    # A Python where `import distributed` fails, as in an install without the extra.
    (tmp_path / "shadow").mkdir()
    (tmp_path / "shadow" / "distributed.py").write_text("raise ImportError('No module named distributed')\n")
    shutil.copyfile(job / "claims.jsonl", tmp_path / "claims.jsonl")
    (tmp_path / "corpus").symlink_to(job / "corpus")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "shadow"), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run([*ETHOS, "batch", "claims.jsonl", "--corpus", "corpus", "-o", "out.jsonl", "--engine", "dask"],
                            cwd=tmp_path, capture_output=True, text=True, env=env, timeout=harness.SUBPROCESS_TIMEOUT,
                            check=False)
    assert result.returncode == 2, result.stderr
    error = json.loads(result.stderr)["error"]
    assert error["code"] == "invalid_input" and error["details"]["argument"] == "--engine"
    assert "pip install 'ethos-verify[distributed]'" in error["details"]["reason"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["claims.jsonl", "corpus", "shadow"]


def test_a_worker_killed_mid_run_is_replaced_and_the_output_is_unchanged(job: Path, cluster: tuple[str, int]) -> None:
    work = job / "killed"
    work.mkdir()
    (work / "corpus").symlink_to(job / "corpus")
    (work / "claims.jsonl").write_bytes((job / "claims.jsonl").read_bytes() * 8)
    args = [*ETHOS, "batch", "claims.jsonl", "--corpus", "corpus", "--quiet", "--chunk-records", "5"]
    env = {**os.environ, "ETHOS_CACHE_DIR": str(work / "cache")}
    process = subprocess.Popen([*args, "-o", "out.jsonl", "--engine", "dask", "--address", cluster[0]], cwd=work,
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    journal = work / ".out.jsonl.ethos-batch" / "journal.jsonl"
    deadline = time.monotonic() + harness.SUBPROCESS_TIMEOUT
    while time.monotonic() < deadline and process.poll() is None:
        if journal.exists() and len(journal.read_bytes().splitlines()) >= 2:
            break
        time.sleep(0.01)
    assert process.poll() is None, "the run ended before a worker could be killed"
    victim = _worker_processes(cluster[1])[0]
    victim.kill()
    _, stderr = process.communicate(timeout=harness.SUBPROCESS_TIMEOUT)
    assert process.returncode == 0, stderr
    fresh = subprocess.run([*args, "-o", "fresh.jsonl", "--workers", "2"], cwd=work, env=env, capture_output=True,
                           text=True, timeout=harness.SUBPROCESS_TIMEOUT, check=False)
    assert fresh.returncode == 0, fresh.stderr
    assert (work / "out.jsonl").read_bytes() == (work / "fresh.jsonl").read_bytes()
    # The killed worker was replaced by its nanny: two worker processes again, the victim not among them.
    deadline = time.monotonic() + 30
    while len(_worker_processes(cluster[1])) < 2:
        assert time.monotonic() < deadline, "the killed worker was not replaced"
        time.sleep(0.1)
    assert victim.pid not in {worker.pid for worker in _worker_processes(cluster[1])}


def _worker_processes(pid: int) -> list[Any]:
    """The Dask worker processes of a `dask worker` command: its spawned children (each under a nanny
    in that command), not multiprocessing's resource tracker."""
    import psutil

    found = []
    for child in psutil.Process(pid).children():
        try:
            if any("spawn_main" in part for part in child.cmdline()):
                found.append(child)
        except psutil.Error:
            continue
    assert found, "no Dask worker process was found"
    return found
