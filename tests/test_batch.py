"""test_batch - ethos batch: a corpus's claims verified by worker processes, results in input order with every field kept,
documents named by path, manifest id or fingerprint, per-record errors recorded (never dropped), the same verdicts as
verify-jsonl, output and summary bytes independent of --workers and chunking, each PDF parsed once through the parse
cache, the corpus-level summary, and clear envelopes for jobs that cannot start."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import harness
import pytest
from pdf_fixtures import text_pdf

from ethos_py.batch import summarize

REPO = Path(__file__).resolve().parents[1]
ETHOS = [sys.executable, "-m", "ethos_py.cli"]

# Three small reports; each line is a claim some record makes.
REPORTS = {
    "north.pdf": ["Northwind revenue grew 12% in 2024.", "The board approved a dividend of 40 cents."],
    "south.pdf": ["Southwind opened four new stores in Lyon.", "Staff turnover fell to 9 percent."],
    "deep/east.pdf": ["Eastwind shipped 3,200 units in March.", "Warranty claims doubled year on year."],
}


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    for name, lines in REPORTS.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(text_pdf([lines]))
    shutil.copyfile(REPO / "examples" / "quickstart" / "document.json", root / "pilot.json")
    (root / "manifest.json").write_text(json.dumps({"documents": {"N": "north.pdf", "S": "south.pdf",
                                                                  "E": "deep/east.pdf", "P": "pilot.json"}}))
    return root


def _write(path: Path, records: list[Any]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records), encoding="utf-8")
    return path


def _batch(cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*ETHOS, "batch", *args], cwd=cwd, capture_output=True, text=True, env=env,
                          timeout=harness.SUBPROCESS_TIMEOUT, check=False)


def _env(cache: Path) -> dict[str, str]:
    return {**os.environ, "ETHOS_CACHE_DIR": str(cache)}


def _mixed_records() -> list[Any]:
    return [
        {"id": 1, "claim": "Northwind revenue grew 12% in 2024", "document": "north.pdf", "meta": {"z": [1]}},
        {"id": 2, "claim": "Staff turnover fell to 9 percent", "document": "south.pdf"},
        {"id": 3, "claim": "Eastwind shipped 3,200 units in March", "document": "deep/east.pdf", "kind": "quote"},
        {"id": 4, "claim": "Northwind revenue grew 15% in 2024", "document": "north.pdf"},  # not in the PDF
        "this line is not JSON",
        {"id": 6, "claim": "The pilot cut average response time by 30%", "document": "pilot.json"},
        [1, 2],
        {"id": 8, "document": "north.pdf"},  # no claim
        {"id": 9, "claim": "x", "document": "missing.pdf"},
        {"id": 10, "claim": "x", "document": "../outside.pdf"},
        {"id": 11, "claim": "x", "document": "north.pdf", "kind": "guess"},
        {"id": 12, "claim": "Warranty claims doubled", "document": "deep/east.pdf", "citation": {"page": 7}},
        {"id": 13, "claim": "Southwind opened four new stores in Lyon", "document": "south.pdf"},
        {"id": 14, "claim": "Northwind revenue grew 15% in 2024", "document": "south.pdf"},
        {"id": 15, "claim": "x", "document": "north.pdf", "ethos": {"status": "grounded"}},
    ]


def test_results_in_input_order_with_fields_kept_and_every_error_recorded(corpus: Path, tmp_path: Path) -> None:
    (corpus / "broken.pdf").write_bytes(b"%PDF-1.7\nthis is no PDF\n")
    claims = _write(tmp_path / "claims.jsonl", [*_mixed_records(), {"id": 16, "claim": "x", "document": "broken.pdf"}])
    with claims.open("a") as handle:
        handle.write("\n   \n")  # blank lines are no records
    result = _batch(tmp_path, "claims.jsonl", "--corpus", "corpus", "-o", "out.jsonl", "--workers", "2",
                    "--chunk-records", "4", env=_env(tmp_path / "cache"))
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    lines = (tmp_path / "out.jsonl").read_bytes().splitlines()
    assert len(lines) == 16
    out = [json.loads(line) for line in lines]
    status = [record["ethos"]["status"] for record in out]
    assert status[:4] == ["grounded", "grounded", "grounded", "not_grounded"] or status[3] != "grounded"
    assert [record.get("id") for record in out] == [1, 2, 3, 4, None, 6, None, 8, 9, 10, 11, 12, 13, 14, 15, 16]
    assert list(out[0]) == ["id", "claim", "document", "meta", "ethos"] and out[0]["meta"] == {"z": [1]}
    assert out[0]["ethos"]["source"] == "north.pdf" and out[2]["ethos"]["source"] == "deep/east.pdf"
    assert out[0]["ethos"]["document_fingerprint"].startswith("sha256:")
    assert status[0:3] == ["grounded"] * 3 and status[5] == "grounded" and status[12] == "grounded"
    assert status[3] != "grounded" and status[13] != "grounded"
    # Errors carry their line number and a reason, and the line that was no record is kept.
    assert out[4] == {"ethos": {"status": "error", "error": {"line": 5, "reason": out[4]["ethos"]["error"]["reason"],
                                                             "input": "this line is not JSON"}}}
    assert out[6]["ethos"]["error"]["input"] == [1, 2]
    reasons = {record.get("id"): record["ethos"].get("error", {}).get("reason") for record in out}
    assert reasons[8] == "claim must be a string"
    assert reasons[9] == "document 'missing.pdf' is not a file under the corpus"
    assert reasons[10] == "document '../outside.pdf' is not a file under the corpus"
    assert reasons[11].startswith("kind must be one of")
    assert reasons[12].startswith("the claim was refused")
    assert reasons[15].startswith("the record already has an 'ethos' result")
    # A PDF that cannot be parsed: its records say so, and which document it was.
    assert reasons[16].startswith("the source cannot be opened") and out[15]["ethos"]["source"] == "broken.pdf"
    assert "16 records" in result.stderr and "-> out.jsonl" in result.stderr
    # The summary sits beside the output; the work directory is gone.
    summary = json.loads((tmp_path / "out.summary.json").read_bytes())
    assert summary["records"] == 16
    assert {row["document"]: row["counts"] for row in summary["by_document"]}["broken.pdf"] == {"error": 1}
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_same_verdicts_as_verify_jsonl_with_ids_and_fingerprints(corpus: Path, tmp_path: Path) -> None:
    fingerprint = json.loads(subprocess.run([*ETHOS, "fingerprint", str(corpus / "south.pdf")], capture_output=True,
                                            check=True, env=_env(tmp_path / "cache")).stdout)["document_fingerprint"]
    records = [{"claim": line.rstrip("."), "document": name} for name, lines in (("N", REPORTS["north.pdf"]),
               ("S", REPORTS["south.pdf"]), ("E", REPORTS["deep/east.pdf"])) for line in lines]
    records += [{"claim": "revenue grew 13%", "document": "N"}, {"claim": "The pilot cut costs", "document": "P"},
                {"claim": "4.2 days", "kind": "table_cell", "document": "P",
                 "citation": {"table_id": "t0001", "cell": {"row": 1, "col": 2}}}]
    claims = _write(corpus / "claims.jsonl", records)
    jsonl = subprocess.run([*ETHOS, "verify-jsonl", str(claims), "--corpus", str(corpus / "manifest.json"), "-o",
                            str(tmp_path / "jsonl.jsonl")], capture_output=True, env=_env(tmp_path / "cache"), check=False)
    assert jsonl.returncode == 0, jsonl.stderr
    result = _batch(tmp_path, str(claims), "--corpus", str(corpus / "manifest.json"), "-o", "batch.jsonl",
                    "--workers", "2", "--chunk-records", "3", env=_env(tmp_path / "cache"))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "batch.jsonl").read_bytes() == (tmp_path / "jsonl.jsonl").read_bytes()
    # A fingerprint names the same document as its path and its id.
    by_fingerprint = _write(tmp_path / "fp.jsonl", [{"claim": "Staff turnover fell", "document": name}
                                                    for name in (fingerprint, "south.pdf", "S")])
    result = _batch(tmp_path, "fp.jsonl", "--corpus", str(corpus / "manifest.json"), "-o", "fp.out.jsonl",
                    env=_env(tmp_path / "cache"))
    assert result.returncode == 0, result.stderr
    verdicts = [json.loads(line)["ethos"] for line in (tmp_path / "fp.out.jsonl").read_bytes().splitlines()]
    assert [v["status"] for v in verdicts] == ["grounded"] * 3
    assert {v["document_fingerprint"] for v in verdicts} == {fingerprint}
    unknown = _write(tmp_path / "unknown.jsonl", [{"claim": "x", "document": "sha256:" + "0" * 64}])
    result = _batch(tmp_path, "unknown.jsonl", "--corpus", "corpus", "-o", "unknown.out.jsonl", env=_env(tmp_path / "cache"))
    error = json.loads((tmp_path / "unknown.out.jsonl").read_bytes())["ethos"]["error"]
    assert error["reason"] == "no document of the corpus has the fingerprint sha256:" + "0" * 64


def _many_records(count: int) -> list[dict[str, Any]]:
    names = sorted(REPORTS)
    records: list[dict[str, Any]] = []
    for i in range(count):
        name = names[(i * 7) % len(names)]
        line = REPORTS[name][i % 2].rstrip(".")
        claim = line if i % 5 else line.replace("e", "a", 1)  # every fifth claim is wrong
        records.append({"n": i, "claim": claim, "document": name, **({"kind": "presence"} if i % 11 == 0 else {})})
    return records


def test_output_and_summary_bytes_do_not_depend_on_workers_or_chunking(corpus: Path, tmp_path: Path) -> None:
    _write(tmp_path / "claims.jsonl", _many_records(120))
    outputs = []
    for workers, chunk in (("1", "1000"), ("2", "7"), ("2", "1")):
        name = f"out-{workers}-{chunk}.jsonl"
        result = _batch(tmp_path, "claims.jsonl", "--corpus", "corpus", "-o", name, "--workers", workers,
                        "--chunk-records", chunk, "--summary", name + ".summary", env=_env(tmp_path / "cache"))
        assert result.returncode == 0, result.stderr
        outputs.append(((tmp_path / name).read_bytes(), (tmp_path / (name + ".summary")).read_bytes()))
    assert outputs[0] == outputs[1] == outputs[2]
    assert len(outputs[0][0].splitlines()) == 120


def test_each_pdf_parsed_once_through_the_cache_and_documents_kept_open(corpus: Path, tmp_path: Path) -> None:
    _write(tmp_path / "claims.jsonl", _many_records(90))
    cache = tmp_path / "cache"
    facts = []
    for run in ("cold", "warm"):
        result = _batch(tmp_path, "claims.jsonl", "--corpus", "corpus", "-o", f"{run}.jsonl", "--workers", "2",
                        "--chunk-records", "10", "--stats", f"{run}.stats.json", env=_env(cache))
        assert result.returncode == 0, result.stderr
        facts.append(json.loads((tmp_path / f"{run}.stats.json").read_bytes()))
    cold, warm = facts
    # Three PDFs: parsed once each in the first run (two workers, but never the same PDF twice:
    # a document's chunks follow the worker that has it open), read from the cache in the second.
    assert cold["parse_cache"]["misses"] + cold["parse_cache"]["hits"] == cold["documents_opened"]
    assert cold["parse_cache"]["misses"] == 3
    assert warm["parse_cache"] == {"hits": warm["documents_opened"], "misses": 0, "hit_rate": 1.0}
    assert 3 <= cold["documents_opened"] <= 6 and cold["workers"] == 2 and len(cold["worker_peak_rss_bytes"]) == 2
    assert all(rss > 10 * 2**20 for rss in cold["worker_peak_rss_bytes"])
    assert cold["records"] == cold["verified"] == 90 and cold["resumed"] == 0
    assert cold["cpu_seconds"]["parent"] > 0 and len(cold["cpu_seconds"]["workers"]) == 2
    assert all(seconds > 0 for seconds in cold["cpu_seconds"]["workers"])
    assert (tmp_path / "cold.jsonl").read_bytes() == (tmp_path / "warm.jsonl").read_bytes()


def test_summary_answers_per_document_kind_reason_tier_and_most_failed(corpus: Path, tmp_path: Path) -> None:
    records = [
        {"claim": "Northwind revenue grew 12% in 2024", "document": "north.pdf"},
        {"claim": "NORTHWIND REVENUE GREW 12% IN 2024", "document": "north.pdf"},
        {"claim": "Revenue fell", "document": "north.pdf"},
        {"claim": "Revenue fell", "document": "south.pdf"},
        {"claim": "Revenue fell", "document": "deep/east.pdf"},
        {"claim": "Staff turnover fell", "document": "south.pdf", "kind": "presence"},
        {"claim": "Warranty", "document": "deep/east.pdf", "kind": "value"},
        {"claim": "Profit doubled", "document": "south.pdf"},
        {"claim": "x", "document": "nowhere.pdf"},
    ]
    _write(tmp_path / "claims.jsonl", records)
    result = _batch(tmp_path, "claims.jsonl", "--corpus", "corpus", "-o", "out.jsonl", "--summary", "s.json",
                    env=_env(tmp_path / "cache"))
    assert result.returncode == 0, result.stderr
    summary = json.loads((tmp_path / "s.json").read_bytes())
    out = [json.loads(line) for line in (tmp_path / "out.jsonl").read_bytes().splitlines()]
    grounded = sum(record["ethos"]["status"] == "grounded" for record in out)
    assert summary["records"] == 9 and summary["grounded"] == grounded
    assert summary["grounded_rate"] == round(grounded / 9, 6)
    assert summary["counts"] == {s: sum(r["ethos"]["status"] == s for r in out) for s in summary["counts"]}
    documents = {row["document"]: row for row in summary["by_document"]}
    assert set(documents) == {None, "north.pdf", "south.pdf", "deep/east.pdf"}
    assert documents["north.pdf"]["records"] == 3 and documents[None]["counts"] == {"error": 1}
    assert documents["north.pdf"]["grounded"] == sum(r["ethos"]["status"] == "grounded" for r in out[:3])
    assert {row["kind"]: row["records"] for row in summary["by_kind"]} == {"quote": 7, "presence": 1, "value": 1}
    assert [row["tier"] for row in summary["by_tier"]][:5] == ["exact", "whitespace", "typography", "case", "skeleton"]
    assert sum(row["grounded"] for row in summary["by_tier"]) == grounded
    assert summary["by_tier"][-1] == {"tier": None, "grounded": 1}  # the presence claim: no matched text
    tiers = {row["tier"]: row["grounded"] for row in summary["by_tier"]}
    assert tiers["exact"] >= 1 and tiers["case"] + tiers["skeleton"] >= 1  # the upper-case copy needs case folding
    assert sum(row["records"] for row in summary["by_reason"]) == 9 - grounded
    counts = [row["records"] for row in summary["by_reason"]]
    assert counts == sorted(counts, reverse=True)
    top = summary["most_failed"][0]
    assert top["claim"] == "Revenue fell" and top["failures"] == 3 and top["documents"] == 3
    # The summary is a function of the output lines alone.
    assert summarize((tmp_path / "out.jsonl").read_bytes().splitlines()) == summary


def _envelope(result: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert result.returncode == 2, result.stderr
    error: dict[str, Any] = json.loads(result.stderr)["error"]
    return error


def test_a_job_that_cannot_start_is_one_envelope_and_writes_nothing(corpus: Path, tmp_path: Path) -> None:
    _write(tmp_path / "claims.jsonl", [{"claim": "x", "document": "north.pdf"}])
    error = _envelope(_batch(tmp_path, "claims.jsonl", "--corpus", "nowhere", "-o", "out.jsonl"))
    assert error["code"] == "invalid_input" and error["details"] == {"argument": "--corpus",
                                                                    "reason": "no such directory or manifest file"}
    (tmp_path / "bad.json").write_text('{"documents": ["a"]}')
    error = _envelope(_batch(tmp_path, "claims.jsonl", "--corpus", "bad.json", "-o", "out.jsonl"))
    assert error["details"]["argument"] == "--corpus" and "documents" in error["details"]["reason"]
    error = _envelope(_batch(tmp_path, "missing.jsonl", "--corpus", "corpus", "-o", "out.jsonl"))
    assert error["code"] == "host_io" and error["details"]["argument"] == "CLAIMS"
    assert error["details"]["reason"] == "not_found"
    error = _envelope(_batch(tmp_path, "claims.jsonl", "--corpus", "corpus", "-o", "out.jsonl", "--workers", "-1"))
    assert error["code"] == "invalid_arguments"
    error = _envelope(_batch(tmp_path, "claims.jsonl", "--corpus", "corpus", "-o", "no/such/dir/out.jsonl"))
    assert error["code"] == "host_io" and error["details"]["argument"] == "--out" and not (tmp_path / "no").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json", "cache", "claims.jsonl", "corpus"] or \
        sorted(p.name for p in tmp_path.iterdir()) == ["bad.json", "claims.jsonl", "corpus"]


def _on_terminal(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, bytes]:
    """Runs argv with stderr on a pseudo-terminal; returns (exit status, what the terminal received)."""
    import fcntl
    import pty
    import struct
    import termios
    import tty

    leader, follower = pty.openpty()
    tty.setraw(follower)
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))
    try:
        process = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=follower)
    finally:
        os.close(follower)
    received = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:  # EIO: every writer of the terminal has closed it
            break
        if not data:
            break
        received.append(data)
    process.wait(timeout=harness.SUBPROCESS_TIMEOUT)
    os.close(leader)
    return process.returncode, b"".join(received)


def test_a_progress_bar_with_rate_and_time_left_on_a_terminal_unless_quiet(corpus: Path, tmp_path: Path) -> None:
    _write(tmp_path / "claims.jsonl", _many_records(60))
    argv = [*ETHOS, "batch", "claims.jsonl", "--corpus", "corpus", "-o", "out.jsonl", "--workers", "1",
            "--chunk-records", "5"]
    status, shown = _on_terminal(argv, tmp_path, _env(tmp_path / "cache"))
    assert status == 0, shown
    bar = shown.split(b"\r")
    assert any(b"ethos batch:" in line and b"%|" in line and b"records/s" in line and b"<" in line for line in bar), shown
    assert shown.rstrip().endswith(b"records/s on 1 worker -> out.jsonl")
    status, shown = _on_terminal([*argv, "--quiet"], tmp_path, _env(tmp_path / "cache"))
    assert status == 0 and b"%|" not in shown and b"60 records" in shown
