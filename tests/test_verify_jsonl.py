"""test_verify_jsonl - ethos verify-jsonl: records verified against their own sources (inline text, a text file byte for byte,
Markdown, a PDF, a parsed document, a corpus id), every field passed through in order, the verdict under "ethos", each
source opened once, bad records stopping the run with file and line (or recorded with --keep-going, never dropped), an
existing result refused unless replaced, requests past 256 claims, atomic outputs and a manifest that says what ran."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import harness
import pytest

from ethos_py.demo import SAMPLE_PDF
from ethos_py.jsonl_pipeline import JsonlError, verify_jsonl

REPO = Path(__file__).resolve().parents[1]
ETHOS = [sys.executable, "-m", "ethos_py.cli"]
TRUE = "Median time to resolution fell from 9.2 days to 6.1 days"


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    shutil.copyfile(SAMPLE_PDF, data / "report.pdf")
    shutil.copyfile(REPO / "examples" / "quickstart" / "document.json", data / "pilot.json")
    (data / "notes.txt").write_bytes("Caf\u00e9 sales rose 4%\r\nin the second quarter.\n".encode("utf-8"))
    (data / "guide.md").write_text("# Guide\n\nThe **first** step is to read the manual.\n", encoding="utf-8")
    (data / "corpus.json").write_text(json.dumps({"documents": {"pilot": "pilot.json"}}), encoding="utf-8")
    return tmp_path


def _write(path: Path, records: list[Any]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records), encoding="utf-8")
    return path


def _cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*ETHOS, "verify-jsonl", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=harness.SUBPROCESS_TIMEOUT, check=False)


def test_every_source_kind_and_every_field_passed_through(workdir: Path) -> None:
    records = [
        {"z_first": 1, "claim": TRUE, "source_path": "report.pdf", "meta": {"a": [1, 2]}},
        {"claim": TRUE.replace("6.1", "3.1"), "source_path": "report.pdf"},
        {"claim": "Café sales rose 4% in the second quarter", "source_path": "notes.txt"},
        {"claim": "step is to read the manual", "source_path": "guide.md"},  # inline markup is kept verbatim
        {"claim": "grew 12%", "source": "Revenue grew 12% in 2024.", "kind": "quote"},
        {"claim": "The pilot cut average response time by 30%", "document": "pilot"},
        {"claim": "4.2 days", "kind": "table_cell", "source_path": "pilot.json",
         "citation": {"table_id": "t0001", "cell": {"row": 1, "col": 2}}},
    ]
    claims = _write(workdir / "data" / "claims.jsonl", records)
    # Run from elsewhere: source paths are relative to the JSONL file.
    done = _cli(workdir, "data/claims.jsonl", "-o", "out.jsonl", "--corpus", "data/corpus.json", "--manifest", "run.json")
    assert done.returncode == 0, done.stderr
    out = [json.loads(line) for line in (workdir / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(out) == len(records)
    for given, written in zip(records, out):
        assert list(written)[:-1] == list(given) and {k: written[k] for k in given} == given  # untouched, in order
        assert list(written)[-1] == "ethos"
    statuses = [r["ethos"]["status"] for r in out]
    assert statuses == ["grounded", "mismatch", "grounded", "grounded", "grounded", "grounded", "grounded"], out
    assert out[1]["ethos"]["reason"] == "numeric_guard"
    assert out[0]["ethos"]["document_fingerprint"] == out[1]["ethos"]["document_fingerprint"]
    # The text file is read byte for byte: its fingerprint is the file's own hash.
    notes = (workdir / "data" / "notes.txt").read_bytes()
    assert out[2]["ethos"]["document_fingerprint"] == "sha256:" + hashlib.sha256(notes).hexdigest()
    manifest = json.loads((workdir / "run.json").read_text(encoding="utf-8"))
    assert manifest["input"]["sha256"] == hashlib.sha256(claims.read_bytes()).hexdigest()
    assert manifest["output"]["sha256"] == hashlib.sha256((workdir / "out.jsonl").read_bytes()).hexdigest()
    assert manifest["counts"] == {"grounded": 6, "mismatch": 1}
    # Each distinct source once: the PDF's two records share one entry, and so do the corpus id
    # "pilot" and the path pilot.json (the same file).
    assert len(manifest["sources"]) == 5 and len({s["key"] for s in manifest["sources"]}) == 5
    explained = json.loads(subprocess.run([*ETHOS, "explain", "--policy", "default"], capture_output=True, check=True).stdout)
    assert manifest["policy"]["policy_fingerprint"] == explained["policy_fingerprint"]
    assert manifest["ladder_profile"][-1]["cumulative_share"] == pytest.approx(6 / 7)
    # Deterministic: the library gives the same bytes.
    run = verify_jsonl(str(claims), corpus=str(workdir / "data" / "corpus.json"))
    assert b"".join(run.lines) == (workdir / "out.jsonl").read_bytes()


def test_a_bad_record_stops_the_run_with_file_and_line(workdir: Path) -> None:
    claims = _write(workdir / "claims.jsonl", [{"claim": "x", "source": "x y"}, {"claim": "x"},
                                               {"claim": 3, "source": "x"}])
    done = _cli(workdir, "claims.jsonl", "-o", "out.jsonl")
    assert done.returncode == 2
    details = json.loads(done.stderr)["error"]["details"]
    assert (details["line"], details["file"]) == (2, "claims.jsonl") and "exactly one of" in details["reason"]
    assert not (workdir / "out.jsonl").exists()
    with pytest.raises(JsonlError) as caught:
        verify_jsonl(str(claims))
    assert caught.value.line == 2


def test_keep_going_records_every_error_and_drops_nothing(workdir: Path) -> None:
    _write(workdir / "claims.jsonl", ['{"claim": "shrank", "source": "it grew"}', "{not json", "[1, 2]",
                                      {"claim": "x", "source_path": "missing.pdf"}, {"claim": "x", "source": "a", "document": "b"},
                                      {"claim": "it grew", "source": "it grew"}])
    done = _cli(workdir, "claims.jsonl", "-o", "out.jsonl", "--keep-going")
    assert done.returncode == 0, done.stderr
    out = [json.loads(line) for line in (workdir / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["ethos"]["status"] for r in out] == ["mismatch", "error", "error", "error", "error", "grounded"]
    assert out[1]["ethos"]["error"]["input"] == "{not json" and out[2]["ethos"]["error"]["input"] == [1, 2]
    assert [r["ethos"]["error"]["line"] for r in out[1:5]] == [2, 3, 4, 5]
    assert "no such file" in out[3]["ethos"]["error"]["reason"]


def test_an_existing_result_is_refused_unless_replaced(workdir: Path) -> None:
    _write(workdir / "claims.jsonl", [{"claim": "it grew", "source": "it grew", "ethos": {"status": "grounded"}, "after": 1}])
    refused = _cli(workdir, "claims.jsonl", "-o", "out.jsonl")
    assert refused.returncode == 2 and "--replace-existing" in json.loads(refused.stderr)["error"]["details"]["reason"]
    replaced = _cli(workdir, "claims.jsonl", "-o", "out.jsonl", "--replace-existing")
    assert replaced.returncode == 0
    [record] = [json.loads(line) for line in (workdir / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert list(record) == ["claim", "source", "after", "ethos"] and record["ethos"]["document_fingerprint"].startswith("sha256:")


def test_more_claims_than_one_request_holds(workdir: Path) -> None:
    source = " ".join(f"item{n} costs {n} euros." for n in range(400))
    _write(workdir / "claims.jsonl", [{"claim": f"item{n} costs {n} euros", "source": source} for n in range(300)])
    run = verify_jsonl(str(workdir / "claims.jsonl"))
    assert run.counts == {"grounded": 300} and len(run.sources) == 1


def test_a_refused_locator_fails_its_claim_alone(workdir: Path) -> None:
    (workdir / "data" / "broken.pdf").write_bytes(b"%PDF-1.7\nthis is no PDF\n")
    records = [{"claim": TRUE, "source_path": "report.pdf"},
               {"claim": TRUE, "source_path": "report.pdf", "citation": {"page": 7}},  # page ids are strings
               {"claim": TRUE, "source_path": "report.pdf", "citation": {"page": "p0001"}},
               {"claim": "x", "source_path": "broken.pdf"}]
    claims = _write(workdir / "data" / "claims.jsonl", records)
    stopped = _cli(workdir, str(claims), "-o", "out.jsonl")
    assert stopped.returncode == 2 and json.loads(stopped.stderr)["error"]["details"]["line"] == 2
    done = _cli(workdir, str(claims), "-o", "out.jsonl", "--keep-going")
    assert done.returncode == 0, done.stderr
    out = [json.loads(line)["ethos"] for line in (workdir / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [v["status"] for v in out] == ["grounded", "error", "grounded", "error"]
    assert out[1]["error"]["reason"].startswith("the claim was refused")
    # A PDF that cannot be parsed is recorded in its records too, not a failed run.
    assert out[3]["error"]["reason"].startswith("the source cannot be opened")
