"""test_pipeline_schemas - the outputs of verify-jsonl, repair, calibrate and sensitivity, made by the real commands on real
sources (inline text, a text file, a generated PDF), validate against their schemas in schemas/, and the schemas are not
vacuous: the same outputs with a required member missing, a member of the wrong type or a value outside its vocabulary fail."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import harness
import pytest
from conftest import schema_errors
from test_repair import CASES, PDF_LINES, SOURCE, _labelled, _write
from test_sensitivity import TEXT
from test_sensitivity import CASES as SENSITIVITY_CASES

from ethos_py.demo import SAMPLE_PDF

REPO = Path(__file__).resolve().parents[1]
ETHOS = [sys.executable, "-m", "ethos_py.cli"]


def _ok(cwd: Path, *args: str) -> str:
    done = subprocess.run([*ETHOS, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=harness.SUBPROCESS_TIMEOUT, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _results(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line)["ethos"] for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every output kind of the pipeline, made once by the commands themselves."""
    from pdf_fixtures import text_pdf

    work = tmp_path_factory.mktemp("pipeline")
    shutil.copyfile(SAMPLE_PDF, work / "sample.pdf")
    (work / "report.pdf").write_bytes(text_pdf(PDF_LINES))
    (work / "report.txt").write_text(TEXT, encoding="utf-8")
    records: list[Any] = [{"id": name, "claim": claim, "source": SOURCE} for name, claim in CASES]
    records += [{"id": "pdf", "claim": PDF_LINES[0].lower().replace(" after", ""), "source_path": "report.pdf"},
                {"id": "text", "claim": SENSITIVITY_CASES[5][0], "source_path": "report.txt"},
                {"id": "value", "kind": "value", "claim": "12%", "source_path": "report.txt"},
                {"id": "missing", "claim": "x", "source_path": "nowhere.txt"},
                "not json", [1, 2]]
    _write(work / "claims.jsonl", records)
    keep = "--keep-going"
    _ok(work, "verify-jsonl", "claims.jsonl", "-o", "certified.jsonl", "--manifest", "verify-run.json", keep)
    _ok(work, "repair", "claims.jsonl", "-o", "substituted.jsonl", "--threshold", "0.7", "--salvage", "longest_grounded",
        "--manifest", "substitute-run.json", keep)
    _ok(work, "repair", "claims.jsonl", "-o", "annotated.jsonl", "--threshold", "0.7", "--mode", "annotate",
        "--salvage", "longest_grounded", keep)
    _ok(work, "repair", "claims.jsonl", "-o", "off.jsonl", "--mode", "off", "--drop-rejected", "--manifest", "off-run.json",
        keep)
    _labelled(work, 40)
    _ok(work, "calibrate", "labelled.jsonl", "-o", "risk.json", "--alpha", "0.1", "--delta", "0.1", "--scores", "scores.jsonl",
        "--manifest", "calibrate-run.json")
    _ok(work, "calibrate", "labelled.jsonl", "-o", "coverage.json", "--alpha", "0.2", "--delta", "0.2", "--target", "coverage")
    _labelled(work, 40, repeat=True)
    _ok(work, "calibrate", "labelled.jsonl", "-o", "uncertified.jsonl", "--alpha", "0.2", "--delta", "0.2",
        "--allow-repeated-groups")
    _ok(work, "repair", "claims.jsonl", "-o", "calibrated.jsonl", "--calibration", "risk.json",
        "--manifest", "calibrated-run.json", keep)
    good = work / "good.jsonl"  # sensitivity takes no bad records
    good.write_text("".join(line + "\n" for line in (work / "claims.jsonl").read_text().splitlines()[:10]), encoding="utf-8")
    citations = {"claims": [{"kind": "quote", "text": text, "citation": {"scope": "document"}} for text, _ in SENSITIVITY_CASES]}
    (work / "citations.json").write_text(json.dumps(citations), encoding="utf-8")
    shutil.copyfile(REPO / "schemas" / "examples" / "verification-config.example.json", work / "config.json")

    def read(name: str) -> Any:
        return json.loads((work / name).read_text(encoding="utf-8"))

    sensitivity = [json.loads(_ok(work, "sensitivity", "--jsonl", "good.jsonl", "--threshold", "0.8",
                                  "--manifest", "sensitivity-run.json")),
                   json.loads(_ok(work, "sensitivity", "--jsonl", "good.jsonl")),
                   json.loads(_ok(work, "sensitivity", "report.txt", "--citations", "citations.json", "--grounding", "text",
                                  "--threshold", "1e-05", "--config", "config.json", "--manifest", "citations-run.json")),
                   json.loads(_ok(work, "sensitivity", "--jsonl", "good.jsonl", "--calibration", "risk.json",
                                  "--salvage", "longest_grounded", "--manifest", "sensitivity-calibrated-run.json"))]
    return {
        "work": work,
        "results": {name: _results(work / f"{name}.jsonl") for name in
                    ("certified", "substituted", "annotated", "off", "calibrated")},
        "jsonl-run": [read("verify-run.json")],
        "repair-run": [read(name) for name in ("substitute-run.json", "off-run.json", "calibrated-run.json")],
        "calibration": [read(name) for name in ("risk.json", "coverage.json", "uncertified.jsonl")],
        "calibrate-run": [read("calibrate-run.json")],
        "sensitivity-run": [read("sensitivity-run.json"), read("citations-run.json"),
                            read("sensitivity-calibrated-run.json")],
        "sensitivity": sensitivity,
    }


