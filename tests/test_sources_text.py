"""test_sources_text - plain text and Markdown files as page-less sources (`--grounding text|markdown`)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import schema_errors
from sources_support import envelope, verify_all

import ethos_py
from ethos_py import _ffi

MARKDOWN = """# Policy handbook

Employees accrue 25 days
of paid leave per year.

## Remote work

- Remote work is allowed
  two days a week.
- Laptops are provided.
1. First numbered step

> Quality is never an accident.

| Plan | Price |
|---|---|
| Basic | $10 |

```python
print("# not a heading")
```

Setext title
============

***
Closing *emphasis* stays verbatim.
"""


def _pinned(source: Path, claims: list[dict[str, Any]]) -> bytes:
    fingerprint = "sha256:" + hashlib.sha256(source.read_bytes()).hexdigest()
    return json.dumps({"document_fingerprint": fingerprint, "claims": claims}).encode()


def _elements(path: Path, grounding: str) -> list[tuple[str, str, str]]:
    """(id, kind, text) of every element, read back through a verify of presence claims."""
    with ethos_py.Document.open(path, grounding) as document:
        count = document.describe()["counts"]["elements"]
        claims = [{"kind": "presence", "citation": {"element_id": f"e{i:06d}"}} for i in range(1, count + 1)]
        report = json.loads(document.verify_json(_pinned(path, claims)))
    return [(c["claim"]["citation"]["element_id"], c["status"], c["evidence"]["text"]) for c in report["checks"]]


def test_markdown_blocks(tmp_path: Path) -> None:
    path = tmp_path / "handbook.md"
    path.write_text(MARKDOWN, encoding="utf-8")
    texts = [text for _, _, text in _elements(path, "markdown")]
    assert texts == [
        "Policy handbook",
        "Employees accrue 25 days\nof paid leave per year.",
        "Remote work",
        "Remote work is allowed\ntwo days a week.",
        "Laptops are provided.",
        "First numbered step",
        "Quality is never an accident.",
        "| Plan | Price |\n| Basic | $10 |",
        'print("# not a heading")',
        "Setext title",
        "Closing *emphasis* stays verbatim.",
    ]


def test_plain_text_paragraphs_keep_their_lines(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(b"\xef\xbb\xbfFirst line\r\nsecond line\r\n\r\n  \t\n# not a heading\rlast\n")
    assert [text for _, _, text in _elements(path, "text")] == ["First line\nsecond line", "# not a heading\nlast"]


def handbook_source(directory: Path, grounding: str) -> Path:
    """MARKDOWN written as handbook.md or handbook.txt for the grounding loader under test."""
    source = directory / ("handbook.md" if grounding == "markdown" else "handbook.txt")
    source.write_text(MARKDOWN, encoding="utf-8")
    return source


@pytest.mark.parametrize("grounding", ["text", "markdown"])
def test_pageless_verdicts_on_every_surface(tmp_path: Path, grounding: str) -> None:
    source = handbook_source(tmp_path, grounding)
    claims = [
        {"kind": "quote", "text": "25 days of paid leave", "citation": {"element_id": "e000002"}},
        {"kind": "value", "text": "# Policy handbook" if grounding == "text" else "Policy handbook",
         "citation": {"element_id": "e000001"}},
        {"kind": "quote", "text": "30 days", "citation": {"element_id": "e000002"}},
        {"kind": "quote", "text": "Remote work", "citation": {"page": "1"}},
        {"kind": "table_cell", "text": "Basic", "citation": {"table_id": "t1", "cell": {"row": 1, "col": 0}}},
        {"kind": "presence", "citation": {"page": "1", "bbox": [0, 0, 10, 10]}},
        {"kind": "presence", "citation": {"span_id": "s1"}},
    ]
    citations = tmp_path / "citations.json"
    citations.write_bytes(_pinned(source, claims))
    code, stdout, _ = verify_all(source, citations, grounding)
    report = json.loads(stdout)
    assert code == 0 and schema_errors("verification-report", report) == []
    assert report["grounding"] == {
        "parser": {"name": f"ethos-{grounding}", "version": _ffi.version(), "adapter": grounding,
                   "adapter_version": "1.0.0"},
        "capabilities": {"spans": False, "char_offsets": False, "tables": False, "fingerprint": True,
                         "coordinate_origin": "unknown", "crop_support": False},
    }
    assert report["document_fingerprint"] == "sha256:" + hashlib.sha256(source.read_bytes()).hexdigest()
    assert report["capability_limits"] == ["missing_spans", "missing_char_offsets", "missing_tables",
                                           "unknown_coordinate_origin"]
    assert [(c["status"], c.get("reason")) for c in report["checks"]] == [
        ("grounded", None),
        ("grounded", None),
        ("mismatch", "text_mismatch"),
        ("not_found", "page_not_found"),
        ("capability_blocked", "missing_table_capability"),
        ("capability_blocked", "unknown_coordinate_origin"),
        ("capability_blocked", "missing_span_capability"),
    ]
    evidence = report["checks"][0]["evidence"]
    assert evidence == {"text": "Employees accrue 25 days\nof paid leave per year."}


@pytest.mark.parametrize(("grounding", "data", "message"), [
    ("text", b"caf\xe9\n", "text adapter: invalid UTF-8"),
    ("markdown", b"# title\n\x00\n", "markdown adapter: NUL byte in text"),
])
def test_invalid_text_is_an_adapter_error(tmp_path: Path, grounding: str, data: bytes, message: str) -> None:
    source = tmp_path / "bad.txt"
    source.write_bytes(data)
    citations = tmp_path / "citations.json"
    citations.write_bytes(b'[{"kind":"presence","citation":{"element_id":"e000001"}}]')
    code, stdout, stderr = verify_all(source, citations, grounding)
    assert (code, stdout) == (2, b"")
    error = envelope(stderr)
    assert schema_errors("error-envelope", error) == []
    assert error["error"]["code"] == "invalid_input" and error["error"]["message"] == message


def test_empty_file_has_no_elements(tmp_path: Path) -> None:
    source = tmp_path / "empty.md"
    source.write_bytes(b"\n\n")
    citations = tmp_path / "citations.json"
    citations.write_bytes(_pinned(source, [{"kind": "presence", "citation": {"element_id": "e000001"}}]))
    code, stdout, _ = verify_all(source, citations, "markdown")
    assert code == 0
    assert [(c["status"], c.get("reason")) for c in json.loads(stdout)["checks"]] == [("not_found", "element_not_found")]


@pytest.mark.parametrize("grounding", ["text", "markdown"])
def test_line_end_hyphens_read_as_a_pdf_parser_records_them(tmp_path: Path, grounding: str) -> None:
    """A hyphen that ends a line reads joined and as printed, as in a parsed PDF (issue 23 item 8);
    a dash standing alone at a line end is no break."""
    source = tmp_path / ("notes.md" if grounding == "markdown" else "notes.txt")
    source.write_text("The parser reads specifi-\ncally each well-\nknown case.\nA dash -\nstays.\n", encoding="utf-8")
    claims = [
        {"kind": "quote", "text": "reads specifically each", "citation": {"element_id": "e000001"}},
        {"kind": "quote", "text": "each well-known case", "citation": {"element_id": "e000001"}},
        {"kind": "quote", "text": "A dash stays.", "citation": {"element_id": "e000001"}},
    ]
    citations = tmp_path / "citations.json"
    citations.write_bytes(_pinned(source, claims))
    code, stdout, _ = verify_all(source, citations, grounding)
    report = json.loads(stdout)
    assert code == 0 and schema_errors("verification-report", report) == []
    assert [(c["status"], c.get("reason")) for c in report["checks"]] == [
        ("grounded", None),
        ("grounded", None),
        ("mismatch", "text_mismatch"),
    ]


@pytest.mark.parametrize("grounding", ["text", "markdown"])
def test_document_scope_searches_a_pageless_source_whole(tmp_path: Path, grounding: str) -> None:
    source = handbook_source(tmp_path, grounding)
    claims = [
        {"kind": "quote", "text": "Quality is never an accident.", "citation": {"scope": "document"}},
        {"kind": "quote", "text": "paid leave per year", "citation": {"scope": "document"}},
        {"kind": "quote", "text": "Quality is always an accident.", "citation": {"scope": "document"}},
        {"kind": "value", "text": "Laptops are provided." if grounding == "markdown" else "# Policy handbook",
         "citation": {"scope": "document"}},
    ]
    citations = tmp_path / "citations.json"
    citations.write_bytes(_pinned(source, claims))
    code, stdout, _ = verify_all(source, citations, grounding)
    report = json.loads(stdout)
    assert code == 0 and schema_errors("verification-report", report) == []
    checks = report["checks"]
    assert [c["status"] for c in checks] == ["grounded", "grounded", "mismatch", "grounded"]
    assert checks[2]["reason"] != "page_not_found"
    assert "Quality is never an accident." in checks[0]["evidence"]["text"]
    assert all("page" not in c.get("evidence", {}) for c in checks)


def test_a_quote_cited_to_the_wrong_element_says_where_it_is(tmp_path: Path) -> None:
    """Found verbatim in another element: still a mismatch, reason located_elsewhere, with that
    element as evidence (issue 23 item 7)."""
    source = tmp_path / "handbook.md"
    source.write_text(MARKDOWN, encoding="utf-8")
    claims = [
        {"kind": "quote", "text": "Quality is never an accident.", "citation": {"element_id": "e000002"}},
        {"kind": "quote", "text": "Quality is never an incident.", "citation": {"element_id": "e000002"}},
    ]
    citations = tmp_path / "citations.json"
    citations.write_bytes(_pinned(source, claims))
    code, stdout, _ = verify_all(source, citations, "markdown")
    report = json.loads(stdout)
    assert code == 0 and schema_errors("verification-report", report) == []
    elsewhere, altered = report["checks"]
    assert (elsewhere["status"], elsewhere["reason"]) == ("mismatch", "located_elsewhere")
    assert elsewhere["evidence"]["text"] == "Quality is never an accident."
    assert elsewhere["match"]["source_text"] == "Quality is never an accident."
    assert "score" not in elsewhere["match"]
    assert altered["status"] == "mismatch" and altered["reason"] != "located_elsewhere"
    assert report["all_evidence_grounded"] is False


def test_a_one_word_quote_that_grounds_carries_a_warning(tmp_path: Path) -> None:
    source = tmp_path / "notes.txt"
    source.write_text("Revenue did not grow in 2 of 3 regions.\n", encoding="utf-8")
    texts = ["not", "2", "regions.", "did not grow", "in 2 of 3"]
    claims = [{"kind": "quote", "text": t, "citation": {"element_id": "e000001"}} for t in texts]
    citations = tmp_path / "citations.json"
    citations.write_bytes(_pinned(source, claims))
    code, stdout, _ = verify_all(source, citations, "text")
    report = json.loads(stdout)
    assert code == 0 and schema_errors("verification-report", report) == []
    assert [(c["status"], c["warnings"]) for c in report["checks"]] == [
        ("grounded", ["vacuous_quote"]),
        ("grounded", ["vacuous_quote"]),
        ("grounded", ["vacuous_quote"]),
        ("grounded", []),
        ("grounded", []),
    ]
