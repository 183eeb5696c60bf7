"""test_sensitivity - ethos sensitivity: per-policy rates (grounded, contiguous, repaired, rejected) that agree with the per-check verdicts
and with ethos verify / ethos repair run on their own, the spread line, every source kind (text, Markdown, a PDF parsed on the way,
Grounding JSON, OpenDataLoader, Docling), verify-jsonl records with each source opened once, the text rendering, and errors."""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import harness
import pytest

import ethos_py
from ethos_py.demo import SAMPLE_PDF
from ethos_py.calibration import CalibrationError
from ethos_py.jsonl_pipeline import JsonlError
from ethos_py.sensitivity import PRESETS, sensitivity, sensitivity_json
from ethos_py.sensitivity_text import render_sensitivity_text

REPO = Path(__file__).resolve().parents[1]
SOURCES = REPO / "tests" / "golden" / "sources"
ETHOS = [sys.executable, "-m", "ethos_py.cli"]
TEXT = ("Revenue grew 12% in 2024, driven by strong demand in Europe. The board did not approve the buyback. "
        "Costs fell sharply after the merger closed in March.\n")
# One claim per behaviour, with what each policy makes of it (outcome, and contiguity when grounded) at threshold 0.8.
CASES = [
    ("Revenue grew 12% in 2024", ("grounded", "grounded", "grounded")),
    ("revenue grew 12% in 2024", ("rejected", "grounded", "grounded")),  # case tier: past strict's accept_up_to
    ("Revenue\u2014grew 12%; in 2024", ("rejected", "rejected", "grounded")),  # skeleton tier: permissive only
    ("\u2026 driven by strong demand in Europe", ("grounded", "grounded", "grounded")),  # truncation read
    ("Revenue grew 12% ... demand in Europe", ("rejected", "rejected", "rejected")),  # stitched: never grounded
    ("Costs fell sharply after the merger was closed in March", ("repaired", "repaired", "repaired")),  # near miss
    ("Revenue grew 15% in 2024", ("rejected", "rejected", "rejected")),  # the numeric guard blocks the repair
    ("approve the buyback", ("rejected", "rejected", "rejected")),  # cut right after a negation
]
TRUE = "Median time to resolution fell from 9.2 days to 6.1 days"


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["ETHOS_CACHE_DIR"] = os.fspath(tmp_path / ".parse-cache")  # never the user's cache
    return env


def _cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*ETHOS, *args], cwd=cwd, capture_output=True, env=_env(cwd),
                          timeout=harness.SUBPROCESS_TIMEOUT, check=False)


def _ok(cwd: Path, *args: str) -> dict[str, Any]:
    done = _cli(cwd, "sensitivity", *args)
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    assert done.stdout == ethos_py._json.dumps(result) + b"\n"  # canonical JSON, one line
    return result


def _citations(claims: list[str], fingerprint: str | None, citation: dict[str, Any] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"claims": [{"kind": "quote", "text": text, "citation": citation or {"scope": "document"}}
                                       for text in claims]}
    if fingerprint is not None:
        data["document_fingerprint"] = fingerprint
    return data


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    (tmp_path / "report.txt").write_text(TEXT, encoding="utf-8")
    with ethos_py.Document.open(tmp_path / "report.txt", "text") as document:
        fingerprint = document.fingerprint
    (tmp_path / "citations.json").write_text(json.dumps(_citations([text for text, _ in CASES], fingerprint)),
                                             encoding="utf-8")
    return tmp_path


def assert_rates_match_the_checks(result: dict[str, Any]) -> None:
    """Every rate is recounted from the per-check rows: one outcome per claim and policy, contiguous within
    grounded, rates in basis points rounded half up, and the spread from the grounded counts."""
    total = len(result["checks"])
    assert result["claims"] == total
    computed = result["repair"]["computed"]
    for preset in PRESETS:
        rows = [row[preset] for row in result["checks"]]
        counts = {outcome: sum(row["outcome"] == outcome for row in rows) for outcome in ("grounded", "repaired", "rejected")}
        assert sum(counts.values()) == total
        assert all((row["outcome"] == "grounded") == (row["status"] == "grounded") for row in rows)
        counts["contiguous"] = sum(row["outcome"] == "grounded" and row["contiguous"] for row in rows)
        rate = result["rates"][preset]
        for name, count in counts.items():
            calibrated = (result["repair"].get("calibration") or {}).get("policy", preset)
            if name == "repaired" and (not computed or preset != calibrated):  # a calibration binds one preset
                assert rate["repaired"] is None and count == 0
                continue
            assert rate[name]["count"] == count, (preset, name)
            assert rate[name]["rate_bp"] == (math.floor(count * 10000 / total + 0.5) if total else 0)
        assert sum(rate["grounded_by_tier"].values()) == counts["grounded"]
        assert rate["policy_fingerprint"] == result["policies"][preset]
    grounded = {preset: result["rates"][preset]["grounded"]["count"] for preset in PRESETS}
    spread = result["spread"]
    assert spread["max"]["rate_bp"] - spread["min"]["rate_bp"] in (spread["grounded_rate_bp"] - 1, spread["grounded_rate_bp"],
                                                                    spread["grounded_rate_bp"] + 1)
    assert grounded[spread["max"]["policy"]] == max(grounded.values())
    assert grounded[spread["min"]["policy"]] == min(grounded.values())
    changed = [row for row in result["checks"]
               if len({(row[p]["status"], row[p]["outcome"]) for p in PRESETS}) > 1]
    assert spread["changed_count"] == len(changed) == len(spread["changed"])
    assert [change["text"] for change in spread["changed"]] == [row["claim"]["text"] for row in changed]


