"""test_report_html - ethos report html: one self-contained page (a CSP, no URL, inline images) with the summary, the release decision and every check (guards, diff, stitched fragments) beside its page region, the highlight rectangles being the report's boxes grouped by line over dark glyph pixels; hostile claim text escaped and bounded; the same inputs give the same bytes; text only without a PDF; wrong inputs refused with nothing written."""

from __future__ import annotations

import base64
import html
import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import harness
import pytest
from PIL import Image

import ethos_py
from ethos_py.demo import SAMPLE_CITATIONS, SAMPLE_PDF
from ethos_py.report_html import CONTENT_SECURITY_POLICY, MAX_SIDE_PX, SCALE, line_rectangles, render_report_html

REPO = Path(__file__).resolve().parents[1]
ETHOS = [sys.executable, "-m", "ethos_py.cli"]

#: Claims a hostile answer could carry: markup, a remote image, bidi overrides, zero-width
#: characters, a control character and a megabyte string.
HOSTILE = [
    '<script>alert("x")</script><img src="http://127.0.0.1:9/leak.png">',
    "Median time \u202egnirahs\u202c to\u200b resolution \u0007",
    "A" * 1_000_000,
]
#: A stitched quotation: two fragments of the sample with an elision between them.
STITCHED = "Median time to resolution fell ... to 6.1 days"


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*ETHOS, *args], cwd=cwd, capture_output=True, text=True, timeout=harness.SUBPROCESS_TIMEOUT,
                          check=False)


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    directory = tmp_path_factory.mktemp("report-html")
    shutil.copyfile(SAMPLE_PDF, directory / "sample.pdf")
    document = ethos_py.parse_pdf_bytes(SAMPLE_PDF)
    (directory / "document.json").write_bytes(document)
    claims = json.loads(SAMPLE_CITATIONS.read_text(encoding="utf-8"))["claims"]
    claims += [{"kind": "quote", "text": STITCHED, "citation": {"page": "p0001"}}]
    claims += [{"kind": "quote", "text": text, "citation": {"page": "p0001"}} for text in HOSTILE]
    with ethos_py.Document.from_bytes(document) as opened:
        report = opened.verify_json({"document_fingerprint": opened.fingerprint, "claims": claims})
    (directory / "report.json").write_bytes(report)
    decision = ethos_py.app_answer_release_decision(
        "How did the pilot do?", report,
        [{"id": "c1", "text": "Resolution fell to 6.1 days", "check_ids": ["v0001"], "question_relevance": "direct_answer",
          "claim_type": "source_fact", "claim_support": "supported"},
         {"id": "c2", "text": "<b>bold</b> claim", "check_ids": ["v0005"], "question_relevance": "direct_answer",
          "claim_type": "source_fact", "claim_support": "supported"}])
    (directory / "decision.json").write_text(json.dumps(decision), encoding="utf-8")
    done = _run("report", "html", "report.json", "--pdf", "sample.pdf", "--decision", "decision.json", "--out", "report.html",
                cwd=directory)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    return {"dir": directory, "report": json.loads(report), "document": json.loads(document),
            "html": (directory / "report.html").read_text(encoding="utf-8")}


def _articles(page: str) -> list[str]:
    return re.findall(r'<article class="check.*?</article>', page, flags=re.S)


def test_one_entry_per_check_with_its_facts(sample: dict[str, Any]) -> None:
    page, checks = sample["html"], sample["report"]["checks"]
    articles = _articles(page)
    assert len(articles) == len(checks)
    for check, article in zip(checks, articles):
        assert f'data-check-id="{check["id"]}"' in article and f'data-status="{check["status"]}"' in article
        if check.get("reason"):
            assert f"<code>{check['reason']}</code>" in article
    # The figure the numeric guard caught, its diff, and the stitched quotation's elided text.
    [guarded] = [a for a, c in zip(articles, checks) if c.get("reason") == "numeric_guard"]
    assert "figure changed: source &quot;6.1&quot;, quote &quot;3.1&quot;" in guarded
    assert '<del title="only in the document">6.1</del>' in guarded and '<ins title="only in the claim">3.1</ins>' in guarded
    [stitched] = [a for a, c in zip(articles, checks) if c.get("reason") == "stitched_quotation"]
    [elided] = [f["elided"] for c in checks if c.get("reason") == "stitched_quotation" for f in c["match"]["fragments"]
                if f.get("elided")]
    assert "elided from the document" in stitched and html.escape(elided, quote=True).replace("&#x27;", "&#39;") in stitched
    grounded = [a for a, c in zip(articles, checks) if c["status"] == "grounded" and c["claim"]["kind"] == "quote"]
    assert grounded and all("<code>exact</code>" in a or "<code>whitespace</code>" in a for a in grounded)


