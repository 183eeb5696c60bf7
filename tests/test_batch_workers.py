"""test_batch_workers - ethos batch's local worker pool: a chunk's tasks for one worker travel in one call, each task's result comes back on its own, the facts are the workers' latest; importing ethos_py stays light."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import wait
from typing import Any

from ethos_py import batch
from ethos_py.batch import DocumentTask


def _task(key: str, source: str, numbers: range) -> DocumentTask:
    lines = tuple((n, json.dumps({"id": n, "claim": source.split()[n % 3], "source": source}).encode() + b"\n")
                  for n in numbers)
    return DocumentTask(key=key, kind="inline", target=source, label="inline text", records=lines)


def test_a_chunks_tasks_for_one_worker_go_in_one_call_and_come_back_each_on_its_own(monkeypatch: Any) -> None:
    sent: list[tuple[int, int]] = []
    original = batch.ProcessPoolExecutor.submit

    def counting(self: Any, function: Any, *args: Any) -> Any:
        if function is batch._worker_run_tasks:
            sent.append((id(self), len(args[0])))
        return original(self, function, *args)

    monkeypatch.setattr(batch.ProcessPoolExecutor, "submit", counting)
    workers = batch._Workers(2, 8, slack=100)
    try:
        tasks = [_task(f"text:{k}", f"Revenue grew {k}% in 2024", range(10 * k, 10 * k + 5)) for k in range(6)]
        futures = {}
        for task in tasks:
            index = workers.choose(task)
            futures[workers.submit(index, task)] = (index, task)
        assert sent == []  # queued until flushed
        workers.flush()
        # Six tasks over two workers: two calls, three tasks each.
        assert sorted(count for _, count in sent) == [3, 3] and len({pool for pool, _ in sent}) == 2
        done, _ = wait(list(futures), timeout=120)
        assert len(done) == 6
        for future, (index, task) in futures.items():
            lines, facts = future.result()
            assert [number for number, _, _ in lines] == [number for number, _ in task.records]
            assert lines == [(n, line, facts_) for n, line, facts_ in batch._verify_task(task, batch._OpenDocuments(1))]
            workers.done(index, task, facts)
        assert all(facts["opened"] == 3 for facts in workers.facts)  # each worker's latest total, not an earlier one
        assert workers.load == [0, 0]
    finally:
        workers.close()


def test_facts_keep_the_latest_running_totals_whatever_order_results_are_seen_in() -> None:
    workers = batch._Workers.__new__(batch._Workers)
    workers.load, workers.facts = [10], [{}]
    task = _task("text:a", "Revenue grew 12% in 2024", range(5))
    workers.done(0, task, {"opened": 3, "cpu_ms": 900})
    workers.done(0, task, {"opened": 2, "cpu_ms": 700})  # an earlier task of the same call, seen later
    assert workers.facts == [{"opened": 3, "cpu_ms": 900}] and workers.load == [0]


def test_importing_ethos_py_leaves_importlib_metadata_out_and_the_version_is_still_there() -> None:
    code = ("import sys, ethos_py, ethos_py.batch; loaded = 'importlib.metadata' in sys.modules; "
            "import importlib.metadata as m; print(loaded, ethos_py.__version__ == m.version('ethos-verify'))")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.split() == ["False", "True"]
