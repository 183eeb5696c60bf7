"""redline_contract - a scripted model's redlines applied to a contract PDF only where their anchors verify (docs/replies.md).

Run: `python examples/redlines/redline_contract.py [OUT_DIR]`. It writes contract.pdf (reportlab,
deterministic) into OUT_DIR (default: a temporary directory), parses it with Ethos, reads a
scripted model reply (prose, a schema sketch, then the real payload), verifies every edit's
anchor against the parsed contract, applies the verified ones, and prints the applied and
skipped edits and a unified diff. No model, key or network is needed.
"""

from __future__ import annotations

import difflib
import sys
import tempfile
from pathlib import Path

from reportlab.lib.pagesizes import LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph, SimpleDocTemplate

import ethos_py
from ethos_py.edits import apply_edits
from ethos_py.redlines import parse_redline_output
from ethos_py.reply_verify import verify_anchors

CLAUSES = [
    "MASTER SERVICES AGREEMENT",
    "1. Term. This Agreement begins on the Effective Date and continues for twelve (12) months, "
    "after which it renews for successive one-year terms unless either party gives notice.",
    "2. Fees. The Customer shall pay all undisputed fees within thirty (30) days of the invoice date.",
    "3. Liability. The Supplier shall not be liable for any indirect or consequential loss. "
    "The Supplier's total liability shall not exceed the fees paid in the preceding twelve (12) months.",
    "4. Termination. Either party may terminate this Agreement on ninety (90) days' written notice.",
    "5. Notices. Notices shall be given in writing to the addresses set out above.",
]

# What a model answered: prose, a sketch of the shape it was asked for, then the real edits.
# Typographic quotes and a dash where the PDF has none, a changed figure, a dropped negation, a
# quote of text that occurs twice, and two edits of the same words.
REPLY = """I reviewed the agreement. The output format is:

```json
{"edits": [{"anchor": "string", "replacement": "string", "rationale": "string",
            "market_position": "market | off-market | N/A"}]}
```

Here are my proposed redlines:

```json
{"edits": [
  {"anchor": "pay all undisputed fees within thirty (30) days",
   "replacement": "pay all undisputed fees within forty-five (45) days",
   "rationale": "Align with the Customer's payment run.", "market_position": "market"},
  {"anchor": "terminate this Agreement on ninety (90) days\u2019 written notice",
   "replacement": "terminate this Agreement on sixty (60) days' written notice",
   "rationale": "Shorter exit.", "market_position": "off-market"},
  {"anchor": "continues for twenty-four (24) months",
   "replacement": "continues for thirty-six (36) months",
   "rationale": "Longer term.", "market_position": "market"},
  {"anchor": "The Supplier shall be liable for any indirect or consequential loss",
   "replacement": "The Supplier shall be liable for direct loss only",
   "rationale": "Clarify.", "market_position": "N/A"},
  {"anchor": "twelve (12) months",
   "replacement": "twenty-four (24) months",
   "rationale": "Ambiguous on purpose.", "market_position": "market"},
  {"anchor": "Notices shall be given in writing",
   "replacement": "Notices shall be given by email",
   "rationale": "Modernise.", "market_position": "market"},
  {"anchor": "given in writing to the addresses",
   "replacement": "sent to the addresses",
   "rationale": "Overlaps the edit before.", "market_position": "N/A"}
]}
```

Let me know if you want a summary as well."""


def write_contract(path: Path) -> None:
    """The contract as a one-page PDF (reportlab invariant mode: the same bytes every run)."""
    style = ParagraphStyle("body", fontName="Helvetica", fontSize=11, leading=15, spaceAfter=10)
    document = SimpleDocTemplate(str(path), pagesize=LETTER, invariant=1, title="Master Services Agreement")
    document.build([Paragraph(text, style) for text in CLAUSES])


def main(out_dir: Path) -> int:
    pdf = out_dir / "contract.pdf"
    write_contract(pdf)
    source_text = ethos_py.parse_pdf_text(pdf)
    redlines = parse_redline_output(REPLY)
    print(f"payload: {redlines.extraction.chosen.fence if redlines.extraction.chosen else None!r} fence, "
          f"skipped {[c.status for c in redlines.extraction.skipped]}")
    edits = [{"anchor": e.anchor, "replacement": e.replacement} for e in redlines.edits]
    result = apply_edits(source_text, edits)
    # The same anchors against the parsed PDF document: where each one is on the page.
    with ethos_py.Document.from_bytes(ethos_py.parse_pdf_bytes(pdf), "ethos-native") as document:
        pages = [verdict.page for verdict in verify_anchors(edits, document)]
    print(f"applied {len(result.applied)} of {len(edits)} edits:")
    for edit in result.applied:
        position = redlines.edits[edit.index].market_position
        print(f"  [{edit.index}] page {pages[edit.index]} {edit.verdict.tier}: {edit.old_text!r} -> {edit.new_text!r} ({position})")
    print("skipped:")
    for skip in result.skipped:
        print(f"  [{skip.index}] {skip.reason} ({skip.detail}): {skip.verdict.quote!r}")
    diff = difflib.unified_diff(source_text.splitlines(keepends=True), result.text.splitlines(keepends=True),
                                "contract.pdf (parsed)", "contract.pdf (redlined)")
    sys.stdout.writelines(diff)
    assert result.undo() == source_text  # every applied edit can be reversed
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1:
        sys.exit(main(Path(sys.argv[1])))
    with tempfile.TemporaryDirectory() as directory:
        sys.exit(main(Path(directory)))
