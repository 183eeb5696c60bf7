"""test_verify_answer_stream - @ethos_py.verify_answer: chunks pass through, words print once decided, .result is the whole check."""

from __future__ import annotations

import asyncio
import io
import re
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import REPO_DIR

import ethos_py

QUICKSTART = REPO_DIR / "examples" / "quickstart" / "document.json"
SOURCE = "The quick brown fox jumps over the lazy dog near the river bank."
ANSWER = 'Well, the quick brown fox jumps "over the lazy dog" and then "swims across the sea" today.'
SGR = re.compile(r"\x1b\[[0-9;]*m")


def _chunks(text: str, size: int) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)]


class _Log(io.StringIO):
    """The printer's file, noting after how many handed-out chunks each write came."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[tuple[int, str]] = []
        self.handed = 0

    def write(self, text: str) -> int:
        self.writes.append((self.handed, text))
        return super().write(text)


@pytest.mark.parametrize("size", [1, 4, 9, 1000])
def test_chunks_pass_through_and_the_result_is_the_whole_check(size: int) -> None:
    out = _Log()

    @ethos_py.verify_answer(source=SOURCE, print_stats=False, file=out)
    def answer(question: str) -> Iterator[str]:
        yield from _chunks(ANSWER, size)

    stream = answer("what did the fox do?")
    received = []
    for chunk in stream:
        received.append(chunk)
        out.handed += 1
    assert received == _chunks(ANSWER, size)
    assert stream.result == ethos_py.check_answer(ANSWER, source_text=SOURCE)
    # Without a terminal nothing is styled: the printed text is the answer, then the verdict tags.
    assert SGR.search(out.getvalue()) is None
    assert re.sub(r" \[quote \d: \w+\]", "", out.getvalue()) == ANSWER + "\n"
    status = [quote["status"] for quote in stream.result["quotes"]]
    tags = re.findall(r"\[quote \d: (\w+)\]", out.getvalue())
    assert tags == status


def test_a_word_prints_once_ngram_minus_one_words_follow_it() -> None:
    out = _Log()
    words = "so the quick brown fox jumps high".split()

    @ethos_py.verify_answer(source=SOURCE, print_stats=False, file=out, color=True, palette="mono")
    def answer() -> Iterator[str]:
        for word in words:
            yield word + " "

    stream = answer()
    for _ in stream:
        out.handed += 1
    # Each word is printed (bold when verbatim) after the chunk holding the second word after it
    # was handed out: when the third chunk is checked, the first word is decided.
    printed_at = {}
    for handed, text in out.writes:
        for word in re.findall(r"[a-z]+", SGR.sub("", text)):
            printed_at.setdefault(word, handed)
    assert [printed_at[word] for word in words] == [3, 4, 5, 6, 7, 7, 7]
    assert "\x1b[1mquick\x1b[0m" in out.getvalue() and "\x1b[1mso" not in out.getvalue()
    assert stream.result["summary"]["verbatim_words"] == 5


def test_a_quotation_verdict_prints_when_it_closes_under_scope_quotes() -> None:
    out = _Log()
    chunks = ['He wrote "the quick brown ', 'fox jumps" and', ' more text "a b" end.']

    @ethos_py.verify_answer(source=SOURCE, scope="quotes", print_stats=True, file=out)
    def answer() -> Iterator[str]:
        yield from chunks

    stream = answer()
    for _ in stream:
        out.handed += 1
    first_tag = next(handed for handed, text in out.writes if "[quote 1: grounded]" in text)
    assert first_tag == 2  # checked once the second chunk (which closes it) was handed out
    assert 'He wrote "the quick brown fox jumps" [quote 1: grounded]' in out.getvalue()
    assert '"a b" [quote 2: too_short]' in out.getvalue()
    assert out.getvalue().endswith(ethos_py.answer_summary_text(stream.result))
    assert stream.result == ethos_py.check_answer("".join(chunks), source_text=SOURCE, scope="quotes")


def test_a_str_return_gets_the_result_and_the_runtime_source_wins(tmp_path: Path) -> None:
    out = io.StringIO()

    @ethos_py.verify_answer(source="nothing in common here", print_stats=False, file=out)
    def answer(question: str, context: Any = None) -> str:
        return "They cut average response time by 30% in the pilot."

    static = answer("q")
    assert isinstance(static, ethos_py.AnswerText) and static == "They cut average response time by 30% in the pilot."
    assert static.result["summary"]["verbatim_words"] == 0
    runtime = answer("q", context=QUICKSTART)  # a Path is a file; a str would be literal text
    assert runtime.result == ethos_py.check_answer(str(runtime), QUICKSTART)
    assert runtime.result["summary"]["verbatim_words"] >= 6
    passages = answer("q", context=["unrelated passage", "they cut average response time by 30% in it"])
    assert passages.result["runs"][0]["source"]["document"] == 1


def test_openai_and_langchain_style_chunks_and_async_iterators() -> None:
    out = io.StringIO()
    pieces = _chunks(ANSWER, 7)

    @ethos_py.verify_answer(source=SOURCE, print_stats=False, file=out)
    def openai_stream(context: str | None = None) -> Iterator[Any]:
        for piece in pieces:
            yield SimpleNamespace(choices=[SimpleNamespace(delta=SimpleNamespace(content=piece))])
        yield SimpleNamespace(choices=[SimpleNamespace(delta=SimpleNamespace(content=None))])  # the last chunk

    chunks = list(stream := openai_stream())
    assert len(chunks) == len(pieces) + 1 and stream.result == ethos_py.check_answer(ANSWER, source_text=SOURCE)

    @ethos_py.verify_answer(source="unused", print_stats=False, file=out)
    async def astream(context: str) -> AsyncIterator[Any]:
        for piece in pieces:
            await asyncio.sleep(0)
            yield SimpleNamespace(content=piece)

    async def consume() -> Any:
        wrapper = astream(context=SOURCE)
        got = [chunk.content async for chunk in wrapper]
        return got, wrapper.result

    got, result = asyncio.run(consume())
    assert got == pieces and result == ethos_py.check_answer(ANSWER, source_text=SOURCE)

    @ethos_py.verify_answer(source=SOURCE, print_stats=False, file=out)
    async def complete() -> str:
        return ANSWER

    text = asyncio.run(complete())
    assert text == ANSWER and text.result == ethos_py.check_answer(ANSWER, source_text=SOURCE)


def test_a_chunk_is_handed_out_before_it_is_checked() -> None:
    big = " ".join(f"w{i} alpha beta gamma" for i in range(20000))  # about 0.4 MB of source

    @ethos_py.verify_answer(source=big, print_stats=False, file=io.StringIO())
    def answer() -> Iterator[str]:
        yield from _chunks("w5 alpha beta gamma w6 alpha beta " * 20, 11)

    stream = answer()
    next(stream)
    started = time.perf_counter()
    for _ in stream:
        pass
    assert stream.result["summary"]["verbatim_words"] > 0
    assert time.perf_counter() - started < 30


def test_no_source_is_an_error() -> None:
    @ethos_py.verify_answer()
    def answer(question: str) -> str:
        return "x"

    with pytest.raises(ValueError):
        answer("q")


@pytest.mark.parametrize(
    ("script", "stdout_end", "tags"),
    [
        ("openai_style.py", "gate passed: False\n", ["[quote 1: grounded]", "[quote 2: mismatch]"]),
        ("langchain_astream.py", "quotes grounded: 1 of 1\n", ["[quote 1: grounded]"]),
    ],
)
def test_the_streaming_examples_run_without_a_key(script: str, stdout_end: str, tags: list[str]) -> None:
    import os
    import subprocess
    import sys

    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_DIR), environment.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, str(REPO_DIR / "examples" / "streaming" / script)], capture_output=True,
                          text=True, env=environment, timeout=120, check=True)
    assert done.stdout.endswith(stdout_end)
    assert all(tag in done.stderr for tag in tags) and "gate: " in done.stderr
    assert SGR.search(done.stderr) is None  # stderr is a pipe here: no escapes


def test_a_padded_guillemet_quotation_gets_its_tag_after_the_closing_mark() -> None:
    out = io.StringIO()

    @ethos_py.verify_answer(source=SOURCE, print_stats=False, file=out)
    def answer() -> Iterator[str]:
        yield from ["Il a dit « the quick brown fox » ", "puis rien."]

    stream = answer()
    assert "".join(stream) == "Il a dit « the quick brown fox » puis rien."
    assert "« the quick brown fox » [quote 1: grounded] puis rien." in out.getvalue()


@pytest.mark.parametrize("seed", range(12))
def test_streamed_verdicts_are_the_whole_checks_whatever_the_chunks(seed: int) -> None:
    # The printer checks only the words an undecided word can share a window with once the answer
    # has no quotation mark: what it prints must still be the whole answer's highlighting.
    import random

    rng = random.Random(seed)
    vocabulary = SOURCE.lower().rstrip(".").split() + ["sun", "moon", "-5", "3.5", "30%", "don't", "東京都"]
    words = [rng.choice(vocabulary) for _ in range(rng.randint(5, 60))]
    answer = "".join(word + rng.choice([" ", " ", ", ", ".  ", "\n"]) for word in words)
    if seed % 3 == 0:
        # Quotations of each kind of mark, and apostrophes that are none.
        answer += "and \"the lazy dog near the river\" ends, 'the quick brown fox' it's « over the lazy dog » "
        answer += "“jumps over the moon” and the dogs' bowl"
    sizes = [rng.randint(1, 15) for _ in range(len(answer))]
    chunks, at = [], 0
    for size in sizes:
        if at >= len(answer):
            break
        chunks.append(answer[at:at + size])
        at += size
    ngram = rng.choice([3, 4])
    out = io.StringIO()

    @ethos_py.verify_answer(source=SOURCE, ngram=ngram, print_stats=False, file=out, color=True, palette="mono")
    def streamed() -> Iterator[str]:
        yield from chunks

    stream = streamed()
    assert "".join(stream) == answer
    whole = ethos_py.check_answer(answer, source_text=SOURCE, ngram=ngram)
    assert stream.result == whole
    printed = re.sub(r" \x1b\[[0-9;]*m\[quote \d: \w+\]\x1b\[0m", "", out.getvalue())
    expected = ethos_py.render_words({"words": whole["words"], "quotes": []}, answer, palette="mono")
    assert printed == expected
    assert re.findall(r"\[quote \d: (\w+)\]", out.getvalue()) == [quote["status"] for quote in whole["quotes"]]


def test_a_mark_read_again_once_the_next_character_arrives() -> None:
    # "fox'" at a chunk's end could close 'the quick brown fox'; the "s" that follows makes it an
    # apostrophe ("fox's"): the printer must look again, and print no verdict for a quotation
    # that is none.
    out = io.StringIO()
    chunks = ["Well then, so it is: he said ", "'the quick brown fox'", "s den is near", " the river bank today."]

    @ethos_py.verify_answer(source=SOURCE, print_stats=False, file=out)
    def streamed() -> Iterator[str]:
        yield from chunks

    stream = streamed()
    assert "".join(stream) == "".join(chunks)
    assert stream.result is not None and stream.result["quotes"] == []
    assert "[quote" not in out.getvalue()
