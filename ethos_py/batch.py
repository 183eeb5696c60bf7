"""batch - ``ethos batch``'s engine: claims of a whole corpus verified on every core, in input order, crash-safe and resumable.

A record is a ``verify-jsonl`` record (``ethos_py.jsonl_pipeline``: ``claim``, optional ``kind`` and
``citation``) whose ``document`` names a file of the corpus: an id of the corpus manifest, a
path under the corpus directory, or a document fingerprint (``sha256:...``). The input is cut
into chunks of records (by position); each chunk's records are grouped by document into
``DocumentTask`` values, and ``verify_document_task`` - a pure function of the task, the unit a
distributed engine can run as well - turns one task into result lines. Here tasks run in worker
processes (spawned, never forked: PDFium and the native library must not be copied mid-use), each
keeping a bounded LRU of open, indexed documents; a document's tasks go to the worker that has it
open. The parent commits each finished chunk atomically (chunk file, fsync, rename, then a journal
line) in a work directory beside the output, so ``resume`` skips what is committed; the output is
the chunks concatenated in order, written atomically, byte-identical whatever the worker count,
chunking or interruptions. The work directory is ``ethos_py.batch_journal``'s; the corpus-level
answers are ``ethos_py.batch_summary``'s (``summarize``, re-exported here).
"""

from __future__ import annotations

import errno
import functools
import hashlib
import json
import os
import resource
import shutil
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from .batch_journal import ForeignJob, _digest, _Journal
from .batch_summary import _facts, _Summary, summarize
from .jsonl_pipeline import _OPEN_FAILURES, _error, _output_line, _read_record, _Sources, _verify_planned, open_target

__all__ = [
    "BatchError",
    "BatchStats",
    "Corpus",
    "DocumentTask",
    "run_batch",
    "summarize",
    "verify_document_task",
]

#: Records per committed chunk (part of the job's identity: a resumed job keeps its chunking).
DEFAULT_CHUNK_RECORDS = 1000
#: Open documents each worker keeps (least recently used closed first).
DEFAULT_OPEN_DOCUMENTS = 64


class BatchError(ValueError):
    """A job that cannot run: ``argument`` names the input at fault, ``reason`` says what to do.

        >>> str(BatchError("--corpus", "no such file or directory"))
        '--corpus: no such file or directory'
    """

    def __init__(self, argument: str, reason: str, **details: Any) -> None:
        super().__init__(f"{argument}: {reason}")
        self.argument, self.reason, self.details = argument, reason, details


class Corpus:
    """The documents a job's records may name: a directory (``document`` is a path under it) or a
    manifest ``{"documents": {"<id>": "<path relative to the manifest>"}}`` (an id, or a path under
    the manifest's directory); a ``sha256:`` value is a document fingerprint, looked up by opening
    the corpus's documents (through the parse cache) the first time one is asked for.

        >>> corpus = Corpus("examples/quickstart")
        >>> os.path.basename(corpus.path("document.json"))
        'document.json'
        >>> corpus.path("../README.md")
        Traceback (most recent call last):
        ...
        ValueError: document '../README.md' is not a file under the corpus
    """

    def __init__(self, location: str, grounding: str | None = None) -> None:
        self.location, self.grounding = location, grounding
        self.ids: dict[str, str] = {}
        if os.path.isdir(location):
            self.root = os.path.realpath(location)
        elif os.path.isfile(location):
            from .jsonl_pipeline import JsonlError, _corpus

            try:
                self.ids = _corpus(location)
            except (ValueError, JsonlError) as error:
                raise BatchError("--corpus", getattr(error, "reason", None) or f"not JSON: {error}") from None
            self.root = os.path.realpath(os.path.dirname(os.path.abspath(location)))
        else:
            raise BatchError("--corpus", "no such directory or manifest file")
        self._fingerprints: dict[str, str] | None = None

    def path(self, value: str) -> str:
        """The file ``value`` names (``ValueError`` when none)."""
        if value in self.ids:
            return self.ids[value]
        if value.startswith("sha256:"):
            found = self.fingerprints().get(value)
            if found is None:
                raise ValueError(f"no document of the corpus has the fingerprint {value}")
            return found
        path = os.path.realpath(os.path.join(self.root, value))
        if not path.startswith(self.root + os.sep) or not os.path.isfile(path):
            if self.ids:
                raise ValueError(f"document {value!r} is neither an id of the corpus manifest nor a file under its directory")
            raise ValueError(f"document {value!r} is not a file under the corpus")
        return path

    def files(self) -> list[str]:
        """Every document of the corpus, sorted: the manifest's, else every file under the directory."""
        if self.ids:
            return sorted(set(self.ids.values()))
        found = []
        for directory, subdirectories, names in os.walk(self.root):
            subdirectories[:] = sorted(d for d in subdirectories if not d.startswith("."))
            found += [os.path.join(directory, name) for name in names if not name.startswith(".")]
        return sorted(found)

    def fingerprints(self) -> dict[str, str]:
        """Fingerprint -> file of every corpus document that opens (computed once)."""
        if self._fingerprints is None:
            self._fingerprints = {}
            for path in self.files():
                try:
                    document = open_target("path", path, self.grounding)
                except _OPEN_FAILURES:
                    continue  # not a document: it cannot be the one a fingerprint names
                with document:
                    if document.fingerprint is not None:
                        self._fingerprints.setdefault(document.fingerprint, path)
        return self._fingerprints

    def label(self, path: str) -> str:
        """How results and the summary name a document: its path relative to the corpus."""
        return os.path.relpath(path, self.root)


