"""make_sample - writes the sample report PDF that `ethos demo` parses, and the citations pinned to it.

Run from anywhere: `python examples/sample/make_sample.py`. It writes sample.pdf and
citations.json here and the same two files into the package (ethos_py/data/sample.pdf and
sample-citations.json), so `ethos demo` works from an installed wheel. The PDF is deterministic
(reportlab invariant mode: fixed dates and document id); the citations carry the fingerprint of
the document that ethos-core parses from it, so run this again whenever the parser's output
changes (tests/test_pdf_sample.py says so when it does).

The report is three US Letter pages: a title, numbered headings, paragraphs, a ruled table with a
caption, a two-column section (page 2) with a word hyphenated at a line end, a bulleted list, and
a running header and footer with page numbers.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from reportlab.lib.pagesizes import LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import (
    BaseDocTemplate,
    Frame,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
PACKAGE_DATA = REPO / "ethos_py" / "data"

TITLE = "Helpdesk Modernisation Pilot"
RUNNING_HEADER = "Helpdesk Modernisation Pilot \u2014 Final report"

BODY = ParagraphStyle("body", fontName="Helvetica", fontSize=10.5, leading=14, spaceAfter=8)
TITLE_STYLE = ParagraphStyle("title", fontName="Helvetica-Bold", fontSize=22, leading=28, spaceAfter=6)
META = ParagraphStyle("meta", fontName="Helvetica-Oblique", fontSize=10, leading=13, spaceAfter=18)
HEADING = ParagraphStyle("heading", fontName="Helvetica-Bold", fontSize=14, leading=18, spaceBefore=10, spaceAfter=6)
CAPTION = ParagraphStyle("caption", fontName="Helvetica-Oblique", fontSize=9, leading=12, spaceBefore=4)
BULLET = ParagraphStyle("bullet", parent=BODY, leftIndent=18, bulletIndent=6, spaceAfter=4)

#: The ruled table on page 1 (header row first).
TABLE_ROWS = (
    ("Region", "Tickets", "Resolved", "Median days"),
    ("North", "3,120", "2,984", "5.8"),
    ("South", "2,460", "2,311", "6.4"),
    ("West", "1,905", "1,872", "6.0"),
)

# The quotes the citations use; each sentence appears once, on one line range of one paragraph.
GROUNDED_SUMMARY = "Median time to resolution fell from 9.2 days to 6.1 days"
ALTERED_SUMMARY = "Median time to resolution fell from 9.2 days to 3.1 days"
GROUNDED_METHOD = "Agents in the pilot regions used the new triage queue for every incoming ticket"
GROUNDED_NEXT_STEP = "Extend the pilot to the two remaining regions before the end of the year"
FABRICATED_CLAIM = "The pilot eliminated the support backlog in every region"


def _decorate_page(canvas, document) -> None:  # type: ignore[no-untyped-def]
    """Running header and footer, identical on every page but for the page number."""
    canvas.saveState()
    canvas.setFont("Helvetica", 8.5)
    canvas.drawString(inch, LETTER[1] - 0.6 * inch, RUNNING_HEADER)
    canvas.setLineWidth(0.5)
    canvas.line(inch, LETTER[1] - 0.68 * inch, LETTER[0] - inch, LETTER[1] - 0.68 * inch)
    canvas.drawRightString(LETTER[0] - inch, 0.55 * inch, f"Page {document.page}")
    canvas.restoreState()


def _story() -> list:  # type: ignore[type-arg]
    table = Table(TABLE_ROWS, colWidths=[1.5 * inch, 1.1 * inch, 1.1 * inch, 1.2 * inch])
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.75, "black"),
                ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 10),
                ("FONT", (0, 1), (-1, -1), "Helvetica", 10),
                ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
                ("TOPPADDING", (0, 0), (-1, -1), 4),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
            ]
        )
    )
    method_paragraphs = [
        f"{GROUNDED_METHOD}. The queue ranks tickets by customer impact and age, and routes each "
        "one to the agent group that closed similar tickets fastest during the previous quarter.",
        "Before the pilot, every region kept its own spreadsheet of open tickets and escalations. "
        "The pilot replaced the spreadsheets with one shared queue and a weekly review of the "
        "oldest twenty tickets in each region.",
        "We compared the twelve weeks before the change with the twelve weeks after it. Tickets "
        "opened before the change but closed after it were counted in the earlier period, so the "
        "comparison does not flatter the new queue. An independent assess-<br/>ment of a random "
        "sample of 200 closed tickets confirmed that the closure codes were used consistently.",
        "Customer satisfaction was measured with the existing one-question survey sent after each "
        "closed ticket. Response rates stayed between 21 and 24 percent in both periods, which "
        "makes the two periods comparable.",
        "Agent workload was measured as open tickets per agent at the end of each working day. "
        "The median fell in all three regions, most in the North, where the backlog had been "
        "largest at the start.",
        "Costs cover the queue licence, two days of training per agent and the analyst time spent "
        "on the weekly reviews. They do not include the time agents spent learning the new tool "
        "on the job, which we could not measure reliably.",
        "Escalations were counted when a ticket left the first agent group it was routed to. The "
        "share of escalated tickets fell from 18 to 12 percent, mostly because fewer tickets were "
        "routed to the wrong group in the first place.",
        "Reopened tickets were counted against the period in which they were first closed. The "
        "reopening rate stayed at about four percent, so faster closure did not come from closing "
        "tickets too early.",
        "Three agents left the service desk during the pilot and were replaced within two weeks. "
        "Their tickets were reassigned through the queue like any other ticket, and they are "
        "included in every figure above.",
        "The analysis scripts and the anonymised ticket extract are kept with the board paper, so "
        "every figure in this report can be recomputed from the same data.",
    ]
    story = [
        Paragraph(TITLE, TITLE_STYLE),
        Paragraph("Prepared for the operations board, March 2025", META),
        Paragraph("1. Summary", HEADING),
        Paragraph(
            f"The pilot ran for twelve weeks in three regions. {GROUNDED_SUMMARY}, while the "
            "number of tickets per week stayed within five percent of the previous quarter.",
            BODY,
        ),
        Paragraph(
            "Customer satisfaction rose from 71 to 78 percent. The board is asked to approve the "
            "next steps in section 4.",
            BODY,
        ),
        Paragraph("2. Results by region", HEADING),
        Paragraph("Table 1 shows the tickets opened and resolved in each region during the pilot.", BODY),
        table,
        Paragraph("Table 1: Tickets opened and resolved by region, twelve weeks.", CAPTION),
        NextPageTemplate("two-columns"),
        PageBreak(),
        Paragraph("3. Method", HEADING),
        *[Paragraph(text, BODY) for text in method_paragraphs],
        NextPageTemplate("one-column"),
        PageBreak(),
        Paragraph("4. Next steps", HEADING),
        Paragraph("The project team recommends three steps:", BODY),
        Paragraph(f"{GROUNDED_NEXT_STEP}.", BULLET, bulletText="\u2022"),
        Paragraph("Publish the queue rules so that agents can see why a ticket was routed to them.", BULLET, bulletText="\u2022"),
        Paragraph("Review the survey wording with the customer panel.", BULLET, bulletText="\u2022"),
        Spacer(1, 8),
        Paragraph("The budget for these steps is set out in the appendix to the board paper.", BODY),
    ]
    return story


def build_pdf() -> bytes:
    """The sample PDF's bytes; the same bytes on every run (reportlab invariant mode)."""
    buffer = io.BytesIO()
    margin = inch
    width, height = LETTER
    body_height = height - 2 * margin - 0.2 * inch
    document = BaseDocTemplate(
        buffer,
        pagesize=LETTER,
        invariant=1,
        title=TITLE,
        author="Ethos sample",
        leftMargin=margin,
        rightMargin=margin,
        topMargin=margin,
        bottomMargin=margin,
    )
    gutter = 0.3 * inch
    column = (width - 2 * margin - gutter) / 2
    document.addPageTemplates(
        [
            PageTemplate(
                "one-column",
                [Frame(margin, margin, width - 2 * margin, body_height, id="body")],
                onPage=_decorate_page,
            ),
            PageTemplate(
                "two-columns",
                [
                    Frame(margin, margin, column, body_height, id="left"),
                    Frame(margin + column + gutter, margin, column, body_height, id="right"),
                ],
                onPage=_decorate_page,
            ),
        ]
    )
    document.build(_story())
    return buffer.getvalue()