def test_summary_and_decision_are_shown(sample: dict[str, Any]) -> None:
    page = sample["html"]
    summary = ethos_py.proof_summary(sample["report"])
    assert f"<strong>{summary['proof_status']}</strong>" in page
    assert '<section id="decision">' in page and "How did the pilot do?" in page
    assert "&lt;b&gt;bold&lt;/b&gt; claim" in page and "<b>bold</b>" not in page
    assert page.index('id="summary"') < page.index('id="decision"') < page.index('id="checks"')


def test_the_page_is_self_contained_with_a_strict_policy(sample: dict[str, Any]) -> None:
    page = sample["html"]
    assert f'<meta http-equiv="Content-Security-Policy" content="{CONTENT_SECURITY_POLICY}">' in page
    assert "default-src 'none'" in CONTENT_SECURITY_POLICY and "'unsafe-inline'" not in CONTENT_SECURITY_POLICY
    # Not even as text: a URL in a claim is written with its colon as a character reference.
    assert "http://" not in page and "https://" not in page and "http&#58;//127.0.0.1:9/leak.png" in page
    sources = re.findall(r'\b(?:src|href)="([^"]*)"', page)
    assert sources and all(s.startswith(("data:image/png;base64,", "#")) for s in sources)
    # Exactly the page's own style and script, whose hashes the policy names.
    assert page.count("<script>") == 1 and page.count("<style>") == 1


def test_hostile_text_is_escaped_and_bounded(sample: dict[str, Any]) -> None:
    page = sample["html"]
    assert "<script>alert" not in page and '<img src="http' not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=&quot;http&#58;//" in page  # the text, escaped
    for invisible in ("\u202e", "\u202c", "\u200b", "\u0007"):
        assert invisible not in page
    assert "U+202E" in page and "U+200B" in page and "\ufffd" in page
    assert "more characters" in page
    # The megabyte claim is shown clipped: the page stays far smaller than the claim appears in it.
    assert page.count("A" * 2001) == 0 and len(page.encode("utf-8")) < 1_000_000 + 3 * 1_000_000 // 10


def test_hostile_markup_stays_text_in_its_entry(sample: dict[str, Any]) -> None:
    article = next(a for a, c in zip(_articles(sample["html"]), sample["report"]["checks"]) if "leak.png" in c["claim"]["text"])
    assert "leak.png" in article and "<img" not in article.split('<div class="frame">')[0]


def test_highlights_are_the_boxes_grouped_by_line_over_dark_glyphs(sample: dict[str, Any]) -> None:
    checks, page = sample["report"]["checks"], sample["html"]
    articles = _articles(page)
    seen = 0
    for check, article in zip(checks, articles):
        boxes = [b["bbox"] for b in (check.get("match") or {}).get("boxes") or []]
        if check["status"] != "grounded" or not boxes:
            continue
        drawn = [list(map(int, m.split(","))) for m in re.findall(r'<rect class="line[^"]*"[^>]*data-box="([^"]+)"', article)]
        assert drawn == line_rectangles(boxes)
        assert len({(line[1], line[3]) for line in drawn}) == len(drawn)  # one rectangle per line
        [png] = re.findall(r'src="data:image/png;base64,([^"]+)"', article)
        image = Image.open(io.BytesIO(base64.b64decode(png))).convert("L")
        region = [int(v) for v in re.search(r'data-region="([^"]+)"', article).group(1).split(",")]  # type: ignore[union-attr]
        rects = re.findall(r'<rect class="line[^"]*" x="(\d+)" y="(\d+)" width="(\d+)" height="(\d+)"', article)
        for (x, y, w, h), line in zip(rects, drawn):
            assert abs(int(x) - round(line[0] * SCALE / 100)) <= 1 and abs(int(y) - round((line[1] - region[1]) * SCALE / 100)) <= 1
            inside = image.crop((int(x), int(y), int(x) + int(w), int(y) + int(h)))
            dark = sum(1 for p in inside.get_flattened_data() if p < 100)
            assert dark > 0.05 * int(w) * int(h), (check["id"], line)  # ink: the rectangle lies over glyphs
        seen += 1
    assert seen >= 3