def _verify_statuses(cwd: Path, source: str, citations: str, preset: str, *grounding: str) -> list[tuple[str, str | None]]:
    done = _cli(cwd, "verify", source, "--citations", citations, "--policy", preset, *grounding)
    assert done.returncode == 0, done.stderr
    return [(check["status"], check.get("reason")) for check in json.loads(done.stdout)["checks"]]


def test_each_claim_gets_one_outcome_per_policy_and_the_rates_count_them(workdir: Path) -> None:
    result = _ok(workdir, "report.txt", "--citations", "citations.json", "--grounding", "text", "--threshold", "0.8")
    assert_rates_match_the_checks(result)
    assert [tuple(row[p]["outcome"] for p in PRESETS) for row in result["checks"]] == [expected for _, expected in CASES]
    # The verdicts are ethos verify's own under each preset, claim by claim.
    for preset in PRESETS:
        assert [(row[preset]["status"], row[preset].get("reason")) for row in result["checks"]] == \
            _verify_statuses(workdir, "report.txt", "citations.json", preset, "--grounding", "text")
    rates = result["rates"]
    assert [rates[p]["accept_up_to"] for p in PRESETS] == ["whitespace", "case", "skeleton"]
    assert [rates[p]["grounded"]["count"] for p in PRESETS] == [2, 3, 4]
    assert [rates[p]["grounded"]["rate_bp"] for p in PRESETS] == [2500, 3750, 5000]
    assert [rates[p]["repaired"]["count"] for p in PRESETS] == [1, 1, 1]
    assert [rates[p]["rejected"]["count"] for p in PRESETS] == [5, 4, 3]
    assert rates["default"]["grounded_by_tier"] == {"case": 1, "exact": 2}


def test_contiguous_leaves_out_a_quote_grounded_only_by_reading_an_end_mark_as_truncation(workdir: Path) -> None:
    result = _ok(workdir, "report.txt", "--citations", "citations.json", "--grounding", "text")
    truncated = result["checks"][3]
    # Strict and default ground "… driven by ..." only once the mark is read as truncation; permissive's skeleton
    # tier reads the mark as punctuation and finds the quote as written.
    assert [truncated[p]["contiguous"] for p in PRESETS] == [False, False, True]
    assert [truncated[p]["tier"] for p in PRESETS] == ["exact", "exact", "skeleton"]
    assert [result["rates"][p]["contiguous"]["count"] for p in PRESETS] == [1, 2, 4]
    assert [result["rates"][p]["grounded"]["count"] for p in PRESETS] == [2, 3, 4]


def test_the_spread_names_the_extremes_and_every_claim_that_changes_verdict(workdir: Path) -> None:
    spread = _ok(workdir, "report.txt", "--citations", "citations.json", "--grounding", "text")["spread"]
    assert spread["grounded_rate_bp"] == 2500
    assert spread["max"] == {"policy": "permissive", "rate_bp": 5000}
    assert spread["min"] == {"policy": "strict", "rate_bp": 2500}
    assert [(change["id"], change["text"]) for change in spread["changed"]] == [("v0002", CASES[1][0]), ("v0003", CASES[2][0])]
    assert spread["changed"][0]["verdicts"]["strict"] == {"outcome": "rejected", "status": "mismatch"}
    assert spread["changed"][1]["verdicts"]["permissive"] == {"outcome": "grounded", "status": "grounded"}


