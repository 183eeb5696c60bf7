"""test_reply_redlines - the example schema (ethos_py.redlines) and the runnable redline example (examples/redlines)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ethos_py.errors import EthosError, InvalidInputError
from ethos_py.redlines import coerce_market_position, parse_contract_summary, parse_redline_output
from ethos_py.reply_verify import verify_quotes

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("raw", "coerced"),
    [("market", "market_standard"), ("Market Standard", "market_standard"), ("off-market", "off_market"),
     ("Off Market", "off_market"), ("N/A", "not_applicable"), ("n/a", "not_applicable"), ("off_market", "off_market"),
     ("not_applicable", "not_applicable"), ("aggressive", "unknown"), (None, "unknown"), (3, "unknown")],
)
def test_legacy_market_positions_are_coerced(raw: object, coerced: str) -> None:
    assert coerce_market_position(raw) == coerced


def test_redline_output_reads_edits_and_reports_the_rest() -> None:
    reply = (
        "Schema:\n```json\n{\"edits\": [{\"anchor\": \"string\", \"replacement\": \"string\"}]}\n```\n"
        "Edits:\n```json\n{\"edits\": ["
        "{\"anchor\": \"30 days\", \"replacement\": \"45 days\", \"rationale\": \"cash\", \"market_position\": \"off-market\"},"
        "{\"original\": \"Supplier\", \"proposed\": \"Vendor\", \"position\": \"N/A\"},"
        "{\"anchor\": \"x\"}, \"junk\", {\"replacement\": \"y\"}]}\n```"
    )
    out = parse_redline_output(reply)
    assert [(e.anchor, e.replacement, e.market_position) for e in out.edits] == [
        ("30 days", "45 days", "off_market"), ("Supplier", "Vendor", "not_applicable")
    ]
    assert out.edits[0].rationale == "cash" and out.edits[1].raw_market_position == "N/A"
    assert out.problems == ((2, "no replacement"), (3, "not an object"), (4, "no anchor"))
    assert [c.status for c in out.extraction.skipped] == ["illustrative"]


def test_no_payload_is_an_invalid_input_error() -> None:
    with pytest.raises(InvalidInputError) as caught:
        parse_redline_output("I could not find anything to change.")
    assert isinstance(caught.value, EthosError) and caught.value.details == {"reason": "no_payload:no_json"}
    with pytest.raises(InvalidInputError):
        parse_contract_summary('{"title": "no clause list"}')


def test_contract_summary_quotes_are_checked_with_verify_quotes() -> None:
    source = "1. Term. This Agreement continues for twelve (12) months.\n2. Fees are due within 30 days.\n"
    summary = parse_contract_summary(
        '{"clauses": [{"title": "Term", "summary": "A year.", "quotes": ["continues for twelve (12) months"]},'
        ' {"title": "Fees", "summary": "Two months.", "quote": "Fees are due within 60 days"}, {"summary": "x"}]}'
    )
    assert summary.problems == ((2, "no title"),)
    rows = [{"clause": c.title, "quote": q} for c in summary.clauses for q in c.quotes]
    assert [(v.record["clause"], v.status) for v in verify_quotes(rows, source)] == [
        ("Term", "verified"), ("Fees", "not_found")
    ]


def test_the_redline_example_runs(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(REPO / "examples" / "redlines" / "redline_contract.py"), str(tmp_path)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "payload: 'json' fence, skipped ['illustrative']"
    assert lines[1] == "applied 3 of 7 edits:"
    assert "[3] not_found (polarity_guard)" in done.stdout and "[4] ambiguous (found_more_than_once)" in done.stdout
    assert "[6] overlap (overlaps edit 5)" in done.stdout
    assert "+2. Fees. The Customer shall pay all undisputed fees within forty-five (45) days of the invoice date." in lines
    assert (tmp_path / "contract.pdf").read_bytes().startswith(b"%PDF-")
