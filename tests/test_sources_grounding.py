"""test_sources_grounding - Grounding JSON v1 (`ethos-grounding-json`): loading, verdicts, frozen errors, `grounding check`."""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import schema_errors
from sources_support import envelope, grounding_check_all, verify_all, verify_library

EXAMPLES = Path(__file__).resolve().parents[1] / "schemas" / "examples"
PDF_EXAMPLE = EXAMPLES / "grounding.example.json"
OFFICE_EXAMPLE = EXAMPLES / "grounding-office.example.json"


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _json_bytes(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8")


def _pinned(source: Path, claims: list[dict[str, Any]]) -> bytes:
    fingerprint = "sha256:" + hashlib.sha256(source.read_bytes()).hexdigest()
    return _json_bytes({"document_fingerprint": fingerprint, "claims": claims})


PDF_CLAIMS = [
    {"kind": "quote", "text": "grew 12.5%", "citation": {"element_id": "e2", "page": "page-1"}},
    {"kind": "value", "text": "Revenue grew", "citation": {"span_id": "s1"}},
    {"kind": "table_cell", "text": "Q3 $4.2M", "citation": {"table_id": "t1", "cell": {"row": 1, "col": 1}}},
    {"kind": "presence", "citation": {"page": "page-1", "bbox": [7300, 9700, 9000, 10500]}},
    {"kind": "quote", "text": "Revenue fell", "citation": {"element_id": "e2"}},
    {"kind": "presence", "citation": {"page": "page-2"}},
]


@pytest.mark.parametrize("grounding", [None, "ethos-grounding-json"])
def test_pdf_artifact_verdicts_on_every_surface(tmp_path: Path, grounding: str | None) -> None:
    source = _write(tmp_path, "grounding.json", PDF_EXAMPLE.read_bytes())
    citations = _write(tmp_path, "citations.json", _pinned(source, PDF_CLAIMS))
    code, stdout, _ = verify_all(source, citations, grounding)
    assert code == 0
    report = json.loads(stdout)
    assert schema_errors("verification-report", report) == []
    assert report["document_fingerprint"] == "sha256:" + hashlib.sha256(source.read_bytes()).hexdigest()
    assert report["grounding"] == {
        "parser": {
            "name": "example-producer",
            "version": "1.0.0",
            "adapter": "ethos-grounding-json",
            "adapter_version": "1.0.0",
        },
        "capabilities": {
            "spans": True,
            "char_offsets": True,
            "tables": True,
            "fingerprint": True,
            "coordinate_origin": "top-left",
            "crop_support": False,
        },
    }
    assert report["capability_limits"] == []
    outcomes = [(c["status"], c.get("reason"), c.get("evidence_tier")) for c in report["checks"]]
    assert outcomes == [
        ("grounded", None, "element_scoped"),
        ("grounded", None, "exact_span"),
        ("grounded", None, "table_cell"),
        ("grounded", None, "element_scoped"),
        ("mismatch", "text_mismatch", "element_scoped"),
        ("not_found", "page_not_found", None),
    ]
    assert report["checks"][3]["evidence"]["bbox"] == [7200, 9600, 54000, 11000]
    assert report["all_evidence_grounded"] is False


def test_representation_hash_is_the_fingerprint_so_reemitting_stales(tmp_path: Path) -> None:
    source = _write(tmp_path, "grounding.json", PDF_EXAMPLE.read_bytes())
    citations = _write(tmp_path, "citations.json", _pinned(source, PDF_CLAIMS[:1]))
    # The same artifact re-emitted compactly: same content, different bytes, so a new fingerprint.
    source.write_bytes(json.dumps(json.loads(PDF_EXAMPLE.read_bytes()), separators=(",", ":")).encode())
    code, stdout, _ = verify_all(source, citations)
    report = json.loads(stdout)
    assert code == 0 and report["fingerprint_stale"] is True
    assert [c["status"] for c in report["checks"]] == ["stale"]


def test_pageless_office_artifact_resolves_by_element_id_only(tmp_path: Path) -> None:
    source = _write(tmp_path, "office.json", OFFICE_EXAMPLE.read_bytes())
    claims = [
        {"kind": "quote", "text": "three months", "citation": {"element_id": "para-2"}},
        {"kind": "value", "text": "Employment agreement", "citation": {"element_id": "para-1"}},
        {"kind": "presence", "citation": {"page": "1"}},
        {"kind": "quote", "text": "three months", "citation": {"page": "1"}},
    ]
    citations = _write(tmp_path, "citations.json", _pinned(source, claims))
    code, stdout, _ = verify_all(source, citations)
    report = json.loads(stdout)
    assert code == 0 and schema_errors("verification-report", report) == []
    assert report["grounding"]["parser"]["name"] == "example-office-producer"
    assert report["grounding"]["capabilities"]["spans"] is False
    assert report["capability_limits"] == ["missing_spans", "missing_char_offsets", "missing_tables"]
    assert [(c["status"], c.get("reason")) for c in report["checks"]] == [
        ("grounded", None),
        ("grounded", None),
        ("not_found", "page_not_found"),
        ("not_found", "page_not_found"),
    ]
    assert "bbox" not in report["checks"][0]["evidence"] and "page" not in report["checks"][0]["evidence"]


# ------------------------------------------------------------------------------------------ errors

Mutation = Callable[[dict[str, Any]], Any]


def _set(path: list[Any], value: Any) -> Mutation:
    def apply(doc: dict[str, Any]) -> None:
        node = doc
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = value

    return apply


def _delete(path: list[Any]) -> Mutation:
    def apply(doc: dict[str, Any]) -> None:
        node = doc
        for step in path[:-1]:
            node = node[step]
        del node[path[-1]]

    return apply


def _append_cell(doc: dict[str, Any]) -> None:
    doc["tables"][0]["cells"].append(copy.deepcopy(doc["tables"][0]["cells"][2]))


def _mutated(mutation: Mutation) -> bytes:
    doc = json.loads(PDF_EXAMPLE.read_bytes())
    mutation(doc)
    return _json_bytes(doc)


def _raw(text_edit: Callable[[bytes], bytes]) -> bytes:
    return text_edit(PDF_EXAMPLE.read_bytes())


# (name, artifact bytes, frozen code, JSON path)
ERROR_CASES: list[tuple[str, bytes, str, str]] = [
    ("bom", b"\xef\xbb\xbf" + PDF_EXAMPLE.read_bytes(), "bom_not_allowed", "$"),
    ("invalid-utf8", _raw(lambda b: b.replace("Quarterly".encode(), b"Quarter\xffy")), "invalid_json", "$.elements[0].text"),
    ("syntax", _raw(lambda b: b[:-3]), "invalid_json", "$.tables"),
    ("float", _raw(lambda b: b.replace(b'"index": 1', b'"index": 1.0')), "invalid_json", "$.pages[0].index"),
    ("exponent", _raw(lambda b: b.replace(b'"index": 1', b'"index": 1e0')), "invalid_json", "$.pages[0].index"),
    ("null", _mutated(_set(["elements", 0, "text"], None)), "invalid_json", "$.elements[0].text"),
    ("null-in-bbox", _mutated(_set(["elements", 0, "bbox", 2], None)), "invalid_json", "$.elements[0].bbox[2]"),
    (
        "duplicate-key",
        _raw(lambda b: b.replace(b'"kind": "heading"', b'"kind": "heading", "kind": "heading"')),
        "duplicate_key",
        "$.elements[0].kind",
    ),
    ("missing-field", _mutated(_delete(["producer", "version"])), "invalid_field", "$.producer.version"),
    ("bad-source-hash", _mutated(_set(["source", "sha256"], "sha256:ABC")), "invalid_field", "$.source.sha256"),
    ("bad-id", _mutated(_set(["elements", 0, "id"], "-e1")), "invalid_field", "$.elements[0].id"),
    ("bad-kind", _mutated(_set(["elements", 0, "kind"], "Heading")), "invalid_field", "$.elements[0].kind"),
    ("wrong-type", _mutated(_set(["artifact_type"], "ethos.grounding.v2")), "unsupported_version", "$.artifact_type"),
    ("wrong-version", _mutated(_set(["schema_version"], "2.0.0")), "unsupported_version", "$.schema_version"),
    ("office-in-1.0.0", _mutated(_set(["source", "media_type"], "application/rtf")), "invalid_field", "$.source.media_type"),
    ("spans-without-capability", _mutated(_set(["capabilities", "spans"], False)), "invalid_capabilities", "$.capabilities"),
    ("tables-missing", _mutated(_delete(["tables"])), "invalid_capabilities", "$.capabilities"),
    ("duplicate-element", _mutated(_set(["elements", 1, "id"], "e1")), "duplicate_id", "$.elements[1].id"),
    ("unknown-page", _mutated(_set(["elements", 1, "page"], "page-9")), "unknown_reference", "$.elements[1].page"),
    ("unknown-element", _mutated(_set(["spans", 0, "element"], "e9")), "unknown_reference", "$.spans[0].element"),
    ("page-order", _mutated(_set(["pages", 0, "index"], 2)), "invalid_order", "$.pages[0].index"),
    ("bbox-outside-page", _mutated(_set(["elements", 0, "bbox"], [7200, 7200, 61201, 8600])), "invalid_bbox", "$.elements[0].bbox"),
    ("bbox-zero-area", _mutated(_set(["elements", 0, "bbox"], [7200, 7200, 7200, 8600])), "invalid_bbox", "$.elements[0].bbox"),
    ("bbox-three", _mutated(_set(["elements", 0, "bbox"], [1, 2, 3])), "invalid_field", "$.elements[0].bbox"),
    ("offsets-wrong-text", _mutated(_set(["spans", 0, "char_end"], 11)), "invalid_offsets", "$.spans[0]"),
    ("offsets-missing", _mutated(_delete(["spans", 0, "char_start"])), "invalid_offsets", "$.spans[0]"),
    ("cells-overlap", _mutated(_set(["tables", 0, "cells", 0, "col_span"], 2)), "invalid_table", "$.tables[0].cells"),
    ("cells-order", _mutated(_append_cell), "invalid_table", "$.tables[0].cells"),
    ("cell-zero-span", _mutated(_set(["tables", 0, "cells", 0, "row_span"], 0)), "invalid_table", "$.tables[0].cells"),
    ("coordinates", _mutated(_set(["coordinate_system", "origin"], "bottom-left")), "invalid_invariant", "$.coordinate_system"),
    ("rotation", _mutated(_set(["pages", 0, "rotation"], 45)), "invalid_invariant", "$.pages[0].rotation"),
    ("page-width", _mutated(_set(["pages", 0, "width"], 0)), "invalid_invariant", "$.pages[0]"),
    ("long-id", _mutated(_set(["elements", 0, "id"], "e" * 257)), "limit_exceeded", "$.elements[0].id"),
    ("long-text", _mutated(_set(["elements", 0, "text"], "x" * 16385)), "limit_exceeded", "$.elements[0].text"),
    ("big-integer", _raw(lambda b: b.replace(b'"index": 1', b'"index": 9007199254740992')), "limit_exceeded", "$.pages[0].index"),
    # Integer fields of array items are located at the item (their path used to lose the item's part).
    ("rotation-range", _mutated(_set(["pages", 0, "rotation"], 400)), "invalid_field", "$.pages[0].rotation"),
    ("width-type", _mutated(_set(["pages", 0, "width"], "x")), "invalid_field", "$.pages[0].width"),
    ("char-start-type", _mutated(_set(["spans", 0, "char_start"], "0")), "invalid_field", "$.spans[0].char_start"),
]


@pytest.mark.parametrize(("name", "data", "code", "path"), ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_invalid_artifact_error_codes(tmp_path: Path, name: str, data: bytes, code: str, path: str) -> None:
    artifact = _write(tmp_path, "grounding.json", data)
    exit_code, stdout, _ = grounding_check_all(artifact)
    report = json.loads(stdout)
    assert exit_code == 1, name
    assert schema_errors("grounding-validation", report) == []
    assert report["structure"] == "invalid" and report["source_binding"] == "not_checked"
    assert (report["error"]["code"], report["error"]["path"]) == (code, path)
    assert report["representation_sha256"] == "sha256:" + hashlib.sha256(data).hexdigest()

    citations = _write(tmp_path, "citations.json", _json_bytes(PDF_CLAIMS[:1]))
    # Every surface for a few cases (the envelope is the core's); the library for all of them.
    run = verify_all if name in ("bom", "duplicate-key", "offsets-wrong-text") else verify_library
    exit_code, stdout, stderr = run(artifact, citations, "ethos-grounding-json")
    assert (exit_code, stdout) == (2, b"")
    error = envelope(stderr)
    assert schema_errors("error-envelope", error) == []
    assert error["error"] == {
        "code": "invalid_input",
        "message": f"ethos-grounding-json adapter: {code}",
        "details": {"grounding_error": code, "path": path},
    }


def test_pageless_artifact_rules(tmp_path: Path) -> None:
    office = json.loads(OFFICE_EXAMPLE.read_bytes())
    cases = []
    with_page = copy.deepcopy(office)
    with_page["elements"][0]["page"] = "p1"
    cases.append((with_page, "invalid_field", "$.elements[0]"))
    with_spans = copy.deepcopy(office)
    with_spans["capabilities"]["spans"] = True
    with_spans["spans"] = []
    cases.append((with_spans, "invalid_capabilities", "$.capabilities"))
    with_pages = copy.deepcopy(office)
    with_pages["pages"] = [{"id": "p1", "index": 1, "width": 100, "height": 100, "rotation": 0}]
    cases.append((with_pages, "invalid_invariant", "$.pages"))
    old_version = copy.deepcopy(office)
    old_version["schema_version"] = "1.0.0"
    cases.append((old_version, "invalid_field", "$.source.media_type"))
    for doc, code, path in cases:
        artifact = _write(tmp_path, "artifact.json", _json_bytes(doc))
        exit_code, stdout, _ = grounding_check_all(artifact)
        report = json.loads(stdout)
        assert exit_code == 1 and (report["error"]["code"], report["error"]["path"]) == (code, path)


def test_unknown_fields_are_read_past_and_named(tmp_path: Path) -> None:
    """A field the contract does not define (a producer's `_comment`, a `confidence`, a `locator`
    on a PDF element) is read past: `grounding check` passes and names it, and so does the
    verification report (it used to be the error unknown_field; issue 23 item 8)."""
    doc = json.loads(PDF_EXAMPLE.read_bytes())
    doc["_comment"] = "fixture note"
    doc["elements"][0]["locator"] = "/p[1]"
    for element in doc["elements"]:
        element["confidence"] = 1
    artifact = _write(tmp_path, "grounding.json", _json_bytes(doc))
    names = [
        "unknown_field:$._comment",
        "unknown_field:$.elements[*].confidence",
        "unknown_field:$.elements[*].locator",
    ]
    exit_code, stdout, _ = grounding_check_all(artifact)
    report = json.loads(stdout)
    assert exit_code == 0 and schema_errors("grounding-validation", report) == []
    assert report["structure"] == "valid" and report["warnings"] == names

    citations = _write(tmp_path, "citations.json", _pinned(artifact, PDF_CLAIMS[:1]))
    code, stdout, _ = verify_all(artifact, citations, "ethos-grounding-json")
    verification = json.loads(stdout)
    assert code == 0 and schema_errors("verification-report", verification) == []
    assert verification["checks"][0]["status"] == "grounded"
    assert [w for w in verification["warnings"] if w.startswith("unknown_field:")] == names
    # Without additions, no warnings member at all (the validation report is unchanged).
    plain = _write(tmp_path, "plain.json", PDF_EXAMPLE.read_bytes())
    assert "warnings" not in json.loads(grounding_check_all(plain)[1])


def test_grounding_check_reports_counts_and_source_binding(tmp_path: Path) -> None:
    pdf = _write(tmp_path, "source.pdf", b"%PDF-1.7\n% the bytes the artifact was extracted from\n")
    doc = json.loads(PDF_EXAMPLE.read_bytes())
    doc["source"]["sha256"] = "sha256:" + hashlib.sha256(pdf.read_bytes()).hexdigest()
    artifact = _write(tmp_path, "grounding.json", _json_bytes(doc))
    other = _write(tmp_path, "other.pdf", b"%PDF-1.7\n% another file\n")

    for source_artifact, binding, exit_expected in ((None, "not_checked", 0), (pdf, "matched", 0), (other, "mismatched", 1)):
        exit_code, stdout, stderr = grounding_check_all(artifact, source_artifact)
        report = json.loads(stdout)
        assert (exit_code, stderr) == (exit_expected, b"")
        assert schema_errors("grounding-validation", report) == []
        assert report == {
            "artifact_type": "ethos.grounding_validation.v1",
            "schema_version": "1.0.0",
            "structure": "valid",
            "source_binding": binding,
            "representation_sha256": "sha256:" + hashlib.sha256(artifact.read_bytes()).hexdigest(),
            "counts": {"pages": 1, "elements": 2, "spans": 1, "tables": 1},
        }


def test_grounding_check_usage_errors(tmp_path: Path) -> None:
    import subprocess
    import sys

    from harness import ethos_core_binary

    missing = str(tmp_path / "missing.json")
    for command in ([sys.executable, "-m", "ethos_py.cli"], [ethos_core_binary()]):
        done = subprocess.run([*command, "grounding", "check", missing], capture_output=True, check=False)
        assert done.returncode == 2 and done.stdout == b""
        assert json.loads(done.stderr)["error"]["code"] == "host_io"
    outputs = set()
    for command in ([sys.executable, "-m", "ethos_py.cli"], [ethos_core_binary()]):
        done = subprocess.run([*command, "verify", str(PDF_EXAMPLE), "--citations", missing, "--grounding", "nope"],
                              capture_output=True, check=False)
        assert done.returncode == 2 and done.stdout == b""
        outputs.add(done.stderr)
        assert json.loads(done.stderr)["error"]["code"] == "invalid_arguments"
    assert len(outputs) == 1


def test_validation_example_is_the_report_of_the_artifact_example() -> None:
    from ethos_py.grounding import grounding_check_json

    assert grounding_check_json(PDF_EXAMPLE.read_bytes()) + b"\n" == (EXAMPLES / "grounding-validation.example.json").read_bytes()
