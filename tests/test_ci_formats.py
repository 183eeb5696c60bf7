"""test_ci_formats - verify --format junit|sarif|github: the same bytes from ethos, ethos-core and ethos_py.proof.ci_report_text;
SARIF valid against the published SARIF 2.1.0 schema (from npm, @microsoft/jest-sarif); JUnit valid against junit-10.xsd (from
pytest's source distribution on PyPI) with the counts of the report; hostile claim text escaped for XML and for GitHub's workflow commands; the guard detail and the near-miss diff in
every message."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tarfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import harness
import jsonschema
import pytest

import ethos_py
from ethos_py.demo import SAMPLE_PDF
from ethos_py.proof import ci_report_text

REPO = Path(__file__).resolve().parents[1]
SARIF_PACKAGE = "@microsoft/jest-sarif@1.0.0-beta.0"  # ships the SARIF 2.1.0 (rtm.5) JSON schema
SARIF_SCHEMA_MEMBER = "package/lib/schemas/sarif-2.1.0-rtm.5.json"
# pytest's source distribution ships the JUnit XML schema CI servers read (Jenkins' junit-10.xsd) for its own tests.
JUNIT_SCHEMA_PYTEST = "9.2.0"


@pytest.fixture(scope="module")
def sarif_schema(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The published SARIF 2.1.0 schema, fetched from the npm registry as a package's file."""
    npm = shutil.which("npm")
    assert npm is not None, "npm is needed to fetch the SARIF schema (Debian: apt-get install npm)"
    directory = tmp_path_factory.mktemp("sarif-schema")
    done = subprocess.run([npm, "pack", SARIF_PACKAGE, "--pack-destination", str(directory)], capture_output=True, text=True,
                          timeout=180, check=False)
    assert done.returncode == 0, done.stderr
    [tarball] = directory.glob("*.tgz")
    with tarfile.open(tarball) as archive:
        member = archive.extractfile(SARIF_SCHEMA_MEMBER)
        assert member is not None
        schema: dict[str, Any] = json.loads(member.read())
    return schema


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sample report's document and its citations (one changed figure, one fabricated claim)."""
    directory = tmp_path_factory.mktemp("ci-sample")
    (directory / "document.json").write_text(json.dumps(ethos_py.parse_pdf_json(SAMPLE_PDF)))
    shutil.copyfile(REPO / "ethos_py" / "data" / "sample-citations.json", directory / "citations.json")
    return {"dir": directory, "document": directory / "document.json", "citations": directory / "citations.json"}


def _cli(command: list[str], directory: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*command, "verify", "document.json", "--citations", "citations.json", *args], cwd=directory,
                          capture_output=True, timeout=harness.SUBPROCESS_TIMEOUT, check=False)


@pytest.mark.parametrize("output_format", ["junit", "sarif", "github"])
def test_three_surfaces_give_the_same_bytes(sample: dict[str, Path], output_format: str) -> None:
    report = ethos_py.verify(sample["document"], sample["citations"])
    library = ci_report_text(report, output_format, citations_path="citations.json", source_path="document.json").encode()
    for command in ([sys.executable, "-m", "ethos_py.cli"], [harness.ethos_core_binary()]):
        done = _cli(command, sample["dir"], "--format", output_format)
        assert done.returncode == 0, done.stderr
        assert done.stdout == library, command
    # --fail-on-ungrounded still decides the exit status; the output is written first.
    failing = _cli([sys.executable, "-m", "ethos_py.cli"], sample["dir"], "--format", output_format, "--fail-on-ungrounded")
    assert (failing.returncode, failing.stdout) == (1, library)


