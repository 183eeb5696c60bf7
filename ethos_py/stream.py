"""stream - ``verify_answer``: a decorator that checks a model's answer while it streams, word by word."""

from __future__ import annotations

import functools
import inspect
import os
import sys
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import ExitStack
from typing import IO, Any, TypeVar

from . import answer as _answer
from ._answer_incremental import IncrementalAnswerCheck
from .document import Document

__all__ = ["AnswerText", "StreamedAnswer", "AsyncStreamedAnswer", "verify_answer"]

F = TypeVar("F", bound=Callable[..., Any])

class AnswerText(str):
    """The ``str`` a decorated function returned, unchanged, with the check as ``.result``.

        >>> import io
        >>> @verify_answer(source="the quick brown fox", print_stats=False, file=io.StringIO())
        ... def answer():
        ...     return "a quick brown fox"
        >>> text = answer()
        >>> isinstance(text, str), text.result["summary"]["verbatim_words"]
        (True, 3)
    """

    result: dict[str, Any]


def _chunk_text(chunk: Any) -> str:
    """The text of one chunk: a ``str``, a LangChain message chunk (``.content``) or an
    OpenAI-style chunk (``.choices[0].delta.content``); anything else carries no text."""
    if isinstance(chunk, str):
        return chunk
    content = getattr(chunk, "content", None)
    if isinstance(content, str):
        return content
    choices = getattr(chunk, "choices", None)
    if choices:
        delta = getattr(choices[0], "delta", None)
        text = getattr(delta, "content", None)
        if isinstance(text, str):
            return text
    return ""


def _open_sources(stack: ExitStack, source: Any) -> list[Document]:
    """The sources as open Documents, once per call. A ``str`` here is literal text (a passage of
    the context), never a path: paths are ``os.PathLike`` (``pathlib.Path``), so what a runtime
    argument means never depends on which files exist."""
    items = source if isinstance(source, (list, tuple)) else [source]
    texts = [item for item in items if isinstance(item, str)]
    others = [item for item in items if not isinstance(item, str)]
    return _answer._documents(stack, others, None, texts)


class _Printer:
    """Prints what the incremental check decided after each chunk: words in their verdict's style,
    each closed quotation's verdict as a tag after its closing mark."""

    def __init__(self, source: Any, scope: str, ngram: int, policy: str | None, palette: str,
                 color: bool | None, print_stats: bool, file: IO[str] | None) -> None:
        if scope not in ("all", "quotes"):
            raise ValueError("scope must be 'all' or 'quotes'")
        if palette not in _answer.PALETTES:
            raise ValueError(f"palette must be one of {_answer.PALETTES}")
        self._stack = ExitStack()
        self._check = IncrementalAnswerCheck(_open_sources(self._stack, source), scope, ngram, policy)
        self._palette = palette
        self._file = file if file is not None else sys.stderr
        self._color = _auto_color(self._file) if color is None else color
        self._print_stats = print_stats
        self._printed = 0  # answer scalars printed so far
        self._words = 0  # words printed so far
        self._quotes = 0  # quotation verdicts printed so far

    @property
    def text(self) -> str:
        return self._check.text

    def _styled(self, text: str, verbatim: bool | None = None, status: str | None = None) -> str:
        # One word (or tag) rendered by the core with the palette, so styles are render_result's.
        words = [] if verbatim is None and status is None else [{"start": 0, "end": len(text), "text": text, "verbatim": bool(verbatim)}]
        quotes = [] if status is None else [{"start": 0, "end": len(text), "status": status}]
        rendered = _answer.render_words({"words": words, "quotes": quotes}, text, palette=self._palette, color=self._color)
        return rendered if text.endswith("\n") else rendered[:-1]

    def _emit(self, text: str) -> None:
        if text:
            self._file.write(text)
            self._file.flush()

    def feed(self, chunk: str) -> None:
        if self._check.feed(chunk):
            self._print(final=False)

    def _print(self, final: bool) -> None:
        check = self._check
        words, quotes, closed, size = check.words, check.quotes, check.closed, len(check.text)
        out = []
        for word in words[self._words:check.decided]:
            out.append(self._tags(quotes, closed, word["start"]))
            out.append(self._styled(check.text[self._printed:word["start"]]))
            out.append(self._styled(check.text[word["start"]:word["end"]], verbatim=word["verbatim"]))
            self._printed = word["end"]
        self._words = max(self._words, check.decided)
        out.append(self._tags(quotes, closed, self._printed))
        if final:
            out.append(self._tags(quotes, closed, size + 1))
            out.append(self._styled(check.text[self._printed:]))
            self._printed = size
        self._emit("".join(out))

    def _tags(self, quotes: list[dict[str, Any]], closed: int, before: int) -> str:
        # Each closed quotation's verdict, right after its closing mark once the print reaches it.
        out = []
        while self._quotes < closed and quotes[self._quotes]["end"] <= before:
            quote = quotes[self._quotes]
            after = min(self._check.after_mark(quote), len(self.text))
            out.append(self._styled(self.text[self._printed:after]))
            self._printed = after
            out.append(" " + self._styled(f"[quote {self._quotes + 1}: {quote['status']}]", status=quote["status"]))
            self._quotes += 1
        return "".join(out)

    def finish(self) -> dict[str, Any]:
        try:
            result = self._check.finish()
            self._print(final=True)
            if not self.text.endswith("\n"):
                self._emit("\n")
            if self._print_stats:
                self._emit(_answer.answer_summary_text(result))
            return result
        finally:
            self._stack.close()

    def close(self) -> None:
        self._stack.close()