class _CorpusSources(_Sources):
    """verify-jsonl's source rules with ``document`` resolved against a ``Corpus``."""

    def __init__(self, base: str, corpus: Corpus, grounding: str | None) -> None:
        super().__init__(base, {}, grounding)
        self.corpus_files = corpus
        self.resolved: dict[tuple[str, str], tuple[str, str, str] | str] = {}

    def document_path(self, value: str) -> str:
        return self.corpus_files.path(value)

    def key(self, record: Mapping[str, Any]) -> tuple[str, str, str]:
        """``_Sources.key``, resolved once per distinct file name: a million records name a few
        thousand documents, and resolving a path (realpath, stat) costs more than verifying."""
        given = [name for name in ("source", "source_path", "document") if name in record]
        value = record[given[0]] if len(given) == 1 else None
        if not isinstance(value, str) or given[0] == "source":
            return super().key(record)
        found = self.resolved.get((given[0], value))
        if found is None:
            try:
                found = super().key(record)
            except ValueError as error:
                found = str(error)
            self.resolved[(given[0], value)] = found
        if isinstance(found, str):
            raise ValueError(found)
        return found


@dataclass(frozen=True)
class DocumentTask:
    """One document and some of its records: what ``verify_document_task`` turns into result lines.

    ``records`` are (input line number, the line's bytes); ``kind`` and ``target`` say how to open
    the document (``"inline"`` and the text, or a path kind and the file) and ``label`` how results
    name it. Everything is plain data, so a task can travel to another process or machine.

        >>> DocumentTask(key="text:x", kind="inline", target="Revenue grew 12%.", label="inline text",
        ...              records=((1, b'{"claim": "grew 12%"}\\n'),)).records[0][0]
        1
    """

    key: str
    kind: str
    target: str
    label: str
    records: tuple[tuple[int, bytes], ...]
    policy: str | bytes | None = None
    grounding: str | None = None
    replace_existing: bool = False
    parse_options: tuple[tuple[str, Any], ...] = ()


