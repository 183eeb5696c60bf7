"""test_python_api_inputs - the Python API takes what people type: the one str rule, PDFs as bytes or file objects, release input from files, one error root.

Runs against the real core (in process and the bundled ethos-core); nothing is replaced.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import harness  # tests/golden, put on sys.path by conftest
import pytest

import ethos_py
from ethos_py import EthosCli, EthosError, EthosPythonSurfaceError, errors
from ethos_py._emission_rules import CitationEmissionError
from ethos_py._host_io import is_json_text
from ethos_py.demo import SAMPLE_PDF

REPO = Path(__file__).resolve().parents[1]
QUICKSTART = REPO / "examples" / "quickstart"
ANCHOR_SOURCE = REPO / "schemas" / "examples" / "document.example.json"
ANCHOR_REQUEST = REPO / "schemas" / "examples" / "evidence-anchor-request.example.json"
PROOF = {
    "proof_status": "verified",
    "request_certified": True,
    "reusable_grounded_check_ids": ["v0001"],
    "needs_review_check_ids": [],
    "proof_limitations": [],
}
CLAIM = {
    "id": "c1",
    "text": "Revenue grew",
    "check_ids": ["v0001"],
    "question_relevance": "direct_answer",
    "claim_type": "source_fact",
    "claim_support": "supported",
}


@pytest.fixture
def cli() -> EthosCli:
    return EthosCli(harness.ethos_core_binary())


# -- the one str rule -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "is_json"),
    [
        ("{}", True),
        ("[]", True),
        (" \t\r\n{", True),  # JSON whitespace first
        ("cites.json", False),
        ("./{weird}.json", False),
        ("\u00a0{", False),  # not JSON whitespace: part of a file name
        ("", False),
        ('"claims"', False),
    ],
)
def test_is_json_text(text: str, is_json: bool) -> None:
    assert is_json_text(text) is is_json


def test_verify_reads_str_paths_like_ethos_cli(cli: EthosCli) -> None:
    """The call from the issue: verify("doc.json", "cites.json") reads both files."""
    document, citations = str(QUICKSTART / "document.json"), str(QUICKSTART / "citations.json")
    report = ethos_py.verify(document, citations)
    assert report == cli.verify(document, citations)
    assert report == ethos_py.verify(document, (QUICKSTART / "citations.json").read_text())
    assert report == ethos_py.verify(document, json.loads((QUICKSTART / "citations.json").read_text()))
    with pytest.raises(FileNotFoundError):
        ethos_py.verify(document, str(QUICKSTART / "no-such-citations.json"))


def test_config_as_a_str_path_or_json_text(tmp_path: Path, cli: EthosCli) -> None:
    document, citations = QUICKSTART / "document.json", QUICKSTART / "citations.json"
    config_text = json.dumps(cli.explain())  # default-v1
    config_path = tmp_path / "config.json"
    config_path.write_text(config_text)
    from_path = ethos_py.verify(document, citations, config=str(config_path))
    assert from_path == ethos_py.verify(document, citations, config=config_text)
    assert from_path == ethos_py.verify(document, citations, config=config_path)
    assert from_path == cli.verify(document, citations, config=str(config_path))
    assert from_path == cli.verify(document, citations, config=config_text)  # JSON text on EthosCli too


def test_proof_summary_and_summary_text_read_str_paths(tmp_path: Path) -> None:
    report = ethos_py.verify(QUICKSTART / "document.json", QUICKSTART / "citations.json")
    stored = tmp_path / "report.json"
    stored.write_text(json.dumps(report))
    assert ethos_py.proof_summary(str(stored)) == ethos_py.proof_summary(report)
    assert ethos_py.proof_summary(report=str(stored)) == ethos_py.proof_summary(json.dumps(report))
    assert ethos_py.summary_text(str(stored)) == ethos_py.summary_text(report)


def test_anchor_reads_a_str_request_path(cli: EthosCli) -> None:
    report = ethos_py.anchor(str(ANCHOR_SOURCE), str(ANCHOR_REQUEST))
    assert report == ethos_py.anchor(ANCHOR_SOURCE, ANCHOR_REQUEST.read_text())
    assert report == cli.anchor(ANCHOR_SOURCE, str(ANCHOR_REQUEST))
    assert report == cli.anchor(ANCHOR_SOURCE, json.loads(ANCHOR_REQUEST.read_text()))


def test_verify_batch_takes_ndjson_as_a_str_path_or_text(tmp_path: Path, cli: EthosCli) -> None:
    request = json.loads((QUICKSTART / "citations.json").read_text())
    ndjson = "".join(json.dumps(request) + "\n" for _ in range(2))
    stored = tmp_path / "requests.ndjson"
    stored.write_text(ndjson)
    document = QUICKSTART / "document.json"
    expected = ethos_py.verify_batch(document, [request, request])
    assert ethos_py.verify_batch(document, str(stored)) == expected
    assert ethos_py.verify_batch(document, ndjson) == expected
    one_line = tmp_path / "request.json"
    one_line.write_text(json.dumps(request))
    assert ethos_py.verify_batch(document, [str(one_line)] * 2) == expected  # a request's file, by path
    assert cli.verify_batch(document, str(stored)) == expected == cli.verify_batch(document, ndjson)


# -- PDFs as a path, bytes or a binary file object ------------------------------------------------


def test_parse_pdf_takes_bytes_and_binary_file_objects() -> None:
    data = SAMPLE_PDF.read_bytes()
    expected = ethos_py.parse_pdf_bytes(SAMPLE_PDF, pages="1", use_cache=False)
    assert ethos_py.parse_pdf_bytes(data, pages="1", use_cache=False) == expected
    assert ethos_py.parse_pdf_bytes(bytearray(data), pages="1", use_cache=False) == expected
    with open(SAMPLE_PDF, "rb") as stream:
        assert ethos_py.parse_pdf_json(stream, pages="1", use_cache=False) == json.loads(expected)
    assert ethos_py.parse_pdf_text(io.BytesIO(data), pages="1") == ethos_py.parse_pdf_text(SAMPLE_PDF, pages="1")
    assert ethos_py.parse_pdf_markdown(memoryview(data), pages="1") == ethos_py.parse_pdf_markdown(str(SAMPLE_PDF), pages="1")
    assert EthosCli().fingerprint(data, pages="1") == EthosCli().fingerprint(SAMPLE_PDF, pages="1")


def test_parse_pdf_refuses_text_streams_and_other_objects() -> None:
    with pytest.raises(TypeError, match="binary mode"):
        ethos_py.parse_pdf_json(io.StringIO("%PDF-1.7"))
    with pytest.raises(TypeError, match="path, bytes or a binary file object"):
        ethos_py.parse_pdf_json(12345)  # type: ignore[arg-type]


def test_bytes_that_are_not_a_pdf_fail_like_a_file_that_is_not(tmp_path: Path) -> None:
    not_pdf = tmp_path / "a.pdf"
    not_pdf.write_bytes(b"not a pdf")
    failures = []
    for given in (b"not a pdf", not_pdf):
        with pytest.raises(ethos_py.InvalidPdfError) as raised:
            ethos_py.parse_pdf_json(given, use_cache=False)
        failures.append((raised.value.code, raised.value.exit_code))
    assert failures == [("invalid_pdf", 3)] * 2


# -- release decisions: paths and label errors ----------------------------------------------------


def test_release_decision_reads_proof_and_claims_from_paths_or_text(tmp_path: Path) -> None:
    expected = ethos_py.app_answer_release_decision("How did revenue develop?", PROOF, [CLAIM])
    proof_path, claims_path = tmp_path / "proof.json", tmp_path / "claims.json"
    proof_path.write_text(json.dumps(PROOF))
    claims_path.write_text(json.dumps([CLAIM]))
    for proof, claims in [
        (str(proof_path), str(claims_path)),
        (proof_path, claims_path),
        (json.dumps(PROOF), json.dumps([CLAIM])),
        (json.dumps(PROOF).encode(), [CLAIM]),
    ]:
        assert ethos_py.app_answer_release_decision("How did revenue develop?", proof, claims) == expected
    # A verification report on disk is summarized by the core, like proof_summary(path).
    report_path = tmp_path / "report.json"
    report_path.write_text(json.dumps(ethos_py.verify(QUICKSTART / "document.json", QUICKSTART / "citations.json")))
    claim = {**CLAIM, "check_ids": ["v0001"]}
    decision = ethos_py.app_answer_release_decision("Q?", str(report_path), [claim])
    assert decision["grounding"]["reusable_grounded_check_ids"] == ethos_py.proof_summary(str(report_path))[
        "reusable_grounded_check_ids"
    ]
    with pytest.raises(FileNotFoundError):
        ethos_py.app_answer_release_decision("Q?", str(tmp_path / "missing.json"), [CLAIM])


@pytest.mark.parametrize(
    ("field", "allowed"),
    [
        ("question_relevance", "direct_answer, supports_answer, background_only, unrelated"),
        ("claim_type", "source_fact, synthesis, unsupported"),
        ("claim_support", "supported, unsupported, contradicted, not_evaluated"),
    ],
)
def test_a_wrong_label_names_the_allowed_ones(field: str, allowed: str) -> None:
    with pytest.raises(ValueError) as raised:  # a ValueError, as in ethos-pdf
        ethos_py.app_answer_release_decision("Q?", PROOF, [{**CLAIM, field: "nonsense"}])
    error = raised.value
    assert isinstance(error, ethos_py.InvalidInputError) and isinstance(error, EthosError)
    assert str(error).endswith(f"; allowed: {allowed}")
    assert error.code == "invalid_input" and error.exit_code == 2 and error.details["field"] == field
    assert json.loads(error.envelope)["error"]["code"] == "invalid_input"


def test_claims_that_are_not_mappings_are_invalid_input() -> None:
    with pytest.raises(ethos_py.InvalidInputError, match=r"claims\[0\] must be a mapping"):
        ethos_py.app_answer_release_decision("Q?", PROOF, [1])  # type: ignore[list-item]
    with pytest.raises(ethos_py.InvalidInputError, match="JSON values only"):
        ethos_py.app_answer_release_decision("Q?", PROOF, [{**CLAIM, "text": object()}])


# -- one exception root ---------------------------------------------------------------------------


def test_every_error_class_is_an_ethos_error() -> None:
    names = [name for name in ethos_py.__all__ if name.endswith("Error") and name != "EthosPythonSurfaceError"]
    classes = [getattr(ethos_py, name) for name in names]
    assert len(classes) >= 17
    for cls in classes:
        assert issubclass(cls, EthosError), cls
        assert issubclass(cls, EthosPythonSurfaceError), cls  # the ethos-pdf name still catches them
    # The relations programs already rely on stay.
    assert issubclass(EthosError, EthosPythonSurfaceError)
    assert issubclass(ethos_py.InvalidPdfError, ethos_py.EthosCommandError)
    assert issubclass(CitationEmissionError, ValueError)


def test_except_ethos_error_catches_pdf_failures(tmp_path: Path) -> None:
    """The gap the issue names: `except ethos_py.EthosError` missed every PDF failure."""
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n1 0 obj\n<<")
    caught = []
    for attempt in (
        lambda: ethos_py.parse_pdf_json(broken, use_cache=False),
        lambda: ethos_py.parse_pdf_text(b"plain text", use_cache=False),
        lambda: EthosCli("no-such-ethos-binary").explain(),
        lambda: ethos_py.Document.from_bytes(b"{}"),
        lambda: ethos_py.build_citation_emission("", []),
    ):
        try:
            attempt()
        except EthosError as error:
            caught.append(error)
    assert len(caught) == 5
    for error in caught:
        # Every failure has every field, whatever path it came from.
        assert isinstance(error.details, dict) and isinstance(error.exit_code, int)
        assert isinstance(error.envelope, bytes) and str(error)
        if error.code is None:
            assert error.envelope == b""
        else:
            assert json.loads(error.envelope)["error"]["code"] == error.code == error.error_code
    assert [type(error).__name__ for error in caught][2:] == ["EthosNotFoundError", "EthosError", "CitationEmissionError"]
    assert caught[0].exit_code == caught[0].returncode  # type: ignore[attr-defined]


def test_command_error_fields_match_the_in_process_error(tmp_path: Path, cli: EthosCli) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"[]")
    with pytest.raises(EthosError) as in_process:
        ethos_py.verify(QUICKSTART / "document.json", bad)
    with pytest.raises(EthosError) as subprocess_error:
        cli.verify(QUICKSTART / "document.json", bad)
    for name in ("code", "error_code", "message", "details", "exit_code", "envelope"):
        assert getattr(subprocess_error.value, name) == getattr(in_process.value, name), name


def test_command_error_without_an_envelope() -> None:
    error = errors.command_error(("ethos",), 2, "", "usage: ethos ...")
    assert error.code is None and error.envelope == b"" and error.exit_code == 2 and error.details == {}


def test_core_error_constructor_is_unchanged() -> None:
    error = EthosError("invalid_input", "bad input", {"path": "$"}, 2)
    assert (error.code, error.message, error.details, error.exit_code) == ("invalid_input", "bad input", {"path": "$"}, 2)
    assert str(error) == "invalid_input: bad input"
    assert json.loads(error.envelope) == {"error": {"code": "invalid_input", "details": {"path": "$"}, "message": "bad input"}}
    rebuilt = EthosError.from_envelope(error.envelope, 2)
    assert type(rebuilt) is EthosError and rebuilt.envelope == error.envelope


def test_wrapper_side_failures_have_no_code() -> None:
    timeout = ethos_py.EthosTimeoutError(["ethos-core", "doc", "parse", "x.pdf"], 2.5)
    output = ethos_py.EthosOutputError("stdout is not JSON", ["ethos-core", "explain"], "oops")
    for error in (timeout, output):
        assert error.code is None and error.error_code is None and error.exit_code == 12 and error.envelope == b""
    assert timeout.details == {"timeout_seconds": 2.5}