def test_every_record_result_validates_and_covers_every_shape(outputs: dict[str, Any]) -> None:
    seen = set()
    for name, results in outputs["results"].items():
        for result in results:
            assert schema_errors("jsonl-result", result) == [], (name, result)
            seen.add(result.get("action") or result["status"])
    # Each branch of the schema was exercised by a real output, not only the happy path.
    assert {"grounded", "mismatch", "error", "accepted", "normalized", "salvaged", "substituted", "annotated",
            "rejected"} <= seen


@pytest.mark.parametrize("kind", ["jsonl-run", "repair-run", "calibration", "sensitivity", "calibrate-run", "sensitivity-run"])
def test_every_document_validates(outputs: dict[str, Any], kind: str) -> None:
    for document in outputs[kind]:
        assert schema_errors(kind, document) == []


def test_the_outputs_cover_each_variant(outputs: dict[str, Any]) -> None:
    assert {c["target"] for c in outputs["calibration"]} == {"risk", "coverage"}
    assert {c["guarantee_status"] for c in outputs["calibration"]} == {"conditional", "uncertified"}
    assert [r["cascade"]["threshold_source"] for r in outputs["repair-run"]] == ["flag", "none", "calibration"]
    assert [s["repair"]["computed"] for s in outputs["sensitivity"]] == [True, False, True, True]
    assert outputs["sensitivity"][3]["repair"]["calibration"]["policy"] == "default"
    assert "salvage" in outputs["sensitivity"][3]["repair"]
    assert any("dropped" in (row["default"].get("repair") or {}) for row in outputs["sensitivity"][3]["checks"])
    assert {row["default"]["outcome"] for row in outputs["sensitivity"][0]["checks"]} == {"grounded", "repaired", "rejected"}


Mutation = Callable[[Any], None]


def _at(path: str, value: Any = None, *, delete: bool = False) -> Mutation:
    def apply(document: Any) -> None:
        keys: list[Any] = [int(key) if key.isdigit() else key for key in path.split("/")]
        node = document
        for key in keys[:-1]:
            node = node[key]
        if delete:
            del node[keys[-1]]
        else:
            node[keys[-1]] = value

    return apply


