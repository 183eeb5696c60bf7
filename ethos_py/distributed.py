"""distributed - ``ethos batch --engine dask``: the batch's document tasks run on a Dask cluster, local or remote.

The parent process plans, orders and commits exactly as with the local engine (``ethos_py.batch``);
only where a ``DocumentTask`` runs changes, and how tasks travel: a window of workers + 1 chunks at
a time, one Dask task per worker (a Dask task costs the scheduler far more than a local call). A
task travels as plain data - its claims' lines and the document's path - and the worker opens the
document itself from the shared corpus path (through its parse cache), keeping it open in a
per-process LRU across tasks, as a local worker does; parsed documents never cross the network.
With no address a local cluster of ``workers`` processes is started and stopped with the job;
with one (``tcp://host:8786``) the job connects to the scheduler running there. Dask is an
optional extra (``pip install 'ethos-verify[distributed]'``), imported only when this engine is
asked for; ``run_batch(..., engine="dask", address=...)`` is the Python entry point.

    >>> ENGINES, INSTALL_HINT
    (('local', 'dask'), "pip install 'ethos-verify[distributed]'")
"""

from __future__ import annotations

import functools
import os
import threading
import time
from concurrent.futures import CancelledError, Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from . import batch
from .batch import BatchError, DocumentTask

__all__ = ["ENGINES", "INSTALL_HINT"]

#: The engines ``ethos batch --engine`` accepts.
ENGINES = ("local", "dask")
#: What a user runs when the engine's package is missing.
INSTALL_HINT = "pip install 'ethos-verify[distributed]'"

# A worker process's lock: a Dask worker may run several threads, and one open-document cache
# (and the documents in it) serves one task at a time.
_LOCK = threading.Lock()


def _run_on_worker(tasks: list[DocumentTask], open_documents: int) -> list[tuple[list[Any], dict[str, Any]]]:
    """Runs in a Dask worker: ``ethos_py.batch``'s worker step for each task, with a process-wide
    open-document cache created on first use (a Dask worker has no initializer of ours) and the
    worker named in the facts."""
    try:
        from distributed import get_worker

        name = get_worker().address
    except (ImportError, ValueError):
        name = str(os.getpid())
    results = []
    with _LOCK:
        if batch._WORKER is None:
            batch._WORKER = batch._OpenDocuments(open_documents)
        for task in tasks:
            lines, facts = batch._worker_run(task)
            results.append((lines, {**facts, "worker": name}))
    return results