def _element_containing(document: dict, text: str) -> str:  # type: ignore[type-arg]
    """The id of the one element whose text contains ``text`` (after joining its lines)."""
    found = [e["id"] for e in document["payload"]["elements"] if text in " ".join(e.get("text", "").split())]
    if len(found) != 1:
        raise SystemExit(f"make_sample: expected one element containing {text!r}, found {found}")
    return found[0]


def build_citations(document: dict) -> dict:  # type: ignore[type-arg]
    """The citations of an AI answer about the sample: four grounded, one altered, one fabricated."""
    first_page = document["payload"]["pages"][0]["id"]
    claims = [
        {"kind": "quote", "text": GROUNDED_SUMMARY, "citation": {"page": first_page}},
        {"kind": "quote", "text": GROUNDED_METHOD, "citation": {"element_id": _element_containing(document, GROUNDED_METHOD)}},
        {
            "kind": "quote",
            "text": GROUNDED_NEXT_STEP,
            "citation": {"element_id": _element_containing(document, GROUNDED_NEXT_STEP)},
        },
        {"kind": "quote", "text": ALTERED_SUMMARY, "citation": {"page": first_page}},
        {"kind": "quote", "text": FABRICATED_CLAIM, "citation": {"element_id": _element_containing(document, GROUNDED_SUMMARY)}},
    ]
    tables = document["payload"]["tables"]
    if not tables:
        print("make_sample: the parser found no table; the table_cell citation is left out", file=sys.stderr)
    else:
        table = tables[0]
        north_resolved = [c for c in table["cells"] if c["text"] == "2,984"]
        if len(north_resolved) == 1:
            cell = north_resolved[0]
            claims.insert(
                3,
                {
                    "kind": "table_cell",
                    "text": "2,984",
                    "citation": {"table_id": table["id"], "cell": {"row": cell["row"], "col": cell["col"]}},
                },
            )
    return {"document_fingerprint": document["fingerprint"], "claims": claims}


def _canonical(value: object) -> bytes:
    return json.dumps(value, indent=2, ensure_ascii=False).encode("utf-8") + b"\n"


def main() -> int:
    sys.path.insert(0, str(REPO))
    import ethos_py

    pdf = build_pdf()
    targets = [(HERE / "sample.pdf", HERE / "citations.json"), (PACKAGE_DATA / "sample.pdf", PACKAGE_DATA / "sample-citations.json")]
    PACKAGE_DATA.mkdir(parents=True, exist_ok=True)
    for pdf_path, _ in targets:
        pdf_path.write_bytes(pdf)
    document = ethos_py.parse_pdf_json(HERE / "sample.pdf", use_cache=False)
    citations = _canonical(build_citations(document))
    for _, citations_path in targets:
        citations_path.write_bytes(citations)
    print(f"make_sample: {len(pdf)} bytes of PDF, fingerprint {document['fingerprint']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