def test_sarif_is_valid_against_the_published_schema(sample: dict[str, Path], sarif_schema: dict[str, Any]) -> None:
    report = ethos_py.verify(sample["document"], sample["citations"])
    sarif = json.loads(ci_report_text(report, "sarif", citations_path="citations.json", source_path="document.json"))
    validator = jsonschema.validators.validator_for(sarif_schema)(sarif_schema)
    assert list(validator.iter_errors(sarif)) == []
    # The schema has teeth: a misspelt member is refused.
    broken = json.loads(json.dumps(sarif))
    broken["runs"][0]["results"][0]["mesage"] = broken["runs"][0]["results"][0].pop("message")
    assert list(validator.iter_errors(broken))
    results = sarif["runs"][0]["results"]
    not_grounded = [c for c in report["checks"] if c["status"] != "grounded"]
    assert [r["logicalLocations"][0]["name"] for r in (x["locations"][0] for x in results)] == [c["id"] for c in not_grounded]
    figure = next(r for r in results if r["ruleId"] == "ethos/mismatch/numeric_guard")
    assert 'guard numeric: figure changed: source "6.1", quote "3.1"' in figure["message"]["text"]
    assert "to [-6.1-]{+3.1+} days" in figure["message"]["text"]
    rules = sarif["runs"][0]["tool"]["driver"]["rules"]
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in results)


def test_junit_has_a_test_case_per_check_and_a_failure_per_ungrounded_one(sample: dict[str, Path]) -> None:
    report = ethos_py.verify(sample["document"], sample["citations"])
    root = ET.fromstring(ci_report_text(report, "junit", citations_path="claims/answer.json", source_path="report.pdf"))
    [suite] = root.findall("testsuite")
    cases = suite.findall("testcase")
    failing = [c for c in report["checks"] if c["status"] != "grounded"]
    assert len(cases) == len(report["checks"]) == int(suite.get("tests", "")) == int(root.get("tests", ""))
    assert int(suite.get("failures", "")) == len(failing) and suite.get("name") == "claims/answer.json"
    failures = [case.find("failure") for case in cases if case.find("failure") is not None]
    assert [f.get("type") for f in failures if f is not None] == [c.get("reason", c["status"]) for c in failing]
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert properties["source"] == "report.pdf" and properties["document_fingerprint"] == report["document_fingerprint"]
    text = "".join(f.text or "" for f in failures if f is not None)
    assert "figure changed" in text and "{+3.1+}" in text


HOSTILE = 'A <script>alert("x")</script> & 100% done:\r\nnext, line \x01 \ufffe end'


def test_hostile_claim_text_is_escaped_for_xml_and_for_workflow_commands(tmp_path: Path) -> None:
    source = tmp_path / "source.txt"
    source.write_text("Nothing of that is here.\n", encoding="utf-8")
    with ethos_py.Document.open(source, "text") as document:
        citations = {"document_fingerprint": document.fingerprint,
                     "claims": [{"kind": "quote", "text": HOSTILE, "citation": {"scope": "document"}}]}
        report = json.loads(document.verify_json(citations))
    junit = ci_report_text(report, "junit", citations_path='a "b" <c>.json')
    root = ET.fromstring(junit)  # well-formed despite the claim
    [case] = root.iter("testcase")
    assert "<script>" in (case.get("name") or "") and "\ufffd" in (case.get("name") or "")
    assert root.find("testsuite").get("name") == 'a "b" <c>.json'  # type: ignore[union-attr]
    github = ci_report_text(report, "github", citations_path="dir/x,y:z.json")
    lines = github.splitlines()
    assert len(lines) == 2 and lines[0].startswith("::error file=dir/x%2Cy%3Az.json,title=Ethos v0001 ")
    assert "100%25 done" in lines[0] and "%0D%0Anext" in lines[0] and "\r" not in github
    sarif = json.loads(ci_report_text(report, "sarif"))
    assert HOSTILE.replace("\x01", "\x01") in sarif["runs"][0]["results"][0]["message"]["text"]


