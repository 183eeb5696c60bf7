"""test_ethos_pdf_compat - programs written against the public ethos-pdf 0.6.0 run unchanged with `import ethos_py as ethos_pdf`.

Each program below is written from ethos-pdf 0.6.0's documented API (its README and docstrings)
and takes the module as its `ethos_pdf` argument, so the same body runs once with the public
package (installed from PyPI by the test extra, an oracle only) and once with ethos_py. Both runs
drive the same ethos-core binary where the program names one, and their results must be equal.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
from pathlib import Path
from typing import Any

import ethos_pdf as public  # the public pure-Python wrapper, an oracle only (never copied)
import ethos_pdf.emit as public_emit
import harness  # tests/golden, put on sys.path by conftest
import pytest

import ethos_py
from ethos_py._pdfium import PDFIUM_ENV_VAR, bundled_pdfium_library
from ethos_py.demo import SAMPLE_PDF

REPO = Path(__file__).resolve().parents[1]
QUICKSTART = REPO / "examples" / "quickstart"
ANCHOR_SOURCE = REPO / "schemas" / "examples" / "document.example.json"
ANCHOR_REQUEST = REPO / "schemas" / "examples" / "evidence-anchor-request.example.json"
BOTH = pytest.mark.parametrize("ethos_pdf", [public, ethos_py], ids=["ethos-pdf", "ethos_py"])


@pytest.fixture(scope="module")
def ethos_bin() -> str:
    return harness.ethos_core_binary()


@pytest.fixture
def workdir(tmp_path: Path, ethos_bin: str) -> Path:
    """The files a user of the README has: a source, citations, evidence refs and a public config."""
    shutil.copy(QUICKSTART / "document.json", tmp_path / "source.ethos.json")
    shutil.copy(QUICKSTART / "citations.json", tmp_path / "citations.json")
    shutil.copy(ANCHOR_SOURCE, tmp_path / "anchor-source.ethos.json")
    shutil.copy(ANCHOR_REQUEST, tmp_path / "evidence_refs.json")
    # An explicit public config: default-v1 exactly as the binary prints it.
    (tmp_path / "default-v1.json").write_text(json.dumps(ethos_py.EthosCli(ethos_bin).explain()))
    return tmp_path


def _run_both(program: Any, *args: Any) -> Any:
    results = [program(module, *args) for module in (public, ethos_py)]
    assert results[0] == results[1]
    return results[0]


# -- the programs ---------------------------------------------------------------------------------


def readme_verify_and_anchor(ethos_pdf: Any, ethos_bin: str, workdir: Path) -> Any:
    """README "JSON Verify And Evidence Anchor", with the caller's binary, run in the files' directory."""
    ethos = ethos_pdf.EthosCli(binary=ethos_bin)
    report = ethos.verify(
        source="source.ethos.json",
        citations="citations.json",
        grounding=None,
        config=None,
        fail_on_ungrounded=False,
        output_format="json",
        timeout=30,
    )
    anchor_report = ethos.anchor(
        source="anchor-source.ethos.json",
        evidence_refs="evidence_refs.json",
        grounding=None,
        output_format="json",
        timeout=30,
    )
    return report, anchor_report


def readme_proof_summary_and_release(ethos_pdf: Any, ethos_bin: str, workdir: Path) -> Any:
    """README: proof_summary(report) and app_answer_release_decision(...)."""
    ethos = ethos_pdf.EthosCli(binary=ethos_bin)
    report = ethos.verify(workdir / "source.ethos.json", citations=workdir / "citations.json")
    summary = ethos_pdf.proof_summary(report)
    decision = ethos_pdf.app_answer_release_decision(
        "How fast did the pilot respond?",
        summary,
        [
            {
                "id": "claim-response",
                "text": "The pilot cut average response time by 30%.",
                "check_ids": ["v0001"],
                "question_relevance": "direct_answer",
                "claim_type": "source_fact",
                "claim_support": "supported",
            },
            {
                "id": "claim-backlog",
                "text": "The backlog is gone everywhere.",
                "check_ids": ["v0004"],
                "question_relevance": "supports_answer",
                "claim_type": "source_fact",
            },
        ],
        verification_report_ref="verification_report.json",
        notes=["labels by the app"],
    )
    return summary, decision, ethos_pdf.proof_summary(report=report)


def module_level_calls(ethos_pdf: Any, ethos_bin: str, workdir: Path) -> Any:
    """The module functions with every keyword argument ethos-pdf 0.6.0 documents."""
    report = ethos_pdf.verify(
        workdir / "source.ethos.json",
        citations=workdir / "citations.json",
        ethos_bin=ethos_bin,
        grounding=None,
        config=workdir / "default-v1.json",
        fail_on_ungrounded=True,  # the report has a mismatch: exit 1 is a verdict, not an error
        output_format="json",
        timeout=30,
        env={"ETHOS_TEST_MARKER": "1"},
    )
    anchor_report = ethos_pdf.anchor(
        workdir / "anchor-source.ethos.json",
        evidence_refs=workdir / "evidence_refs.json",
        ethos_bin=ethos_bin,
        grounding=None,
        output_format="json",
        timeout=30,
        env={"ETHOS_TEST_MARKER": "1"},
    )
    return report, anchor_report, ethos_pdf.proof_summary(report=report)


def parse_a_pdf(ethos_pdf: Any, ethos_bin: str, workdir: Path) -> Any:
    """parse_pdf_json / _markdown / _text through the caller's binary, PDFium from env (as ethos-pdf asks)."""
    env = {PDFIUM_ENV_VAR: os.fspath(bundled_pdfium_library())}
    document = ethos_pdf.parse_pdf_json(SAMPLE_PDF, ethos_bin=ethos_bin, pages="1", timeout_seconds=120, env=env)
    markdown = ethos_pdf.parse_pdf_markdown(SAMPLE_PDF, ethos_bin=ethos_bin, pages="1", env=env)
    text = ethos_pdf.EthosCli(ethos_bin, env=env).parse_pdf_text(SAMPLE_PDF, pages="1", timeout_seconds=120)
    return document, markdown, text