def test_repaired_is_what_ethos_repair_substitutes_under_each_policy(workdir: Path) -> None:
    records = [{"claim": text, "source_path": "report.txt"} for text, _ in CASES]
    (workdir / "claims.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    for threshold in ("0.8", "0.95"):
        result = _ok(workdir, "report.txt", "--citations", "citations.json", "--grounding", "text", "--threshold", threshold)
        assert result["repair"]["threshold"] == threshold and result["repair"]["computed"]
        for preset in PRESETS:
            done = _cli(workdir, "repair", "claims.jsonl", "-o", f"out-{preset}.jsonl", "--threshold", threshold,
                        "--policy", preset)
            assert done.returncode == 0, done.stderr
            actions = [json.loads(line)["ethos"]["action"]
                       for line in (workdir / f"out-{preset}.jsonl").read_text(encoding="utf-8").splitlines()]
            assert [row[preset]["outcome"] == "repaired" for row in result["checks"]] == \
                [action == "substituted" for action in actions], (threshold, preset)
    repaired = _ok(workdir, "report.txt", "--citations", "citations.json", "--grounding", "text", "--threshold", "0.8")
    assert repaired["checks"][5]["default"]["repair"] == {"score_bp": 9473,
                                                         "text": "Costs fell sharply after the merger closed in March"}
    assert repaired["repair"]["min_score_bp"] == 8000
    # 0.9473 is the near miss's score: the threshold is inclusive, as repair's "score >= threshold".
    at_score = _ok(workdir, "report.txt", "--citations", "citations.json", "--grounding", "text", "--threshold", "0.9473")
    assert at_score["rates"]["default"]["repaired"]["count"] == 1
    above = _ok(workdir, "report.txt", "--citations", "citations.json", "--grounding", "text", "--threshold", "0.9474")
    assert above["rates"]["default"]["repaired"]["count"] == 0
    assert above["repair"]["min_score_bp"] == 9474


def test_without_a_threshold_repaired_is_not_computed(workdir: Path) -> None:
    result = _ok(workdir, "report.txt", "--citations", "citations.json", "--grounding", "text")
    assert_rates_match_the_checks(result)
    assert result["repair"]["computed"] is False and result["repair"]["threshold"] is None
    assert "no threshold" in result["repair"]["reason"]
    assert all(result["rates"][p]["repaired"] is None for p in PRESETS)
    assert [result["rates"][p]["rejected"]["count"] for p in PRESETS] == [6, 5, 4]  # the near miss is rejected too
    assert not any(row[p]["outcome"] == "repaired" for row in result["checks"] for p in PRESETS)


def test_a_markdown_source(tmp_path: Path) -> None:
    (tmp_path / "guide.md").write_text("# Guide\n\nThe **first** step is to read the manual.\n\n"
                                       "- Keep the receipt for thirty days.\n", encoding="utf-8")
    with ethos_py.Document.open(tmp_path / "guide.md", "markdown") as document:
        fingerprint = document.fingerprint
    claims = ["step is to read the manual", "keep the receipt for thirty days", "Keep the receipt for 40 days"]
    (tmp_path / "citations.json").write_text(json.dumps(_citations(claims, fingerprint)), encoding="utf-8")
    result = _ok(tmp_path, "guide.md", "--citations", "citations.json", "--grounding", "markdown", "--threshold", "0.5")
    assert_rates_match_the_checks(result)
    for preset in PRESETS:
        assert [(row[preset]["status"], row[preset].get("reason")) for row in result["checks"]] == \
            _verify_statuses(tmp_path, "guide.md", "citations.json", preset, "--grounding", "markdown")
    assert [tuple(row[p]["outcome"] for p in PRESETS) for row in result["checks"]] == [
        ("grounded", "grounded", "grounded"), ("rejected", "grounded", "grounded"), ("rejected", "rejected", "rejected")]
    assert result["checks"][2]["default"]["reason"] == "numeric_guard"  # "40" for "thirty": never substituted
    assert result["sources"] == [{"document_fingerprint": fingerprint, "source": "guide.md"}]


def test_a_pdf_is_parsed_on_the_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copyfile(SAMPLE_PDF, tmp_path / "report.pdf")
    monkeypatch.setenv("ETHOS_CACHE_DIR", os.fspath(tmp_path / ".parse-cache"))
    from ethos_py.testing import open_source

    with open_source(tmp_path / "report.pdf") as document:
        fingerprint = document.fingerprint
    claims = [TRUE, TRUE.lower(), TRUE.replace("6.1", "3.1")]
    (tmp_path / "citations.json").write_text(json.dumps(_citations(claims, fingerprint, {"page": "p0001"})),
                                             encoding="utf-8")
    result = _ok(tmp_path, "report.pdf", "--citations", "citations.json", "--threshold", "0.8")
    assert_rates_match_the_checks(result)
    assert [tuple(row[p]["outcome"] for p in PRESETS) for row in result["checks"]] == [
        ("grounded", "grounded", "grounded"), ("rejected", "grounded", "grounded"), ("rejected", "rejected", "rejected")]
    assert result["checks"][2]["strict"]["reason"] == "numeric_guard"
    assert result["sources"][0]["document_fingerprint"] == fingerprint
    assert result["spread"]["grounded_rate_bp"] == 3333 and result["spread"]["changed_count"] == 1
    # The in-process function gives the same bytes as the command (the source named as it was given).
    monkeypatch.chdir(tmp_path)
    assert sensitivity_json("report.pdf", "citations.json", threshold=0.8) == ethos_py._json.dumps(result)


@pytest.mark.parametrize(("fixture", "grounding", "quote"), [
    ("grounding-quarterly.json", "ethos-grounding-json", "Revenue grew 12.5% year over year."),
    ("odl-quarterly.json", "opendataloader-json", "Revenue grew 12 percent year over year"),
    ("docling-report.json", "docling-json", "Revenue grew 12 percent."),
    ("report.json", "ethos-native", "Revenue grew 12.5% year over year"),
])
def test_every_foreign_source_kind(tmp_path: Path, fixture: str, grounding: str, quote: str) -> None:
    shutil.copyfile(SOURCES / fixture, tmp_path / fixture)
    with ethos_py.Document.open(tmp_path / fixture, grounding) as document:
        fingerprint = document.fingerprint
    (tmp_path / "citations.json").write_text(json.dumps(_citations([quote, quote.upper()], fingerprint)), encoding="utf-8")
    result = _ok(tmp_path, fixture, "--citations", "citations.json", "--grounding", grounding)
    assert_rates_match_the_checks(result)
    for preset in PRESETS:
        assert [(row[preset]["status"], row[preset].get("reason")) for row in result["checks"]] == \
            _verify_statuses(tmp_path, fixture, "citations.json", preset, "--grounding", grounding)
    assert [tuple(row[p]["outcome"] for p in PRESETS) for row in result["checks"]] == [
        ("grounded", "grounded", "grounded"), ("rejected", "grounded", "grounded")]


def test_jsonl_records_with_each_source_opened_once(workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copyfile(SAMPLE_PDF, workdir / "report.pdf")
    shutil.copyfile(REPO / "examples" / "quickstart" / "document.json", workdir / "pilot.json")
    (workdir / "guide.md").write_text("# Guide\n\nThe **first** step is to read the manual.\n", encoding="utf-8")
    (workdir / "corpus.json").write_text(json.dumps({"documents": {"pilot": "pilot.json"}}), encoding="utf-8")
    records = [{"id": index, "claim": text, "source_path": "report.txt"} for index, (text, _) in enumerate(CASES)]
    records[3:3] = [
        {"claim": TRUE.lower(), "source_path": "report.pdf", "citation": {"page": "p0001"}},
        {"claim": "step is to read the manual", "source_path": "guide.md"},
        {"claim": "GREW 12%", "source": "Revenue grew 12% in 2024."},
        {"claim": "The pilot cut average response time by 30%", "document": "pilot"},
        {"claim": TRUE, "source_path": "report.pdf", "ethos": {"status": "grounded"}},  # a verify-jsonl output line
    ]
    lines = [json.dumps(r) + "\n" for r in records]
    lines.insert(5, "\n")  # blank lines are skipped, as verify-jsonl skips them
    (workdir / "claims.jsonl").write_text("".join(lines), encoding="utf-8")
    result = _ok(workdir, "--jsonl", "claims.jsonl", "--corpus", "corpus.json", "--threshold", "0.8")
    assert_rates_match_the_checks(result)
    assert result["input"] == "jsonl" and result["claims"] == len(records)
    assert [row["line"] for row in result["checks"]] == [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14]
    assert [row["source"] for row in result["checks"][3:8]] == ["report.pdf", "guide.md", "inline text", "pilot.json",
                                                                 "report.pdf"]
    assert [source["source"] for source in result["sources"]] == ["report.txt", "report.pdf", "guide.md", "inline text",
                                                                  "pilot.json"]
    # The records against report.txt get the verdicts of the citations file holding the same claims.
    cited = _ok(workdir, "report.txt", "--citations", "citations.json", "--grounding", "text", "--threshold", "0.8")
    from_text = [row for row in result["checks"] if row["source"] == "report.txt"]
    assert [{p: row[p] for p in PRESETS} for row in from_text] == [{p: row[p] for p in PRESETS} for row in cited["checks"]]
    assert [tuple(row[p]["outcome"] for p in PRESETS) for row in result["checks"][3:8]] == [
        ("rejected", "grounded", "grounded"), ("grounded", "grounded", "grounded"), ("rejected", "grounded", "grounded"),
        ("grounded", "grounded", "grounded"), ("grounded", "grounded", "grounded")]
    # In process: each distinct source is opened once (five sources, thirteen claims, three policies).
    import ethos_py.jsonl_pipeline as pipeline

    opened: list[str] = []
    real = pipeline.open_target
    monkeypatch.setattr(pipeline, "open_target", lambda kind, target, *rest: opened.append(target) or real(kind, target, *rest))
    monkeypatch.setenv("ETHOS_CACHE_DIR", os.fspath(workdir / ".parse-cache"))
    again = sensitivity(jsonl=os.fspath(workdir / "claims.jsonl"), corpus=os.fspath(workdir / "corpus.json"), threshold=0.8)
    assert len(opened) == len(set(opened)) == 5
    assert ethos_py._json.dumps(again) == ethos_py._json.dumps(result)


def test_text_format(workdir: Path) -> None:
    done = _cli(workdir, "sensitivity", "report.txt", "--citations", "citations.json", "--grounding", "text",
                "--threshold", "0.8", "--format", "text")
    assert done.returncode == 0 and done.stderr == b""
    lines = done.stdout.decode("utf-8").splitlines()
    assert lines[0] == "ethos sensitivity: 8 claims, 1 source(s), repaired: accepted by ethos repair --threshold 0.8 (substitute)"
    assert lines[2].split() == ["policy", "accepts", "up", "to", "grounded", "contiguous", "repaired", "rejected"]
    assert lines[3].split() == ["strict", "whitespace", "2", "(25.00%)", "1", "(12.50%)", "1", "(12.50%)", "5", "(62.50%)"]
    assert lines[5].split() == ["permissive", "skeleton", "4", "(50.00%)", "4", "(50.00%)", "1", "(12.50%)", "3", "(37.50%)"]
    assert lines[7] == ("Spread: the grounded rate varies by 25.00 percentage points across the three policies "
                        "(strict 25.00% to permissive 50.00%); 2 of 8 claims change verdict:")
    assert lines[8].split("  ")[:2] == ["", "v0002"]
    assert lines[8].endswith("strict rejected, default grounded, permissive grounded  \"revenue grew 12% in 2024\"")
    assert len(lines) == 10
    # --out writes the same bytes, atomically; without --threshold the repaired column says so.
    assert _cli(workdir, "sensitivity", "report.txt", "--citations", "citations.json", "--grounding", "text",
                "--threshold", "0.8", "--format", "text", "--out", "table.txt").returncode == 0
    assert (workdir / "table.txt").read_bytes() == done.stdout
    plain = _cli(workdir, "sensitivity", "report.txt", "--citations", "citations.json", "--grounding", "text",
                 "--format", "text").stdout.decode("utf-8").splitlines()
    assert "not computed (no --threshold" in plain[0] and plain[3].split()[6:8] == ["not", "computed"]


def test_the_output_is_deterministic_and_written_atomically(workdir: Path) -> None:
    first = _cli(workdir, "sensitivity", "report.txt", "--citations", "citations.json", "--grounding", "text",
                 "--threshold", "0.8")
    second = _cli(workdir, "sensitivity", "report.txt", "--citations", "citations.json", "--grounding", "text",
                  "--threshold", "0.8", "--out", "out.json")
    assert second.returncode == 0 and second.stdout == b""
    assert (workdir / "out.json").read_bytes() == first.stdout
    (workdir / "broken.json").write_text("{", encoding="utf-8")
    failed = _cli(workdir, "sensitivity", "report.txt", "--citations", "broken.json", "--grounding", "text",
                  "--out", "never.json")
    assert failed.returncode == 2 and not (workdir / "never.json").exists()
    assert [p.name for p in workdir.iterdir() if p.name.startswith(".ethos-out")] == []


def test_a_config_is_passed_through(workdir: Path) -> None:
    explained = _cli(workdir, "explain")
    (workdir / "default-v1.json").write_bytes(explained.stdout)
    with_config = _ok(workdir, "report.txt", "--citations", "citations.json", "--grounding", "text", "--threshold", "0.8",
                      "--config", "default-v1.json")
    without = _ok(workdir, "report.txt", "--citations", "citations.json", "--grounding", "text", "--threshold", "0.8")
    assert with_config == without  # each preset overrides the config's matching rule, as verify --policy does
    tight = json.loads(explained.stdout)
    tight["limits"]["max_checks"] = 2  # the config is the one verify reads: its limit holds here too
    (workdir / "tight.json").write_text(json.dumps(tight), encoding="utf-8")
    refused = _cli(workdir, "sensitivity", "report.txt", "--citations", "citations.json", "--grounding", "text",
                   "--config", "tight.json")
    assert refused.returncode == 2 and json.loads(refused.stderr)["error"]["code"] == "input_limit_exceeded"


def test_a_bad_config_is_named_as_the_config_for_jsonl_records_too(workdir: Path) -> None:
    (workdir / "claims.jsonl").write_text(json.dumps({"claim": "grew 12%", "source": "Revenue grew 12%."}) + "\n",
                                          encoding="utf-8")
    (workdir / "broken.json").write_text("{", encoding="utf-8")
    (workdir / "unknown.json").write_text(json.dumps({**json.loads(_cli(workdir, "explain").stdout), "bogus": 1}),
                                          encoding="utf-8")
    for config, expected in (("broken.json", {"input": "config", "offset": 2, "path": "$"}), ("unknown.json", {"path": "$.bogus"})):
        error = _envelope(_cli(workdir, "sensitivity", "--jsonl", "claims.jsonl", "--config", config))
        assert (error["code"], error["details"]) == ("invalid_input", expected)
        # ... as for a citations file, where the core reads the config first.
        cited = _envelope(_cli(workdir, "sensitivity", "report.txt", "--citations", "citations.json", "--grounding", "text",
                               "--config", config))
        assert cited == error


def _envelope(done: subprocess.CompletedProcess[bytes]) -> dict[str, Any]:
    assert done.stdout == b""
    lines = done.stderr.decode("utf-8").splitlines()
    assert len(lines) == 1, done.stderr  # one envelope, never a traceback
    error: dict[str, Any] = json.loads(lines[0])["error"]
    return error


@pytest.mark.parametrize(("args", "code", "argument"), [
    ([], "invalid_arguments", "SOURCE"),
    (["report.txt"], "invalid_arguments", "--citations"),
    (["--citations", "citations.json"], "invalid_arguments", "SOURCE"),
    (["--jsonl", "claims.jsonl", "--citations", "citations.json"], "invalid_arguments", "--citations"),
    (["report.txt", "--citations", "citations.json", "--jsonl", "claims.jsonl"], "invalid_arguments", "--jsonl"),
    (["report.txt", "--citations", "citations.json", "--corpus", "corpus.json"], "invalid_arguments", "--corpus"),
    (["report.txt", "--citations", "citations.json", "--threshold", "1.5"], "invalid_arguments", "--threshold"),
    (["report.txt", "--citations", "citations.json", "--threshold", "nan"], "invalid_arguments", "--threshold"),
    (["report.txt", "--citations", "citations.json", "--threshold", "high"], "invalid_arguments", "--threshold"),
    (["report.txt", "--citations", "citations.json", "--format", "html"], "invalid_arguments", "--format"),
    (["report.txt", "--citations", "citations.json", "--grounding", "pdf"], "invalid_arguments", "--grounding"),
    (["report.txt", "--citations", "citations.json", "extra"], "invalid_arguments", "extra"),
    (["missing.txt", "--citations", "citations.json"], "host_io", "SOURCE"),
    (["report.txt", "--citations", "missing.json"], "host_io", "--citations"),
    (["report.txt", "--citations", "citations.json", "--config", "missing.json"], "host_io", "--config"),
    (["--jsonl", "missing.jsonl"], "host_io", "--jsonl"),
    (["--jsonl", "claims.jsonl", "--corpus", "missing.json"], "host_io", "--corpus"),
    (["--jsonl", "claims.jsonl", "--threshold", "0.8", "--calibration", "cal.json"], "invalid_arguments", "--threshold"),
    (["--jsonl", "claims.jsonl", "--salvage", "longest_grounded"], "invalid_arguments", "--salvage"),
    (["--jsonl", "claims.jsonl", "--threshold", "0.8", "--salvage", "longest"], "invalid_arguments", "--salvage"),
    (["--jsonl", "claims.jsonl", "--calibration", "missing.json"], "host_io", "--calibration"),
    (["--jsonl", "claims.jsonl", "--calibration", "claims.jsonl"], "invalid_input", "--calibration"),
])
def test_bad_arguments_get_an_envelope(workdir: Path, args: list[str], code: str, argument: str) -> None:
    (workdir / "claims.jsonl").write_text(json.dumps({"claim": "x", "source": "x"}) + "\n", encoding="utf-8")
    done = _cli(workdir, "sensitivity", *args)
    assert done.returncode == 2
    error = _envelope(done)
    assert (error["code"], error["details"]["argument"]) == (code, argument)


@pytest.mark.parametrize(("line", "reason"), [
    ("{not json", "not JSON"),
    ('{"claim": 3, "source": "x"}', "claim must be a string"),
    ('{"claim": "x"}', "needs exactly one of source, source_path, document"),
    ('{"claim": "x", "source_path": "nowhere.txt"}', "no such file"),
    ('{"claim": "x", "document": "pilot"}', "not in the --corpus manifest"),
    ('{"claim": "x", "source": "x", "citation": {"page": 7}}', "refused"),
    ('{"claim": "x", "source_path": "broken.pdf"}', "the source cannot be opened"),
])
def test_a_bad_record_names_its_file_and_line(tmp_path: Path, line: str, reason: str) -> None:
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 nothing else")
    good = json.dumps({"claim": "grew 12%", "source": "Revenue grew 12% in 2024."})
    (tmp_path / "claims.jsonl").write_text(f"{good}\n{line}\n", encoding="utf-8")
    done = _cli(tmp_path, "sensitivity", "--jsonl", "claims.jsonl", "--out", "out.json")
    assert done.returncode == 2
    error = _envelope(done)
    assert error["code"] == "invalid_input"
    assert (error["details"]["argument"], error["details"]["file"], error["details"]["line"]) == ("--jsonl", "claims.jsonl", 2)
    assert reason in error["details"]["reason"]
    assert not (tmp_path / "out.json").exists()


def test_a_bad_corpus_is_named(tmp_path: Path) -> None:
    (tmp_path / "claims.jsonl").write_text(json.dumps({"claim": "x", "document": "a"}) + "\n", encoding="utf-8")
    for body in ("{", json.dumps({"documents": ["a"]})):
        (tmp_path / "corpus.json").write_text(body, encoding="utf-8")
        error = _envelope(_cli(tmp_path, "sensitivity", "--jsonl", "claims.jsonl", "--corpus", "corpus.json"))
        assert (error["code"], error["details"]["argument"], error["details"]["line"]) == ("invalid_input", "--corpus", 1)


def test_a_corrupt_pdf_source_exits_with_its_parse_code(tmp_path: Path) -> None:
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 nothing else")
    (tmp_path / "citations.json").write_text(json.dumps(_citations(["x"], None)), encoding="utf-8")
    done = _cli(tmp_path, "sensitivity", "broken.pdf", "--citations", "citations.json")
    assert done.returncode == 4 and _envelope(done)["code"] == "corrupt_pdf"


def test_the_python_function(workdir: Path) -> None:
    with ethos_py.Document.open(workdir / "report.txt", "text") as document:
        result = sensitivity(document, json.loads((workdir / "citations.json").read_text(encoding="utf-8")), threshold=0.8)
        assert not document.closed  # a Document passed in stays the caller's
    cli = _ok(workdir, "report.txt", "--citations", "citations.json", "--grounding", "text", "--threshold", "0.8")
    assert result["checks"] == cli["checks"] and result["rates"] == cli["rates"] and result["spread"] == cli["spread"]
    assert "source" not in result["sources"][0]  # an open Document has no path to name
    assert render_sensitivity_text(result) == _cli(workdir, "sensitivity", "report.txt", "--citations", "citations.json",
                                                   "--grounding", "text", "--threshold", "0.8",
                                                   "--format", "text").stdout.decode("utf-8")
    with pytest.raises(ValueError, match="not both"):
        sensitivity(workdir / "report.txt", workdir / "citations.json", jsonl="claims.jsonl")
    with pytest.raises(ValueError, match="citations are required"):
        sensitivity(workdir / "report.txt")
    with pytest.raises(ValueError, match="between 0 and 1"):
        sensitivity(workdir / "report.txt", workdir / "citations.json", threshold=-0.1)
    (workdir / "claims.jsonl").write_text('{"claim": 1, "source": "x"}\n', encoding="utf-8")
    with pytest.raises(JsonlError, match="claims.jsonl:1: claim must be a string"):
        sensitivity(jsonl=os.fspath(workdir / "claims.jsonl"))


def test_no_claims_gives_zero_rates(tmp_path: Path) -> None:
    (tmp_path / "claims.jsonl").write_text("\n", encoding="utf-8")
    result = _ok(tmp_path, "--jsonl", "claims.jsonl", "--threshold", "0.8")
    assert result["claims"] == 0 and result["checks"] == [] and result["sources"] == []
    assert all(result["rates"][p]["grounded"] == {"count": 0, "rate_bp": 0} for p in PRESETS)
    assert result["spread"]["grounded_rate_bp"] == 0 and result["spread"]["changed"] == []


def test_more_claims_than_one_request_holds(tmp_path: Path) -> None:
    # 300 records against one source: verified in requests of at most 256 claims (the built-in config's max_checks).
    words = ["Revenue grew 12% in 2024", "revenue grew 12% in 2024", "Revenue grew 15% in 2024"]
    records = [{"claim": words[index % 3], "source": TEXT} for index in range(300)]
    (tmp_path / "claims.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    result = _ok(tmp_path, "--jsonl", "claims.jsonl", "--threshold", "0.8")
    assert_rates_match_the_checks(result)
    assert len(result["sources"]) == 1 and result["claims"] == 300
    assert [result["rates"][p]["grounded"]["count"] for p in PRESETS] == [100, 200, 200]
    assert result["spread"]["grounded_rate_bp"] == 3333 and result["spread"]["changed_count"] == 100
    assert result["checks"][299]["line"] == 300


def test_a_source_name_that_is_no_utf8(workdir: Path) -> None:
    name = os.fsdecode(b"caf\xe9.txt")  # a Latin-1 file name: argv hands it over surrogate-escaped
    shutil.copyfile(workdir / "report.txt", workdir / name)
    result = _ok(workdir, name, "--citations", "citations.json", "--grounding", "text")
    assert result["sources"][0]["source"] == "caf\\xe9.txt"
    assert result["rates"] == _ok(workdir, "report.txt", "--citations", "citations.json", "--grounding", "text")["rates"]


def _repair_actions(cwd: Path, preset: str, *args: str) -> list[str]:
    """The action ``ethos repair`` takes on each record of claims.jsonl under one preset."""
    done = _cli(cwd, "repair", "claims.jsonl", "-o", f"out-{preset}.jsonl", "--policy", preset, *args)
    assert done.returncode == 0, done.stderr
    return [json.loads(line)["ethos"]["action"] for line in (cwd / f"out-{preset}.jsonl").read_text(encoding="utf-8").splitlines()]


def test_salvage_counts_what_repair_keeps_of_a_stitched_quotation(workdir: Path) -> None:
    records = [{"claim": text, "source_path": "report.txt"} for text, _ in CASES]
    (workdir / "claims.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    salvaged = _ok(workdir, "--jsonl", "claims.jsonl", "--grounding", "text", "--threshold", "0.8", "--salvage", "longest_grounded")
    plain = _ok(workdir, "--jsonl", "claims.jsonl", "--grounding", "text", "--threshold", "0.8")
    assert salvaged["repair"]["salvage"] == "longest_grounded" and "salvage" not in plain["repair"]
    assert_rates_match_the_checks(salvaged)
    for preset in PRESETS:
        actions = _repair_actions(workdir, preset, "--grounding", "text", "--threshold", "0.8", "--salvage", "longest_grounded")
        assert [row[preset]["outcome"] == "repaired" for row in salvaged["checks"]] == \
            [action in ("substituted", "salvaged") for action in actions], preset
        stored = [json.loads(line)["claim"] for line in (workdir / f"out-{preset}.jsonl").read_text().splitlines()]
        for row, action, claim in zip(salvaged["checks"], actions, stored):
            if action == "salvaged":
                assert row[preset]["repair"]["text"] == claim and row[preset]["repair"]["dropped"]
    # The stitched quote (CASES[4]) is rejected without salvage, repaired with it: its longest fragment grounds.
    assert [plain["checks"][4][p]["outcome"] for p in PRESETS] == ["rejected"] * 3
    assert [salvaged["checks"][4][p]["outcome"] for p in PRESETS] == ["repaired"] * 3
    assert salvaged["checks"][4]["default"]["repair"] == {"dropped": ["demand in Europe"], "text": "Revenue grew 12%"}
    assert salvaged["rates"]["default"]["repaired"]["count"] == plain["rates"]["default"]["repaired"]["count"] + 1


def _calibrate(cwd: Path, *policy: str) -> dict[str, Any]:
    from test_repair import _labelled

    _labelled(cwd, 40)
    done = _cli(cwd, "calibrate", "labelled.jsonl", "-o", "cal.json", "--alpha", "0.1", "--delta", "0.1", *policy)
    assert done.returncode == 0, done.stderr
    calibration: dict[str, Any] = json.loads((cwd / "cal.json").read_text(encoding="utf-8"))
    return calibration


def test_a_calibration_gives_the_threshold_under_the_preset_it_was_made_for(workdir: Path) -> None:
    calibration = _calibrate(workdir, "--policy", "strict")
    records = [{"claim": text, "source_path": "report.txt"} for text, _ in CASES]
    (workdir / "claims.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    # The text claims are verified under the loader the calibration was made with (none: detected).
    result = _ok(workdir, "--jsonl", "claims.jsonl", "--calibration", "cal.json", "--salvage", "longest_grounded")
    assert result["repair"]["threshold"] == repr(calibration["threshold"]) and result["repair"]["calibration"]["policy"] == "strict"
    digest = hashlib.sha256(json.dumps(calibration, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    assert result["repair"]["calibration"]["sha256"] == digest
    assert result["rates"]["default"]["repaired"] is None and result["rates"]["permissive"]["repaired"] is None
    assert result["rates"]["strict"]["repaired"] is not None
    assert_rates_match_the_checks(result)
    # What repair --calibration does under strict (and refuses under the others).
    actions = _repair_actions(workdir, "strict", "--calibration", "cal.json", "--salvage", "longest_grounded")
    assert [row["strict"]["outcome"] == "repaired" for row in result["checks"]] == \
        [action in ("substituted", "salvaged") for action in actions]
    assert _cli(workdir, "repair", "claims.jsonl", "-o", "x.jsonl", "--calibration", "cal.json").returncode == 2
    # The same as the calibration's threshold given by hand, under strict.
    by_hand = _ok(workdir, "--jsonl", "claims.jsonl", "--threshold", repr(calibration["threshold"]), "--salvage", "longest_grounded")
    assert [row["strict"] for row in result["checks"]] == [row["strict"] for row in by_hand["checks"]]
    assert result["rates"]["strict"] == by_hand["rates"]["strict"]


def test_a_calibration_is_refused_as_repair_refuses_it(workdir: Path) -> None:
    calibration = _calibrate(workdir)  # the default preset, no --grounding
    (workdir / "claims.jsonl").write_text(json.dumps({"claim": "grew 12%", "source_path": "report.txt"}) + "\n", encoding="utf-8")

    def refusals(*args: str) -> tuple[str, str]:
        reasons = []
        for command in (["sensitivity", "--jsonl", "claims.jsonl"], ["repair", "claims.jsonl", "-o", "out.jsonl"]):
            done = _cli(workdir, *command, "--calibration", "cal.json", *args)
            assert done.returncode == 2, done.stderr
            error = _envelope(done)
            assert (error["code"], error["details"]["argument"]) == ("invalid_input", "--calibration")
            reasons.append(str(error["details"]["reason"]))
        return reasons[0], reasons[1]

    from_sensitivity, from_repair = refusals("--grounding", "text")  # another loader
    assert from_sensitivity == from_repair and "pipeline" in from_sensitivity
    older = {**calibration, "binding": {**calibration["binding"], "ethos_version": "0.0.1"}}
    (workdir / "cal.json").write_text(json.dumps(older), encoding="utf-8")
    from_sensitivity, from_repair = refusals()  # another Ethos version
    assert from_sensitivity == from_repair and "ethos_version" in from_sensitivity
    other = {**calibration, "binding": {**calibration["binding"], "scorer": "gtrex difflib ratio"}}
    (workdir / "cal.json").write_text(json.dumps(other), encoding="utf-8")
    from_sensitivity, from_repair = refusals()  # another scorer
    assert from_sensitivity == from_repair and "scorer" in from_sensitivity
    assert not (workdir / "out.jsonl").exists()


def test_a_calibration_of_a_policy_no_preset_has_is_refused(workdir: Path) -> None:
    policy = json.loads(ethos_py.document.explain_policy_json("default"))["policy"]
    policy.update(name="mine", near_miss={**policy["near_miss"], "min_score_bp": 7000})
    (workdir / "mine.json").write_text(json.dumps(policy), encoding="utf-8")
    _calibrate(workdir, "--policy", "mine.json")
    (workdir / "claims.jsonl").write_text(json.dumps({"claim": "grew 12%", "source_path": "report.txt"}) + "\n", encoding="utf-8")
    done = _cli(workdir, "sensitivity", "--jsonl", "claims.jsonl", "--calibration", "cal.json")
    assert done.returncode == 2
    error = _envelope(done)
    assert (error["code"], error["details"]["argument"]) == ("invalid_input", "--calibration")
    assert "none of the presets sensitivity compares" in error["details"]["reason"]
    with pytest.raises(CalibrationError, match="none of the presets"):
        sensitivity(jsonl=str(workdir / "claims.jsonl"), calibration=json.loads((workdir / "cal.json").read_text()))
