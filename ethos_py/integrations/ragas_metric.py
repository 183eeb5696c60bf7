"""ragas_metric - EthosGrounding, a deterministic ragas metric: the response's quotations (or its words) checked against the contexts by Ethos, no LLM.

    pip install 'ethos-verify[ragas]'

ragas scores RAG answers with metrics over ``SingleTurnSample`` rows (``response``,
``retrieved_contexts``, ...). ``EthosGrounding`` is one of them, beside ragas's LLM-judged
``Faithfulness``: ``scope="quotes"`` (default, column ``ethos_quote_grounding``) is the share of the
response's quotations that Ethos grounds in the contexts with the full matching ladder and its
guards (a changed figure or negation is not grounded; a response with no quotation scores 0, so an
answer that stops quoting does not score well silently); ``scope="all"`` (column
``ethos_verbatim_share``) is the share of the response's words in verbatim runs of at least
``ngram`` words. With ``source`` (a ``Document``, a path, a PDF, or several) every response is
checked against it instead of the row's contexts. Set ``RAGAS_DO_NOT_TRACK=true`` to keep ragas's
own usage analytics off.
"""

from __future__ import annotations

import os
import typing as t
from collections.abc import Sequence
from dataclasses import dataclass, field

from langchain_core.callbacks import Callbacks
from ragas.dataset_schema import SingleTurnSample
from ragas.metrics.base import MetricOutputType, MetricType, SingleTurnMetric
from ragas.run_config import RunConfig

from ..answer import check_answer
from ..document import Document

__all__ = ["EthosGrounding"]

SourceInput = t.Union[Document, str, "os.PathLike[str]", Sequence[t.Union[Document, str, "os.PathLike[str]"]]]


@dataclass
class EthosGrounding(SingleTurnMetric):
    """The share of a response's quotations (or words) Ethos finds in its sources; deterministic.

        >>> import asyncio
        >>> from ragas.dataset_schema import SingleTurnSample
        >>> metric = EthosGrounding()
        >>> sample = SingleTurnSample(response='It says "the pilot cut average response time by 30%".',
        ...     retrieved_contexts=["The pilot cut average response time by 30% across all regions."])
        >>> metric.name, asyncio.run(metric.single_turn_ascore(sample))
        ('ethos_quote_grounding', 1.0)
    """

    name: str = ""
    _required_columns: t.Dict[MetricType, t.Set[str]] = field(default_factory=dict)
    output_type: t.Optional[MetricOutputType] = MetricOutputType.CONTINUOUS
    source: t.Optional[SourceInput] = None
    scope: str = "quotes"
    ngram: int = 3
    policy: t.Optional[str] = None

    def __post_init__(self) -> None:
        if self.scope not in ("quotes", "all"):
            raise ValueError(f"scope must be 'quotes' or 'all', not {self.scope!r}")
        if not self.name:
            self.name = "ethos_quote_grounding" if self.scope == "quotes" else "ethos_verbatim_share"
        if not self._required_columns:
            columns = {"response"} if self.source is not None else {"response", "retrieved_contexts"}
            self._required_columns = {MetricType.SINGLE_TURN: columns}
        super().__post_init__()  # type: ignore[no-untyped-call]  # ragas leaves it unannotated

    def init(self, run_config: RunConfig) -> None:
        """Nothing to set up: no model, no client."""
        del run_config

    def score_response(self, response: str, contexts: Sequence[str] | None = None) -> float:
        """The score of one response against ``source`` or else ``contexts``.

            >>> EthosGrounding().score_response('It "cut average response time by 40%".',
            ...     ["The pilot cut average response time by 30% across all regions."])
            0.0
        """
        if self.source is None and not contexts:
            raise ValueError("EthosGrounding needs retrieved_contexts (or a source) to check the response against")
        result = check_answer(response, self.source, scope=self.scope, ngram=self.ngram, policy=self.policy,
                              source_text=None if self.source is not None else list(contexts or ()))
        summary = result["summary"]
        if self.scope == "quotes":
            quotes = summary["quotes"]
            return summary["quotes_grounded"] / quotes if quotes else 0.0
        return float(summary["verbatim_share_bp"]) / 10000

    async def _single_turn_ascore(self, sample: SingleTurnSample, callbacks: Callbacks) -> float:
        """``score_response`` of the sample (in process, milliseconds: it runs inline)."""
        del callbacks
        if not isinstance(sample.response, str):
            raise ValueError("EthosGrounding needs the sample's response as a string")
        return self.score_response(sample.response, sample.retrieved_contexts)

    async def _ascore(self, row: t.Dict[str, t.Any], callbacks: Callbacks) -> float:
        return await self._single_turn_ascore(SingleTurnSample(**row), callbacks)
