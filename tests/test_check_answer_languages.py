"""test_check_answer_languages - check-answer on real Chinese, Japanese, Thai and Russian text (tests/fixtures/multilingual)."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO_DIR, schema_errors
from test_check_answer import _core, _ethos

import ethos_py

FIXTURES = REPO_DIR / "tests" / "fixtures" / "multilingual"


def _source(language: str) -> str:
    return (FIXTURES / f"{language}.txt").read_text(encoding="utf-8")


def _oracle_flags(answer: str, words: list[dict[str, Any]], source: str, ngram: int = 3) -> list[bool]:
    """A word is verbatim when some stretch of at least `ngram` consecutive answer words holding it
    is, as written in the answer, a substring of the source (the answers below have nothing
    between their unsegmented words and no word that could end inside a source word)."""
    flags = [False] * len(words)
    for first in range(len(words)):
        for last in range(first + ngram - 1, len(words)):
            if answer[words[first]["start"] : words[last]["end"]] in source:
                for w in range(first, last + 1):
                    flags[w] = True
    return flags


# (language, a stretch of one source line lifted into the answer, words of its own around it)
UNSEGMENTED = [
    ("zh", "罗列一系列公式", "作者提醒", "很常见"),
    ("zh", "介绍了在", "这本书", "写法"),
    ("ja", "採点用ボックスの下に配置", "ここでは", "する方法"),
    ("ja", "選択肢を自動シャフル", "今回は", "させる"),
    ("th", "แม่น้ำเจ้าพระยาไหลผ่าน", "ฉันรู้ว่า", "ทุกวัน"),
    ("th", "กรุงเทพมหานครเป็นเมืองหลวง", "เขาบอกว่า", "ของเรา"),
]


@pytest.mark.parametrize(("language", "lifted", "before", "after"), UNSEGMENTED)
def test_unsegmented_scripts_are_runs_of_characters(language: str, lifted: str, before: str, after: str) -> None:
    source = _source(language)
    assert lifted in source and before not in source and after not in source
    answer = before + lifted + after
    result = ethos_py.check(answer, source_text=source)
    words = result["words"]
    # One word per character with its combining marks (Thai vowel signs and tone marks stay with
    # their consonant): the documented dictionary-free segmentation.
    for word in words:
        assert unicodedata.category(word["text"][0]) != "Mn"
        assert all(unicodedata.category(c) == "Mn" for c in word["text"][1:])
    assert "".join(word["text"] for word in words) == answer
    flags = [word["verbatim"] for word in words]
    assert flags == _oracle_flags(answer, words, source)
    # The lifted stretch is inside one run, found in the source as written.
    assert any(run["text"].find(lifted) >= 0 and run["source"]["text"] in source for run in result["runs"])
    assert schema_errors("answer-check", result) == []


def test_a_japanese_run_may_cross_a_line_wrap_of_the_source() -> None:
    # pdftotext wrapped "プレーンテ" / "キスト" across two lines: at the default policy's tier the
    # line break between two CJK characters is no text, so the words on both sides are one run.
    source = _source("ja")
    assert "プレーンテ\nキスト" in source
    result = ethos_py.check("今回はプレーンテキストでの代替文法が便利", source_text=source)
    (run,) = result["runs"]
    assert run["text"] == "プレーンテキストでの代替文法" and run["source"]["text"] == "プレーンテ\nキストでの代替文法"


def _space_words(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(r"\w+", text)]


def test_russian_is_measured_by_words_and_case_folded() -> None:
    source = _source("ru")
    answer = "Говорят, что ОЗЕРО БАЙКАЛ находится в Сибири и очень красиво зимой."
    result = ethos_py.check(answer, source_text=source)
    assert [(w["start"], w["end"]) for w in result["words"]] == _space_words(answer)
    # Whole-word stretches of at least three answer words found in the case-folded source.
    folded = source.casefold()
    spans = _space_words(answer)
    expected = [False] * len(spans)
    for first in range(len(spans)):
        for last in range(first + 2, len(spans)):
            phrase = answer[spans[first][0] : spans[last][1]].casefold()
            if re.search(r"(?<!\w)" + re.escape(phrase) + r"(?!\w)", folded):
                expected[first : last + 1] = [True] * (last + 1 - first)
    assert [w["verbatim"] for w in result["words"]] == expected
    assert [run["text"] for run in result["runs"]] == ["ОЗЕРО БАЙКАЛ находится в Сибири и"]
    assert result["runs"][0]["source"]["text"] == "Озеро Байкал находится в Сибири и"


def test_a_quotation_in_each_language_is_verified() -> None:
    cases = [
        ("zh", "书中写道：“我们需要罗列一系列公式，并令其按照等号对齐。”"),
        ("ja", "説明書には「採点用ボックスの下に配置します。」とある。"),
        ("th", "หนังสือเขียนว่า “ประเทศไทยตั้งอยู่ในเอเชียตะวันออกเฉียงใต้” ครับ"),
        ("ru", "В справочнике сказано: «Волга — самая длинная река в Европе»."),
    ]
    for language, answer in cases:
        result = ethos_py.check_answer(answer, source_text=_source(language), scope="quotes")
        assert [quote["status"] for quote in result["quotes"]] == ["grounded"], language
        assert result["gate"]["passed"], language
        # Altering one word of the quotation is caught.
        altered = answer.replace("一系列", "两个").replace("下に", "上に").replace("ตะวันออกเฉียงใต้", "ตะวันตก").replace("Европе", "Азии")
        bad = ethos_py.check_answer(altered, source_text=_source(language), scope="quotes")
        assert bad["quotes"][0]["status"] != "grounded", language


def test_the_surfaces_agree_on_multilingual_text(tmp_path: Path) -> None:
    for language, answer in [("th", "เขาบอกว่ากรุงเทพมหานครเป็นเมืองหลวงของเรา"), ("zh", "作者提醒罗列一系列公式很常见")]:
        source = FIXTURES / f"{language}.txt"
        args = ["check-answer", str(source), "--grounding", "text", "--answer", answer, "--subsequence"]
        core = _core(args)
        assert core[0] == 0 and _ethos(args) == core
        library = ethos_py.check_answer_json(answer, source, grounding="text", subsequence=True)
        assert core[1] == library + b"\n"


def test_a_thai_quotation_may_end_inside_a_sentence() -> None:
    # Coverage cuts Thai by character, and so does verify's boundary rule (each character with its
    # signs is a token, docs/matching.md "Whole tokens"): a quotation ending where the source's
    # sentence goes on grounds (it was refused as token_boundary while a space-delimited stretch
    # was one token).
    answer = "หนังสือเขียนว่า “แม่น้ำเจ้าพระยาไหลผ่านใจกลางกรุงเทพมหานคร” ครับ"
    result = ethos_py.check_answer(answer, source_text=_source("th"), scope="quotes")
    assert result["quotes"][0]["status"] == "grounded"
