"""test_batch_dask_window - ethos batch --engine dask sends a window of chunks at once: on a real local Dask cluster, the scheduler receives at most one task per worker per window (never one per worker per chunk), the bytes are the local engine's, and a job interrupted in the middle of a window resumes to the same bytes."""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# The test extra installs Dask's distributed: a missing one fails here rather than skipping the engine's tests.
import distributed
from distributed.diagnostics.plugin import SchedulerPlugin

from ethos_py.batch import run_batch

WORKERS = 2
WINDOW = WORKERS + 1  # chunks per window: one per worker, plus one (ethos_py.distributed)
DOCUMENTS = 12


class _TaskLog(SchedulerPlugin):
    """Runs in the scheduler: every batch task (``_run_on_worker``) it was given, by key."""

    name = "ethos-test-task-log"

    def __init__(self) -> None:
        self.keys: set[str] = set()

    def transition(self, key: Any, start: str, finish: str, *args: Any, **kwargs: Any) -> None:
        if finish == "waiting" and str(key).startswith("_run_on_worker-"):
            self.keys.add(str(key))


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[str, Any]]:
    """A real local Dask cluster of 2 worker processes (one thread each), its scheduler logging the tasks it receives."""
    with distributed.LocalCluster(n_workers=WORKERS, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=logging.ERROR) as local:
        with distributed.Client(local) as client:
            client.wait_for_workers(WORKERS, timeout=60)
            local.scheduler.add_plugin(_TaskLog())
            yield local.scheduler_address, client


def _tasks(client: Any) -> int:
    """How many batch tasks the scheduler has received so far (read on the scheduler)."""
    return int(client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.plugins[_TaskLog.name].keys)))


@pytest.fixture(scope="module")
def job(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """12 text documents and 150 claims interleaved across them (as an audit log in time order), some not grounded."""
    root = tmp_path_factory.mktemp("window")
    (root / "corpus").mkdir()
    for n in range(DOCUMENTS):
        (root / "corpus" / f"report-{n:02d}.md").write_text(
            f"# Report {n}\n\nUnit {n} revenue grew {n + 3}% in 2024.\n\nUnit {n} opened {n + 40} stores.\n")
    records = []
    for i in range(150):
        n = (i * 7 + i // 5) % DOCUMENTS  # every chunk reaches several documents, on both workers
        claim = f"Unit {n} revenue grew {n + 3}% in 2024" if i % 3 else f"Unit {n} opened {n + 41} stores"
        records.append(json.dumps({"id": i, "claim": claim, "document": f"report-{n:02d}.md"}))
    records[11] = "not JSON"
    (root / "claims.jsonl").write_text("\n".join(records) + "\n")
    return root


def _local(job: Path, chunk_records: int) -> tuple[bytes, bytes]:
    out = job / f"local-{chunk_records}.jsonl"
    if not out.exists():
        run_batch(str(job / "claims.jsonl"), str(job / "corpus"), str(out), workers=WORKERS, chunk_records=chunk_records,
                  summary=_summary(out))
    return out.read_bytes(), Path(_summary(out)).read_bytes()


def _summary(out: Path) -> str:
    return str(out.with_suffix(".summary.json"))


@pytest.mark.parametrize("chunk_records", [4, 7])
def test_interleaved_claims_over_many_chunks_give_the_local_bytes_one_task_per_worker_per_window(
        job: Path, cluster: tuple[str, Any], chunk_records: int) -> None:
    address, client = cluster
    before = _tasks(client)
    out = job / f"dask-{chunk_records}.jsonl"
    stats = run_batch(str(job / "claims.jsonl"), str(job / "corpus"), str(out), engine="dask", address=address,
                      chunk_records=chunk_records, summary=_summary(out))
    sent = _tasks(client) - before
    assert (out.read_bytes(), (job / f"dask-{chunk_records}.summary.json").read_bytes()) == _local(job, chunk_records)
    lines = [json.loads(line) for line in out.read_bytes().splitlines()]
    assert len(lines) == 150 and "error" in lines[11]["ethos"]
    assert {line["ethos"]["status"] for line in lines} >= {"grounded", "error"} and stats.counts["grounded"] < 149
    chunks = math.ceil(150 / chunk_records)  # 38 or 22, each reaching both workers
    # At most one Dask task per worker per window of (workers + 1) chunks; sent chunk by chunk it was about one
    # per worker per chunk (2 x chunks).
    assert 0 < sent <= WORKERS * math.ceil(chunks / WINDOW) < chunks


def test_the_task_count_follows_the_windows_not_the_chunks(job: Path, cluster: tuple[str, Any]) -> None:
    """Ten times the chunks (chunk size 2 against 20): the scheduler receives tasks in proportion to the windows,
    and fewer tasks than chunks plus workers, the bound ethos_py.distributed states."""
    address, client = cluster
    counts = {}
    for chunk_records in (2, 20):
        before = _tasks(client)
        run_batch(str(job / "claims.jsonl"), str(job / "corpus"), str(job / f"count-{chunk_records}.jsonl"),
                  engine="dask", address=address, chunk_records=chunk_records)
        counts[chunk_records] = _tasks(client) - before
        chunks = math.ceil(150 / chunk_records)
        assert counts[chunk_records] <= WORKERS * math.ceil(chunks / WINDOW) < chunks + WORKERS, chunk_records
    assert counts[2] <= 2 * math.ceil(75 / WINDOW)  # 50 tasks for 75 chunks (old: about 150)
    assert (job / "count-2.jsonl").read_bytes() == (job / "count-20.jsonl").read_bytes()


class _Interrupted(Exception):
    pass


def test_a_job_interrupted_in_the_middle_of_a_window_resumes_to_the_same_bytes(
        job: Path, cluster: tuple[str, Any], tmp_path: Path) -> None:
    address, client = cluster
    chunk_records = 4
    chunks = math.ceil(150 / chunk_records)
    claims, out = str(job / "claims.jsonl"), str(tmp_path / "out.jsonl")
    journal = tmp_path / ".out.jsonl.ethos-batch" / "journal.jsonl"
    seen: dict[str, set[int]] = {}

    def committed() -> set[int]:
        if not journal.exists():
            return set()
        return {json.loads(line)["chunk"] for line in journal.read_bytes().splitlines()[1:]}

    def interrupt(done: int, total: int) -> None:
        # Stop once a window is partly committed: some of its chunks are in the journal, others are not.
        indexes = committed()
        windows = {index // WINDOW for index in indexes}
        if any(0 < len({i for i in indexes if i // WINDOW == w}) < WINDOW for w in windows):
            seen["committed"] = indexes
            raise _Interrupted

    with pytest.raises(_Interrupted):
        run_batch(claims, str(job / "corpus"), out, engine="dask", address=address, chunk_records=chunk_records,
                  progress=interrupt, summary=_summary(Path(out)))
    kept = seen["committed"]
    assert 0 < len(kept) < chunks and not (tmp_path / "out.jsonl").exists()
    before = _tasks(client)
    stats = run_batch(claims, str(job / "corpus"), out, engine="dask", address=address, chunk_records=chunk_records,
                      resume=True, summary=_summary(Path(out)))
    sent = _tasks(client) - before
    assert stats.resumed == sum(min(chunk_records, 150 - i * chunk_records) for i in kept)
    assert ((tmp_path / "out.jsonl").read_bytes(), (tmp_path / "out.summary.json").read_bytes()) == _local(job, chunk_records)
    # The chunks left are sent window by window too.
    assert 0 < sent <= WORKERS * math.ceil((chunks - len(kept)) / WINDOW)