@dataclass
class BatchStats:
    """Runtime facts of a run (never part of the output or the summary): records, how many were
    verified now and how many were already committed, elapsed seconds, documents opened, parse
    cache hits and misses, each worker's peak resident memory in bytes, and the CPU time of this
    process and of each worker (with the ethos-core processes it started).

        >>> BatchStats(records=10, verified=10, seconds=2.0).records_per_second
        5.0
    """

    records: int = 0
    verified: int = 0
    resumed: int = 0
    seconds: float = 0.0
    workers: int = 1
    documents_opened: int = 0
    parse_cache_hits: int = 0
    parse_cache_misses: int = 0
    worker_peak_rss_bytes: list[int] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    parent_cpu_seconds: float = 0.0
    worker_cpu_seconds: list[float] = field(default_factory=list)

    @property
    def records_per_second(self) -> float:
        """Records verified in this run per second of its wall time (0.0 before it ends)."""
        return self.verified / self.seconds if self.seconds > 0 else 0.0

    def as_json(self) -> dict[str, Any]:
        """The facts as a JSON object (``--stats``).

            >>> BatchStats(records=4, verified=4, seconds=1.0, parse_cache_hits=3, parse_cache_misses=1).as_json()["parse_cache"]
            {'hits': 3, 'misses': 1, 'hit_rate': 0.75}
        """
        parses = self.parse_cache_hits + self.parse_cache_misses
        return {"records": self.records, "verified": self.verified, "resumed": self.resumed,
                "seconds": round(self.seconds, 3), "records_per_second": round(self.records_per_second, 1),
                "workers": self.workers, "documents_opened": self.documents_opened,
                "parse_cache": {"hits": self.parse_cache_hits, "misses": self.parse_cache_misses,
                                "hit_rate": round(self.parse_cache_hits / parses, 4) if parses else None},
                "worker_peak_rss_bytes": self.worker_peak_rss_bytes, "counts": dict(sorted(self.counts.items())),
                "cpu_seconds": {"parent": round(self.parent_cpu_seconds, 3),
                                "workers": [round(value, 3) for value in self.worker_cpu_seconds]}}


# ----------------------------------------------------------------------------- the per-document task

class _OpenDocuments:
    """A worker's open documents, least recently used closed first, with what opening them cost."""

    def __init__(self, capacity: int) -> None:
        self.capacity = max(1, capacity)
        self.open: OrderedDict[str, tuple[Any, dict[str, Any]]] = OrderedDict()
        self.opened = self.hits = self.misses = 0

    def get(self, task: DocumentTask) -> tuple[Any, dict[str, Any]]:
        if task.key in self.open:
            self.open.move_to_end(task.key)
            return self.open[task.key]
        document = self._open(task)
        entry = (document, {"source": task.label, "document_fingerprint": document.fingerprint})
        self.open[task.key] = entry
        self.opened += 1
        while len(self.open) > self.capacity:
            _, (old, _) = self.open.popitem(last=False)
            old.close()
        return entry

    def _open(self, task: DocumentTask) -> Any:
        options = dict(task.parse_options)
        if task.kind != "inline" and _is_pdf(task.target):
            # A PDF's parse with the diagnostics ethos-core adds (cache hit or miss), which are
            # taken out again before the document is loaded: they are never part of a document.
            from .document import Document
            from .pdf import parse_pdf_bytes

            parsed = parse_pdf_bytes(task.target, diagnostics=True, **options)
            parsed, cache = _without_diagnostics(parsed)
            if cache == "hit":
                self.hits += 1
            elif cache == "miss":
                self.misses += 1
            return Document.from_bytes(parsed, "ethos-native")
        return open_target(task.kind, task.target, task.grounding, options)

    def close(self) -> None:
        while self.open:
            _, (document, _) = self.open.popitem()
            document.close()


def _is_pdf(path: str) -> bool:
    with open(path, "rb") as handle:
        return b"%PDF-" in handle.read(1024)


def _without_diagnostics(parsed: bytes) -> tuple[bytes, str | None]:
    """The document bytes without the top-level ``diagnostics`` member ethos-core inserted (it
    inserts ``"diagnostics":{...},`` by its sorted key, so it is cut out byte for byte) and the
    cache outcome it reported."""
    marker = b'"diagnostics":'
    start = parsed.find(marker)
    if start < 0:
        return parsed, None
    decoder = json.JSONDecoder()
    text = parsed.decode("utf-8")
    char_start = len(parsed[:start].decode("utf-8"))
    value, end = decoder.raw_decode(text, char_start + len(marker))
    if text[end:end + 1] == ",":
        end += 1
    cut = (text[:char_start] + text[end:]).encode("utf-8")
    return cut, value.get("cache") if isinstance(value, dict) else None


