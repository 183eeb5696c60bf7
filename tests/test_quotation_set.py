"""test_quotation_set - the labelled quotation set keeps each record inside one of pdftotext's text blocks."""

from __future__ import annotations

from types import ModuleType

import pytest
from conftest import script_module

# The shape of `pdftotext -bbox-layout` output (coordinates trimmed): a paragraph that ends a
# page's body, the footnote below it in its own block, and a second page.
BBOX_LAYOUT = """<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title></title></head><body><doc>
  <page width="612" height="792"><flow>
    <block xMin="82" yMin="560" xMax="482" yMax="580"><line xMin="82" yMin="560" xMax="482" yMax="580">
      <word xMin="82" yMin="570" xMax="100" yMax="580">about</word>
      <word xMin="102" yMin="570" xMax="140" yMax="580">package</word>
      <word xMin="142" yMin="570" xMax="190" yMax="580">maintainers.</word>
    </line></block>
    <block xMin="82" yMin="588" xMax="361" yMax="598"><line xMin="82" yMin="588" xMax="361" yMax="598">
      <word xMin="82" yMin="588" xMax="85" yMax="594">4</word>
      <word xMin="88" yMin="590" xMax="93" yMax="598">It</word>
      <word xMin="95" yMin="590" xMax="100" yMax="598">is</word>
      <word xMin="102" yMin="590" xMax="134" yMax="598">customary</word>
    </line></block>
  </flow></page>
  <page width="612" height="792"><flow>
    <block xMin="82" yMin="60" xMax="300" yMax="70"><line xMin="82" yMin="60" xMax="300" yMax="70">
      <word xMin="82" yMin="60" xMax="120" yMax="70">R&amp;D</word>
      <word xMin="122" yMin="60" xMax="150" yMax="70">costs</word>
    </line></block>
  </flow></page>
</doc></body></html>
"""


@pytest.fixture()
def quotation_set() -> ModuleType:
    module: ModuleType = script_module("benchmarks/quotation_set.py")
    return module


def test_bbox_layout_gives_each_page_its_words_with_their_block(quotation_set: ModuleType) -> None:
    pages = quotation_set.blocks_of_bbox_layout(BBOX_LAYOUT)
    assert pages == [
        [("about", 0), ("package", 0), ("maintainers.", 0), ("4", 1), ("It", 1), ("is", 1), ("customary", 1)],
        [("R&D", 2), ("costs", 2)],
    ]


def test_a_sentence_running_from_a_paragraph_into_its_footnote_spans_blocks(quotation_set: ModuleType) -> None:
    page = quotation_set.blocks_of_bbox_layout(BBOX_LAYOUT)[0]
    assert quotation_set.spans_blocks("package maintainers. 4 It is customary", page)
    assert not quotation_set.spans_blocks("about package maintainers.", page)
    assert not quotation_set.spans_blocks("4 It is customary", page)


def test_text_not_found_word_for_word_is_not_judged(quotation_set: ModuleType) -> None:
    page = quotation_set.blocks_of_bbox_layout(BBOX_LAYOUT)[0]
    # A joined hyphen or a ligature pdftotext spells differently: no evidence either way, kept.
    assert not quotation_set.spans_blocks("maintainers. It is customary", page)
    assert not quotation_set.spans_blocks("", page)
