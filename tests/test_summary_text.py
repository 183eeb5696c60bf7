"""The `--format summary` text shows what was caught: policy, claims, guard details and fitting hints."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO_DIR

import ethos_py
from ethos_py._pdfium import parse_environment

QUICKSTART = REPO_DIR / "examples" / "quickstart"
SCHEMA = json.loads((REPO_DIR / "schemas" / "verification-report.schema.json").read_text(encoding="utf-8"))


def quickstart_report(**changes: Any) -> dict[str, Any]:
    citations = json.loads((QUICKSTART / "citations.json").read_bytes())
    citations.update(changes)
    for key in [k for k, v in changes.items() if v is None]:
        del citations[key]
    report: dict[str, Any] = ethos_py.verify(QUICKSTART / "document.json", citations)
    return report


def non_grounded(report: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in report["checks"] if c["status"] != "grounded")


def test_demo_summary_names_the_policy_the_claim_and_the_figure_that_changed() -> None:
    env = parse_environment()
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [os.fspath(REPO_DIR), env.get("PYTHONPATH")]))
    demo = subprocess.run([sys.executable, "-m", "ethos_py.cli", "demo"], env=env, capture_output=True, timeout=300, check=False)
    assert (demo.returncode, demo.stderr) == (0, b"")
    text = demo.stdout.decode("utf-8")
    assert "\npolicy: default\npolicy_fingerprint: sha256:" in text
    assert '  claim: "Median time to resolution fell from 9.2 days to 3.1 days"\n' in text
    assert '  numeric guard: figure changed: source "6.1", quote "3.1"\n' in text
    assert "unspecified" not in text


def test_a_citations_file_without_document_fingerprint_is_told_so() -> None:
    report = quickstart_report(document_fingerprint=None)
    assert {c["reason"] for c in report["checks"] if c["status"] != "grounded"} >= {"missing_citation_fingerprint"}
    text = ethos_py.summary_text(report)
    hint = next(line for line in text.splitlines() if line.startswith("recovery_hint: "))
    assert "no document_fingerprint" in hint
    assert "Correct the claim text" not in hint


def test_every_schema_reason_has_a_diagnostic_sentence() -> None:
    report = quickstart_report()
    for reason in SCHEMA["$defs"]["reason"]["enum"]:
        changed = copy.deepcopy(report)
        check = non_grounded(changed)
        check["reason"] = reason
        text = ethos_py.summary_text(changed)
        diagnostics = [line for line in text.splitlines() if line.startswith("  diagnostic: ")]
        assert diagnostics and "unspecified" not in text, reason


def test_a_long_claim_is_shortened_to_one_line() -> None:
    report = quickstart_report()
    non_grounded(report)["claim"]["text"] = "word\n\tsplit   " + "x" * 200
    lines = ethos_py.summary_text(report).splitlines()
    claim = next(line for line in lines if line.startswith("  claim: "))
    assert claim == '  claim: "word split ' + "x" * 69 + '…"'  # 80 scalars, then the ellipsis


def test_a_report_naming_a_reason_outside_the_schema_is_refused() -> None:
    report = quickstart_report()
    non_grounded(report)["reason"] = "no_such_reason"
    with pytest.raises(ethos_py.EthosError) as caught:
        ethos_py.summary_text(report)
    assert caught.value.code == "invalid_input"


@pytest.mark.parametrize(
    "mutate",
    [
        pytest.param(lambda c: c["claim"]["citation"].update(bbox=[]), id="bbox-empty"),
        pytest.param(lambda c: c["claim"]["citation"].update(bbox=[1, 2]), id="bbox-short"),
        pytest.param(lambda c: c["claim"]["citation"].update(cell={}), id="cell-empty"),
        pytest.param(lambda c: c.pop("reason"), id="reason-missing"),
        pytest.param(lambda c: c.update(match={"guards": [{}]}), id="guard-empty"),
    ],
)
def test_malformed_shapes_are_invalid_input_not_a_crash(mutate: Any, tmp_path: Path) -> None:
    # Issue 24 defect 2: "bbox": [] read out of bounds and killed the process; run it in a child so
    # a crash fails this test instead of the test run.
    report = quickstart_report()
    mutate(non_grounded(report))
    path = tmp_path / "report.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    probe = (
        "import pathlib, sys, ethos_py\n"
        "try:\n    ethos_py.summary_text(pathlib.Path(sys.argv[1]))\n"
        "except ethos_py.EthosError as error:\n    print(error.code)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [os.fspath(REPO_DIR), os.environ.get("PYTHONPATH")]))}
    result = subprocess.run([sys.executable, "-c", probe, str(path)], env=env, capture_output=True, text=True, timeout=120, check=False)
    assert (result.returncode, result.stdout) == (0, "invalid_input\n"), result.stderr
