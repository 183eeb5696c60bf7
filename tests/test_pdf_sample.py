"""test_pdf_sample - the bundled sample PDF, its pinned citations and `ethos demo` stay current and true.

When the parser's output changes, the citations' fingerprint goes stale and these tests say how to
refresh them (`python examples/sample/make_sample.py`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pdf_fixtures as fx
import pytest
from conftest import REPO_DIR, schema_errors
from pdf_fixtures import parse_cache  # noqa: F401  (fixture)

import ethos_py
from ethos_py.demo import SAMPLE_CITATIONS, SAMPLE_PDF

SAMPLE_DIR = REPO_DIR / "examples" / "sample"
sys.path.insert(0, str(SAMPLE_DIR))
import make_sample  # noqa: E402

REFRESH = "run `python examples/sample/make_sample.py` and commit the sample files it rewrites"

pytestmark = pytest.mark.usefixtures("parse_cache")


@pytest.fixture(scope="module")
def sample_document() -> dict[str, Any]:
    document: dict[str, Any] = ethos_py.parse_pdf_json(SAMPLE_PDF, use_cache=False)
    return document


def test_the_committed_sample_is_what_the_generator_writes() -> None:
    pdf = make_sample.build_pdf()
    assert (SAMPLE_DIR / "sample.pdf").read_bytes() == pdf, REFRESH
    assert SAMPLE_PDF.read_bytes() == pdf, REFRESH
    assert SAMPLE_CITATIONS.read_bytes() == (SAMPLE_DIR / "citations.json").read_bytes(), REFRESH


def test_the_citations_are_pinned_to_the_current_parse(sample_document: dict[str, Any]) -> None:
    citations = json.loads(SAMPLE_CITATIONS.read_bytes())
    assert schema_errors("citations", citations) == []
    assert citations["document_fingerprint"] == sample_document["fingerprint"], (
        f"the parser's output changed, so the sample citations are stale: {REFRESH}"
    )
    assert make_sample._canonical(make_sample.build_citations(sample_document)) == SAMPLE_CITATIONS.read_bytes(), REFRESH


def test_the_sample_has_the_structure_it_was_drawn_with(sample_document: dict[str, Any]) -> None:
    payload = sample_document["payload"]
    assert [page["id"] for page in payload["pages"]] == ["p0001", "p0002", "p0003"]
    for number, page in enumerate(("p0001", "p0002", "p0003"), start=1):
        on_page = [e for e in payload["elements"] if e["page"] == page]
        assert [e["text"] for e in on_page if e["type"] == "header"] == [make_sample.RUNNING_HEADER]
        assert [e["text"] for e in on_page if e["type"] == "footer"] == [f"Page {number}"]
    headings = fx.element_texts(sample_document, "heading")
    assert headings == [make_sample.TITLE, "1. Summary", "2. Results by region", "3. Method", "4. Next steps"]
    assert len(fx.element_texts(sample_document, "list_item")) == 3
    (table,) = payload["tables"]
    assert (table["n_rows"], table["n_cols"]) == (len(make_sample.TABLE_ROWS), len(make_sample.TABLE_ROWS[0]))
    cells = {(c["row"], c["col"]): c["text"] for c in table["cells"]}
    assert [[cells[(r, c)] for c in range(4)] for r in range(4)] == [list(row) for row in make_sample.TABLE_ROWS]
    # Page 2 is two columns: the left column's last paragraph comes before the right column's first.
    text = " ".join(fx.all_text(sample_document).split())
    assert text.index("Costs cover the queue licence") < text.index("Three agents left the service desk")
    assert "assess- ment" in text


def test_demo_prints_what_verify_prints_and_catches_the_altered_quotes(tmp_path: Path) -> None:
    out_dir = tmp_path / "demo"
    demo = fx.run_program([sys.executable, "-m", "ethos_py.cli", "demo", "--out-dir", str(out_dir)])
    assert (demo.returncode, demo.stderr) == (0, b"")
    assert (out_dir / "sample.pdf").read_bytes() == SAMPLE_PDF.read_bytes()
    verify = fx.run_program(
        [
            sys.executable,
            "-m",
            "ethos_py.cli",
            "verify",
            str(out_dir / "document.json"),
            "--citations",
            str(out_dir / "citations.json"),
            "--format",
            "summary",
        ]
    )
    assert verify.returncode == 0
    # The summary verify prints, then the path of the HTML evidence report the demo wrote ...
    page = out_dir / "report.html"
    assert demo.stdout == verify.stdout + f"\nHTML evidence report: {page.resolve()}\n".encode()
    # ... which is the page `ethos report html` writes from the demo's files, page images included.
    html = fx.run_program([sys.executable, "-m", "ethos_py.cli", "report", "html", str(out_dir / "report.json"),
                           "--pdf", str(out_dir / "sample.pdf")])
    assert html.returncode == 0 and html.stdout == page.read_bytes()
    assert page.read_bytes().count(b'<article class="check') == 6 and b"data:image/png;base64," in page.read_bytes()
    report = json.loads((out_dir / "report.json").read_bytes())
    assert report["fingerprint_stale"] is False
    expected = {
        make_sample.GROUNDED_SUMMARY: "grounded",
        make_sample.GROUNDED_METHOD: "grounded",
        make_sample.GROUNDED_NEXT_STEP: "grounded",
        "2,984": "grounded",
        make_sample.ALTERED_SUMMARY: "mismatch",
        make_sample.FABRICATED_CLAIM: "mismatch",
    }
    statuses = {check["claim"]["text"]: check["status"] for check in report["checks"]}
    assert statuses == expected
    assert b"all_evidence_grounded: false" in demo.stdout


def test_demo_without_out_dir_writes_only_the_html_report_into_a_new_directory() -> None:
    demo = fx.run_program([sys.executable, "-m", "ethos_py.cli", "demo"])
    assert (demo.returncode, demo.stderr) == (0, b"")
    last = demo.stdout.decode("utf-8").splitlines()[-1]
    assert last.startswith("HTML evidence report: ")
    page = Path(last.removeprefix("HTML evidence report: "))
    try:
        assert page.is_absolute() and page.name == "report.html" and page.parent.name.startswith("ethos-demo-")
        assert sorted(p.name for p in page.parent.iterdir()) == ["report.html"]
        assert page.read_bytes().startswith(b"<!DOCTYPE html>")
    finally:
        page.unlink()
        page.parent.rmdir()


def test_the_readme_python_example_gives_what_it_says() -> None:
    # README.md "From a PDF, in Python": four grounded, two not -> partially_verified.
    document_json = ethos_py.parse_pdf_bytes(SAMPLE_PDF)
    with ethos_py.Document.from_bytes(document_json) as document:
        report = document.verify(SAMPLE_CITATIONS)
    assert ethos_py.proof_summary(report)["proof_status"] == "partially_verified"
