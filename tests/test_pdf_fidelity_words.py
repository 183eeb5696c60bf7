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


def _element(text: str, hyphen_breaks: list[int]) -> dict[str, object]:
    return {"text": text, "hyphen_breaks": hyphen_breaks}


def test_a_recorded_line_end_hyphen_joins_its_words_where_pdftotext_has_the_joined_word(parse_benchmark: ModuleType) -> None:
    # `jour- nals`: the parser recorded the hyphen at offset 8 as a line-end artifact; pdftotext
    # rejoined the word. `well- known`: the same, but pdftotext kept the compound's hyphen.
    element = _element("the jour- nals are well- known", [8, 23])
    reference = parse_benchmark.words("the journals are well-known")
    assert parse_benchmark.ethos_page_words([element], reference) == ["the", "journals", "are", "well-known"]


def test_an_unrecorded_hyphen_or_an_unsupported_join_stays_as_printed(parse_benchmark: ModuleType) -> None:
    # No hyphen_breaks: the printed `jour-` stays a word of its own. A recorded hyphen whose join
    # pdftotext's page does not hold (it has `jour-` and `nals` apart) stays too.
    reference = parse_benchmark.words("the journals")
    assert parse_benchmark.ethos_page_words([_element("the jour- nals", [])], reference) == ["the", "jour-", "nals"]
    apart = parse_benchmark.words("the jour- nals")
    assert parse_benchmark.ethos_page_words([_element("the jour- nals", [8])], apart) == ["the", "jour-", "nals"]


def test_as_printed_hyphenation_ignores_the_recorded_hyphens(parse_benchmark: ModuleType) -> None:
    parse_benchmark.HYPHENATION = "as-printed"
    reference = parse_benchmark.words("the journals")
    assert parse_benchmark.ethos_page_words([_element("the jour- nals", [8])], reference) == ["the", "jour-", "nals"]


def test_missed_words_are_split_into_reordered_and_absent(parse_benchmark: ModuleType) -> None:
    # Our page reads "d" before "b c": the alignment keeps "a b c", so "d" is missed although our
    # page holds it (reordered); "x" is on pdftotext's page only (absent).
    reference = ["a", "b", "c", "d", "x"]
    ours = ["a", "d", "b", "c"]
    elsewhere, absent = parse_benchmark.missed_words(reference, ours)
    assert sorted(elsewhere) == ["d"] and absent == ["x"]
    # A word pdftotext has twice and we once: the second copy is absent, not reordered.
    elsewhere, absent = parse_benchmark.missed_words(["y", "z", "y"], ["z", "y"])
    assert elsewhere == [] and absent == ["y"]
