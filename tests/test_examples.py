"""test_examples - the runnable examples in examples/ give their documented output on every surface."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import harness
import pytest
from conftest import REPO_DIR, TOOLS_DIR, schema_errors

sys.path.insert(0, str(TOOLS_DIR))
import make_native_document as tool

QUICKSTART = REPO_DIR / "examples" / "quickstart"
# What examples/quickstart/README.md promises, read from the contracts (not from program output).
QUICKSTART_STATUSES = ["grounded", "grounded", "grounded", "mismatch"]
QUICKSTART_TIERS = ["element_scoped", "table_cell", "element_scoped", "element_scoped"]


def _commands() -> dict[str, list[str]]:
    return {
        "ethos": [sys.executable, "-m", "ethos_py.cli"],
        "ethos-core": [harness.ethos_core_binary()],
    }


def test_quickstart_document_is_generated_from_its_payload() -> None:
    spec = json.loads((QUICKSTART / "document.payload.json").read_text(encoding="utf-8"))
    assert tool.render(tool.build_document(spec)) == (QUICKSTART / "document.json").read_bytes()


def test_quickstart_inputs_follow_the_schemas() -> None:
    document = json.loads((QUICKSTART / "document.json").read_bytes())
    citations = json.loads((QUICKSTART / "citations.json").read_bytes())
    assert schema_errors("document", document) == []
    assert schema_errors("citations", citations) == []
    assert citations["document_fingerprint"] == document["fingerprint"]


def test_quickstart_expected_report_is_what_the_readme_says() -> None:
    report = json.loads((QUICKSTART / "expected-report.json").read_bytes())
    assert schema_errors("verification-report", report) == []
    assert [c["status"] for c in report["checks"]] == QUICKSTART_STATUSES
    assert [c.get("evidence_tier") for c in report["checks"]] == QUICKSTART_TIERS
    assert report["all_evidence_grounded"] is False
    assert report["fingerprint_stale"] is False
    assert harness.proof_summary(report)["proof_status"] == "partially_verified"
    # page-only quote found in the second paragraph (CONTRACTS §3.2, 0.6 page search)
    assert report["checks"][2]["evidence"]["bbox"] == [7200, 12000, 54000, 13400]


def test_quickstart_library_gives_the_expected_report() -> None:
    import ethos_py

    with ethos_py.Document.open(QUICKSTART / "document.json") as document:
        report = document.verify_json(Path(QUICKSTART / "citations.json"))
    assert report + b"\n" == (QUICKSTART / "expected-report.json").read_bytes()


@pytest.mark.parametrize("surface", ["ethos", "ethos-core"])
def test_quickstart_cli_gives_the_expected_report(surface: str) -> None:
    command = [*_commands()[surface], "verify", "document.json", "--citations", "citations.json"]
    done = subprocess.run(command, cwd=QUICKSTART, capture_output=True, timeout=120, check=False)
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout == (QUICKSTART / "expected-report.json").read_bytes()


@pytest.mark.parametrize("surface", ["ethos", "ethos-core"])
def test_quickstart_fail_on_ungrounded_exits_1(surface: str) -> None:
    command = [
        *_commands()[surface],
        "verify",
        "document.json",
        "--citations",
        "citations.json",
        "--fail-on-ungrounded",
    ]
    done = subprocess.run(command, cwd=QUICKSTART, capture_output=True, timeout=120, check=False)
    assert done.returncode == 1
    assert done.stdout == (QUICKSTART / "expected-report.json").read_bytes()
