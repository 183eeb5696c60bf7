"""_answer_incremental - the answer received so far, checked after each chunk: which words and quotations are decided (behind verify_answer and the LangChain EthosAnswerVerifier)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import answer as _answer
from .document import Document

__all__ = ["IncrementalAnswerCheck"]

# Every character that may open or close a quotation (docs/answers.md "Quotations"): a text
# without any has no quotation to look for.
# Single quotes are the marks whose meaning waits for the next character (an apostrophe when a
# letter follows).
_SINGLE_QUOTES = frozenset("'\u2018\u2019\u201a")
_QUOTE_MARKS = frozenset("\"'\u201c\u201d\u201e\u00ab\u00bb\u300c\u300d\u300e\u300f\u201a\u2018\u2019")


class IncrementalAnswerCheck:
    """Checks the answer received so far after each chunk. After ``feed`` or ``finish``:
    ``words`` and ``quotes`` are the last check's (answer offsets), ``decided`` how many of the
    words have their final verdict (never fewer than before) and ``closed`` how many quotations
    are closed, so their verdicts are final. ``finish`` returns the check of the whole answer,
    ``check_answer(text, documents, ...)`` byte for byte. The documents stay the caller's."""

    def __init__(self, documents: Sequence[Document], scope: str, ngram: int, policy: str | None) -> None:
        if scope not in ("all", "quotes"):
            raise ValueError("scope must be 'all' or 'quotes'")
        self._documents = list(documents)
        self._scope, self._ngram, self._policy = scope, ngram, policy
        self.text = ""
        self.words: list[dict[str, Any]] = []
        self.quotes: list[dict[str, Any]] = []
        self.decided = 0
        self.closed = 0
        # Quotation marks in the answer so far, and the quotations of the last check that looked
        # for them: with that many marks, and when the text then did not end with a mark.
        self._marks = 0
        self._quotes_seen: tuple[int, bool, list[dict[str, Any]]] = (0, False, [])

    def feed(self, chunk: str) -> bool:
        """Adds a chunk of text and checks again; False (nothing checked) for an empty chunk."""
        if not chunk:
            return False
        self.text += chunk
        self._marks += sum(1 for c in chunk if c in _QUOTE_MARKS)
        self._advance(final=False)
        return True

    def finish(self) -> dict[str, Any]:
        """The answer ended: every word and quotation is decided; the check of the whole answer."""
        return self._advance(final=True)

    def _check(self) -> dict[str, Any]:
        return _answer.check_answer(self.text, self._documents, scope=self._scope, ngram=self._ngram, policy=self._policy)

    def _check_tail(self) -> dict[str, Any] | None:
        """Under scope all, the words of the answer from the first one an undecided word may share
        an ngram-word window with, checked on their own, with answer offsets: a word's verdict
        depends only on the windows holding it, so these words get the verdicts a check of the
        whole answer gives, at a cost that no longer grows with the answer. The quotations, when
        the answer has a quotation mark, come from a scope-quotes check of the whole answer (the
        same quotations and verdicts, without measuring every word). None when the whole answer
        must be checked (scope quotes, nothing decided yet)."""
        first = self.decided - (self._ngram - 1)
        if self._scope != "all" or first <= 0 or first >= len(self.words):
            return None
        base = int(self.words[first]["start"])
        tail = _answer.check_answer(self.text[base:], self._documents, scope="all", ngram=self._ngram, policy=self._policy)
        shifted = [{**word, "start": word["start"] + base, "end": word["end"] + base} for word in tail["words"]]
        return {"words": self.words[:first] + shifted, "quotes": self._quotations()}

    def _quotations(self) -> list[dict[str, Any]]:
        """The whole answer's quotations and verdicts. Which spans are quotations changes only when
        a mark arrives or the character after a single quote does (an apostrophe when a letter
        follows it), and a quotation's verdict depends on its text alone: between those,
        the last list stands, and no quotation is verified again."""
        marks, after_mark, quotes = self._quotes_seen
        if self._marks == 0:
            return []
        if self._marks != marks or after_mark:
            quotes = _answer.check_answer(self.text, self._documents, scope="quotes", ngram=self._ngram,
                                          policy=self._policy)["quotes"]
            self._quotes_seen = (self._marks, self.text[-1] in _SINGLE_QUOTES, quotes)
        return quotes

    def after_mark(self, quote: dict[str, Any]) -> int:
        """Just after a quotation's closing mark: its text ends before the mark, and « » may pad
        the text with spaces inside the marks."""
        pos = int(quote["end"])
        while pos < len(self.text) and self.text[pos].isspace():
            pos += 1
        return pos + 1

    def _advance(self, final: bool) -> dict[str, Any]:
        result = (None if final else self._check_tail()) or self._check()
        words, quotes, size = result["words"], result["quotes"], len(self.text)
        self.words, self.quotes = words, quotes
        # A quotation is closed once a character follows its closing mark (or the answer ended).
        self.closed = len(quotes) if final else sum(1 for quote in quotes if self.after_mark(quote) < size)
        if self._scope == "all":
            # The last word may still grow; a word is verbatim when one of the ngram-word windows
            # holding it is in a source, so it is decided once ngram - 1 complete words follow it.
            complete = len(words) if final or not words or words[-1]["end"] < size else len(words) - 1
            decided = complete if final else max(0, complete - (self._ngram - 1))
        else:
            # Each quotation is measured on its own: its words are decided when it closes.
            limit = quotes[self.closed - 1]["end"] if self.closed else -1
            decided = sum(1 for word in words if word["end"] <= limit)
        self.decided = max(self.decided, decided)
        return result