def verify_document_task(task: DocumentTask, documents: Any = None) -> list[tuple[int, bytes]]:
    """Result lines (input line number, the output line) of a task's records, in the task's order:
    each record with its verdict under ``ethos``, or an error when the document cannot be opened.
    ``documents`` is a worker's open-document cache (``None``: opened and closed here); the lines
    depend on the task alone.

        >>> task = DocumentTask(key="text:x", kind="inline", target="Revenue grew 12% in 2024.", label="inline text",
        ...                     records=((3, b'{"id": 1, "claim": "grew 12%", "source": "Revenue grew 12% in 2024."}\\n'),))
        >>> [(number, json.loads(line)["ethos"]["status"]) for number, line in verify_document_task(task)]
        [(3, 'grounded')]
    """
    owned = documents is None
    cache = _OpenDocuments(1) if owned else documents
    try:
        return [(number, line) for number, line, _ in _verify_task(task, cache)]
    finally:
        if owned:
            cache.close()


def _verify_task(task: DocumentTask, cache: _OpenDocuments) -> list[tuple[int, bytes, tuple[Any, ...]]]:
    records: list[tuple[int, dict[str, Any]]] = []
    planned: list[tuple[int, dict[str, Any]]] = []
    verdicts: dict[int, dict[str, Any]] = {}
    for number, line in task.records:
        record, claim, problem = _read_record(number, line, task.replace_existing)
        records.append((number, record))
        if claim is None:
            verdicts[number] = problem or _error(number, "unreadable record")
        else:
            planned.append((number, claim))
    if planned:
        try:
            document, described = cache.get(task)
        except _OPEN_FAILURES as error:
            for number, _ in planned:
                verdicts[number] = {**_error(number, f"the source cannot be opened: {error}"), "source": task.label}
        else:
            checked, refused = _verify_planned(document, planned, described, task.policy)
            verdicts.update(checked)
            verdicts.update((number, _error(number, reason)) for number, reason in refused.items())
    return [_result(number, record, verdicts[number]) for number, record in records]


def _result(number: int, record: Mapping[str, Any], verdict: Mapping[str, Any]) -> tuple[int, bytes, tuple[Any, ...]]:
    """A record's output line and its summary facts."""
    return number, _output_line(record, verdict), _facts({**record, "ethos": verdict})


# The worker process's state: one open-document cache for the life of the process.
_WORKER: _OpenDocuments | None = None


def _worker_start(capacity: int, parent: int) -> None:
    global _WORKER
    _WORKER = _OpenDocuments(capacity)

    # A pool worker never learns that its parent was killed (it waits on a queue the parent can no
    # longer write): it watches for being orphaned and ends itself.
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _worker_ready() -> None:
    """A worker's first task, sent at its start so that its process starts then."""


def _worker_run_tasks(tasks: list[DocumentTask]) -> list[tuple[list[tuple[int, bytes, tuple[Any, ...]]], dict[str, int]]]:
    """A worker's call: several tasks (a chunk's for this worker), each with its lines and facts."""
    return [_worker_run(task) for task in tasks]


def _fan_out(results: list[Future[Any]], remote: Future[Any]) -> None:
    """A worker call ended: each task's future gets its value, or the call's failure (the worker
    died, or its pool was shut down: the scheduler's retry decides)."""
    try:
        values = remote.result()
    except BaseException as error:  # noqa: BLE001 - handed on, raised again where the task is awaited
        for result in results:
            result.set_exception(error)
        return
    for result, value in zip(results, values):
        result.set_result(value)


def _worker_run(task: DocumentTask) -> tuple[list[tuple[int, bytes, tuple[Any, ...]]], dict[str, int]]:
    assert _WORKER is not None
    lines = _verify_task(task, _WORKER)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)  # ethos-core reading the cache or parsing
    facts = {"opened": _WORKER.opened, "hits": _WORKER.hits, "misses": _WORKER.misses,
             "peak_rss_bytes": usage.ru_maxrss * 1024,
             "cpu_ms": int((usage.ru_utime + usage.ru_stime + children.ru_utime + children.ru_stime) * 1000)}
    return lines, facts