def evidence_handles_under_a_public_config(ethos_pdf: Any, ethos_bin: str, workdir: Path) -> Any:
    """README "Evidence Handle Bridge": context, model output, hydration, verify, projection."""
    fingerprint = json.loads((workdir / "citations.json").read_text())["document_fingerprint"]
    context = ethos_pdf.build_evidence_handle_context(
        [
            {"document_fingerprint": fingerprint, "evidence_id": "ev-response", "locator": {"element_id": "e000002"}, "display": "Results"},
            {"document_fingerprint": fingerprint, "evidence_id": "ev-satisfaction", "locator": {"page": "p0001", "element_id": "e000003"}},
            {"document_fingerprint": fingerprint, "evidence_id": "ev-page", "locator": {"page": "p0001"}},
        ]
    )
    emission = ethos_pdf.build_evidence_citation_emission(
        "Response time fell by 30% [ev-response]; satisfaction rose to 95%.",
        [
            {"kind": "quote", "text": "The pilot cut average response time by 30%", "evidence_id": "ev-response"},
            {"kind": "quote", "text": "Customer satisfaction rose to 95%", "evidence_id": "ev-satisfaction"},
        ],
    )
    citations = workdir / "hydrated.json"
    citations.write_bytes(ethos_pdf.citation_json_bytes(ethos_pdf.hydrate_evidence_citations(emission, context)))
    report = ethos_pdf.EthosCli(binary=ethos_bin).verify(
        workdir / "source.ethos.json", citations=citations, config=workdir / "default-v1.json"
    )
    projection = ethos_pdf.project_evidence_states(context, emission, report)
    versions = (
        ethos_pdf.emit.EVIDENCE_HANDLE_CONTEXT_SCHEMA_VERSION,
        ethos_pdf.emit.EVIDENCE_HANDLE_EMISSION_SCHEMA_VERSION,
        ethos_pdf.emit.EMISSION_SCHEMA_VERSION,
    )
    return context, emission, report, projection, versions