def _auto_color(file: IO[str]) -> bool:
    """The CLIs' --color auto for the stream printer's file (docs/answers.md "Highlighting")."""
    try:
        terminal = file.isatty()
    except (AttributeError, ValueError, OSError):
        terminal = False
    return terminal and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


class StreamedAnswer(Iterator[Any]):
    """The chunks of a decorated function's iterator, unchanged; ``.result`` once exhausted."""

    def __init__(self, chunks: Iterator[Any], printer: _Printer) -> None:
        self._chunks, self._printer = chunks, printer
        self._pending: Any = None
        self._done = False
        self.result: dict[str, Any] | None = None

    def __iter__(self) -> StreamedAnswer:
        return self

    def __next__(self) -> Any:
        if self._done:
            raise StopIteration
        # The chunk handed out last is checked now, when the caller comes back for the next one:
        # a chunk is never held back for the check.
        if self._pending is not None:
            self._printer.feed(_chunk_text(self._pending))
            self._pending = None
        try:
            chunk = next(self._chunks)
        except StopIteration:
            self._done = True
            self.result = self._printer.finish()
            raise
        except BaseException:
            self._printer.close()
            raise
        self._pending = chunk
        return chunk


class AsyncStreamedAnswer(AsyncIterator[Any]):
    """The chunks of a decorated function's async iterator, unchanged; ``.result`` once exhausted."""

    def __init__(self, chunks: AsyncIterator[Any], printer: _Printer) -> None:
        self._chunks, self._printer = chunks, printer
        self._pending: Any = None
        self._done = False
        self.result: dict[str, Any] | None = None

    def __aiter__(self) -> AsyncStreamedAnswer:
        return self

    async def __anext__(self) -> Any:
        if self._done:
            raise StopAsyncIteration
        if self._pending is not None:
            self._printer.feed(_chunk_text(self._pending))
            self._pending = None
        try:
            chunk = await self._chunks.__anext__()
        except StopAsyncIteration:
            self._done = True
            self.result = self._printer.finish()
            raise
        except BaseException:
            self._printer.close()
            raise
        self._pending = chunk
        return chunk


def verify_answer(
    source: Any = None,
    *,
    source_arg: str = "context",
    scope: str = "all",
    ngram: int = 3,
    policy: str | None = None,
    palette: str = "classic",
    color: bool | None = None,
    print_stats: bool = True,
    file: IO[str] | None = None,
) -> Callable[[F], F]:
    """Checks what the decorated function answers against its sources while it arrives.

    The function returns a ``str``, an iterator or an async iterator of text chunks (``str``,
    LangChain message chunks, OpenAI-style chunks), or is a coroutine returning a ``str``. Chunks
    pass through unchanged; after each one, the words it decided are printed to ``file``
    (default ``sys.stderr``) in their verdict's style, and each quotation's verdict as a tag after
    its closing mark; ``print_stats`` prints the summary at the end. A word is decided once
    ``ngram - 1`` complete words follow it (or the answer ended); under ``scope="quotes"`` when its
    quotation closes. The check of the whole answer is ``.result``: on the returned ``str``
    (an ``AnswerText``), or on the iterator wrapper once exhausted.

    The sources: the call's ``source_arg`` argument when given and not ``None``, else ``source``;
    a ``str`` is literal text, a ``pathlib.Path``, ``Document`` or ``bytes`` a file (a PDF is
    parsed), a list several sources. ``color=None`` highlights only when ``file`` is a terminal and
    ``NO_COLOR`` is unset, as the CLIs' ``--color auto``.

        >>> import io
        >>> out = io.StringIO()
        >>> @verify_answer(source="the quick brown fox jumps", print_stats=False, file=out)
        ... def answer(question):
        ...     yield from ["So the quick ", "brown fox ", "jumps high."]
        >>> stream = answer("what jumps?")
        >>> "".join(stream), out.getvalue(), stream.result["summary"]["verbatim_words"]
        ('So the quick brown fox jumps high.', 'So the quick brown fox jumps high.\\n', 5)
    """

    def decorate(function: F) -> F:
        signature = inspect.signature(function)

        def printer_for(args: tuple[Any, ...], kwargs: dict[str, Any]) -> _Printer:
            chosen = source
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError:
                bound = None
            if bound is not None and bound.arguments.get(source_arg) is not None:
                chosen = bound.arguments[source_arg]  # the runtime value wins over the static one
            if chosen is None:
                raise ValueError(f"verify_answer: no source (give source= or the {source_arg!r} argument)")
            return _Printer(chosen, scope, ngram, policy, palette, color, print_stats, file)

        def checked_text(text: str, printer: _Printer) -> AnswerText:
            printer.feed(text)
            out = AnswerText(text)
            out.result = printer.finish()
            return out

        if inspect.iscoroutinefunction(function):

            @functools.wraps(function)
            async def wrapper_async(*args: Any, **kwargs: Any) -> Any:
                value = await function(*args, **kwargs)
                return checked_text(value, printer_for(args, kwargs)) if isinstance(value, str) else value

            return wrapper_async  # type: ignore[return-value]

        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            value = function(*args, **kwargs)
            if isinstance(value, str):
                return checked_text(value, printer_for(args, kwargs))
            if hasattr(value, "__anext__"):
                return AsyncStreamedAnswer(value, printer_for(args, kwargs))
            if hasattr(value, "__next__") or hasattr(value, "__iter__"):
                return StreamedAnswer(iter(value), printer_for(args, kwargs))
            return value

        return wrapper  # type: ignore[return-value]

    return decorate