# ----------------------------------------------------------------------------- planning

@dataclass
class _Chunk:
    index: int
    numbers: list[int]
    lines: dict[int, bytes]
    tasks: list[DocumentTask]
    pending: int = 0
    facts: dict[int, tuple[Any, ...]] = field(default_factory=dict)

    def add(self, results: Iterable[tuple[int, bytes, tuple[Any, ...]]]) -> None:
        for number, line, facts in results:
            self.lines[number] = line
            self.facts[number] = facts


def _input_records(path: str) -> Iterator[tuple[int, bytes]]:
    with open(path, "rb") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                yield number, line if line.endswith(b"\n") else line + b"\n"


def _plan_chunk(index: int, records: Sequence[tuple[int, bytes]], sources: _CorpusSources, corpus: Corpus,
                options: Mapping[str, Any]) -> _Chunk:
    """A chunk's records: the ones that cannot be verified get their error line now, the others
    are grouped by document (in order of first appearance) into tasks."""
    chunk = _Chunk(index, [number for number, _ in records], {}, [])
    groups: dict[str, list[tuple[int, bytes]]] = {}
    targets: dict[str, tuple[str, str]] = {}
    for number, line in records:
        record, claim, problem = _read_record(number, line, options["replace_existing"])
        if claim is None:
            chunk.add([_result(number, record, problem or _error(number, "unreadable record"))])
            continue
        try:
            key, kind, target = sources.key(record)
        except ValueError as error:
            chunk.add([_result(number, record, _error(number, str(error)))])
            continue
        groups.setdefault(key, []).append((number, line))
        targets[key] = (kind, target)
    for key, group in groups.items():
        kind, target = targets[key]
        if kind == "inline":
            label = "inline text"
        elif kind == "document":
            label = corpus.label(target)
        else:
            label = os.path.relpath(target, sources.base)
        chunk.tasks.append(DocumentTask(key=key, kind=kind, target=target, label=label, records=tuple(group),
                                        policy=options["policy"], grounding=options["grounding"],
                                        replace_existing=options["replace_existing"],
                                        parse_options=tuple(sorted(options["parse_options"].items()))))
    return chunk


# ----------------------------------------------------------------------------- scheduling

