"""test_verbatimeter_compat - verbatimeter 0.1.3's spelling over Ethos's check: same arguments, Ethos's results."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest

import ethos_py
import ethos_py.verbatimeter_compat as verbatimeter

SOURCE = "the quick brown fox jumps over the lazy dog near the river bank"


def test_check_and_check_answer_are_ethos_checks_of_literal_text() -> None:
    answer = 'so the quick brown fox said "over the lazy dog" twice'
    assert verbatimeter.check(answer, SOURCE) == ethos_py.check_answer(answer, source_text=SOURCE)
    quotes = verbatimeter.check_answer(answer, SOURCE, scope="quotes", ngram=4)
    assert quotes == ethos_py.check_answer(answer, source_text=SOURCE, scope="quotes", ngram=4)
    counted = verbatimeter.check(answer, SOURCE, count_tokens=len)
    assert counted["tokens"] == ethos_py.token_counts(counted, answer, len)


def test_only_the_contiguous_mode_exists() -> None:
    with pytest.raises(ValueError, match="subsequence=True"):
        verbatimeter.check("a b c", SOURCE, mode="subsequence")
    with pytest.raises(ValueError, match="subsequence=True"):
        verbatimeter.verify(SOURCE, mode="subsequence")
    with pytest.raises(ValueError, match="token_counts"):
        verbatimeter.verify(SOURCE, count_tokens=len)


def test_the_decorator_takes_verbatimeters_arguments() -> None:
    out = io.StringIO()

    @verbatimeter.verify(SOURCE, use_color=True, palette="mono", print_stats=False, file=out)
    def answer(question: str, source: str | None = None) -> Iterator[str]:
        yield from ["so the quick ", "brown fox ran"]

    stream = answer("what ran?")
    assert "".join(stream) == "so the quick brown fox ran"
    assert stream.result == ethos_py.check_answer("so the quick brown fox ran", source_text=SOURCE)
    assert "\x1b[1mquick\x1b[0m" in out.getvalue()  # mono: verbatim in bold
    # verbatimeter's runtime argument is "source", and it wins over the static one.
    runtime = answer("what ran?", source="nothing of the kind here")
    assert "".join(runtime) and runtime.result["summary"]["verbatim_words"] == 0


def test_the_same_flags_as_verbatimeter_where_both_read_alike() -> None:
    import verbatimeter as original  # the peer itself (a test extra)
    rng = random.Random(7)
    vocabulary = SOURCE.split() + ["sun", "moon", "star"]
    for _ in range(20):
        source = " ".join(rng.choice(vocabulary) for _ in range(rng.randint(10, 60)))
        answer = " ".join(rng.choice(vocabulary) if rng.random() < 0.3 else word
                          for word in source.split()[: rng.randint(5, 40)])
        theirs = original.check(answer, source, count_tokens=lambda text: len(text.split()))
        ours = verbatimeter.check(answer, source)
        assert [word["verbatim"] for word in ours["words"]] == [span.verbatim for span in theirs.words]
