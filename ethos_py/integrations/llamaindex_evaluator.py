"""llamaindex_evaluator - EthosEvaluator, a deterministic LlamaIndex evaluator beside FaithfulnessEvaluator: quotations and verbatim coverage checked by Ethos, no LLM.

    pip install 'ethos-verify[llamaindex]'

``scope="quotes"`` (default): every quotation in the response is verified against the sources with
the full matching ladder and guards (``ethos_py.check_answer``); the result passes when every
quotation is grounded and there is at least one (a response that stops quoting does not pass
silently); the score is the grounded share of quotations. ``scope="all"``: the score is the share
of the response's words in verbatim runs of at least ``ngram`` words, passing at ``min_share``.
The feedback is the answer check's summary text (runs, quotations, the gate's reason).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from llama_index.core.evaluation import BaseEvaluator, EvaluationResult
from llama_index.core.prompts.mixin import PromptDictType

from ..answer import answer_summary_text, check_answer
from ..document import Document

__all__ = ["EthosEvaluator"]


class EthosEvaluator(BaseEvaluator):
    """Grades a response by what Ethos finds of it in the sources.

    ``source`` (a ``Document``, a path, a PDF, or several) is what the response is checked against;
    without it, the ``contexts`` of each evaluation (the retrieved texts) are the sources.

        >>> result = EthosEvaluator().evaluate(
        ...     response='The report says "the pilot cut average response time by 30%".',
        ...     contexts=["The pilot cut average response time by 30% across all regions."])
        >>> result.passing, result.score
        (True, 1.0)
    """

    def __init__(self, source: Document | str | os.PathLike[str] | Sequence[Document | str | os.PathLike[str]] | None = None,
                 *, scope: str = "quotes", ngram: int = 3, min_share: float = 0.5, policy: str | None = None) -> None:
        if scope not in ("quotes", "all"):
            raise ValueError(f"scope must be 'quotes' or 'all', not {scope!r}")
        self.source, self.scope, self.ngram, self.min_share, self.policy = source, scope, ngram, min_share, policy

    def _get_prompts(self) -> PromptDictType:
        return {}  # no LLM, no prompts

    def _update_prompts(self, prompts_dict: PromptDictType) -> None:
        del prompts_dict

    def evaluate(self, query: str | None = None, response: str | None = None, contexts: Sequence[str] | None = None,
                 **kwargs: Any) -> EvaluationResult:
        """Checks ``response`` against ``source`` or else ``contexts``; deterministic and in process."""
        del kwargs
        if response is None:
            raise ValueError("EthosEvaluator needs a response")
        if self.source is None and not contexts:
            return EvaluationResult(query=query, response=response, contexts=contexts, passing=False, score=0.0,
                                    invalid_result=True, invalid_reason="no source and no contexts to check the response against")
        result = check_answer(response, self.source, scope=self.scope, ngram=self.ngram, policy=self.policy,
                              source_text=None if self.source is not None else list(contexts or ()))
        summary = result["summary"]
        if self.scope == "quotes":
            quotes = summary["quotes"]
            score = summary["quotes_grounded"] / quotes if quotes else 0.0
            passing = bool(result["gate"]["passed"])
        else:
            score = summary["verbatim_share_bp"] / 10000
            passing = score >= self.min_share
        return EvaluationResult(query=query, response=response, contexts=contexts, passing=passing, score=score,
                                feedback=answer_summary_text(result))

    async def aevaluate(self, query: str | None = None, response: str | None = None,
                        contexts: Sequence[str] | None = None, **kwargs: Any) -> EvaluationResult:
        """``evaluate``: the check is in process and takes milliseconds, so it runs inline."""
        return self.evaluate(query, response, contexts, **kwargs)
