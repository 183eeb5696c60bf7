"""test_match_boxes - a grounded quote's highlight boxes are the rectangles of exactly its glyphs, line by line (CONTRACTS §4)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import ethos_py

LINE_1, LINE_2 = "Net revenue rose 12%", "in 2025 while costs fell."
TEXT = LINE_1 + " " + LINE_2  # one generated separator between the two visual lines
NEXT = "Next year brings new stores."
Y1, Y2 = [10000, 11200], [11400, 12600]


def _payload() -> dict[str, Any]:
    return {
        "pages": [
            {"id": "p0001", "index": 1, "width": 61200, "height": 79200, "rotation": 0},
            {"id": "p0002", "index": 2, "width": 61200, "height": 79200, "rotation": 0},
        ],
        "elements": [
            {"id": "e000001", "type": "text_block", "page": "p0001", "bbox": [7200, Y1[0], 17200, Y2[1]], "text": TEXT,
             "span_refs": ["s000001", "s000002"], "line_breaks": [len(LINE_1)]},
            {"id": "e000002", "type": "text_block", "page": "p0002", "bbox": [7200, 9000, 18400, 10200], "text": NEXT,
             "span_refs": ["s000003"]},
        ],
        "spans": [
            # Every glyph of line one is 5 pt wide, of line two 4 pt, of page two 4 pt.
            {"id": "s000001", "page": "p0001", "bbox": [7200, Y1[0], 7200 + 500 * len(LINE_1), Y1[1]], "text": LINE_1,
             "char_start": 0, "char_end": len(LINE_1), "advances": [500] * len(LINE_1)},
            {"id": "s000002", "page": "p0001", "bbox": [7200, Y2[0], 7200 + 400 * len(LINE_2), Y2[1]], "text": LINE_2,
             "char_start": len(LINE_1) + 1, "char_end": len(TEXT), "advances": [400] * len(LINE_2)},
            {"id": "s000003", "page": "p0002", "bbox": [7200, 9000, 7200 + 400 * len(NEXT), 10200], "text": NEXT,
             "char_start": 0, "char_end": len(NEXT), "advances": [400] * len(NEXT)},
        ],
    }


@pytest.fixture(scope="module")
def document(document_tool: Any) -> ethos_py.Document:
    built = document_tool.build_document(_payload())
    return ethos_py.Document.from_bytes(json.dumps(built).encode())


def _check(document: ethos_py.Document, quote: str, citation: dict[str, Any]) -> dict[str, Any]:
    report = document.verify({"document_fingerprint": document.fingerprint,
                              "claims": [{"kind": "quote", "text": quote, "citation": citation}]})
    check: dict[str, Any] = report["checks"][0]
    assert check["status"] == "grounded", check
    return check


def test_quote_over_a_line_break_gets_one_box_per_line(document: ethos_py.Document) -> None:
    quote = "rose 12% in 2025"
    check = _check(document, quote, {"element_id": "e000001"})
    start = TEXT.index(quote)
    assert (check["match"]["start"], check["match"]["end"]) == (start, start + len(quote))
    line_2_chars = start + len(quote) - (len(LINE_1) + 1)  # "in 2025"
    assert check["match"]["boxes"] == [
        {"page": "p0001", "bbox": [7200 + 500 * start, Y1[0], 7200 + 500 * len(LINE_1), Y1[1]]},
        {"page": "p0001", "bbox": [7200, Y2[0], 7200 + 400 * line_2_chars, Y2[1]]},
    ]


def test_quote_inside_one_line_covers_only_its_glyphs(document: ethos_py.Document) -> None:
    check = _check(document, "revenue", {"element_id": "e000001"})
    assert check["match"]["boxes"] == [{"page": "p0001", "bbox": [7200 + 500 * 4, Y1[0], 7200 + 500 * 11, Y1[1]]}]


def test_span_citation_maps_through_the_span_offsets(document: ethos_py.Document) -> None:
    check = _check(document, "2025 while", {"span_id": "s000002"})
    assert check["match"]["boxes"] == [{"page": "p0001", "bbox": [7200 + 400 * 3, Y2[0], 7200 + 400 * 13, Y2[1]]}]


def test_document_scoped_quote_across_pages_gets_a_box_on_each_page(document: ethos_py.Document) -> None:
    check = _check(document, "costs fell. Next year", {"scope": "document"})
    tail = LINE_2.index("costs")
    assert check["match"]["boxes"] == [
        {"page": "p0001", "bbox": [7200 + 400 * tail, Y2[0], 7200 + 400 * len(LINE_2), Y2[1]]},
        {"page": "p0002", "bbox": [7200, 9000, 7200 + 400 * len("Next year"), 10200]},
    ]


def test_page_only_quote_across_two_elements_is_found_in_the_page_running_text(document_tool: Any) -> None:
    first, second = "The pilot cut wait times", "by half in every region."
    payload = {
        "pages": [{"id": "p0001", "index": 1, "width": 61200, "height": 79200, "rotation": 0}],
        "elements": [
            {"id": "e000001", "type": "text_block", "page": "p0001", "bbox": [7200, 9000, 30000, 10200], "text": first},
            {"id": "e000002", "type": "text_block", "page": "p0001", "bbox": [32000, 9000, 54000, 10200], "text": second},
        ],
    }
    built = document_tool.build_document(payload)
    with ethos_py.Document.from_bytes(json.dumps(built).encode()) as document:
        check = _check(document, "cut wait times by half", {"page": "p0001"})
    assert check["match"]["source_text"] == "cut wait times\nby half"
    assert check["match"]["tier"] == "whitespace"
