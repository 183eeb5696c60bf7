"""test_repair - ethos repair and ethos calibrate on real text and a generated PDF: the cascade (accept, normalize, salvage,
substitute, reject) in each mode, guards that block substitutions whatever the score, no default threshold, dropped
rejections, streamed atomic output and its manifest, and a calibration made by the core's scores, used by repair, and
refused for another policy, for repeated groups (unless recorded uncertified) and without scipy."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import harness
import pytest
from pdf_fixtures import text_pdf

from ethos_py.jsonl_pipeline import JsonlError
from ethos_py.repair_pipeline import RepairRun, labelled_scores, repair_jsonl

ETHOS = [sys.executable, "-m", "ethos_py.cli"]
SOURCE = ("In 2024 the company's revenue grew 12% to 4.2 billion euros, driven by strong demand in Europe. "
          "The board did not approve the merger with Northwind. Staff numbers rose from 1,200 to 1,450 over the year.")
PDF_LINES = ["Median time to resolution fell from 9.2 days to 6.1 days after the pilot.",
             "The new triage rules were adopted by all regional offices in March."]


def _write(path: Path, records: list[Any]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records), encoding="utf-8")
    return path


def _cli(cwd: Path, command: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*ETHOS, command, *args], cwd=cwd, capture_output=True, text=True, env=env,
                          timeout=harness.SUBPROCESS_TIMEOUT, check=False)


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


CASES = [
    ("exact", "revenue grew 12% to 4.2 billion euros"),
    ("case", "REVENUE GREW 12% TO 4.2 BILLION EUROS"),
    ("near", "the company's revenue grew 12% to 4.2 billion euros driven by demand in Europe"),
    ("figure", "the company's revenue grew 15% to 4.2 billion euros, driven by strong demand in Europe"),
    ("negation", "The board did approve the merger with Northwind"),
    ("unrelated", "Quarterly dividends were suspended pending a review of the pension scheme"),
    ("stitched", "the company's revenue grew 12% to 4.2 billion euros ... Staff numbers rose"),
]


@pytest.fixture
def claims(tmp_path: Path) -> Path:
    return _write(tmp_path / "claims.jsonl", [{"id": name, "claim": claim, "source": SOURCE} for name, claim in CASES])


def test_substitute_cascade_on_real_text(claims: Path) -> None:
    out = [json.loads(line) for line in repair_jsonl(str(claims), threshold=0.7, salvage="longest_grounded")]
    by_id = {r["id"]: r for r in out}
    assert [r["id"] for r in out] == [name for name, _ in CASES]  # input order, nothing dropped
    assert by_id["exact"]["ethos"]["action"] == "accepted" and "claim_original" not in by_id["exact"]
    # Grounded at the case tier: the document's own characters are stored, the model's kept beside them.
    case = by_id["case"]
    assert case["ethos"]["action"] == "normalized" and case["claim"] == "revenue grew 12% to 4.2 billion euros"
    assert case["claim_original"] == "REVENUE GREW 12% TO 4.2 BILLION EUROS"
    near = by_id["near"]
    assert near["ethos"]["action"] == "substituted" and near["ethos"]["grounded"] is True
    assert near["claim"] == "the company's revenue grew 12% to 4.2 billion euros, driven by strong demand in Europe"
    assert near["claim_original"] == CASES[2][1]
    assert near["ethos"]["before"]["status"] == "mismatch" and near["ethos"]["after"]["status"] == "grounded"
    assert 0.7 <= near["ethos"]["score"] < 1 and near["ethos"]["threshold"] == 0.7
    # The source is not echoed into every record: the span is match.source_text.
    assert "text" not in near["ethos"]["before"].get("evidence", {}) and SOURCE not in json.dumps(near["ethos"])
    # Guards block whatever the score; the claim stays the model's, nothing is substituted.
    assert by_id["figure"]["ethos"]["action"] == "rejected" and by_id["figure"]["ethos"]["reason"] == "numeric_guard"
    assert by_id["negation"]["ethos"]["reason"] == "polarity_guard"
    assert by_id["figure"]["claim"] == CASES[3][1] and "claim_original" not in by_id["figure"]
    assert by_id["unrelated"]["ethos"]["reason"] == "not_located"
    salvaged = by_id["stitched"]["ethos"]
    assert salvaged["action"] == "salvaged" and salvaged["grounded"] is True
    assert by_id["stitched"]["claim"] == "the company's revenue grew 12% to 4.2 billion euros"
    assert salvaged["salvage"]["dropped"] == ["Staff numbers rose"]  # the longest fragment is kept


def test_guards_block_even_at_threshold_zero_and_threshold_decides_the_rest(claims: Path) -> None:
    out = {r["id"]: r for r in map(json.loads, repair_jsonl(str(claims), threshold=0.0))}
    assert out["figure"]["ethos"]["reason"] == "numeric_guard" and out["negation"]["ethos"]["reason"] == "polarity_guard"
    # Without salvage, the stitched quote is rejected: its elision drops the board's "not".
    assert out["stitched"]["ethos"]["reason"] == "polarity_guard"
    strict = {r["id"]: r for r in map(json.loads, repair_jsonl(str(claims), threshold=0.99))}
    assert strict["near"]["ethos"]["reason"] == "below_threshold" and strict["near"]["claim"] == CASES[2][1]


def test_annotate_keeps_the_wording_and_off_only_verifies(claims: Path) -> None:
    annotated = {r["id"]: r for r in map(json.loads, repair_jsonl(str(claims), threshold=0.7, mode="annotate"))}
    near = annotated["near"]
    assert near["claim"] == CASES[2][1] and "claim_original" not in near
    assert (near["ethos"]["action"], near["ethos"]["accepted"], near["ethos"]["grounded"]) == ("annotated", True, False)
    assert near["ethos"]["located"]["source_text"] in SOURCE
    assert annotated["case"]["ethos"]["action"] == "accepted" and annotated["case"]["claim"] == CASES[1][1]
    off = {r["id"]: r for r in map(json.loads, repair_jsonl(str(claims), threshold=None, mode="off"))}
    assert [off[name]["ethos"]["action"] for name, _ in CASES] == ["accepted", "accepted"] + ["rejected"] * 5
    assert off["near"]["ethos"]["reason"] == "not_grounded"


def test_cli_writes_output_and_manifest_deterministically(claims: Path, tmp_path: Path) -> None:
    args = ["claims.jsonl", "-o", "out.jsonl", "--threshold", "0.7", "--manifest", "run.json"]
    first = _cli(tmp_path, "repair", *args)
    assert first.returncode == 0, first.stderr
    output, manifest_bytes = (tmp_path / "out.jsonl").read_bytes(), (tmp_path / "run.json").read_bytes()
    assert _cli(tmp_path, "repair", *args).returncode == 0
    assert (tmp_path / "out.jsonl").read_bytes() == output and (tmp_path / "run.json").read_bytes() == manifest_bytes
    assert output == b"".join(repair_jsonl(str(claims), threshold=0.7))
    manifest = json.loads(manifest_bytes)
    assert manifest["artifact_type"] == "ethos.repair_run.v1"
    assert manifest["output"]["sha256"] == hashlib.sha256(output).hexdigest()
    assert manifest["input"]["sha256"] == hashlib.sha256(claims.read_bytes()).hexdigest()
    assert manifest["cascade"]["threshold"] == 0.7 and manifest["cascade"]["threshold_source"] == "flag"
    assert manifest["counts"]["actions"] == {"accepted": 1, "normalized": 1, "rejected": 4, "substituted": 1}
    assert manifest["counts"]["rejected_reasons"] == {"not_located": 1, "numeric_guard": 1, "polarity_guard": 2}
    assert len(manifest["sources"]) == 1


def test_drop_rejected_leaves_them_out_and_counts_them(claims: Path, tmp_path: Path) -> None:
    done = _cli(tmp_path, "repair", "claims.jsonl", "-o", "out.jsonl", "--threshold", "0.7", "--drop-rejected",
                "--manifest", "run.json")
    assert done.returncode == 0, done.stderr
    assert [r["id"] for r in _read(tmp_path / "out.jsonl")] == ["exact", "case", "near"]
    counts = json.loads((tmp_path / "run.json").read_text())["counts"]
    assert (counts["records"], counts["written"], counts["dropped"]) == (7, 3, 4)


def test_no_threshold_is_an_error_never_a_default(claims: Path, tmp_path: Path) -> None:
    for extra in ([], ["--mode", "annotate"], ["--threshold", "0.7", "--calibration", "cal.json"], ["--threshold", "1.5"]):
        done = _cli(tmp_path, "repair", "claims.jsonl", "-o", "out.jsonl", *extra)
        assert done.returncode == 2, (extra, done.stderr)
        error = json.loads(done.stderr)["error"]
        assert error["code"] == "invalid_arguments" and error["details"]["argument"] == "--threshold"
        assert not (tmp_path / "out.jsonl").exists()
    with pytest.raises(ValueError, match="no default"):
        next(repair_jsonl(str(claims), threshold=None))
    assert _cli(tmp_path, "repair", "claims.jsonl", "-o", "out.jsonl", "--mode", "off").returncode == 0
    missing = _cli(tmp_path, "repair", "claims.jsonl", "-o", "out.jsonl", "--calibration", "nowhere.json")
    assert missing.returncode == 2 and json.loads(missing.stderr)["error"]["code"] == "host_io"
    (tmp_path / "bad.json").write_text('{"artifact_type": "ethos.jsonl_run.v1"}')
    bad = _cli(tmp_path, "repair", "claims.jsonl", "-o", "out.jsonl", "--calibration", "bad.json")
    assert bad.returncode == 2 and json.loads(bad.stderr)["error"]["details"]["argument"] == "--calibration"


def test_a_bad_record_leaves_no_output_and_keep_going_records_it(tmp_path: Path) -> None:
    records = [{"claim": "revenue grew 12%", "source": SOURCE}] * 300 + [{"claim": "x"}]
    _write(tmp_path / "claims.jsonl", records)
    (tmp_path / "out.jsonl").write_bytes(b"previous\n")
    done = _cli(tmp_path, "repair", "claims.jsonl", "-o", "out.jsonl", "--threshold", "0.8")
    assert done.returncode == 2
    assert json.loads(done.stderr)["error"]["details"]["line"] == 301
    assert (tmp_path / "out.jsonl").read_bytes() == b"previous\n"  # untouched: the stream went to a temp file
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".ethos-out-")]
    kept = _cli(tmp_path, "repair", "claims.jsonl", "-o", "out.jsonl", "--threshold", "0.8", "--keep-going",
                "--drop-rejected")
    assert kept.returncode == 0, kept.stderr
    out = _read(tmp_path / "out.jsonl")
    assert len(out) == 301 and out[-1]["ethos"]["action"] == "error"  # an error is never dropped
    with pytest.raises(JsonlError):
        list(repair_jsonl(str(tmp_path / "claims.jsonl"), threshold=0.8))


def test_a_claim_the_verifier_refuses_is_named_by_its_line(tmp_path: Path) -> None:
    _write(tmp_path / "claims.jsonl", [{"claim": "revenue grew 12%", "source": SOURCE},
                                       {"claim": "revenue grew 12%", "source": SOURCE, "citation": {"page": 1}}])
    done = _cli(tmp_path, "repair", "claims.jsonl", "-o", "out.jsonl", "--threshold", "0.8")
    assert done.returncode == 2
    details = json.loads(done.stderr)["error"]["details"]
    assert details["line"] == 2 and "the verifier refused the claim" in details["reason"]
    kept = _cli(tmp_path, "repair", "claims.jsonl", "-o", "out.jsonl", "--threshold", "0.8", "--keep-going")
    assert kept.returncode == 0, kept.stderr
    assert [r["ethos"]["action"] for r in _read(tmp_path / "out.jsonl")] == ["accepted", "error"]


def test_an_existing_result_or_original_is_refused_unless_replaced(tmp_path: Path) -> None:
    _write(tmp_path / "claims.jsonl", [{"claim": "revenue grew 12%", "source": SOURCE, "claim_original": "x"}])
    refused = _cli(tmp_path, "repair", "claims.jsonl", "-o", "out.jsonl", "--threshold", "0.8")
    assert refused.returncode == 2 and "--replace-existing" in json.loads(refused.stderr)["error"]["details"]["reason"]


def test_substitution_in_a_generated_pdf(tmp_path: Path) -> None:
    (tmp_path / "report.pdf").write_bytes(text_pdf([PDF_LINES]))
    _write(tmp_path / "claims.jsonl", [
        {"claim": "median time to resolution fell from 9.2 days to 6.1 days", "source_path": "report.pdf"},
        {"claim": "Median time to resolution fell from 9.2 to 6.1 days after the pilot", "source_path": "report.pdf",
         "citation": {"page": "p0001"}},
        {"claim": "Median time to resolution fell from 9.2 days to 5.1 days after the pilot", "source_path": "report.pdf"},
    ])
    done = _cli(tmp_path, "repair", "claims.jsonl", "-o", "out.jsonl", "--threshold", "0.75", "--manifest", "run.json")
    assert done.returncode == 0, done.stderr
    normalized, substituted, changed = _read(tmp_path / "out.jsonl")
    assert normalized["ethos"]["action"] == "normalized" and normalized["claim"].startswith("Median")
    assert substituted["ethos"]["action"] == "substituted", substituted["ethos"]
    assert substituted["claim"] in PDF_LINES[0] and substituted["claim_original"].startswith("Median")
    assert substituted["ethos"]["after"]["evidence"]["page"] == "p0001" and substituted["citation"] == {"page": "p0001"}
    assert changed["ethos"]["reason"] == "numeric_guard" and changed["claim"].endswith("5.1 days after the pilot")
    manifest = json.loads((tmp_path / "run.json").read_text())
    assert len(manifest["sources"]) == 1 and manifest["sources"][0]["source"] == "report.pdf"


def _labelled(tmp_path: Path, groups: int, *, repeat: bool = False) -> Path:
    """Real near misses: faithful ones drop a word or a comma, unfaithful ones swap content words."""
    records = []
    for index in range(groups):
        source = (f"Plant {index} produced steel for the northern rail project and shipped it by barge, "
                  f"according to the operator's annual report for the year.")
        faithful = index % 4 != 0
        claim = (f"Plant {index} produced steel for the northern rail project and shipped it by barge according to the "
                 "operator's report" if faithful else
                 f"Plant {index} produced copper for the southern road project and shipped it by truck")
        group = f"doc-{index // 2 if repeat else index}"
        records.append({"claim": claim, "source": source, "faithful": faithful, "group": group})
    records.append({"claim": "shipped it by barge", "source": records[0]["source"], "faithful": True,
                    "group": "grounded-one"})
    return _write(tmp_path / "labelled.jsonl", records)


def test_calibrate_then_repair_with_the_calibration(tmp_path: Path) -> None:
    _labelled(tmp_path, 40)
    rows = list(labelled_scores(str(tmp_path / "labelled.jsonl")))
    faithful_scores = [r["score"] for r in rows if r["faithful"] and r["status"] != "grounded"]
    assert all(isinstance(s, float) for s in faithful_scores)
    done = _cli(tmp_path, "calibrate", "labelled.jsonl", "-o", "cal.json", "--alpha", "0.1", "--delta", "0.1",
                "--scores", "scores.jsonl")
    assert done.returncode == 0, done.stderr
    first = (tmp_path / "cal.json").read_bytes()
    assert _cli(tmp_path, "calibrate", "labelled.jsonl", "-o", "cal.json", "--alpha", "0.1", "--delta", "0.1").returncode == 0
    assert (tmp_path / "cal.json").read_bytes() == first  # deterministic
    calibration = json.loads((tmp_path / "cal.json").read_text())
    assert calibration["artifact_type"] == "ethos.calibration.v1" and calibration["target"] == "risk"
    assert calibration["guarantee_status"] == "conditional" and calibration["stage"] == "substitute"
    assert calibration["input"]["grounded_as_given"] == 1 and calibration["n"] == 40
    assert calibration["threshold"] in faithful_scores  # an observed score, unrounded
    assert calibration["binding"]["policy_fingerprint"].startswith("sha256:")
    scores = _read(tmp_path / "scores.jsonl")
    assert [s["score"] for s in scores] == [r["score"] for r in rows]
    # repair uses it, and says so.
    _write(tmp_path / "claims.jsonl", [{"claim": json.loads(line)["claim"], "source": json.loads(line)["source"]}
                                       for line in (tmp_path / "labelled.jsonl").read_text().splitlines()[:4]])
    used = _cli(tmp_path, "repair", "claims.jsonl", "-o", "out.jsonl", "--calibration", "cal.json", "--manifest", "run.json")
    assert used.returncode == 0, used.stderr
    cascade = json.loads((tmp_path / "run.json").read_text())["cascade"]
    assert cascade["threshold"] == calibration["threshold"] and cascade["threshold_source"] == "calibration"
    assert cascade["calibration"]["guarantee_status"] == "conditional"
    actions = [r["ethos"]["action"] for r in _read(tmp_path / "out.jsonl")]
    assert actions == ["rejected", "substituted", "substituted", "substituted"]
    # Refused for another policy: the scores would come from another scorer configuration.
    other = _cli(tmp_path, "repair", "claims.jsonl", "-o", "other.jsonl", "--calibration", "cal.json", "--policy", "strict")
    assert other.returncode == 2 and "policy_fingerprint" in json.loads(other.stderr)["error"]["details"]["reason"]
    assert not (tmp_path / "other.jsonl").exists()
    coverage = _cli(tmp_path, "calibrate", "labelled.jsonl", "-o", "cov.json", "--alpha", "0.2", "--delta", "0.2",
                    "--target", "coverage")
    assert coverage.returncode == 0, coverage.stderr
    assert json.loads((tmp_path / "cov.json").read_text())["controlled_quantity"] == "faithful_acceptance"


def test_calibrate_refuses_repeated_groups_unless_recorded_uncertified(tmp_path: Path) -> None:
    _labelled(tmp_path, 40, repeat=True)
    refused = _cli(tmp_path, "calibrate", "labelled.jsonl", "-o", "cal.json", "--alpha", "0.1", "--delta", "0.1")
    assert refused.returncode == 2 and "groups have more than one example" in json.loads(refused.stderr)["error"]["details"]["reason"]
    assert not (tmp_path / "cal.json").exists()
    allowed = _cli(tmp_path, "calibrate", "labelled.jsonl", "-o", "cal.json", "--alpha", "0.1", "--delta", "0.1",
                   "--allow-repeated-groups")
    assert allowed.returncode == 0, allowed.stderr
    assert json.loads((tmp_path / "cal.json").read_text())["guarantee_status"] == "uncertified"
    _write(tmp_path / "claims.jsonl", [{"claim": "x y", "source": "x y"}])
    used = _cli(tmp_path, "repair", "claims.jsonl", "-o", "out.jsonl", "--calibration", "cal.json")
    assert used.returncode == 0 and "uncertified" in used.stderr


@pytest.mark.parametrize("record, reason", [({"claim": "a", "source": "a b", "group": "g"}, "faithful"),
                                            ({"claim": "a", "source": "a b", "faithful": True}, "group"),
                                            ({"claim": "a", "faithful": True, "group": "g"}, "exactly one of")])
def test_calibrate_names_a_bad_labelled_record(tmp_path: Path, record: dict[str, Any], reason: str) -> None:
    _write(tmp_path / "labelled.jsonl", [record])
    done = _cli(tmp_path, "calibrate", "labelled.jsonl", "-o", "cal.json", "--alpha", "0.1", "--delta", "0.1")
    assert done.returncode == 2
    details = json.loads(done.stderr)["error"]["details"]
    assert details["line"] == 1 and reason in details["reason"]


def test_calibrate_without_scipy_names_the_extra(tmp_path: Path) -> None:
    # An importable "scipy" that fails the way a missing one does, ahead of the real one on the path.
    blocker = tmp_path / "blocker" / "scipy"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text("raise ImportError('No module named scipy')\n")
    _labelled(tmp_path, 10)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "blocker"), os.environ.get("PYTHONPATH", "")])}
    done = _cli(tmp_path, "calibrate", "labelled.jsonl", "-o", "cal.json", "--alpha", "0.1", "--delta", "0.1", env=env)
    assert done.returncode == 12
    error = json.loads(done.stderr)["error"]
    assert error["details"]["reason"] == "missing_dependency"
    assert "pip install 'ethos-verify[calibrate]'" in error["message"]
    assert not (tmp_path / "cal.json").exists()


def test_records_stream_in_chunks_and_sources_open_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import ethos_py.repair_pipeline as pipeline

    monkeypatch.setattr(pipeline, "_CHUNK", 97)  # many rounds, each cut across records of one source
    source = " ".join(f"Item {n} costs {n} euros in total." for n in range(600))
    _write(tmp_path / "claims.jsonl", [{"n": n, "claim": f"item {n} costs {n} euros in total", "source": source}
                                       for n in range(600)])
    run = RepairRun()
    out = [json.loads(line) for line in repair_jsonl(str(tmp_path / "claims.jsonl"), threshold=0.8, run=run)]
    assert [r["n"] for r in out] == list(range(600)) and len(run.sources) == 1
    assert run.actions == {"normalized": 600} and out[0]["claim"] == "Item 0 costs 0 euros in total"


def test_only_quotes_are_normalized_or_repaired(tmp_path: Path) -> None:
    _write(tmp_path / "claims.jsonl", [{"claim": "4.2 BILLION euros", "kind": "value", "source": SOURCE},
                                       {"claim": "REVENUE grew", "kind": "presence", "source": SOURCE}])
    value, presence = [json.loads(line) for line in repair_jsonl(str(tmp_path / "claims.jsonl"), threshold=0.5)]
    # A value compares the whole cited text: never substituted by a span of it.
    assert value["ethos"]["action"] == "rejected" and value["ethos"]["reason"] == "not_a_quote"
    assert value["claim"] == "4.2 BILLION euros" and "claim_original" not in value
    assert presence["ethos"]["before"]["status"] == "grounded" and presence["ethos"]["action"] == "accepted"
    assert presence["claim"] == "REVENUE grew" and "claim_original" not in presence