# (schema, which real output, what breaks) - each must fail validation.
NEGATIVE: list[tuple[str, int, str, Mutation]] = [
    ("jsonl-run", 0, "no ladder profile", _at("ladder_profile", delete=True)),
    ("jsonl-run", 0, "no policy fingerprint", _at("policy/policy_fingerprint", delete=True)),
    ("jsonl-run", 0, "no PDFium version", _at("verifier/pdfium", delete=True)),
    ("jsonl-run", 0, "records as a string", _at("input/records", "7")),
    ("jsonl-run", 0, "a digest with a prefix", _at("output/sha256", "sha256:" + "0" * 64)),
    ("jsonl-run", 0, "a share above one", _at("ladder_profile/4/cumulative_share", 1.5)),
    ("jsonl-run", 0, "tiers out of ladder order", _at("ladder_profile/0/tier", "case")),
    ("jsonl-run", 0, "an unknown verdict counted", _at("counts/maybe", 1)),
    ("jsonl-run", 0, "an unknown member", _at("extra", 1)),
    ("repair-run", 0, "no cascade", _at("cascade", delete=True)),
    ("repair-run", 0, "threshold as a string", _at("cascade/threshold", "0.7")),
    ("repair-run", 0, "threshold above one", _at("cascade/threshold", 7)),
    ("repair-run", 0, "an unknown mode", _at("cascade/mode", "rewrite")),
    ("repair-run", 0, "an unknown rejection reason", _at("counts/rejected_reasons/made_up", 1)),
    ("repair-run", 0, "a flag threshold with a calibration", _at("cascade/calibration", {})),
    ("repair-run", 2, "a calibrated threshold without the calibration", _at("cascade/calibration", delete=True)),
    ("repair-run", 2, "a calibration digest in upper case", _at("cascade/calibration/sha256", "A" * 64)),
    ("repair-run", 1, "no threshold outside mode off", _at("cascade/mode", "substitute")),
    ("repair-run", 0, "a binding without its policy", _at("cascade/binding/policy_fingerprint", delete=True)),
    ("jsonl-run", 0, "a tier without its share", _at("ladder_profile/1/share", delete=True)),
    ("repair-run", 0, "no ladder profile", _at("ladder_profile", delete=True)),
    ("repair-run", 0, "no tier soundness", _at("policy/assumptions", [])),
    ("calibrate-run", 0, "no calibration", _at("calibration", delete=True)),
    ("calibrate-run", 0, "a calibration without its binding", _at("calibration/binding", delete=True)),
    ("calibrate-run", 0, "no Unicode version", _at("verifier/unicode_version", delete=True)),
    ("calibrate-run", 0, "a ladder profile of four tiers", _at("ladder_profile", [])),
    ("calibrate-run", 0, "scores without their digest", _at("scores/sha256", delete=True)),
    ("sensitivity-run", 0, "a preset's policy missing", _at("policies/strict", delete=True)),
    ("sensitivity-run", 0, "a preset's ladder profile missing", _at("ladder_profiles/default", delete=True)),
    ("sensitivity-run", 0, "no input", _at("inputs", {})),
    ("sensitivity-run", 1, "a source without its citations", _at("inputs/citations", delete=True)),
    ("sensitivity-run", 1, "an unknown output format", _at("output/format", "html")),
    ("calibration", 0, "no binding", _at("binding", delete=True)),
    ("calibration", 0, "no threshold", _at("threshold", delete=True)),
    ("calibration", 0, "threshold as a string", _at("threshold", "0.962")),
    ("calibration", 0, "alpha of one", _at("alpha", 1)),
    ("calibration", 0, "an unknown target", _at("target", "precision")),
    ("calibration", 0, "risk with coverage's quantity", _at("controlled_quantity", "faithful_acceptance")),
    ("calibration", 0, "risk without a p-value", _at("empirical/p_value", delete=True)),
    ("calibration", 0, "certified with repeated groups", _at("assumptions/one_example_per_group",
                                                             "overridden: repeated groups allowed")),
    ("calibration", 2, "uncertified passed off as conditional", _at("guarantee_status", "conditional")),
    ("calibration", 0, "an unknown loader in the binding", _at("binding/pipeline/grounding", "pdf")),
    ("calibration", 0, "a negative count", _at("input/located", -1)),
    ("sensitivity", 0, "no spread", _at("spread", delete=True)),
    ("sensitivity", 3, "a calibration without the preset it binds", _at("repair/calibration/policy", delete=True)),
    ("sensitivity", 3, "a calibration binding no preset", _at("repair/calibration/policy", "custom")),
    ("sensitivity", 1, "salvage without a threshold", _at("repair/salvage", "longest_grounded")),
    ("sensitivity", 3, "an unknown salvage", _at("repair/salvage", "shortest")),
    ("sensitivity-run", 2, "a calibration input without its digest", _at("inputs/calibration/sha256", delete=True)),
    ("sensitivity", 0, "a rate above 10000 bp", _at("rates/default/grounded/rate_bp", 10001)),
    ("sensitivity", 0, "a rate as a fraction", _at("rates/strict/grounded/rate_bp", 0.5)),
    ("sensitivity", 0, "an unknown outcome", _at("checks/0/default/outcome", "partial")),
    ("sensitivity", 0, "grounded without a tier", _at("checks/0/default/tier", delete=True)),
    ("sensitivity", 1, "repaired counted without a threshold", _at("repair/computed", True)),
    ("sensitivity", 0, "threshold as a number", _at("repair/threshold", 0.8)),
    ("sensitivity", 0, "a row with neither id nor line", _at("checks/0/line", delete=True)),
    ("sensitivity", 0, "an unknown preset", _at("policies/lenient", "sha256:" + "0" * 64)),
]