def test_the_same_inputs_give_the_same_bytes(sample: dict[str, Any]) -> None:
    done = _run("report", "html", "report.json", "--pdf", "sample.pdf", "--decision", "decision.json", "--out", "again.html",
                cwd=sample["dir"])
    assert done.returncode == 0, done.stderr
    assert (sample["dir"] / "again.html").read_bytes() == (sample["dir"] / "report.html").read_bytes()
    with_source = render_report_html(sample["dir"] / "report.json", source=sample["dir"] / "document.json",
                                      pdf=sample["dir"] / "sample.pdf", decision=sample["dir"] / "decision.json")
    assert with_source.encode("utf-8") == (sample["dir"] / "report.html").read_bytes()


def test_without_a_pdf_the_evidence_is_text_and_the_page_says_so(sample: dict[str, Any]) -> None:
    done = _run("report", "html", "report.json", "--source", "document.json", cwd=sample["dir"])
    assert done.returncode == 0, done.stderr
    page = done.stdout
    assert "No PDF was given" in page and "data:image/png" not in page
    assert len(_articles(page)) == len(sample["report"]["checks"])
    assert "lines at <code>[" in page
    bare = _run("report", "html", "report.json", cwd=sample["dir"]).stdout
    assert "Neither the parsed document" in bare and len(_articles(bare)) == len(sample["report"]["checks"])


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["report", "html", str(REPO / "examples/quickstart/expected-report.json"), "--pdf", "sample.pdf"], "source_mismatch"),
        (["report", "html", "report.json", "--decision", "report.json"], "invalid_input"),
        (["report", "html", "sample.pdf"], "invalid_input"),
        (["report", "html", "missing.json"], "host_io"),
        (["report", "html", "report.json", "--pdf", "missing.pdf"], "host_io"),
    ],
)
def test_wrong_inputs_are_refused_and_nothing_is_written(sample: dict[str, Any], args: list[str], code: str) -> None:
    done = _run(*args, "--out", "wrong.html", cwd=sample["dir"])
    assert done.returncode == 2 and json.loads(done.stderr)["error"]["code"] == code, done.stderr
    assert done.stdout == "" and not (sample["dir"] / "wrong.html").exists()


def test_a_pdf_that_is_not_the_documents_source_is_refused(sample: dict[str, Any]) -> None:
    (sample["dir"] / "other.pdf").write_bytes(SAMPLE_PDF.read_bytes() + b"\n% another file\n")
    done = _run("report", "html", "report.json", "--source", "document.json", "--pdf", "other.pdf", "--out", "other.html",
                cwd=sample["dir"])
    error = json.loads(done.stderr)["error"]
    assert done.returncode == 2 and error["code"] == "source_mismatch" and error["details"]["argument"] == "--pdf", done.stderr
    assert not (sample["dir"] / "other.html").exists()


def test_a_pdf_pdfium_cannot_open_is_a_corrupt_pdf_error(sample: dict[str, Any]) -> None:
    # A document without the source's hash says the report is about it, but the "PDF" is no PDF:
    # rendering fails in the child.
    (sample["dir"] / "broken.pdf").write_bytes(b"%PDF-1.7\n" + b"\x00" * 64)
    document = dict(sample["document"])
    del document["source"]
    (sample["dir"] / "unsourced.json").write_text(json.dumps(document), encoding="utf-8")
    done = _run("report", "html", "report.json", "--source", "unsourced.json", "--pdf", "broken.pdf", "--out", "broken.html",
                cwd=sample["dir"])
    assert done.returncode != 0 and json.loads(done.stderr)["error"]["code"] == "corrupt_pdf", done.stderr
    assert not (sample["dir"] / "broken.html").exists()


