#!/usr/bin/env python3
"""scale_model.py - the 10-million-claim, 100,000-PDF job on a 100-node cluster, modelled from costs measured here with the real code.

    python benchmarks/scale_model.py [--claims 10000000] [--pdfs 100000] [--nodes 100] [--cores 16]
                                     [--order interleaved|grouped] [--warm-cache] [--json] [--no-dask]

Two parts, one command:

1. **Measure** (this machine, now) the inputs of the model with ``ethos_py``'s own code paths, on
   the generated job of ``benchmarks/batch_corpus.py`` (50 four-page PDFs, 10,000 claims): a PDF's
   parse (the ethos-core processes' CPU time) and its parse-cache entry's size, reading an entry
   back, opening and indexing a parsed document and the memory it holds while open, per record in
   a worker (reading it, verifying its claim, formatting the output line, pickling it back), the
   sizes of claim and result lines, per record in the driver (reading and planning the input,
   unpickling results, the summary, committing chunks with fsync, writing the output), the driver's
   memory per record in flight and the summary's per document and per failing claim, and Dask's
   per-task round trip and scheduler CPU per task (``benchmarks/engine_overhead.py``).
2. **Model** the big job from those inputs and stated assumptions (node shape, network and storage
   bandwidth, memory): ``model()`` below is the whole model, a pure function, so the arithmetic can
   be read and is tested (tests/test_scale_model.py). It gives the time split (start, parsing,
   opening and indexing, verifying, worker record handling, I/O, scheduling, driver merge), the
   bytes moved, memory per worker and in the driver, document tasks and Dask tasks (sent a window
   of workers + 1 chunks at a time, as ``ethos_py.distributed`` does; the count chunk by chunk, as
   before issue 30, beside it), and what breaks first as the job grows, with the size at which it breaks.

``--inputs FILE`` models from a JSON file of inputs (the ``measured`` object of an earlier
``--json``) instead of measuring. docs/scale.md ("Simulation: 10 million claims") records a run.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import math
import os
import pickle
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

GIB = 2**30


def _script(name: str) -> Any:
    """A sibling benchmark script loaded as a module (its code reused, not copied)."""
    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ============================================================================ the model's inputs

#: What the model needs, with what each means. Every figure is per unit named in its key.
INPUT_KEYS = {
    "pages_per_pdf": "pages of each measured PDF",
    "pdf_bytes": "bytes of a PDF file",
    "parse_cpu_s_per_pdf": "CPU s to parse one PDF (ethos-core processes, cache miss)",
    "cache_entry_bytes": "bytes of a PDF's parse-cache entry",
    "cache_read_cpu_s_per_pdf": "CPU s to get a parsed PDF from the cache (ethos-core process, hit)",
    "open_index_s_per_doc": "s to open and index a parsed document (Document.from_bytes)",
    "rss_bytes_per_open_doc": "resident bytes one open, indexed document holds",
    "worker_base_rss_bytes": "resident bytes of a worker process with ethos_py loaded, one document verified",
    "read_s_per_record": "worker: s to read a record (JSON, claim checks)",
    "verify_s_per_claim": "worker: s to verify a claim against its open document",
    "format_s_per_record": "worker: s to build the output line and its summary facts",
    "worker_pickle_s_per_record": "worker: s to unpickle the task and pickle the result, per record",
    "claim_line_bytes": "bytes of an input record line",
    "result_line_bytes": "bytes of an output line",
    "task_bytes_per_record": "bytes of a pickled DocumentTask per record it carries",
    "fail_share": "share of claims that are not grounded (the job's altered tenth, and those the verifier refuses)",
    "driver_plan_s_per_record": "driver: s to read, check, resolve and group an input record",
    "driver_collect_s_per_record": "driver: s to unpickle a result, place it, add it to the summary",
    "driver_commit_s_per_chunk": "driver: s to commit a chunk file and its journal line (fsync), per chunk",
    "driver_write_bytes_per_s": "driver: the final output's assembly from the chunk files, bytes/s",
    "driver_bytes_per_inflight_record": "driver: memory per record of a chunk in flight (its line, task, result, facts)",
    "summary_bytes_per_document": "driver: summary memory per document",
    "summary_bytes_per_failed_claim": "driver: summary memory per distinct failing claim text",
    "dask_start_s": "start of a local Dask cluster of 2 workers and connect",
    "dask_round_trip_s_per_task": "Dask: wall s per tiny task, 1,000 in flight (submit, run, result)",
    "dask_scheduler_cpu_s_per_task": "Dask: scheduler + client CPU s per task (one process here)",
}


@dataclass(frozen=True)
class Job:
    """The job modelled: its size and shape."""

    claims: int = 10_000_000
    pdfs: int = 100_000
    pages_per_pdf: int = 4  # the measured job's PDFs; per-page costs scale linearly with it
    order: str = "interleaved"  # claims across documents as in the benchmark; "grouped": sorted by document
    cold_cache: bool = True  # every PDF parsed in the job (False: the parse cache is already filled)
    chunk_records: int = 1000  # ethos batch --chunk-records
    open_documents: int = 64  # ethos batch --max-open-documents


@dataclass(frozen=True)
class Cluster:
    """The cluster assumed (none of this is measured): node shape, network, shared storage."""

    nodes: int = 100
    cores_per_node: int = 16  # one Dask worker process per core, one thread each (docs/scale.md)
    memory_per_node_gib: float = 64.0  # also the driver's node (driver and scheduler on a node of their own)
    node_network_gbit: float = 10.0  # each node's link, the driver's included
    storage_gbyte_s: float = 10.0  # aggregate bandwidth of the shared file system / object store
    cache_capacity_tib: float = 1.0  # the volume the shared parse cache lives on

    @property
    def workers(self) -> int:
        return self.nodes * self.cores_per_node


# ============================================================================ the model

PHASES = ("start", "parsing", "indexing", "verifying", "worker records", "I/O", "scheduling", "driver merge")


def _touched(bins: float, draws: float) -> float:
    """Expected distinct bins hit by ``draws`` uniform draws over ``bins`` bins."""
    if bins <= 0 or draws <= 0:
        return 0.0
    return bins * -math.expm1(draws * math.log1p(-1.0 / bins)) if bins > 1 else 1.0


def model(inputs: dict[str, float], job: Job, cluster: Cluster) -> dict[str, Any]:
    """The job on the cluster, from measured ``inputs`` (INPUT_KEYS): phases run one after another
    ("serial", an upper bound; the phases sum to it) and overlapped (workers, scheduler and driver
    run at once: the slowest of them sets the pace, a lower bound), bytes, memory, tasks."""
    W = cluster.workers
    N, D, C, M = job.claims, job.pdfs, job.chunk_records, job.open_documents
    scale = job.pages_per_pdf / inputs["pages_per_pdf"]  # per-document costs grow with pages
    chunks = math.ceil(N / C)
    per_doc = N / D
    # Documents a run of ``records`` consecutive claims reaches, and the workers those are homed on
    # (a document's work goes to one worker, documents spread evenly).
    def reached(records: float) -> tuple[float, float]:
        if job.order == "grouped":
            documents = min(float(D), records / per_doc + 1.0)  # contiguous runs, one cut at each end
            return documents, min(float(W), documents)
        documents = _touched(D, records)
        return documents, _touched(W, documents)

    docs_per_chunk, dask_per_chunk = reached(C)
    document_tasks = chunks * docs_per_chunk
    # ethos batch --engine dask sends a window of W + 1 consecutive chunks at once, one Dask task per
    # worker with work in it (ethos_py.distributed): fewer Dask tasks than chunks + workers. Sent
    # chunk by chunk, as before issue 30, it was one Dask task per worker with work in each chunk.
    window_chunks = W + 1
    full_windows, rest = divmod(chunks, window_chunks)
    dask_per_window = reached(window_chunks * C)[1]
    dask_tasks = full_windows * dask_per_window + (reached(rest * C)[1] if rest else 0.0)
    dask_tasks_chunk_by_chunk = chunks * dask_per_chunk
    # Opens: each document once while a worker's share of the corpus fits its open-document limit;
    # past it (interleaved claims) an LRU over D/W documents with M places misses 1 - M*W/D of the time.
    fits = D / W <= M
    if job.order == "grouped" or fits:
        opens = float(D)
    else:
        opens = D + (document_tasks - D) * (1.0 - M * W / D)
    # Core-seconds of the workers' work, then spread over every worker.
    core_s = {
        "parsing": (D * inputs["parse_cpu_s_per_pdf"] * scale) if job.cold_cache else 0.0,
        "indexing": opens * (inputs["cache_read_cpu_s_per_pdf"] + inputs["open_index_s_per_doc"]) * scale,
        "verifying": N * inputs["verify_s_per_claim"],
        "worker records": N * (inputs["read_s_per_record"] + inputs["format_s_per_record"]
                               + inputs["worker_pickle_s_per_record"]),
    }
    # Bytes moved (the shared storage and the driver's link).
    pdf_bytes = inputs["pdf_bytes"] * scale
    entry_bytes = inputs["cache_entry_bytes"] * scale
    storage = {
        "PDFs read": D * pdf_bytes if job.cold_cache else 0.0,
        "cache entries written": D * entry_bytes if job.cold_cache else 0.0,
        "cache entries read": opens * entry_bytes,
    }
    driver_link = {
        "claims to workers": N * inputs["task_bytes_per_record"],
        "results from workers": N * inputs["result_line_bytes"],
        "claims file read (hash, then plan)": 2.0 * N * inputs["claim_line_bytes"],
        "chunk files written, read, output written": 3.0 * N * inputs["result_line_bytes"],
    }
    node_bw = cluster.node_network_gbit * 1e9 / 8
    storage_bw = min(cluster.storage_gbyte_s * 1e9, cluster.nodes * node_bw)
    io_storage_s = sum(storage.values()) / storage_bw
    io_driver_s = sum(driver_link.values()) / min(node_bw, cluster.storage_gbyte_s * 1e9)
    merge_s = (N * (inputs["driver_plan_s_per_record"] + inputs["driver_collect_s_per_record"])
               + chunks * inputs["driver_commit_s_per_chunk"]
               + N * inputs["result_line_bytes"] / inputs["driver_write_bytes_per_s"])
    scheduling_s = dask_tasks * inputs["dask_scheduler_cpu_s_per_task"]
    phases = {"start": inputs["dask_start_s"], **{name: value / W for name, value in core_s.items()},
              "I/O": io_storage_s + io_driver_s, "scheduling": scheduling_s, "driver merge": merge_s}
    serial = sum(phases.values())
    workers_s = sum(phases[name] for name in core_s) + io_storage_s
    lanes = {"workers (parse, index, verify, records, storage)": workers_s, "scheduler": scheduling_s,
             "driver (merge and its link)": merge_s + io_driver_s}
    overlapped = phases["start"] + max(lanes.values())
    # Memory.
    docs_held = min(float(M), math.ceil(D / W))
    worker_rss = inputs["worker_base_rss_bytes"] + docs_held * inputs["rss_bytes_per_open_doc"] * scale
    window = 2 * W + 2  # chunks in flight (ethos_py.batch)
    inflight = min(float(N), window * C) * inputs["driver_bytes_per_inflight_record"]
    failing = N * inputs["fail_share"]
    summary = D * inputs["summary_bytes_per_document"] + failing * inputs["summary_bytes_per_failed_claim"]
    return {
        "job": asdict(job), "cluster": {**asdict(cluster), "workers": W},
        "phases_s": phases, "serial_s": serial, "overlapped_s": overlapped, "lanes_s": lanes,
        "bottleneck": max(lanes, key=lambda name: lanes[name]),
        "claims_per_s": N / overlapped,
        "core_seconds": core_s,
        "bytes": {"shared storage": storage, "driver's link": driver_link,
                  "parse cache size": D * entry_bytes},
        "memory": {"per worker": worker_rss, "per worker limit": cluster.memory_per_node_gib * GIB / cluster.cores_per_node,
                   "driver: chunks in flight": inflight, "driver: summary": summary,
                   "driver limit": cluster.memory_per_node_gib * GIB},
        "tasks": {"chunks": chunks, "documents per chunk": docs_per_chunk, "document tasks": document_tasks,
                  "chunks per window": window_chunks, "windows": full_windows + (1 if rest else 0),
                  "dask tasks": dask_tasks, "dask tasks per window": dask_per_window,
                  "dask tasks chunk by chunk (before issue 30)": dask_tasks_chunk_by_chunk,
                  "records per dask task": N / dask_tasks if dask_tasks else 0.0,
                  # The driver plans a whole window before sending its first task: the workers wait that long.
                  "first window planned before any task is sent (s)":
                      min(float(N), window_chunks * C) * inputs["driver_plan_s_per_record"],
                  "scheduler tasks/s needed": dask_tasks / overlapped,
                  "scheduler tasks/s capacity": 1.0 / inputs["dask_scheduler_cpu_s_per_task"]},
        "opens": opens, "documents fit the workers' open limit": fits,
    }


# Capacity checks: each returns True while the job fits that limit.
def _fits_churn(result: dict[str, Any]) -> bool:
    job = result["job"]
    return job["order"] == "grouped" or bool(result["documents fit the workers' open limit"])


def _fits_cache(result: dict[str, Any]) -> bool:
    return float(result["bytes"]["parse cache size"]) <= result["cluster"]["cache_capacity_tib"] * 2**40


def _fits_driver_memory(result: dict[str, Any]) -> bool:
    memory = result["memory"]
    return float(memory["driver: chunks in flight"] + memory["driver: summary"]) <= float(memory["driver limit"])


def _fits_worker_memory(result: dict[str, Any]) -> bool:
    return float(result["memory"]["per worker"]) <= float(result["memory"]["per worker limit"])


def _fits_driver_rate(result: dict[str, Any]) -> bool:
    lanes = result["lanes_s"]
    return lanes["driver (merge and its link)"] <= lanes["workers (parse, index, verify, records, storage)"]


def _fits_scheduler_rate(result: dict[str, Any]) -> bool:
    lanes = result["lanes_s"]
    return lanes["scheduler"] <= lanes["workers (parse, index, verify, records, storage)"]


#: name -> (check, what grows: "job" (claims and PDFs together) or "nodes").
LIMITS = {
    "reopen churn (a worker's documents exceed --max-open-documents)": (_fits_churn, "job"),
    "parse-cache storage": (_fits_cache, "job"),
    "driver memory (summary and chunks in flight)": (_fits_driver_memory, "job"),
    "worker memory (open documents)": (_fits_worker_memory, "job"),
    "the single driver's merge outpaced by the workers": (_fits_driver_rate, "nodes"),
    "the scheduler's task rate outpaced by the workers": (_fits_scheduler_rate, "nodes"),
}


def _grown(job: Job, cluster: Cluster, growth: str, size: int) -> tuple[Job, Cluster]:
    if growth == "nodes":
        return job, replace(cluster, nodes=size)
    ratio = job.claims / job.pdfs
    return replace(job, pdfs=size, claims=max(1, round(size * ratio))), cluster


def breaking_point(inputs: dict[str, float], job: Job, cluster: Cluster, limit: str,
                   ceiling: int = 10**12) -> int | None:
    """The smallest size (PDFs, claims growing with them; or nodes) at which ``limit`` is exceeded,
    searched from 1 by doubling then bisection (a limit that holds up to ``ceiling``: None)."""
    check, growth = LIMITS[limit]

    def fits(size: int) -> bool:
        return bool(check(model(inputs, *_grown(job, cluster, growth, size))))

    if not fits(1):
        return 1
    low, high = 1, 2
    while fits(high):
        low, high = high, high * 2
        if high > ceiling:
            return None
    while high - low > 1:
        middle = (low + high) // 2
        if fits(middle):
            low = middle
        else:
            high = middle
    return high


# ============================================================================ measurement

def _median_time(function: Any, repeat: int) -> float:
    """The median wall time of `repeat` calls (benchmarks/run.py's timer)."""
    return float(_script("run").median_seconds(function, repeat))


def _rss() -> int:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _tree_bytes(function: Any) -> int:
    """Bytes allocated by ``function()`` and still held by what it returns (tracemalloc)."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = function()
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    del kept
    return after - before


_WORKER_PROBE = """
import resource, sys
from ethos_py.batch import DocumentTask, verify_document_task
task = DocumentTask(key="k", kind="document", target=sys.argv[1], label="d",
                    records=((1, b'{"claim": "x", "document": "d"}\\n'),))
verify_document_task(task)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
"""


def measure(pdfs: int = 50, claims: int = 10_000, repeat: int = 5, dask: bool = True,
            log: Any = print) -> dict[str, float]:
    """The model's inputs, measured on the benchmark's generated job with ethos_py's code paths."""
    from ethos_py import batch
    from ethos_py._host_io import write_pieces_atomic
    from ethos_py.batch_journal import _Journal
    from ethos_py.batch_summary import _Summary
    from ethos_py.document import Document
    from ethos_py.jsonl_pipeline import _read_record, _verify_planned
    from ethos_py.pdf import parse_pdf_bytes

    corpus_script = _script("batch_corpus")
    directory = HERE / ".cache" / f"batch-corpus-{pdfs}-{claims}"
    corpus_script.make_job(directory, pdfs, claims)
    files = sorted((directory / "corpus").glob("*.pdf"))
    inputs: dict[str, float] = {}
    scratch = Path(tempfile.mkdtemp(prefix="ethos-scale-"))
    try:
        # --- parsing and the parse cache (ethos-core in its own processes: their CPU time counts)
        log(f"measuring: parse {len(files)} PDFs, then read them back from the cache")
        cache = scratch / "cache"
        parsed: dict[str, bytes] = {}
        cpu = _children_cpu()
        for path in files:
            raw, outcome = batch._without_diagnostics(parse_pdf_bytes(str(path), cache_dir=str(cache), diagnostics=True))
            assert outcome == "miss", outcome
            parsed[path.name] = raw
        inputs["parse_cpu_s_per_pdf"] = (_children_cpu() - cpu) / len(files)
        cpu = _children_cpu()
        for _ in range(2):
            for path in files:
                _, outcome = batch._without_diagnostics(parse_pdf_bytes(str(path), cache_dir=str(cache), diagnostics=True))
                assert outcome == "hit", outcome
        inputs["cache_read_cpu_s_per_pdf"] = (_children_cpu() - cpu) / (2 * len(files))
        inputs["cache_entry_bytes"] = sum(f.stat().st_size for f in cache.rglob("*") if f.is_file()) / len(files)
        inputs["pdf_bytes"] = sum(path.stat().st_size for path in files) / len(files)
        first = json.loads(next(iter(parsed.values())))
        inputs["pages_per_pdf"] = float(len(first["payload"]["pages"]))

        # --- opening and indexing, memory per open document
        log("measuring: open and index parsed documents, memory held per open document")
        blobs = list(parsed.values())

        def open_all() -> None:
            for blob in blobs:
                Document.from_bytes(blob, "ethos-native").close()

        open_all()
        inputs["open_index_s_per_doc"] = _median_time(open_all, repeat) / len(blobs)
        gc.collect()
        before = _rss()
        held = [Document.from_bytes(blob, "ethos-native") for blob in blobs]
        inputs["rss_bytes_per_open_doc"] = max(0, _rss() - before) / len(held)
        for document in held:
            document.close()
        del held
        probe = subprocess.run([sys.executable, "-c", _WORKER_PROBE, str(files[0])], capture_output=True, text=True,
                               check=True, env={**os.environ, "ETHOS_CACHE_DIR": str(cache)})
        inputs["worker_base_rss_bytes"] = float(probe.stdout.split()[-1])

        # --- the driver's planning of the input (read, check, resolve, group), as ethos batch does it
        log("measuring: the driver's planning, a worker's per-record costs, the driver's merge")
        claims_path = str(directory / "claims.jsonl")
        corpus = batch.Corpus(str(directory / "corpus" / "manifest.json"))
        options = {"policy": None, "grounding": None, "replace_existing": False, "parse_options": {}}

        def plan() -> list[Any]:
            sources = batch._CorpusSources(os.path.dirname(claims_path), corpus, None)
            return list(batch._chunks(claims_path, batch.DEFAULT_CHUNK_RECORDS, {}, sources, corpus, options))

        chunks = plan()
        inputs["driver_plan_s_per_record"] = _median_time(plan, repeat) / claims
        tasks = [task for chunk in chunks for task in chunk.tasks]
        lines_in = [line for task in tasks for _, line in task.records]
        inputs["claim_line_bytes"] = sum(map(len, lines_in)) / len(lines_in)
        inputs["task_bytes_per_record"] = sum(len(pickle.dumps(task)) for task in tasks) / len(lines_in)

        # --- a worker's costs per record, its documents already open (the cache filled above)
        os.environ["ETHOS_CACHE_DIR"] = str(cache)
        open_docs = batch._OpenDocuments(len(files) + 1)
        results = {id(task): batch._verify_task(task, open_docs) for task in tasks}  # opens every document once
        read_records = [[(number, _read_record(number, line, False)) for number, line in task.records] for task in tasks]

        def read() -> None:
            for task in tasks:
                for number, line in task.records:
                    _read_record(number, line, False)

        def verify() -> None:
            for task, records in zip(tasks, read_records):
                document, described = open_docs.get(task)
                _verify_planned(document, [(n, claim) for n, (_, claim, _) in records if claim is not None],
                                described, None)

        verdicts = []
        for task, records in zip(tasks, read_records):
            document, described = open_docs.get(task)
            checked, _ = _verify_planned(document, [(n, claim) for n, (_, claim, _) in records if claim is not None],
                                         described, None)
            verdicts.append([(n, record, checked[n]) for n, (record, _, _) in records])

        def format_lines() -> None:
            for group in verdicts:
                for number, record, verdict in group:
                    batch._result(number, record, verdict)

        def whole() -> None:
            for task in tasks:
                batch._verify_task(task, open_docs)

        inputs["read_s_per_record"] = _median_time(read, repeat) / claims
        inputs["verify_s_per_claim"] = _median_time(verify, repeat) / claims
        inputs["format_s_per_record"] = _median_time(format_lines, repeat) / claims
        inputs["worker_task_s_per_record_check"] = _median_time(whole, repeat) / claims
        facts = {"opened": 1, "hits": 1, "misses": 0, "peak_rss_bytes": 1, "cpu_ms": 1}
        task_blobs = [pickle.dumps(task) for task in tasks]
        result_blobs = [pickle.dumps((results[id(task)], facts)) for task in tasks]

        def worker_pickle() -> None:
            for blob, task in zip(task_blobs, tasks):
                pickle.loads(blob)
                pickle.dumps((results[id(task)], facts))

        inputs["worker_pickle_s_per_record"] = _median_time(worker_pickle, repeat) / claims
        out_lines = [line for result in results.values() for _, line, _ in result]
        inputs["result_line_bytes"] = sum(map(len, out_lines)) / len(out_lines)
        inputs["fail_share"] = sum(1 for result in results.values() for _, _, f in result if f[0] != "grounded") / claims
        open_docs.close()

        # --- the driver's merge: results unpickled, placed, summarized; chunks committed; the output written
        chunk_of = {id(task): chunk for chunk in chunks for task in chunk.tasks}

        def collect() -> Any:
            answers = _Summary()
            for blob, task in zip(result_blobs, tasks):
                lines, _ = pickle.loads(blob)
                chunk_of[id(task)].add(lines)
            for chunk in chunks:
                for number in chunk.numbers:
                    answers.add(chunk.facts[number])
            return answers

        inputs["driver_collect_s_per_record"] = _median_time(collect, repeat) / claims
        datas = [b"".join(chunk.lines[number] for number in chunk.numbers) for chunk in chunks]
        commits = []
        for attempt in range(repeat):
            journal = _Journal(str(scratch / f"work-{attempt}"), {"job": attempt}, False)
            started = time.perf_counter()
            for chunk, data in zip(chunks, datas):
                journal.commit(chunk.index, data, len(chunk.numbers))
            commits.append((time.perf_counter() - started) / len(chunks))
            out = scratch / f"out-{attempt}.jsonl"
            started = time.perf_counter()
            write_pieces_atomic(str(out), journal.pieces(len(chunks)))
            commits[-1] = (commits[-1], out.stat().st_size / (time.perf_counter() - started))
            journal.close()
        inputs["driver_commit_s_per_chunk"] = statistics.median(c for c, _ in commits)
        inputs["driver_write_bytes_per_s"] = statistics.median(w for _, w in commits)

        # --- driver memory: a chunk in flight (its tasks, result lines and facts), the summary's growth
        def inflight() -> Any:
            return plan(), [pickle.loads(blob) for blob in result_blobs]

        inputs["driver_bytes_per_inflight_record"] = _tree_bytes(inflight) / claims
        grounded = next(f for r in results.values() for _, _, f in r if f[0] == "grounded")
        failed = next(f for r in results.values() for _, _, f in r if f[0] != "grounded")
        count = 20_000

        def per_document() -> Any:
            answers = _Summary()
            for n in range(count):
                answers.add((grounded[0], f"reports/annual-report-{n:07d}.pdf", f"sha256:{n:064x}", *grounded[3:]))
            return answers

        def per_failed_claim() -> Any:
            answers = _Summary()
            for n in range(count):
                answers.add((*failed[:6], f"{failed[6]} {n}"))
            return answers

        inputs["summary_bytes_per_document"] = _tree_bytes(per_document) / count
        inputs["summary_bytes_per_failed_claim"] = _tree_bytes(per_failed_claim) / count
    finally:
        os.environ.pop("ETHOS_CACHE_DIR", None)
        shutil.rmtree(scratch, ignore_errors=True)

    # --- Dask (benchmarks/engine_overhead.py's measurement)
    if dask and importlib.util.find_spec("distributed") is not None:
        log("measuring: a local Dask cluster's start, its per-task round trip and scheduler CPU per task")
        facts_dask = _script("engine_overhead").measure_dask(1000)
        inputs["dask_start_s"] = facts_dask["startup_s"]
        inputs["dask_round_trip_s_per_task"] = facts_dask["per_task_ms"] / 1000
        inputs["dask_scheduler_cpu_s_per_task"] = facts_dask["scheduler_cpu_ms"] / 1000
    else:
        sys.exit("scale_model.py needs Dask's distributed package (pip install '.[distributed]') for its Dask "
                 "figures; or give --inputs FILE")
    return inputs


# ============================================================================ report

def _seconds(value: float) -> str:
    if value >= 3600:
        return f"{value / 3600:,.1f} h"
    if value >= 60:
        return f"{value / 60:,.1f} min"
    if value >= 1:
        return f"{value:,.1f} s"
    if value >= 1e-3:
        return f"{value * 1000:,.2f} ms"
    return f"{value * 1e6:,.1f} µs"


def _bytes(value: float) -> str:
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if value >= size:
            return f"{value / size:,.1f} {unit}"
    return f"{value:,.0f} B"


def report(inputs: dict[str, float], job: Job, cluster: Cluster) -> dict[str, Any]:
    """The model's result for the job, its limits and breaking points, and the other claim order beside it."""
    result = model(inputs, job, cluster)
    limits = {}
    for name, (check, growth) in LIMITS.items():
        size = breaking_point(inputs, job, cluster, name)
        limits[name] = {"exceeded now": not check(result), "grows": growth, "breaks at": size}
    other = replace(job, order="grouped" if job.order == "interleaved" else "interleaved")
    return {"measured": inputs, "result": result, "limits": limits, "other order": model(inputs, other, cluster)}


def print_table(found: dict[str, Any]) -> None:
    inputs, result = found["measured"], found["result"]
    print("\n## Inputs measured here\n\n| input | value |\n|---|---:|")
    for key, meaning in INPUT_KEYS.items():
        value = inputs[key]
        if key.endswith("bytes_per_s"):
            text = f"{value / 1e6:,.0f} MB/s"
        elif "bytes" in key:
            text = _bytes(value)
        elif "_s_" in key or key.endswith("_s"):
            text = _seconds(value)
        else:
            text = f"{value:,.3g}"
        print(f"| {meaning} | {text} |")
    job, cluster = result["job"], result["cluster"]
    print(f"\n## The job: {job['claims']:,} claims over {job['pdfs']:,} PDFs of {job['pages_per_pdf']} pages, "
          f"{job['order']} claims, {'cold' if job['cold_cache'] else 'filled'} parse cache; "
          f"{cluster['nodes']} nodes x {cluster['cores_per_node']} cores = {cluster['workers']:,} workers (assumed)\n")
    print("| phase | time (phases one after another) | share |\n|---|---:|---:|")
    for name, value in result["phases_s"].items():
        print(f"| {name} | {_seconds(value)} | {value / result['serial_s'] * 100:.1f} % |")
    print(f"| **total, phases one after another** | **{_seconds(result['serial_s'])}** | 100 % |")
    print(f"| **total, overlapped (the slowest lane)** | **{_seconds(result['overlapped_s'])}** "
          f"({result['claims_per_s']:,.0f} claims/s) | |")
    print("\n| lane (runs concurrently with the others) | busy time |\n|---|---:|")
    for name, value in result["lanes_s"].items():
        print(f"| {name}{' (the bottleneck)' if name == result['bottleneck'] else ''} | {_seconds(value)} |")
    tasks = result["tasks"]
    print(f"\ntasks: {tasks['chunks']:,} chunks, {tasks['document tasks']:,.0f} document tasks "
          f"({tasks['documents per chunk']:,.0f} documents per chunk), {tasks['dask tasks']:,.0f} Dask tasks "
          f"({tasks['records per dask task']:,.1f} records each, {tasks['windows']:,} window{'s' if tasks['windows'] != 1 else ''} of "
          f"{tasks['chunks per window']:,} chunks; sent chunk by chunk, as before issue 30, it was "
          f"{tasks['dask tasks chunk by chunk (before issue 30)']:,.0f}); the first window is planned in "
          f"{_seconds(tasks['first window planned before any task is sent (s)'])} before any task is sent; the scheduler must run "
          f"{tasks['scheduler tasks/s needed']:,.0f} tasks/s against a measured {tasks['scheduler tasks/s capacity']:,.0f}; "
          f"documents opened {result['opens']:,.0f}")
    for group, values in result["bytes"].items():
        if isinstance(values, dict):
            print(f"bytes, {group}: " + ", ".join(f"{name} {_bytes(value)}" for name, value in values.items()))
        else:
            print(f"bytes, {group}: {_bytes(values)}")
    memory = result["memory"]
    print("memory: " + ", ".join(f"{name} {_bytes(value)}" for name, value in memory.items()))
    other = found["other order"]
    print(f"\nthe other claim order ({other['job']['order']}): overlapped {_seconds(other['overlapped_s'])}, "
          f"one after another {_seconds(other['serial_s'])}, bottleneck: {other['bottleneck']}, "
          f"{other['tasks']['dask tasks']:,.0f} Dask tasks")
    print("\n## What breaks first\n\n| limit | exceeded now | breaks at |\n|---|---|---:|")
    for name, facts in found["limits"].items():
        size = facts["breaks at"]
        where = "never (up to 10^12)" if size is None else (
            f"{size:,} nodes" if facts["grows"] == "nodes" else
            f"{size:,} PDFs ({size * job['claims'] // job['pdfs']:,} claims)")
        print(f"| {name} | {'yes' if facts['exceeded now'] else 'no'} | {where} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=Job.claims)
    parser.add_argument("--pdfs", type=int, default=Job.pdfs)
    parser.add_argument("--pages", type=int, default=Job.pages_per_pdf, help="pages per PDF of the modelled job")
    parser.add_argument("--order", choices=("interleaved", "grouped"), default=Job.order)
    parser.add_argument("--warm-cache", action="store_true", help="the parse cache is filled before the job")
    parser.add_argument("--chunk-records", type=int, default=Job.chunk_records)
    parser.add_argument("--nodes", type=int, default=Cluster.nodes)
    parser.add_argument("--cores", type=int, default=Cluster.cores_per_node)
    parser.add_argument("--memory-gib", type=float, default=Cluster.memory_per_node_gib)
    parser.add_argument("--network-gbit", type=float, default=Cluster.node_network_gbit)
    parser.add_argument("--storage-gbyte-s", type=float, default=Cluster.storage_gbyte_s)
    parser.add_argument("--repeat", type=int, default=5, help="repetitions of each in-process measurement (median)")
    parser.add_argument("--inputs", type=Path, help="model from these inputs (JSON) instead of measuring")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args()
    log = (lambda message: print(message, file=sys.stderr)) if args.json else print
    if args.inputs:
        inputs = json.loads(args.inputs.read_text())
        inputs = inputs.get("measured", inputs)
    else:
        log(f"machine: {os.uname().machine}, {len(os.sched_getaffinity(0))} CPUs, load average "
            f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
        inputs = measure(repeat=args.repeat, log=log)
    job = Job(claims=args.claims, pdfs=args.pdfs, pages_per_pdf=args.pages, order=args.order,
              cold_cache=not args.warm_cache, chunk_records=args.chunk_records)
    cluster = Cluster(nodes=args.nodes, cores_per_node=args.cores, memory_per_node_gib=args.memory_gib,
                      node_network_gbit=args.network_gbit, storage_gbyte_s=args.storage_gbyte_s)
    found = report(inputs, job, cluster)
    if args.json:
        print(json.dumps(found, indent=1, sort_keys=True, default=str))
    else:
        print_table(found)


if __name__ == "__main__":
    main()