@pytest.mark.parametrize(("kind", "index", "what", "mutate"), NEGATIVE, ids=[f"{k}: {w}" for k, _, w, _ in NEGATIVE])
def test_broken_documents_fail(outputs: dict[str, Any], kind: str, index: int, what: str, mutate: Mutation) -> None:
    document = copy.deepcopy(outputs[kind][index])
    assert schema_errors(kind, document) == []
    mutate(document)
    assert schema_errors(kind, document) != [], what


def _result(outputs: dict[str, Any], name: str, record_id_index: int) -> dict[str, Any]:
    return copy.deepcopy(outputs["results"][name][record_id_index])


# Indexes into the claims: 0 exact, 1 case, 2 near, 3 figure, 6 stitched, 9 value, 11 "not json".
NEGATIVE_RESULTS: list[tuple[str, int, str, Mutation]] = [
    ("certified", 0, "a verdict without status", _at("status", delete=True)),
    ("certified", 0, "a grounded verdict with a reason", _at("reason", "text_mismatch")),
    ("certified", 2, "a mismatch without a reason", _at("reason", delete=True)),
    ("certified", 0, "an unknown tier", _at("match/tier", "fuzzy")),
    ("certified", 0, "the claim echoed", _at("claim", {"kind": "quote", "text": "x"})),
    ("certified", 0, "a fingerprint without prefix", _at("document_fingerprint", "0" * 64)),
    ("certified", 11, "an error without its line", _at("error/line", delete=True)),
    ("certified", 11, "line 0", _at("error/line", 0)),
    ("substituted", 2, "a substitution without its after certificate", _at("after", delete=True)),
    ("substituted", 2, "a score as basis points", _at("score", 9508)),
    ("substituted", 2, "accepted as a string", _at("accepted", "yes")),
    ("substituted", 3, "a rejection without its reason", _at("reason", delete=True)),
    ("substituted", 3, "a rejection counted accepted", _at("accepted", True)),
    ("substituted", 3, "an unknown rejection reason", _at("reason", "too_far")),
    ("substituted", 6, "a salvage without what it dropped", _at("salvage/dropped", delete=True)),
    ("substituted", 0, "no before certificate", _at("before", delete=True)),
    ("annotated", 2, "an annotation said to ground", _at("grounded", True)),
    ("annotated", 2, "an annotation without the located span", _at("located", delete=True)),
    ("substituted", 11, "an error accepted", _at("accepted", True)),
]


@pytest.mark.parametrize(("name", "index", "what", "mutate"), NEGATIVE_RESULTS,
                         ids=[f"{n}: {w}" for n, _, w, _ in NEGATIVE_RESULTS])
def test_broken_record_results_fail(outputs: dict[str, Any], name: str, index: int, what: str, mutate: Mutation) -> None:
    result = _result(outputs, name, index)
    assert schema_errors("jsonl-result", result) == []
    mutate(result)
    assert schema_errors("jsonl-result", result) != [], what

