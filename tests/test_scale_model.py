"""test_scale_model - benchmarks/scale_model.py's model: its arithmetic on fixed inputs (never timings)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import importlib.util

import pytest

REPO = Path(__file__).resolve().parents[1]


def _load() -> Any:
    # Registered under its name first: its dataclasses look their module up in sys.modules.
    spec = importlib.util.spec_from_file_location("scale_model", REPO / "benchmarks" / "scale_model.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["scale_model"] = module
    spec.loader.exec_module(module)
    return module


sm: Any = _load()

# Round figures of the order measured on the project's machine: fixed, so the model is what is tested.
INPUTS: dict[str, float] = {
    "pages_per_pdf": 4, "pdf_bytes": 8_000, "parse_cpu_s_per_pdf": 0.02, "cache_entry_bytes": 150_000,
    "cache_read_cpu_s_per_pdf": 0.005, "open_index_s_per_doc": 0.001, "rss_bytes_per_open_doc": 250_000,
    "worker_base_rss_bytes": 60e6, "read_s_per_record": 3e-6, "verify_s_per_claim": 30e-6,
    "format_s_per_record": 11e-6, "worker_pickle_s_per_record": 1e-6, "claim_line_bytes": 120,
    "result_line_bytes": 780, "task_bytes_per_record": 145, "fail_share": 0.1, "driver_plan_s_per_record": 5e-6,
    "driver_collect_s_per_record": 2e-6, "driver_commit_s_per_chunk": 0.008, "driver_write_bytes_per_s": 500e6,
    "driver_bytes_per_inflight_record": 1400, "summary_bytes_per_document": 800,
    "summary_bytes_per_failed_claim": 700, "dask_start_s": 1.0, "dask_round_trip_s_per_task": 0.002,
    "dask_scheduler_cpu_s_per_task": 0.0014,
}
JOB = sm.Job()
CLUSTER = sm.Cluster()


def test_every_input_the_model_reads_is_declared() -> None:
    assert set(INPUTS) == set(sm.INPUT_KEYS)
    with pytest.raises(KeyError):
        sm.model({k: v for k, v in INPUTS.items() if k != "verify_s_per_claim"}, JOB, CLUSTER)


@pytest.mark.parametrize("order", ["interleaved", "grouped"])
@pytest.mark.parametrize("cold", [True, False])
def test_the_phases_sum_to_the_total_and_overlap_bounds_it(order: str, cold: bool) -> None:
    for nodes in (1, 7, 100, 1000):
        result = sm.model(INPUTS, replace(JOB, order=order, cold_cache=cold), replace(CLUSTER, nodes=nodes))
        phases = result["phases_s"]
        assert tuple(phases) == sm.PHASES
        assert math.isclose(sum(phases.values()), result["serial_s"], rel_tol=1e-12)
        lanes = result["lanes_s"]
        # The lanes are the same work as the phases, regrouped by who does it (start aside).
        assert math.isclose(sum(lanes.values()) + phases["start"], result["serial_s"], rel_tol=1e-12)
        assert result["overlapped_s"] == phases["start"] + max(lanes.values())
        assert result["overlapped_s"] <= result["serial_s"]
        assert result["bottleneck"] == max(lanes, key=lanes.get)
        assert (phases["parsing"] > 0) == cold


def test_worker_phases_are_the_work_divided_by_the_workers() -> None:
    result = sm.model(INPUTS, JOB, CLUSTER)
    workers = CLUSTER.nodes * CLUSTER.cores_per_node
    assert result["phases_s"]["verifying"] == pytest.approx(JOB.claims * 30e-6 / workers)
    assert result["phases_s"]["parsing"] == pytest.approx(JOB.pdfs * 0.02 / workers)
    assert result["phases_s"]["worker records"] == pytest.approx(JOB.claims * 15e-6 / workers)
    # 100,000 documents over 1,600 workers is 62.5 each: within 64 open documents, each opened once.
    assert result["documents fit the workers' open limit"] and result["opens"] == JOB.pdfs
    assert result["phases_s"]["indexing"] == pytest.approx(JOB.pdfs * 0.006 / workers)
    assert result["bytes"]["parse cache size"] == JOB.pdfs * 150_000
    assert result["tasks"]["chunks"] == JOB.claims // JOB.chunk_records


def test_pages_scale_the_per_document_costs() -> None:
    four, twelve = (sm.model(INPUTS, replace(JOB, pages_per_pdf=pages), CLUSTER) for pages in (4, 12))
    assert twelve["phases_s"]["parsing"] == pytest.approx(3 * four["phases_s"]["parsing"])
    assert twelve["bytes"]["parse cache size"] == pytest.approx(3 * four["bytes"]["parse cache size"])
    assert twelve["phases_s"]["verifying"] == four["phases_s"]["verifying"]


def test_a_window_of_chunks_makes_one_dask_task_per_worker_whatever_the_claim_order() -> None:
    grouped = sm.model(INPUTS, replace(JOB, order="grouped"), CLUSTER)["tasks"]
    interleaved = sm.model(INPUTS, JOB, CLUSTER)["tasks"]
    # 10,000 chunks in windows of 1,601 (workers + 1): six full windows and one of 394 chunks.
    assert grouped["chunks per window"] == interleaved["chunks per window"] == 1601
    assert grouped["windows"] == interleaved["windows"] == 7
    # Sorted, a window of 1,601,000 claims spans 16,011 documents, so it reaches every worker: 1,600 Dask tasks;
    # the last one spans 3,941, again every worker.
    assert grouped["dask tasks per window"] == 1600 and grouped["dask tasks"] == 7 * 1600
    # Interleaved, a window reaches every document, hence every worker, too.
    assert interleaved["dask tasks per window"] == pytest.approx(1600)
    assert interleaved["dask tasks"] == pytest.approx(7 * 1600, rel=1e-6)
    assert interleaved["records per dask task"] == pytest.approx(JOB.claims / interleaved["dask tasks"])
    # The planning of a window comes before its first task: 1,601,000 records at 5 us.
    assert interleaved["first window planned before any task is sent (s)"] == pytest.approx(1_601_000 * 5e-6)


def test_chunk_by_chunk_the_interleaved_claims_made_chunks_x_workers_dask_tasks() -> None:
    # The figure found before issue 30, kept for comparison: one Dask task per worker with work in each chunk.
    grouped = sm.model(INPUTS, replace(JOB, order="grouped"), CLUSTER)["tasks"]
    interleaved = sm.model(INPUTS, JOB, CLUSTER)["tasks"]
    before = "dask tasks chunk by chunk (before issue 30)"
    # 100 claims per document: a chunk of 1,000 sorted claims spans 11 documents, so 11 Dask tasks.
    assert grouped["documents per chunk"] == 11 and grouped[before] == 11 * 10_000
    # Interleaved, a chunk touches nearly 1,000 documents, homed over nearly as many of 1,600 workers.
    assert interleaved["documents per chunk"] == pytest.approx(100_000 * (1 - (1 - 1e-5) ** 1000))
    expected = 1600 * (1 - (1 - 1 / 1600) ** interleaved["documents per chunk"])
    assert interleaved[before] == pytest.approx(10_000 * expected)
    assert interleaved[before] > 600 * interleaved["dask tasks"]


def test_reopen_churn_past_the_open_document_limit() -> None:
    small = replace(CLUSTER, nodes=1, cores_per_node=1)
    job = replace(JOB, claims=100_000, pdfs=1000)
    result = sm.model(INPUTS, job, small)
    assert not result["documents fit the workers' open limit"]
    tasks = result["tasks"]["document tasks"]
    assert result["opens"] == pytest.approx(1000 + (tasks - 1000) * (1 - 64 / 1000))
    # Grouped claims are served while their document is open: once each, whatever the limit.
    assert sm.model(INPUTS, replace(job, order="grouped"), small)["opens"] == 1000


@pytest.mark.parametrize("order", ["interleaved", "grouped"])
@pytest.mark.parametrize("cold", [True, False])
def test_more_nodes_are_never_slower_whatever_the_claim_order(order: str, cold: bool) -> None:
    # Overlapped, never slower. One after another, only the scheduling may grow, by a few tasks: a window is
    # workers + 1 chunks with a task for each worker, so tasks approach chunks + workers from below.
    job = replace(JOB, order=order, cold_cache=cold)
    previous = None
    for nodes in range(1, 301):
        result = sm.model(INPUTS, job, replace(CLUSTER, nodes=nodes))
        if previous is not None:
            assert result["overlapped_s"] <= previous["overlapped_s"] + 1e-9, nodes
            rest, before = (r["serial_s"] - r["phases_s"]["scheduling"] for r in (result, previous))
            assert rest <= before + 1e-9, nodes
        bound = (result["tasks"]["chunks"] + nodes * CLUSTER.cores_per_node) * INPUTS["dask_scheduler_cpu_s_per_task"]
        assert result["phases_s"]["scheduling"] < bound, nodes
        previous = result


@pytest.mark.parametrize("order", ["interleaved", "grouped"])
def test_dask_tasks_stay_under_chunks_plus_workers_and_the_driver_is_busier_than_the_scheduler(order: str) -> None:
    # Sent in windows of workers + 1 chunks, a job makes at most one Dask task per worker per window:
    # fewer than chunks + workers however many nodes, so more nodes no longer swamp the scheduler.
    job = replace(JOB, order=order)
    for nodes in range(1, 301):
        result = sm.model(INPUTS, job, replace(CLUSTER, nodes=nodes))
        tasks, workers = result["tasks"], nodes * CLUSTER.cores_per_node
        assert tasks["dask tasks"] <= tasks["windows"] * workers + 1e-9, nodes
        assert tasks["dask tasks"] < tasks["chunks"] + workers, nodes
        lanes = result["lanes_s"]
        assert lanes["scheduler"] < lanes["driver (merge and its link)"], nodes
    lanes = [sm.model(INPUTS, job, replace(CLUSTER, nodes=nodes))["lanes_s"] for nodes in range(1, 301)]
    workers_lane = [lane["workers (parse, index, verify, records, storage)"] for lane in lanes]
    assert all(b <= a + 1e-9 for a, b in zip(workers_lane, workers_lane[1:]))


def test_breaking_points_are_where_the_capacity_is_first_exceeded() -> None:
    for name, (check, growth) in sm.LIMITS.items():
        size = sm.breaking_point(INPUTS, JOB, CLUSTER, name)
        if size is None:
            assert check(sm.model(INPUTS, *sm._grown(JOB, CLUSTER, growth, 10**12)))
            continue
        assert not check(sm.model(INPUTS, *sm._grown(JOB, CLUSTER, growth, size))), name
        if size > 1:
            assert check(sm.model(INPUTS, *sm._grown(JOB, CLUSTER, growth, size - 1))), name
    churn = "reopen churn (a worker's documents exceed --max-open-documents)"
    assert sm.breaking_point(INPUTS, JOB, CLUSTER, churn) == 64 * 1600 + 1
    assert sm.breaking_point(INPUTS, replace(JOB, order="grouped"), CLUSTER, churn) is None
    cache = sm.breaking_point(INPUTS, JOB, CLUSTER, "parse-cache storage")
    assert cache == 2**40 // 150_000 + 1


def test_the_command_models_given_inputs_as_json(tmp_path: Path) -> None:
    inputs = tmp_path / "inputs.json"
    inputs.write_text(json.dumps({"measured": INPUTS}))
    found = subprocess.run([sys.executable, str(REPO / "benchmarks" / "scale_model.py"), "--inputs", str(inputs),
                            "--json", "--nodes", "10", "--order", "grouped"],
                           capture_output=True, text=True, check=True)
    result = json.loads(found.stdout)
    assert result["measured"] == INPUTS
    assert result["result"]["cluster"]["workers"] == 160
    assert result["result"] == json.loads(json.dumps(sm.model(INPUTS, replace(JOB, order="grouped"),
                                                              replace(CLUSTER, nodes=10)), default=str))
    assert set(result["limits"]) == set(sm.LIMITS)
    table = subprocess.run([sys.executable, str(REPO / "benchmarks" / "scale_model.py"), "--inputs", str(inputs)],
                           capture_output=True, text=True, check=True).stdout
    assert "## What breaks first" in table and "total, overlapped" in table