def failures(ethos_pdf: Any, ethos_bin: str, workdir: Path) -> Any:
    """What a program catches: the documented exceptions and their fields."""
    outcomes = []
    bad_citations = workdir / "bad.json"
    bad_citations.write_text("[]")
    not_a_pdf = workdir / "not.pdf"
    not_a_pdf.write_bytes(b"plain text, no PDF header")
    attempts = [
        lambda: ethos_pdf.verify(workdir / "source.ethos.json", citations=workdir / "missing.json", ethos_bin=ethos_bin),
        lambda: ethos_pdf.verify(workdir / "source.ethos.json", citations=bad_citations, ethos_bin=ethos_bin),
        lambda: ethos_pdf.EthosCli("no-such-ethos-binary").verify(workdir / "source.ethos.json", citations=bad_citations),
        lambda: ethos_pdf.parse_pdf_json(not_a_pdf, ethos_bin=ethos_bin),
        lambda: ethos_pdf.anchor(workdir / "source.ethos.json", evidence_refs=bad_citations, ethos_bin=ethos_bin, timeout=0),
        lambda: ethos_pdf.EthosCli(ethos_bin).anchor(workdir / "source.ethos.json", evidence_refs=bad_citations, output_format="text"),
    ]
    for attempt in attempts:
        try:
            attempt()
            outcomes.append(("returned",))
        except FileNotFoundError:
            outcomes.append(("FileNotFoundError",))
        except ethos_pdf.InvalidPdfError as error:
            outcomes.append(("InvalidPdfError", error.returncode, error.error_code))
        except ethos_pdf.EthosCommandError as error:
            outcomes.append(("EthosCommandError", error.returncode, error.error_code, bool(error.stderr)))
        except ethos_pdf.EthosNotFoundError as error:
            outcomes.append(("EthosNotFoundError", error.ethos_bin))
        except ethos_pdf.EthosPythonSurfaceError as error:
            outcomes.append(("EthosPythonSurfaceError", type(error).__name__))
        except ValueError:
            outcomes.append(("ValueError",))
    return outcomes


# -- the tests ------------------------------------------------------------------------------------


def test_readme_verify_and_anchor(ethos_bin: str, workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(workdir)  # the README's relative names
    report, anchor_report = _run_both(readme_verify_and_anchor, ethos_bin, workdir)
    assert len(report["checks"]) == 4 and anchor_report["anchors"]


def test_readme_proof_summary_and_release(ethos_bin: str, workdir: Path) -> None:
    summary, decision, by_keyword = _run_both(readme_proof_summary_and_release, ethos_bin, workdir)
    assert by_keyword == summary and summary["proof_status"] == "partially_verified"
    assert decision["final_answer_claim_ids"] == ["claim-response"]


def test_module_level_calls_take_every_public_keyword(ethos_bin: str, workdir: Path) -> None:
    report, anchor_report, summary = _run_both(module_level_calls, ethos_bin, workdir)
    assert report["all_evidence_grounded"] is False and summary["needs_review_check_ids"] == ["v0004"]
    assert anchor_report["anchors"]


def test_parse_a_pdf(ethos_bin: str, workdir: Path) -> None:
    document, markdown, text = _run_both(parse_a_pdf, ethos_bin, workdir)
    assert document["fingerprint"].startswith("sha256:") and markdown and text.endswith("\n")


def test_evidence_handles_under_a_public_config_are_accepted_by_ethos_pdf(ethos_bin: str, workdir: Path) -> None:
    """A report written under an explicit public config passes ethos-pdf 0.6.0's own strict reader."""
    context, emission, report, projection, versions = _run_both(evidence_handles_under_a_public_config, ethos_bin, workdir)
    assert "policy_fingerprint" not in report and "verifier" not in report
    assert report["attestation"]["policy_fingerprint"].startswith("sha256:")
    assert [state["verified"] for state in projection["states"]] == [True, False, False]
    assert projection["all_evidence_grounded"] is False
    assert versions == ("1.0.0", "2.0.0", "1.0.0")
    assert (context["schema_version"], emission["schema_version"]) == versions[:2]
    # The in-process path gives the same report, which ethos-pdf's reader accepts just as well.
    in_process = ethos_py.verify(workdir / "source.ethos.json", workdir / "hydrated.json", config=workdir / "default-v1.json")
    assert in_process == report
    assert public_emit.project_evidence_states(context, emission, in_process) == projection


def test_without_a_config_the_report_keeps_the_extensions(ethos_bin: str, workdir: Path) -> None:
    """Only an explicit public config drops them: with no config a policy decides and says so."""
    report = ethos_py.verify(workdir / "source.ethos.json", workdir / "citations.json")
    assert report["policy_fingerprint"].startswith("sha256:") and set(report["verifier"]) == {"name", "version", "unicode_version"}
    assert "policy_fingerprint" not in report["attestation"]
    with_policy = ethos_py.verify(workdir / "source.ethos.json", workdir / "citations.json", config=workdir / "default-v1.json", policy="strict")
    assert "policy_fingerprint" in with_policy and "policy_fingerprint" not in with_policy["attestation"]


def test_failures(ethos_bin: str, workdir: Path) -> None:
    outcomes = _run_both(failures, ethos_bin, workdir)
    assert outcomes == [
        ("FileNotFoundError",),
        ("EthosCommandError", 2, "invalid_input", True),
        ("EthosNotFoundError", "no-such-ethos-binary"),
        ("InvalidPdfError", 3, "invalid_pdf"),
        ("ValueError",),
        ("ValueError",),
    ]


def test_every_public_name_exists_with_its_keywords() -> None:
    import inspect

    for name in public.__all__:
        ours = getattr(ethos_py, name)
        theirs = getattr(public, name)
        if inspect.isfunction(theirs):
            signature = inspect.signature(ours)
            if any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values()):
                signature = inspect.signature(ethos_py.parse_pdf)  # parse_pdf_* forward their keywords to it
            parameters = set(signature.parameters)
            assert set(inspect.signature(theirs).parameters) <= parameters, name
        elif inspect.isclass(theirs) and issubclass(theirs, BaseException):
            # Every public exception relation holds for ours too.
            for base in theirs.__mro__[1:]:
                if base.__module__.startswith("ethos_pdf"):
                    assert issubclass(ours, getattr(ethos_py, base.__name__)), (name, base.__name__)
    for method in ("verify", "anchor", "parse_pdf", "parse_pdf_json", "parse_pdf_markdown", "parse_pdf_text", "crop_element"):
        theirs = set(inspect.signature(getattr(public.EthosCli, method)).parameters)
        assert theirs <= set(inspect.signature(getattr(ethos_py.EthosCli, method)).parameters), method
    for name in ("EVIDENCE_HANDLE_CONTEXT_SCHEMA_VERSION", "EVIDENCE_HANDLE_EMISSION_SCHEMA_VERSION", "EMISSION_SCHEMA_VERSION"):
        assert getattr(ethos_py.emit, name) == getattr(public_emit, name)
    assert ethos_py.EVIDENCE_HANDLE_CONTEXT_SCHEMA_VERSION == public_emit.EVIDENCE_HANDLE_CONTEXT_SCHEMA_VERSION


