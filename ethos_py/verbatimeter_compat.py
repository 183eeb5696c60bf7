"""verbatimeter_compat - verbatimeter 0.1.3's spelling (``verify``, ``check``, ``check_answer``) over Ethos's check.

A program written against verbatimeter keeps its calls after
``import ethos_py.verbatimeter_compat as verbatimeter``: the decorator and the two checks take
verbatimeter's arguments (``source_arg`` defaults to ``"source"``, ``use_color``, a ``str``
source is literal text). What comes back is Ethos's: the dict result of ``ethos_py.check_answer``
(docs/answers.md), not verbatimeter's dataclasses, and the decorator prints to standard error
like ``ethos_py.verify_answer``. Only verbatimeter's ``mode="contiguous"`` exists here: its
``"subsequence"`` reading is ``check_answer(..., subsequence=True)``'s ``summary.subsequence``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import IO, Any, TypeVar

from . import answer as _answer
from . import stream as _stream

__all__ = ["check", "check_answer", "verify"]

F = TypeVar("F", bound=Callable[..., Any])


def _contiguous(mode: str) -> None:
    if mode != "contiguous":
        raise ValueError(
            f"mode {mode!r} is not offered: Ethos measures verbatim runs; the order-only reading is "
            "ethos_py.check_answer(..., subsequence=True)['summary']['subsequence']"
        )


def check_answer(
    answer: str,
    source: str,
    *,
    scope: str = "all",
    ngram: int = 3,
    mode: str = "contiguous",
    count_tokens: Callable[[str], int] | None = None,
) -> dict[str, Any]:
    """verbatimeter's ``check_answer``: ``answer`` against the literal text ``source``, every word
    (``scope="all"``) or the quotations only (``"quotes"``); Ethos's result, with ``tokens`` when
    ``count_tokens`` is given.

        >>> result = check_answer('He said "the quick brown fox".', "the quick brown fox jumps", scope="quotes")
        >>> [quote["status"] for quote in result["quotes"]]
        ['grounded']
    """
    _contiguous(mode)
    return _answer.check_answer(answer, source_text=source, scope=scope, ngram=ngram, count_tokens=count_tokens)


def check(
    text: str, source: str, *, ngram: int = 3, mode: str = "contiguous", count_tokens: Callable[[str], int] | None = None
) -> dict[str, Any]:
    """verbatimeter's ``check``: the verbatim coverage of ``text`` against the literal text
    ``source`` (``check_answer`` with scope ``"all"``).

        >>> check("so the quick brown fox ran", "The quick brown fox jumps.")["summary"]["verbatim_words"]
        4
    """
    return check_answer(text, source, scope="all", ngram=ngram, mode=mode, count_tokens=count_tokens)


def verify(
    source: Any = None,
    *,
    source_arg: str = "source",
    scope: str = "all",
    ngram: int = 3,
    mode: str = "contiguous",
    count_tokens: Callable[[str], int] | None = None,
    use_color: bool | None = None,
    palette: str = "classic",
    print_stats: bool = True,
    file: IO[str] | None = None,
) -> Callable[[F], F]:
    """verbatimeter's decorator: ``ethos_py.verify_answer`` with verbatimeter's argument names
    (``source_arg="source"``, ``use_color``). A ``count_tokens`` is refused (ValueError) rather
    than ignored: the decorator counts no tokens; ``ethos_py.token_counts(stream.result, text, f)``
    does, on demand.

        >>> import io
        >>> @verify(print_stats=False, file=io.StringIO())
        ... def answer(question, source=None):
        ...     return "a quick brown fox"
        >>> answer("which fox?", source="the quick brown fox").result["summary"]["verbatim_words"]
        3
    """
    _contiguous(mode)
    if count_tokens is not None:
        raise ValueError("verify counts no tokens: use ethos_py.token_counts(stream.result, text, count_tokens)")
    return _stream.verify_answer(source=source, source_arg=source_arg, scope=scope, ngram=ngram, palette=palette,
                                 color=use_color, print_stats=print_stats, file=file)