class _DaskWorkers:
    """``ethos_py.batch``'s scheduler interface over a Dask cluster: a document's tasks are sent to
    the worker that has it open (a loose restriction: Dask may still move them when that worker is
    gone), and Dask futures are seen as ``concurrent.futures`` ones.

        >>> _DaskWorkers.lost_errors
        (<class 'concurrent.futures.process.BrokenProcessPool'>, <class 'concurrent.futures._base.CancelledError'>)
    """

    lost_errors = (BrokenProcessPool, CancelledError)

    def __init__(self, count: int, open_documents: int, slack: int, address: str | None = None,
                 timeout: float = 10.0) -> None:
        import importlib
        import logging

        try:
            # Held as Any: Dask's classes carry no complete type information.
            dask: Any = importlib.import_module("distributed")
        except ImportError:
            raise BatchError("--engine", f"the dask engine needs Dask's distributed package: {INSTALL_HINT}") from None
        self.open_documents, self.slack = open_documents, slack
        self.cluster: Any = None
        if address is None:
            # Processes, one thread each: PDFium and the native library are used by one thread per process.
            # Dask's sampling profiler (every 10 ms in each worker) costs about a fifth of a worker's CPU
            # on this workload, and work stealing would undo the document affinity chosen here.
            config: Any = importlib.import_module("dask.config")
            with config.set({"distributed.worker.profile.enabled": False,
                             "distributed.scheduler.work-stealing": False}):
                self.cluster = dask.LocalCluster(n_workers=count, threads_per_worker=1, processes=True,
                                                 dashboard_address=None, silence_logs=logging.ERROR)
            self.client: Any = dask.Client(self.cluster)
        else:
            try:
                self.client = dask.Client(address, timeout=timeout)
            except (OSError, TimeoutError) as error:
                raise BatchError("--address", f"no Dask scheduler answered at {address} within {timeout:g} s ({error}); "
                                 "start one with `dask scheduler` and workers with `dask worker ADDRESS`, or "
                                 "check the address and the network", address=address) from None
        try:
            self.client.wait_for_workers(1, timeout=timeout)
        except (OSError, TimeoutError):
            self.close()
            raise BatchError("--address", f"the Dask cluster at {address} has no worker after {timeout:g} s; "
                             "start some with `dask worker ADDRESS --nthreads 1`", address=address) from None
        self.addresses: list[str] = []
        self.load: list[int] = []
        self.refreshed = 0.0
        self._refresh()
        self.home: dict[str, int] = {}
        self.by_worker: dict[str, dict[str, int]] = {}
        self.retired: list[dict[str, int]] = []
        self.queued: dict[int, list[tuple[DocumentTask, Future[Any]]]] = {}
        # A window of one chunk per worker, plus one, is sent at once: each worker gets ONE Dask task
        # per window holding its documents' records of all those chunks (about one chunk's worth of
        # records, whatever the claim order), so a job makes fewer Dask tasks than chunks + workers
        # instead of up to chunks x workers. The driver keeps two windows in flight, 2 x (workers + 1)
        # chunks: the same bound on records held as sending chunk by chunk.
        self.window_chunks = self.count + 1

    @property
    def facts(self) -> list[dict[str, int]]:
        """The latest facts each worker reported, in worker order."""
        return [self.by_worker[name] for name in sorted(self.by_worker)]

    @property
    def count(self) -> int:
        """Workers seen so far (a worker that left keeps its place: Dask sends its tasks elsewhere)."""
        return len(self.addresses)

    def _refresh(self) -> None:
        # Workers joining a running cluster take part from their first second, not the next job.
        self.refreshed = time.monotonic()
        for address in sorted(self.client.scheduler_info()["workers"]):
            if address not in self.addresses:
                self.addresses.append(address)
                self.load.append(0)

    def choose(self, task: DocumentTask) -> int:
        """The worker for a task: its document's worker unless that one is far busier than the idlest."""
        if time.monotonic() - self.refreshed > 1.0:
            self._refresh()
        idlest = min(range(self.count), key=lambda i: (self.load[i], i))
        home = self.home.get(task.key)
        if home is None or self.load[home] > self.load[idlest] + self.slack:
            home = self.home[task.key] = idlest
        return home

    def submit(self, index: int, task: DocumentTask) -> Future[Any]:
        """Queues a task for worker ``index`` (sent by ``flush``); its lines and the worker's facts
        come back in the future."""
        self.load[index] += len(task.records)
        result: Future[Any] = Future()
        self.queued.setdefault(index, []).append((task, result))
        return result

    def flush(self) -> None:
        """Sends the queued tasks, one Dask task per worker: a Dask task costs a few milliseconds of
        scheduling, as much as verifying dozens of claims, so a window's tasks for one worker travel together."""
        queued, self.queued = self.queued, {}
        for index, entries in sorted(queued.items()):
            remote = self.client.submit(_run_on_worker, [task for task, _ in entries], self.open_documents,
                                        pure=False, workers=[self.addresses[index]], allow_other_workers=True)
            remote.add_done_callback(functools.partial(_settled, [result for _, result in entries]))

    def stop(self) -> None:
        """The job's tasks are done: nothing to start here, ``close`` disconnects."""

    def close(self) -> None:
        """Disconnects; a cluster started for the job is stopped with its workers."""
        for entries in self.queued.values():
            for _, result in entries:
                result.cancel()
        self.queued = {}
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()

    def done(self, index: int, task: DocumentTask, facts: dict[str, Any] | None) -> None:
        """A task of worker ``index`` ended (``facts``: what the worker reported, ``None`` if lost)."""
        self.load[index] -= len(task.records)
        if facts is not None:
            facts = dict(facts)
            self.by_worker[str(facts.pop("worker"))] = facts

    def lost(self, index: int) -> None:
        """A task's worker died: Dask's nanny starts a new one, nothing to do here."""


def _settled(results: list[Future[Any]], remote: Any) -> None:
    """Called on the client's thread once a Dask task ended: its outcome becomes each queued task's."""
    if remote.status == "finished":
        try:
            values = remote.result()
        except Exception as error:  # the value could not be fetched: the worker holding it died
            failure: BaseException = BrokenProcessPool(str(error))
        else:
            for result, value in zip(results, values):
                result.set_result(value)
            return
    else:
        raised = remote.exception() if remote.status == "error" else None
        if raised is None or type(raised).__name__ == "KilledWorker":
            # Workers died running it (Dask retried it elsewhere first): the batch's own retry decides.
            failure = BrokenProcessPool(str(raised or remote.status))
        else:
            failure = BatchError("--engine", f"a Dask worker failed the task ({type(raised).__name__}: {raised}); every "
                                 "worker needs this version of ethos installed and the corpus at the same path")
    for result in results:
        result.set_exception(failure)