class _Workers:
    """Worker processes, one single-process pool each so a document's tasks can follow the worker
    that has it open; a task goes elsewhere only when its worker is far busier than the idlest.
    ``ethos_py.distributed._DaskWorkers`` offers the same interface over a Dask cluster."""

    #: A task's future raises one of these when the worker running it died.
    lost_errors: tuple[type[BaseException], ...] = (BrokenProcessPool, CancelledError)
    #: Consecutive chunks whose tasks are sent together: each chunk on its own, as soon as it is planned.
    window_chunks = 1

    def __init__(self, count: int, open_documents: int, slack: int) -> None:
        import multiprocessing

        self.context = multiprocessing.get_context("spawn")
        self.open_documents, self.slack = open_documents, slack
        self.count = count
        self.pools = [self._pool() for _ in range(count)]
        self.load = [0] * count
        self.home: dict[str, int] = {}
        self.facts: list[dict[str, int]] = [{} for _ in range(count)]
        self.retired: list[dict[str, int]] = []
        self.stopping: list[threading.Thread] | None = None
        self.queued: dict[int, list[tuple[DocumentTask, Future[Any]]]] = {}

    def _pool(self) -> ProcessPoolExecutor:
        pool = ProcessPoolExecutor(max_workers=1, mp_context=self.context, initializer=_worker_start,
                                   initargs=(self.open_documents, os.getpid()))
        # Its process starts now rather than at its first task: a worker's start (an interpreter,
        # ethos_py, the native library: a few tenths of a second) then overlaps the parent's setup
        # and planning instead of following it.
        pool.submit(_worker_ready)
        return pool

    def choose(self, task: DocumentTask) -> int:
        idlest = min(range(len(self.pools)), key=lambda i: (self.load[i], i))
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
        """Sends the queued tasks, one call per worker: each call costs the parent's threads about a
        tenth of a millisecond (pickling, the pipe, waking the waiter), as much as handling ten
        records, and on a machine with as many workers as cores that time is taken from a worker."""
        queued, self.queued = self.queued, {}
        for index, entries in sorted(queued.items()):
            tasks = [task for task, _ in entries]
            try:
                remote = self.pools[index].submit(_worker_run_tasks, tasks)
            except BrokenProcessPool:  # its worker died since the last tasks were handed out
                self.restart(index)
                remote = self.pools[index].submit(_worker_run_tasks, tasks)
            remote.add_done_callback(functools.partial(_fan_out, [result for _, result in entries]))

    def done(self, index: int, task: DocumentTask, facts: Mapping[str, int] | None) -> None:
        self.load[index] -= len(task.records)
        if facts is not None:
            # Every fact is a running total of the worker process, and the tasks of one call end
            # together (seen here in any order): the largest is the latest.
            latest = self.facts[index]
            self.facts[index] = {name: max(value, latest.get(name, 0)) for name, value in facts.items()}

    def lost(self, index: int) -> None:
        """A task of worker ``index`` was lost: a new worker starts when the pool itself broke."""
        if self.pools[index]._broken:  # the pool itself is broken, not only this future
            self.restart(index)

    def restart(self, index: int) -> None:
        """A worker died (killed, or the native library crashed): its facts are kept, a new one starts."""
        self.pools[index].shutdown(wait=False, cancel_futures=True)
        if self.facts[index]:
            self.retired.append(self.facts[index])
        self.facts[index] = {}
        self.pools[index] = self._pool()
        self.home = {key: home for key, home in self.home.items() if home != index}

    def stop(self) -> None:
        """Lets every worker end at once (each pool shut down on a thread of its own); ``close``
        waits for them."""
        for entries in self.queued.values():  # never sent: the job is ending
            for _, result in entries:
                result.cancel()
        self.queued = {}
        if self.stopping is None:
            self.stopping = [threading.Thread(target=pool.shutdown, kwargs={"wait": True, "cancel_futures": True})
                             for pool in self.pools]
            for thread in self.stopping:
                thread.start()

    def close(self) -> None:
        self.stop()
        for thread in self.stopping or ():
            thread.join()