def test_a_huge_claim_is_clipped_in_titles_but_kept_in_the_report(tmp_path: Path) -> None:
    source = tmp_path / "source.txt"
    source.write_text("Nothing of that is here.\n", encoding="utf-8")
    with ethos_py.Document.open(source, "text") as document:
        citations = {"document_fingerprint": document.fingerprint,
                     "claims": [{"kind": "quote", "text": "word " * 50_000, "citation": {"scope": "document"}}]}
        report = json.loads(document.verify_json(citations))
    github = ci_report_text(report, "github")
    assert len(github) < 2_000 and "\u2026" in github


def test_unknown_formats_are_refused_on_every_surface(sample: dict[str, Path]) -> None:
    report = ethos_py.verify(sample["document"], sample["citations"])
    with pytest.raises(ValueError, match="junit, sarif, github"):
        ci_report_text(report, "xml")
    from ethos_py import _ffi

    data = json.dumps(report).encode()
    with pytest.raises(ethos_py.EthosError) as caught:
        _ffi.call_string(_ffi.lib.ethos_report_ci_text, data, len(data), b'{"format":"xml"}', 16)
    assert caught.value.code == "invalid_arguments"
    envelopes = set()
    for command in ([sys.executable, "-m", "ethos_py.cli"], [harness.ethos_core_binary()]):
        done = _cli(command, sample["dir"], "--format", "xml")
        assert done.returncode == 2 and json.loads(done.stderr)["error"]["details"] == {"argument": "--format"}
        envelopes.add(done.stderr)
    assert len(envelopes) == 1  # the same envelope from both CLIs


def test_out_writes_the_format_atomically(sample: dict[str, Path]) -> None:
    done = _cli([sys.executable, "-m", "ethos_py.cli"], sample["dir"], "--format", "sarif", "--out", "results.sarif")
    assert done.returncode == 0 and done.stdout == b""
    assert json.loads((sample["dir"] / "results.sarif").read_text(encoding="utf-8"))["version"] == "2.1.0"
    assert [p.name for p in sample["dir"].iterdir() if p.name.startswith(".")] == []


@pytest.fixture(scope="module")
def junit_schema(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The JUnit XML schema CI servers read (Jenkins' junit-10.xsd), as pytest's source distribution on PyPI
    ships it for its own tests: fetched from the package registry, parsed with lxml."""
    from lxml import etree

    directory = tmp_path_factory.mktemp("junit-schema")
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
                           f"pytest=={JUNIT_SCHEMA_PYTEST}", "--dest", str(directory)], capture_output=True, text=True,
                          timeout=180, check=False)
    assert done.returncode == 0, done.stderr
    [sdist] = directory.glob("pytest-*.tar.gz")
    with tarfile.open(sdist) as archive:
        member = archive.extractfile(f"pytest-{JUNIT_SCHEMA_PYTEST}/testing/example_scripts/junit-10.xsd")
        assert member is not None
        return etree.XMLSchema(etree.fromstring(member.read()))


def test_junit_is_valid_against_the_published_junit_schema(sample: dict[str, Path], junit_schema: Any, tmp_path: Path) -> None:
    from lxml import etree

    report = ethos_py.verify(sample["document"], sample["citations"])
    junit = ci_report_text(report, "junit", citations_path="claims/answer.json", source_path="report.pdf")
    assert junit_schema.validate(etree.fromstring(junit.encode())), junit_schema.error_log
    # ... and so is a report whose claim is hostile text (escaped, control characters replaced).
    source = tmp_path / "source.txt"
    source.write_text("Nothing of that is here.\n", encoding="utf-8")
    with ethos_py.Document.open(source, "text") as document:
        citations = {"document_fingerprint": document.fingerprint,
                     "claims": [{"kind": "quote", "text": HOSTILE, "citation": {"scope": "document"}}]}
        hostile = json.loads(document.verify_json(citations))
    hostile_junit = ci_report_text(hostile, "junit", citations_path='a "b" <c>.json')
    assert junit_schema.validate(etree.fromstring(hostile_junit.encode())), junit_schema.error_log
