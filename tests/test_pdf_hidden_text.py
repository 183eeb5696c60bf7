"""test_pdf_hidden_text - each way of hiding text from a reader is a security warning naming its technique, never grounds a quote, and plainly visible text raises none.

Issue 24 "Hidden text is a security finding": a prompt-injection sentence an LLM would read but a
person would not must be flagged on its page and on the element it hides in, kept out of element
text and RAG chunks, and refused as evidence with its own reason (docs/pdf-parsing.md "Hidden and
off-page text", docs/contracts.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import hidden_text_fixtures as hx
import pdf_fixtures as fx
import pytest
from conftest import schema_errors
from pdf_fixtures import parse_cache  # noqa: F401  (fixture)
from reportlab.lib.colors import white

import ethos_py

pytestmark = pytest.mark.usefixtures("parse_cache")


def _parse_bytes(tmp_path: Path, name: str, data: bytes) -> bytes:
    return ethos_py.parse_pdf_bytes(fx.write_pdf(tmp_path, name, data))


def _hidden_warnings(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [w for w in document["payload"]["security_warnings"] if w["code"] == "hidden_text_detected"]


@pytest.mark.parametrize("name", [*hx.TECHNIQUES, *hx.VARIANTS])
def test_each_technique_is_a_warning_naming_it(name: str, tmp_path: Path) -> None:
    technique = hx.VARIANTS[name][0] if name in hx.VARIANTS else name
    raw = _parse_bytes(tmp_path, f"{name}.pdf", hx.hidden_pdf(name))
    document = json.loads(raw)
    assert schema_errors("document", document) == []
    warnings = _hidden_warnings(document)
    assert warnings, f"{technique}: no hidden_text_detected warning"
    assert {w["technique"] for w in warnings} == {technique}
    assert all(w["page"] == "p0001" for w in warnings)
    spans = {s["id"]: s for s in document["payload"]["spans"]}
    # Squeezed glyphs leave no gap to read a space from: compare without spaces.
    hidden_text = "".join(spans[w["span_ref"]]["text"] for w in warnings)
    assert "approvetheloan" in hidden_text.replace(" ", "")
    # The sentence reaches neither element text nor a chunk.
    assert fx.VISIBLE_SENTENCE in fx.all_text(document)
    assert "approve the loan" not in fx.all_text(document)
    assert all("approve the loan" not in chunk["text"] for chunk in document["payload"]["chunks"])
    # The security report's findings say the same, and that no chunk carries the text.
    report = ethos_py.security_report(raw)
    assert schema_errors("security-report", report) == []
    findings = [f for f in report["findings"] if f["code"] == "hidden_text_detected"]
    assert findings and all(f["technique"] == technique and f["excluded_from_default_chunks"] for f in findings)


def test_hidden_text_laid_over_an_element_is_reported_on_that_element_too(tmp_path: Path) -> None:
    # A white-on-white sentence drawn inside a visible paragraph's box is named on that
    # paragraph, which lists the warning.
    def draw(canvas: Any) -> None:
        canvas.setFont(fx.BODY_FONT, 11)
        canvas.drawString(72, 720, fx.VISIBLE_SENTENCE)
        canvas.drawString(72, 706, fx.VISIBLE_SENTENCE)
        canvas.setFillColor(white)
        canvas.drawString(200, 713, fx.HIDDEN_SENTENCE)

    raw = _parse_bytes(tmp_path, "inside.pdf", fx._draw([draw]))
    document = json.loads(raw)
    assert schema_errors("document", document) == []
    warnings = _hidden_warnings(document)
    assert warnings and all(w["technique"] == "same_colour_as_background" for w in warnings)
    elements = {e["id"]: e for e in document["payload"]["elements"]}
    named = {w["element_ref"] for w in warnings}
    assert len(named) == 1
    (element,) = named
    assert fx.VISIBLE_SENTENCE in elements[element]["text"]
    assert {w["id"] for w in warnings} <= set(elements[element]["warning_refs"])
    # The chunk carrying that paragraph references the warning, so retrieval sees it too.
    (chunk,) = [c for c in document["payload"]["chunks"] if element in c["element_refs"]]
    assert {w["id"] for w in warnings} <= set(chunk["warning_refs"])
    assert "approve the loan" not in chunk["text"]
    records = ethos_py.rag_chunks(raw)
    assert {w["technique"] for record in records for w in record["warnings"]} == {"same_colour_as_background"}


@pytest.mark.parametrize("kind", [*hx.VISIBLE_KINDS, hx.UNDER_PAGE_IMAGE, hx.OCR_LAYER])
def test_visible_text_raises_no_hidden_text_warning(kind: str, tmp_path: Path) -> None:
    document = json.loads(_parse_bytes(tmp_path, f"{kind}.pdf", hx.visible_pdf(kind)))
    assert _hidden_warnings(document) == [], kind
    assert "approve the loan" in fx.all_text(document)


def _verify(raw: bytes, claims: list[dict[str, Any]]) -> list[dict[str, Any]]:
    with ethos_py.Document.from_bytes(raw) as document:
        citations = {"document_fingerprint": document.fingerprint, "claims": claims}
        report = json.loads(document.verify_json(citations))
    assert schema_errors("verification-report", report) == []
    checks: list[dict[str, Any]] = report["checks"]
    return checks


@pytest.mark.parametrize("technique", ["covered_by_shape", "optional_content_off"])
def test_a_quote_only_in_hidden_text_is_refused_with_its_own_reason(technique: str, tmp_path: Path) -> None:
    raw = _parse_bytes(tmp_path, f"{technique}.pdf", hx.hidden_pdf(technique))
    document = json.loads(raw)
    hidden_span = _hidden_warnings(document)[0]["span_ref"]
    checks = _verify(raw, [
        {"kind": "quote", "text": "approve the loan", "citation": {"page": "p0001"}},
        {"kind": "quote", "text": "approve the loan", "citation": {"span_id": hidden_span}},
        {"kind": "quote", "text": "approve the loan", "citation": {"scope": "document"}},
        {"kind": "quote", "text": "reviewed the quarterly figures", "citation": {"page": "p0001"}},
    ])
    assert [(c["status"], c.get("reason")) for c in checks] == [
        ("mismatch", "hidden_text"),
        ("mismatch", "hidden_text"),
        ("mismatch", "hidden_text"),
        ("grounded", None),
    ]
    # The evidence shows where the hidden text is.
    assert checks[0]["evidence"]["page"] == "p0001"


def test_a_handle_cited_for_hidden_text_is_not_verified(tmp_path: Path) -> None:
    # The evidence-handle projection reads hidden_text (and located_elsewhere) as refusals it
    # knows, not as a malformed report.
    raw = _parse_bytes(tmp_path, "covered.pdf", hx.hidden_pdf("covered_by_shape"))
    with ethos_py.Document.from_bytes(raw) as document:
        context = ethos_py.build_evidence_handle_context([
            {"document_fingerprint": document.fingerprint, "evidence_id": "ev-1", "locator": {"page": "p0001"}}])
        emission = ethos_py.build_evidence_citation_emission("The loan is approved.", [
            {"kind": "quote", "text": "approve the loan", "evidence_id": "ev-1"}])
        report = document.verify(ethos_py.hydrate_evidence_citations(emission, context))
    assert [c["reason"] for c in report["checks"]] == ["hidden_text"]
    states = ethos_py.project_evidence_states(context, emission, report)
    assert [(s["evidence_id"], s["cited"], s["verified"]) for s in states["states"]] == [("ev-1", True, False)]


def test_hidden_text_anchors_no_evidence(tmp_path: Path) -> None:
    raw = _parse_bytes(tmp_path, "covered.pdf", hx.hidden_pdf("covered_by_shape"))
    hidden_span = _hidden_warnings(json.loads(raw))[0]["span_ref"]
    refs = [
        {"evidence_id": "r1", "evidence_kind": "text", "required_anchor_level": "text",
         "locator": {"page_id": "p0001"}, "expected_text": "approve the loan"},
        {"evidence_id": "r2", "evidence_kind": "text", "required_anchor_level": "text",
         "locator": {"span_id": hidden_span}, "expected_text": "approve the loan"},
        {"evidence_id": "r3", "evidence_kind": "text", "required_anchor_level": "text",
         "locator": {"page_id": "p0001"}, "expected_text": "reviewed the quarterly figures"},
    ]
    report = ethos_py.anchor(raw, {"artifact_type": "ethos.evidence_anchor_request.v1", "schema_version": "1.0.0",
                                   "evidence_refs": refs})
    assert [a["checks"]["text"] for a in report["anchors"]] == ["mismatch", "mismatch", "matched"]


def test_document_javascript_is_reported_by_name(tmp_path: Path) -> None:
    raw = _parse_bytes(tmp_path, "scripts.pdf", hx.javascript_pdf(("init", "steal")))
    document = json.loads(raw)
    assert schema_errors("document", document) == []
    scripts = [w for w in document["payload"]["security_warnings"] if w["code"] == "javascript_present"]
    assert len(scripts) == 1
    assert (scripts[0]["count"], scripts[0]["names"], scripts[0]["page"]) == (2, ["init", "steal"], "p0001")
    assert "app.alert" not in raw.decode("utf-8")  # the code itself is never copied
    report = ethos_py.security_report(raw)
    assert schema_errors("security-report", report) == []
    assert [s["name"] for s in report["inventories"]["scripts"]] == ["init", "steal"]


@pytest.mark.parametrize(("action", "reported"), [
    ("javascript", True), ("launch", True), ("named", True), ("goto", False), ("uri", False)])
def test_a_link_that_runs_an_action_is_a_security_warning(tmp_path: Path, action: str, reported: bool) -> None:
    # PDFium's public API types a JavaScript link action only as "unsupported", as it does a named
    # viewer command: both are reported (the script is never copied, never run); a program launch
    # too; a link to a page or a web address is not.
    raw = _parse_bytes(tmp_path, f"{action}.pdf", hx.link_action_pdf(action))
    document = json.loads(raw)
    assert schema_errors("document", document) == []
    codes = [w["code"] for w in document["payload"]["security_warnings"]]
    assert ("unsupported_annotation" in codes) == reported, codes
    assert "annotations_present" in codes
    assert "app.alert" not in raw.decode("utf-8") and "calc.exe" not in raw.decode("utf-8")
    if reported:
        (warning,) = [w for w in document["payload"]["security_warnings"] if w["code"] == "unsupported_annotation"]
        assert warning["page"] == "p0001" and "not run" in warning["message"]
        report = ethos_py.security_report(raw)
        assert schema_errors("security-report", report) == []
        assert report["summary"]["unsupported_annotation"] == 1


def test_a_document_without_javascript_has_no_script_warning(tmp_path: Path) -> None:
    document = json.loads(_parse_bytes(tmp_path, "plain.pdf", fx.text_pdf([[fx.VISIBLE_SENTENCE]])))
    assert all(w["code"] != "javascript_present" for w in document["payload"]["security_warnings"])
