"""engine_overhead.py - Dask and Ray measured on ``ethos batch``'s workload shape: cluster start, per-task overhead, memory.

    python benchmarks/engine_overhead.py [--tasks 2000] [--engines dask,ray]

For each engine (installed): the seconds to start a local cluster of 2 worker processes and
connect, the per-task round trip of a tiny task (submit, run, result back; ``--tasks`` of them,
all in flight), the bytes one ``DocumentTask`` of 50 claims takes on the wire (what ``ethos
batch`` ships: the claims and the document's path, never the parsed document) next to the bytes
of a parsed 4-page document (what shipping documents would cost), the resident memory of the
whole cluster (every process it started) after the tasks, and the seconds to stop it. Numbers for
this machine at this moment; docs/scale.md records a run.
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import time
from typing import Any


def _tiny(value: int) -> int:
    return value + 1


def _tree_rss(pids: list[int]) -> int:
    import psutil

    total = 0
    for pid in pids:
        try:
            process = psutil.Process(pid)
            family = [process, *process.children(recursive=True)]
        except psutil.Error:
            continue
        for member in family:
            try:
                total += member.memory_info().rss
            except psutil.Error:
                pass
    return total


def measure_dask(tasks: int) -> dict[str, Any]:
    from distributed import Client, LocalCluster

    started = time.perf_counter()
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    client.wait_for_workers(2)
    startup = time.perf_counter() - started
    client.gather(client.map(_tiny, range(10), pure=False))  # warmed
    started, cpu = time.perf_counter(), time.process_time()
    futures = [client.submit(_tiny, i, pure=False) for i in range(tasks)]
    client.gather(futures)
    per_task = (time.perf_counter() - started) / tasks
    # The scheduler of a LocalCluster runs in this process, beside the client: this process's CPU
    # time per task is what one task costs the scheduler and the client together.
    scheduler_cpu = (time.process_time() - cpu) / tasks
    pids = [os.getpid(), *[worker.process.pid for worker in cluster.workers.values()]]  # type: ignore[attr-defined]
    rss = _tree_rss([pid for pid in pids if pid])
    started = time.perf_counter()
    client.close()
    cluster.close()
    return {"startup_s": startup, "per_task_ms": per_task * 1000, "scheduler_cpu_ms": scheduler_cpu * 1000,
            "cluster_rss_mib": rss / 2**20, "stop_s": time.perf_counter() - started}


def measure_ray(tasks: int) -> dict[str, Any]:
    import psutil
    import ray

    before = {p.pid for p in psutil.process_iter()}
    started = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    tiny = ray.remote(num_cpus=1)(_tiny)
    ray.get([tiny.remote(i) for i in range(2)])  # the first tasks start the worker processes
    startup = time.perf_counter() - started
    ray.get([tiny.remote(i) for i in range(10)])
    started = time.perf_counter()
    ray.get([tiny.remote(i) for i in range(tasks)])
    per_task = (time.perf_counter() - started) / tasks
    started_pids = [p.pid for p in psutil.process_iter() if p.pid not in before]
    rss = _tree_rss([os.getpid(), *started_pids])
    started = time.perf_counter()
    ray.shutdown()
    return {"startup_s": startup, "per_task_ms": per_task * 1000, "cluster_rss_mib": rss / 2**20,
            "stop_s": time.perf_counter() - started}


def wire_sizes() -> dict[str, int]:
    """Bytes of a 50-claim task as shipped, and of the parsed document a task names."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from ethos_py.batch import DocumentTask

    def line(n: int) -> bytes:
        return b'{"id": %d, "claim": "Revenue of the northern region grew 12%% in 2024", "document": "doc-0042.pdf"}\n' % n

    task = DocumentTask(key="path:/corpus/doc-0042.pdf", kind="document", target="/corpus/doc-0042.pdf",
                        label="doc-0042.pdf", records=tuple((n, line(n)) for n in range(50)))
    sizes = {"task_50_claims_bytes": len(pickle.dumps(task))}
    example = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "quickstart", "document.json")
    if os.path.exists(example):
        sizes["parsed_document_bytes_example"] = os.path.getsize(example)
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=2000)
    parser.add_argument("--engines", default="dask,ray")
    args = parser.parse_args()
    print(f"wire: {wire_sizes()}")
    print("| engine | start 2 workers s | per task ms | cluster RSS MiB | stop s |")
    print("|---|---:|---:|---:|---:|")
    for engine in args.engines.split(","):
        try:
            facts = {"dask": measure_dask, "ray": measure_ray}[engine](args.tasks)
        except ImportError as error:
            print(f"| {engine} | not installed ({error}) | | | |")
            continue
        print(f"| {engine} | {facts['startup_s']:.2f} | {facts['per_task_ms']:.2f} | {facts['cluster_rss_mib']:.0f} | "
              f"{facts['stop_s']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
