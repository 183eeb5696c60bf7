"""test_pdf_fidelity_words - how benchmarks/parse.py splits both texts into words for the fidelity figure."""

from __future__ import annotations

from types import ModuleType

import pytest
from conftest import script_module


@pytest.fixture()
def parse_benchmark() -> ModuleType:
    # A fresh module per test: one test changes its SEGMENTATION.
    module: ModuleType = script_module("benchmarks/parse.py")
    return module


def test_every_cjk_character_is_a_word_and_other_text_splits_at_whitespace(parse_benchmark: ModuleType) -> None:
    # Han, kana (half-width katakana folds to full-width under NFKC) and CJK punctuation are
    # words of one character; Latin runs glued to them stay whole; Hangul keeps its spaces.
    text = "中文 字体abc def。かな漢字ｶﾀｶﾅ 한국어 단어"
    assert parse_benchmark.words(text) == [
        "中", "文", "字", "体", "abc", "def", "。", "か", "な", "漢", "字", "カ", "タ", "カ", "ナ", "한국어", "단어",
    ]


def test_a_cjk_line_wrap_with_or_without_a_space_gives_the_same_words(parse_benchmark: ModuleType) -> None:
    # pdftotext ends a wrapped CJK line with a line break, we join the lines without a space (the
    # text has none): the comparison must not count that as a different word on either side.
    assert parse_benchmark.words("排版数学\n公式") == parse_benchmark.words("排版数学公式")


def test_the_whitespace_segmentation_is_the_plain_split(parse_benchmark: ModuleType) -> None:
    parse_benchmark.SEGMENTATION = "whitespace"
    assert parse_benchmark.words("中文 字体abc\u00a0ﬁne") == ["中文", "字体abc", "fine"]
