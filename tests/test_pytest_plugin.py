"""test_pytest_plugin - the pytest11 plugin as a RAG app's test suite uses it: registered by the distribution,
fixtures that open the bundled sample PDF, assert_grounded passing on grounded quotes and failing with the
guard detail and near-miss diff, the same under pytest -n (xdist), and ethos_py.testing without pytest."""

from __future__ import annotations

import json
import shutil
from importlib.metadata import entry_points
from pathlib import Path

import pytest

import ethos_py
from ethos_py.demo import SAMPLE_PDF
from ethos_py.testing import GroundingAssertionError, assert_grounded, grounding_failure_text, quote_claims, ungrounded_checks

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parents[1]
QUICKSTART = REPO / "examples" / "quickstart"

#: A RAG app's test file: two grounded quotes of the sample report, one with a changed figure.
APP_TESTS = '''
import pytest

PDF = {pdf!r}


def test_grounded_quotes(ethos_verify, assert_grounded):
    report = ethos_verify(PDF, ["Median time to resolution fell from 9.2 days to 6.1 days",
                                "Extend the pilot to the two remaining regions"])
    assert_grounded(report)


def test_changed_figure(ethos_verify, assert_grounded):
    report = ethos_verify(PDF, ["Median time to resolution fell from 9.2 days to 3.1 days"])
    assert_grounded(report)


@pytest.mark.parametrize("n", range(4))
def test_document_opened_once_per_session(ethos_document, n):
    assert ethos_document(PDF) is ethos_document(PDF)
    assert ethos_document(PDF).fingerprint.startswith("sha256:")
'''


def test_the_distribution_registers_the_plugin() -> None:
    [entry] = [e for e in entry_points(group="pytest11") if e.name == "ethos"]
    assert entry.value == "ethos_py.pytest_plugin"
    assert entry.load().__name__ == "ethos_py.pytest_plugin"


@pytest.fixture
def app_suite(pytester: pytest.Pytester, tmp_path: Path) -> pytest.Pytester:
    pdf = tmp_path / "report.pdf"
    shutil.copyfile(SAMPLE_PDF, pdf)
    pytester.makepyfile(test_app=APP_TESTS.format(pdf=str(pdf)))
    return pytester


def _check_outcome(result: pytest.RunResult) -> None:
    result.assert_outcomes(passed=5, failed=1)
    text = result.stdout.str()
    assert "GroundingAssertionError: Ethos: 1 of 1 checks not grounded" in text
    assert 'guard numeric: figure changed: source "6.1", quote "3.1"' in text
    assert "[-6.1-]{+3.1+}" in text
    assert "proof_status: unverified" in text  # the summary text follows the checks


def test_the_plugin_loads_by_itself_and_reports_why_a_quote_failed(app_suite: pytest.Pytester) -> None:
    _check_outcome(app_suite.runpytest_subprocess("-p", "no:cacheprovider"))


def test_the_plugin_works_under_xdist(app_suite: pytest.Pytester) -> None:
    import xdist  # noqa: F401  (a test extra; the plugin itself does not need it)
    result = app_suite.runpytest_subprocess("-n", "2", "-p", "no:cacheprovider")
    _check_outcome(result)
    assert "2 workers" in result.stdout.str()


def test_it_can_be_disabled(app_suite: pytest.Pytester) -> None:
    result = app_suite.runpytest_subprocess("-p", "no:ethos", "-p", "no:cacheprovider")
    result.assert_outcomes(errors=6)
    assert "fixture 'ethos_verify' not found" in result.stdout.str()


def test_assert_grounded_names_checks_by_id_or_position() -> None:
    report = ethos_py.verify(QUICKSTART / "document.json", QUICKSTART / "citations.json")
    assert assert_grounded(report, only=["v0001", 1, "v0003"])["checks"][0]["status"] == "grounded"
    with pytest.raises(GroundingAssertionError) as caught:
        assert_grounded(report)
    assert [check["id"] for check in caught.value.failures] == ["v0004"]
    assert str(caught.value).startswith("Ethos: 1 of 4 checks not grounded\n  v0004 mismatch (text_mismatch)")
    with pytest.raises(KeyError):
        assert_grounded(report, only=["v0099"])
    with pytest.raises(IndexError):
        assert_grounded(report, only=[4])


def test_a_report_without_checks_never_passes() -> None:
    report = ethos_py.verify(QUICKSTART / "document.json", QUICKSTART / "citations.json")
    report["checks"] = []
    with pytest.raises(GroundingAssertionError, match="no checks"):
        assert_grounded(report)


def test_the_failure_text_bounds_a_huge_claim() -> None:
    document = ethos_py.Document.open(QUICKSTART / "document.json")
    with document:
        citations = {"document_fingerprint": document.fingerprint, "claims": quote_claims(["word " * 100_000])}
        report = json.loads(document.verify_json(citations))
    [failure] = ungrounded_checks(report)
    text = grounding_failure_text(report)
    claim_line = next(line for line in text.splitlines() if line.startswith("    claim:"))
    assert len(claim_line) < 400 and "(500000 characters)" in claim_line
    assert failure["status"] != "grounded"


def test_the_example_suite_runs_as_documented(pytester: pytest.Pytester) -> None:
    example = REPO / "examples" / "pytest" / "test_answers.py"
    pytester.makepyfile(test_answers=example.read_text(encoding="utf-8"))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-rx")
    result.assert_outcomes(passed=2, xfailed=1)
    assert "6.1 days became 3.1 days" in result.stdout.str()