def test_line_rectangles_join_boxes_that_share_a_line() -> None:
    assert line_rectangles([[300, 0, 400, 10], [100, 1, 200, 11], [100, 30, 150, 40]]) == [[100, 0, 400, 11], [100, 30, 150, 40]]
    assert line_rectangles([]) == []


def _turned_pdf() -> bytes:
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=0)
    canvas.setPageRotation(90)
    canvas.setFont("Helvetica", 14)
    canvas.drawString(72, 400, "The turned page says the audit closed on time.")
    canvas.drawString(72, 300, "Another line far below, not quoted.")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_a_turned_page_is_shown_as_displayed_with_the_highlight_over_the_words(tmp_path: Path) -> None:
    pdf = tmp_path / "turned.pdf"
    pdf.write_bytes(_turned_pdf())
    document = ethos_py.parse_pdf_bytes(pdf)
    with ethos_py.Document.from_bytes(document) as opened:
        report = opened.verify_json({"document_fingerprint": opened.fingerprint,
                                     "claims": [{"kind": "quote", "text": "the audit closed on time", "citation": {"page": "p0001"}}]})
    page = render_report_html(report, source=document, pdf=pdf)
    [article] = _articles(page)
    [png] = re.findall(r'src="data:image/png;base64,([^"]+)"', article)
    image = Image.open(io.BytesIO(base64.b64decode(png))).convert("L")
    [(x, y, w, h)] = re.findall(r'<rect class="line[^"]*" x="(\d+)" y="(\d+)" width="(\d+)" height="(\d+)"', article)
    inside = image.crop((int(x), int(y), int(x) + int(w), int(y) + int(h)))
    # Drawn along x in user space, the words run down the page as displayed (turned by its /Rotate):
    # so does the parser's display space, and so does the image: a tall, narrow rectangle with ink inside.
    assert int(h) > 4 * int(w)
    (tmp_path / "region.png").write_bytes(base64.b64decode(png))
    assert sum(1 for p in inside.get_flattened_data() if p < 100) > 0.05 * int(w) * int(h)


def _huge_pdf() -> bytes:
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(10_000, 3_000), invariant=1, pageCompression=0)
    canvas.setFont("Helvetica", 120)
    canvas.drawString(500, 2_000, "A poster sized page says the audit closed on time.")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_a_huge_page_is_rendered_smaller_with_its_highlight_in_place(tmp_path: Path) -> None:
    pdf = tmp_path / "huge.pdf"
    pdf.write_bytes(_huge_pdf())
    document = ethos_py.parse_pdf_bytes(pdf)
    with ethos_py.Document.from_bytes(document) as opened:
        report = opened.verify_json({"document_fingerprint": opened.fingerprint,
                                     "claims": [{"kind": "quote", "text": "the audit closed on time", "citation": {"page": "p0001"}}]})
    page = render_report_html(report, source=document, pdf=pdf)
    [width, height] = [int(v) for v in re.search(r'<figure class="page-figure"[^>]*>.*?<img [^>]* width="(\d+)" height="(\d+)"',  # type: ignore[union-attr]
                                                  page, flags=re.S).groups()]
    assert (width, height) == (MAX_SIDE_PX, 1200)  # 10,000 pt at 0.4 px/pt, not 15,000 px at 1.5
    [article] = _articles(page)
    [png] = re.findall(r'src="data:image/png;base64,([^"]+)"', article)
    image = Image.open(io.BytesIO(base64.b64decode(png))).convert("L")
    [(x, y, w, h)] = re.findall(r'<rect class="line[^"]*" x="(\d+)" y="(\d+)" width="(\d+)" height="(\d+)"', article)
    inside = image.crop((int(x), int(y), int(x) + int(w), int(y) + int(h)))
    assert sum(1 for p in inside.get_flattened_data() if p < 100) > 0.05 * int(w) * int(h)

    # A document that understates the page (no source hash to catch it): the child refuses to render.
    forged = json.loads(document)
    del forged["source"]
    for listed in forged["payload"]["pages"]:
        listed["width"], listed["height"] = 59_528, 17_858
    with pytest.raises(ethos_py.EthosError) as caught:
        render_report_html(report, source=forged, pdf=pdf)
    assert caught.value.code == "input_limit_exceeded"
