"""test_golden - each golden case on each surface: equal to its golden, consistent with its expect block and the schemas."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import harness
import pytest
from conftest import CASES, SOURCES_DIR, TOOLS_DIR, schema_errors
from jsonschema import Draft202012Validator

sys.path.insert(0, str(TOOLS_DIR))
import make_native_document as tool

CASE_IDS = [case.name for case in CASES]
RUNS = [(case, surface) for case in CASES for surface in case.surfaces]
RUN_IDS = [f"{case.name}@{surface}" for case, surface in RUNS]
JSON_CASES = [c for c in CASES if c.expect["exit_code"] < 2 and c.options.get("format") != "summary"]
SUMMARY_CASES = [c for c in CASES if c.expect["exit_code"] < 2 and c.options.get("format") == "summary"]
ERROR_CASES = [c for c in CASES if c.expect["exit_code"] >= 2]
SOURCE_PAYLOADS = sorted(SOURCES_DIR.glob("*.payload.json"))


# ------------------------------------------------------------------------------------------ case files


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_case_files_are_well_formed(case: harness.Case) -> None:
    errors = [e.message for e in Draft202012Validator(harness.CASE_FILE_SCHEMA).iter_errors(case.meta)]
    assert errors == []
    assert case.source_path.is_file()
    assert case.citations_path.is_file()
    assert {p.name for p in case.directory.iterdir()} <= {
        "case.json",
        "citations.json",
        "config.json",
        case.golden_path.name,
    }
    expect = case.expect
    if expect["exit_code"] < 2:
        assert "checks" in expect and "all_evidence_grounded" in expect
        citations = json.loads(case.citations_bytes)
        claims = citations if isinstance(citations, list) else citations["claims"]
        assert len(claims) == len(expect["checks"])
        if case.options.get("claim_validation") != "report":
            # a case meant to run must feed inputs the published schemas accept
            assert schema_errors("citations", citations) == []
        if case.config_path is not None:
            assert schema_errors("verification-config", json.loads(case.config_bytes)) == []
    else:
        assert "checks" not in expect


def test_case_names_are_unique_and_cover_every_status_and_reason() -> None:
    seen_status = {c["status"] for case in CASES for c in case.expect.get("checks", [])}
    seen_reason = {c.get("reason") for case in CASES for c in case.expect.get("checks", [])}
    seen_method = {c["match_method"] for case in CASES for c in case.expect.get("checks", [])}
    # capability_blocked needs a foreign source (a native one has every capability)
    assert seen_status == set(harness.STATUS_ORDER)
    reachable_reasons = {
        "missing_locator", "missing_required_text", "unsupported_claim_kind", "stale_fingerprint",
        "missing_citation_fingerprint", "element_not_found", "span_not_found", "page_not_found",
        "bbox_not_found", "missing_page_for_bbox", "missing_table_cell_locator", "table_not_found",
        "table_cell_not_found", "text_mismatch", "locator_conflict",
    }  # fmt: skip
    assert reachable_reasons <= seen_reason
    assert {"exact_text", "normalized_text", "exact_text_contains", "normalized_text_contains",
            "table_cell_lookup", "presence_only", "none"} <= seen_method  # fmt: skip
    assert len(set(CASE_IDS)) == len(CASE_IDS)


# ------------------------------------------------------------------------------------------ goldens vs intent


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_golden_agrees_with_expect(case: harness.Case) -> None:
    golden = case.golden_path.read_bytes()
    exit_code = case.expect["exit_code"]
    stdout, stderr = (b"", golden) if exit_code >= 2 else (golden, b"")
    assert harness.check_outcome(case, exit_code, stdout, stderr) == []


@pytest.mark.parametrize("case", JSON_CASES, ids=[c.name for c in JSON_CASES])
def test_golden_report_validates_against_the_schemas(case: harness.Case) -> None:
    value = json.loads(case.golden_path.read_bytes())
    if case.options.get("statement"):
        assert schema_errors("proof-statement", value) == []
        value = value["predicate"]
    assert schema_errors("verification-report", value) == []


@pytest.mark.parametrize("case", ERROR_CASES, ids=[c.name for c in ERROR_CASES])
def test_golden_envelope_validates_against_the_schema(case: harness.Case) -> None:
    assert schema_errors("error-envelope", json.loads(case.golden_path.read_bytes())) == []


@pytest.mark.parametrize("case", JSON_CASES, ids=[c.name for c in JSON_CASES])
def test_proof_summary_of_golden_follows_the_contract(case: harness.Case) -> None:
    import ethos_py

    golden = case.golden_path.read_bytes()
    report = harness.report_of(case, golden)
    summary = ethos_py.proof_summary(golden)
    assert schema_errors("proof-summary", summary) == []
    assert summary == harness.proof_summary(report)


@pytest.mark.parametrize("case", SUMMARY_CASES, ids=[c.name for c in SUMMARY_CASES])
def test_summary_golden_is_derived_from_the_report(case: harness.Case) -> None:
    import ethos_py

    document = ethos_py.Document.open(case.source_path, case.options.get("grounding"))
    try:
        report_bytes = document.verify_json(case.citations_bytes, case.config_bytes)
    finally:
        document.close()
    report = json.loads(report_bytes)
    assert schema_errors("verification-report", report) == []
    assert harness.check_report(case, report) == []
    text = case.golden_path.read_text(encoding="utf-8")
    assert ethos_py.summary_text(report_bytes) == text
    header, _ = harness.parse_summary(text)
    values = dict(header)
    assert values["schema_version"] == report["schema_version"]
    assert values["verification_config_sha256"] == report["verification_config_sha256"]
    assert values["document_fingerprint"] == report["document_fingerprint"]
    parser = report["grounding"]["parser"]
    assert values["grounding"] == f"{parser['name']} {parser['version']}"
    caps = report["grounding"]["capabilities"]
    expected_caps = ",".join(
        f"{key}={str(caps[key]).lower() if isinstance(caps[key], bool) else caps[key]}"
        for key in ("spans", "char_offsets", "tables", "fingerprint", "coordinate_origin", "crop_support")
    )
    assert values["grounding_capabilities"] == expected_caps


# ------------------------------------------------------------------------------------------ surfaces


@pytest.mark.parametrize(("case", "surface"), RUNS, ids=RUN_IDS)
def test_surface_output_is_the_golden(case: harness.Case, surface: str, run_surface: Any) -> None:
    exit_code, stdout, stderr = run_surface(surface, case)
    golden = case.golden_path.read_bytes()
    assert exit_code == case.expect["exit_code"], (stdout[:300], stderr[:300])
    if exit_code >= 2:
        assert (stdout, stderr) == (b"", golden)
    else:
        assert (stdout, stderr) == (golden, b"")


# ------------------------------------------------------------------------------------------ sources


@pytest.mark.parametrize("payload_path", SOURCE_PAYLOADS, ids=[p.name for p in SOURCE_PAYLOADS])
def test_source_document_is_fresh(payload_path: Path) -> None:
    spec = json.loads(payload_path.read_text(encoding="utf-8"))
    document_path = payload_path.with_name(payload_path.name.replace(".payload.json", ".json"))
    built = tool.build_document(spec)
    assert tool.render(built) == document_path.read_bytes()
    assert tool.check_payload(built["payload"]) == []
    assert schema_errors("document", built) == []


@pytest.mark.parametrize("payload_path", SOURCE_PAYLOADS, ids=[p.name for p in SOURCE_PAYLOADS])
def test_source_document_opens_in_the_core(payload_path: Path) -> None:
    import ethos_py

    document_path = payload_path.with_name(payload_path.name.replace(".payload.json", ".json"))
    with ethos_py.Document.open(document_path) as document:
        assert document.fingerprint == json.loads(document_path.read_bytes())["fingerprint"]


def test_schema_example_document_opens_in_the_core(repo_dir: Path) -> None:
    import ethos_py

    path = repo_dir / "schemas" / "examples" / "document.example.json"
    with ethos_py.Document.open(path) as document:
        assert document.fingerprint == json.loads(path.read_bytes())["fingerprint"]


def test_sources_have_different_fingerprints() -> None:
    report = json.loads((SOURCES_DIR / "report.json").read_bytes())
    memo = json.loads((SOURCES_DIR / "memo.json").read_bytes())
    assert report["fingerprint"] != memo["fingerprint"]


def test_tampered_source_keeps_the_hashes_but_not_the_payload() -> None:
    memo = json.loads((SOURCES_DIR / "memo.json").read_bytes())
    tampered = json.loads((SOURCES_DIR / "memo-tampered.json").read_bytes())
    for key in ("fingerprint", "payload_sha256", "config_sha256", "source", "profile"):
        assert tampered[key] == memo[key]
    assert tampered["payload"] != memo["payload"]
    assert tool.payload_sha256(tampered["payload"]) != tampered["payload_sha256"]
    assert schema_errors("document", tampered) == []


def test_report_source_has_the_fixtures_the_cases_rely_on() -> None:
    payload = json.loads((SOURCES_DIR / "report.json").read_bytes())["payload"]
    elements = {e["id"]: e for e in payload["elements"]}
    texts = "".join(e.get("text", "") for e in payload["elements"])
    for needle in ("\u00a0", "\t", "\r\n", "\u201c", "\ufb01", "Revenue", "12.5%"):
        assert needle in texts, repr(needle)
    # same-line touch, stacked touch, 40-quanta gap (CONTRACTS §3.5)
    assert elements["e000006"]["bbox"][0] == elements["e000005"]["bbox"][2]
    assert elements["e000008"]["bbox"][1] == elements["e000007"]["bbox"][3]
    assert elements["e000010"]["bbox"][0] - elements["e000009"]["bbox"][2] == 40
    assert elements["e000016"]["page"] != elements["e000017"]["page"]
    assert elements["e000017"]["bbox"][0] == elements["e000016"]["bbox"][2]
    table = payload["tables"][0]
    assert table["header_rows"] == 1
    assert any(c["row_span"] > 1 for c in table["cells"]) and any(c["col_span"] > 1 for c in table["cells"])
    assert any(e.get("heading_level") for e in payload["elements"])
    assert {"list", "list_item", "heading", "table", "region", "caption", "footer"} <= {
        e["type"] for e in payload["elements"]
    }


# ------------------------------------------------------------------------------------------ normalization vectors through the core


@pytest.mark.parametrize(
    ("file_name", "profile"),
    [
        ("normalization-vectors.json", "collapse_whitespace"),
        ("normalization-vectors-unicode-compat-v1.json", "unicode_compat_v1"),
    ],
)
def test_normalization_vectors_through_the_core(file_name: str, profile: str, repo_dir: Path) -> None:
    import ethos_py

    vectors = json.loads((repo_dir / "schemas" / file_name).read_text(encoding="utf-8"))["vectors"]
    # A value claim grounds iff normalize(element text) == normalize(claim text); with the claim
    # text = expected (a fixed point) that is normalize(input) == expected. Vectors whose expected
    # value is empty cannot be value claims (blank text is rejected) and are left out here.
    usable = [v for v in vectors if v["expected"].strip() and v["input"]]
    elements = [
        {
            "id": f"e{i:06d}",
            "type": "text_block",
            "page": "p0001",
            "bbox": [100, 100 * i, 1000, 100 * i + 50],
            "text": v["input"],
        }
        for i, v in enumerate(usable, start=1)
    ]
    payload = {
        "pages": [{"id": "p0001", "index": 1, "width": 61200, "height": 79200, "rotation": 0}],
        "elements": elements,
    }
    document_bytes = tool.render(tool.build_document(payload))
    claims = [
        {"kind": "value", "text": v["expected"], "citation": {"element_id": f"e{i:06d}"}}
        for i, v in enumerate(usable, start=1)
    ]
    config = {
        "schema_version": "1.0.0",
        "config_version": f"vectors-{profile}",
        "claim_kinds": ["value"],
        "matching": {"text_normalization": profile, "case_sensitive": True},
        "staleness": {"require_fingerprint_match": False},
        "limits": {"max_checks": 256},
    }
    with ethos_py.Document.open(document_bytes) as document:
        report = document.verify(claims, config)
    failed = {
        v["name"]: c["status"] for v, c in zip(usable, report["checks"], strict=True) if c["status"] != "grounded"
    }
    assert failed == {}
    assert len(usable) >= len(vectors) - 4