def run_batch(claims: str, corpus: str, out: str, *, workers: int = 1, resume: bool = False,
              policy: str | bytes | None = None, grounding: str | None = None, replace_existing: bool = False,
              chunk_records: int = DEFAULT_CHUNK_RECORDS, open_documents: int = DEFAULT_OPEN_DOCUMENTS,
              summary: str | None = None, parse_options: Mapping[str, Any] | None = None,
              progress: Callable[[int, int], None] | None = None, engine: str = "local",
              address: str | None = None, connect_timeout: float = 10.0, html: str | None = None) -> BatchStats:
    """Verifies every record of ``claims`` against the ``corpus`` and writes ``out`` (and the
    ``summary`` JSON and its ``html`` corpus view when given) atomically; returns the run's ``BatchStats``. ``workers`` processes
    verify (``0``: one per core); with ``resume`` the chunks an interrupted run of the same job
    committed are kept. ``progress(done, total)`` is called as records finish. ``engine``
    ``"dask"`` runs the tasks on a Dask cluster (``ethos_py.distributed``): the one at ``address``,
    else a local one of ``workers`` processes started for the job; the output is the same.

        >>> import tempfile
        >>> directory = tempfile.mkdtemp()
        >>> claims = os.path.join(directory, "claims.jsonl")
        >>> with open(claims, "w") as handle:
        ...     _ = handle.write('{"claim": "average response time by 30%", "document": "document.json"}\\n')
        >>> stats = run_batch(claims, "examples/quickstart", os.path.join(directory, "out.jsonl"))
        >>> stats.records, stats.counts
        (1, {'grounded': 1})
    """
    started = time.monotonic()
    if chunk_records < 1:
        raise BatchError("--chunk-records", "must be a positive number of records")
    if engine not in ("local", "dask"):
        raise BatchError("--engine", "must be local or dask")
    if address is not None and engine == "local":
        raise BatchError("--address", "names a cluster to connect to: give it with --engine dask")
    if not workers:
        # The cores this process may run on (a container or taskset may allow fewer than the machine has).
        workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    corpus_files = Corpus(corpus, grounding)
    options: dict[str, Any] = {"policy": policy, "grounding": grounding, "replace_existing": replace_existing,
               "parse_options": dict(parse_options or {})}
    try:
        input_digest = _digest(claims)
    except OSError as error:
        raise BatchError("CLAIMS", f"cannot be read ({error.strerror or error})") from None
    identity = {"input_sha256": input_digest, "corpus": os.path.realpath(corpus), "chunk_records": chunk_records,
                "policy": hashlib.sha256(policy if isinstance(policy, bytes) else str(policy).encode()).hexdigest(),
                "grounding": grounding, "replace_existing": replace_existing,
                "parse_options": sorted((k, str(v)) for k, v in options["parse_options"].items())}
    directory = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(directory):  # never created here: a typo in -o must not become a new directory
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), out)
    work = os.path.join(directory, "." + os.path.basename(out) + ".ethos-batch")
    # The engine first: a cluster that cannot be reached leaves no work directory behind.
    pool: Any
    if engine == "dask":
        from .distributed import _DaskWorkers

        pool = _DaskWorkers(workers, open_documents, 2 * chunk_records, address, connect_timeout)
        workers = pool.count
    else:
        pool = _Workers(workers, open_documents, slack=2 * chunk_records)
    try:
        journal = _Journal(work, identity, resume)
    except ForeignJob:
        pool.close()
        raise BatchError("--resume", "the interrupted job in the work directory was run with other inputs or "
                         "options; rerun it with those, or without --resume to start again", work_directory=work) from None
    except BaseException:
        pool.close()
        raise
    # Counted once the workers are starting: on a large input this pass is not short.
    total = sum(1 for _ in _input_records(claims))
    stats = BatchStats(records=total, workers=workers)
    stats.resumed = sum(journal.committed.values())
    done = stats.resumed
    # The summary grows as chunks commit; what an interrupted run committed is read back first.
    answers = _Summary()
    for index in sorted(journal.committed):
        for line in _lines(journal.pieces_of([index])):
            answers.add(_facts(json.loads(line)))
    if progress is not None:
        progress(done, total)
    sources = _CorpusSources(os.path.dirname(os.path.abspath(claims)), corpus_files, grounding)
    running: dict[Future[Any], tuple[_Chunk, DocumentTask, int, int]] = {}
    open_chunks: dict[int, _Chunk] = {}
    # Chunks in flight at once: enough to keep every worker fed, few enough to bound memory (at most
    # (2 * workers + 2) * chunk_records records are held, whatever the engine).
    window = 2 * workers + 2
    # Consecutive chunks whose tasks are sent together, one call per worker: 1 for local workers (a
    # call costs the driver about 0.1 ms), more for an engine whose every call is expensive (a Dask
    # task costs its scheduler about 1.5 ms): there, sending per chunk made a chunk of interleaved
    # claims one task per worker it touched, so tasks grew with chunks x workers.
    gather = max(1, min(pool.window_chunks, window // 2))

    def submit(chunk: _Chunk, task: DocumentTask, attempt: int) -> None:
        index = pool.choose(task)
        running[pool.submit(index, task)] = (chunk, task, index, attempt)

    def finish(chunk: _Chunk) -> None:
        data = b"".join(chunk.lines[number] for number in chunk.numbers)
        journal.commit(chunk.index, data, len(chunk.numbers))
        for number in chunk.numbers:
            answers.add(chunk.facts[number])
        open_chunks.pop(chunk.index, None)

    def settle() -> None:
        nonlocal done
        pool.flush()  # never wait on tasks still queued in the driver (none are, between windows)
        finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
        # In input order: the chunks of a window end together and are committed first to last.
        for future in sorted(finished, key=lambda future: (running[future][0].index, running[future][1].records[0][0])):
            chunk, task, index, attempt = running.pop(future)
            try:
                lines, facts = future.result()
            except pool.lost_errors:
                pool.done(index, task, None)
                pool.lost(index)
                if attempt < 2:
                    submit(chunk, task, attempt + 1)
                    pool.flush()
                    continue
                # Twice is not chance: the records say so rather than stopping the whole job.
                reason = "the worker verifying this record's document died twice (a crash of the verifier)"
                lines = [_result(number, json.loads(raw), {**_error(number, reason), "source": task.label})
                         for number, raw in task.records]
            else:
                pool.done(index, task, facts)
            chunk.add(lines)
            chunk.pending -= 1
            done += len(task.records)
            stats.verified += len(task.records)
            if progress is not None:
                progress(done, total)
            if chunk.pending == 0:
                finish(chunk)

    gathered = 0  # chunks whose tasks are queued, not yet sent
    try:
        for chunk in _chunks(claims, chunk_records, journal.committed, sources, corpus_files, options):
            # A window starts only when there is room for all of it: waiting in its middle would send it in parts.
            while gathered == 0 and len(open_chunks) > window - gather and running:
                settle()
            open_chunks[chunk.index] = chunk
            chunk.pending = len(chunk.tasks)
            errors = len(chunk.numbers) - sum(len(task.records) for task in chunk.tasks)
            done += errors
            stats.verified += errors
            if not chunk.tasks:
                finish(chunk)
                if progress is not None:
                    progress(done, total)
                continue
            for task in chunk.tasks:
                submit(chunk, task, 1)
            gathered += 1
            if gathered >= gather:
                pool.flush()
                gathered = 0
        pool.flush()
        while running:
            settle()
    except BaseException:
        stats.workers = pool.count
        pool.close()
        journal.close()
        raise
    stats.workers = pool.count  # a cluster's workers may have joined during the run
    journal.close()
    # The workers end (a Python process takes tens of milliseconds to exit) while the summary and
    # the output are written: on the job's last, serial stretch the two overlap.
    pool.stop()
    try:
        chunks = -(-total // chunk_records)
        from ._host_io import write_file_atomic, write_pieces_atomic
        from ._json import dumps

        result = answers.result()
        stats.counts = dict(result["counts"])
        if summary is not None:
            write_file_atomic(summary, dumps(result) + b"\n")
        if html is not None:
            # From the final summary, which is a function of the output lines alone: a resumed run
            # writes the same page.
            from .report_html_corpus import render_corpus_html

            page = render_corpus_html(result).encode("utf-8")
            try:
                write_file_atomic(html, page)
            except OSError as error:
                error.filename = html  # the envelope names the page, not the temporary file beside it
                raise
        write_pieces_atomic(out, journal.pieces(chunks))
        shutil.rmtree(work, ignore_errors=True)
    finally:
        pool.close()
    for facts in [*pool.retired, *pool.facts]:
        stats.documents_opened += facts.get("opened", 0)
        stats.parse_cache_hits += facts.get("hits", 0)
        stats.parse_cache_misses += facts.get("misses", 0)
    stats.worker_peak_rss_bytes = [facts.get("peak_rss_bytes", 0) for facts in pool.facts]
    stats.worker_cpu_seconds = [facts.get("cpu_ms", 0) / 1000 for facts in pool.facts]
    usage = resource.getrusage(resource.RUSAGE_SELF)
    stats.parent_cpu_seconds = usage.ru_utime + usage.ru_stime
    stats.seconds = time.monotonic() - started
    return stats


def _chunks(claims: str, size: int, committed: Mapping[int, int], sources: _CorpusSources, corpus: Corpus,
            options: Mapping[str, Any]) -> Iterator[_Chunk]:
    """The chunks still to do, planned one at a time as the input is read."""
    batch: list[tuple[int, bytes]] = []
    index = 0
    for record in _input_records(claims):
        batch.append(record)
        if len(batch) == size:
            if index not in committed:
                yield _plan_chunk(index, batch, sources, corpus, options)
            batch, index = [], index + 1
    if batch and index not in committed:
        yield _plan_chunk(index, batch, sources, corpus, options)


def _lines(pieces: Iterable[bytes]) -> Iterator[bytes]:
    for piece in pieces:
        yield from piece.splitlines()