def test_ethos_bin_runs_that_program(tmp_path: Path, workdir: Path) -> None:
    """With ethos_bin, verify and anchor run the named program (here one that records its argv)."""
    log = tmp_path / "argv.json"
    program = tmp_path / "recording-ethos"
    program.write_text(
        f"#!{sys.executable}\n"
        "import json, os, sys\n"
        f"open({os.fspath(log)!r}, 'a').write(json.dumps([sys.argv[1:], os.environ.get('ETHOS_TEST_MARKER')]) + '\\n')\n"
        "print(json.dumps({'from': 'recording-ethos'}))\n"
    )
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    source, citations = workdir / "source.ethos.json", workdir / "citations.json"
    assert ethos_py.verify(source, citations=citations, ethos_bin=program, env={"ETHOS_TEST_MARKER": "x"}) == {"from": "recording-ethos"}
    assert ethos_py.anchor(source, evidence_refs=workdir / "evidence_refs.json", ethos_bin=program) == {"from": "recording-ethos"}
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    assert [call[0][:2] for call in calls] == [["verify", "--citations"], ["evidence", "anchor"]]
    assert [call[1] for call in calls] == ["x", None]
    # A dict or JSON text still reaches the program as a file.
    assert ethos_py.verify(source, citations=json.loads(citations.read_text()), ethos_bin=program) == {"from": "recording-ethos"}


def test_in_process_keywords_are_checked_like_ethos_pdf(workdir: Path) -> None:
    source, citations = workdir / "source.ethos.json", workdir / "citations.json"
    with pytest.raises(ValueError, match="timeout"):
        ethos_py.verify(source, citations=citations, timeout=0)
    with pytest.raises(ValueError, match="output_format"):
        ethos_py.anchor(source, evidence_refs=workdir / "evidence_refs.json", output_format="summary")
    with pytest.raises(ValueError, match="grounding"):
        ethos_py.verify(source, citations=citations, grounding="")
    # fail_on_ungrounded in process returns the report, as the binary path does with exit 1.
    report = ethos_py.verify(source, citations=citations, fail_on_ungrounded=True, timeout=5)
    assert report["all_evidence_grounded"] is False
    assert ethos_py.verify(source, citations, output_format="summary") == ethos_py.summary_text(report)
