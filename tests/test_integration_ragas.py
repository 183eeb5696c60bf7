"""test_integration_ragas - EthosGrounding inside the real ragas: evaluate() over an EvaluationDataset scores
each row by Ethos's verdicts on its quotations (a changed figure scores 0, an answer without quotations
scores 0), the verbatim share under scope="all", a fixed source instead of the contexts, the same
scores on every run, and the example; no LLM, no key, no network."""

from __future__ import annotations

import asyncio
import math
import subprocess
import sys
from pathlib import Path

import pytest


from ragas import EvaluationDataset, evaluate
from ragas.dataset_schema import SingleTurnSample

from ethos_py.integrations.ragas_metric import EthosGrounding

CONTEXT = "The pilot cut average response time by 30% across all regions. Costs did not rise in the first year."
ROWS = [
    {"user_input": "What did the pilot do?", "response": 'The report says "the pilot cut average response time by 30%".',
     "retrieved_contexts": [CONTEXT]},
    {"user_input": "What did the pilot do?", "response": 'The report says "the pilot cut average response time by 40%".',
     "retrieved_contexts": [CONTEXT]},
    {"user_input": "Did costs rise?", "response": 'It says "costs did rise in the first year" and "the pilot cut average response time".',
     "retrieved_contexts": [CONTEXT]},
    {"user_input": "What did the pilot do?", "response": "The pilot made things faster.", "retrieved_contexts": [CONTEXT]},
]


@pytest.fixture(autouse=True)
def _no_ragas_analytics(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGAS_DO_NOT_TRACK", "true")


def _scores(metric: EthosGrounding, rows: list[dict[str, object]]) -> list[float]:
    result = evaluate(EvaluationDataset.from_list(rows), metrics=[metric], show_progress=False, raise_exceptions=True)
    return [float(value) for value in result.to_pandas()[metric.name].tolist()]


def test_evaluate_scores_each_row_by_its_quotations() -> None:
    # grounded; a figure changed (numeric guard); one of two quotations negated; no quotation at all
    assert _scores(EthosGrounding(), ROWS) == [1.0, 0.0, 0.5, 0.0]


def test_the_verbatim_share_counts_words_in_runs_of_the_contexts() -> None:
    metric = EthosGrounding(scope="all")
    assert metric.name == "ethos_verbatim_share"
    scores = _scores(metric, ROWS)
    assert scores[0] > 0.7 and scores[3] == 0.0, scores  # the quoting answer is mostly verbatim; the paraphrase not
    assert all(0.0 <= score <= 1.0 and not math.isnan(score) for score in scores)


def test_a_fixed_source_replaces_the_contexts() -> None:
    metric = EthosGrounding(source="examples/quickstart/document.json")
    assert metric.required_columns["SINGLE_TURN"] == {"response"}
    sample = SingleTurnSample(response='It "cut average response time by 30%".')
    assert asyncio.run(metric.single_turn_ascore(sample)) == 1.0


def test_scores_are_the_same_on_every_run_and_need_a_source() -> None:
    assert _scores(EthosGrounding(), ROWS) == _scores(EthosGrounding(), ROWS)
    with pytest.raises(ValueError, match="retrieved_contexts"):
        EthosGrounding().score_response("anything", [])
    with pytest.raises(ValueError, match="scope"):
        EthosGrounding(scope="words")


def test_the_example_prints_both_scores_of_each_row(tmp_path: Path) -> None:
    script = Path(__file__).resolve().parents[1] / "examples" / "ragas" / "evaluate_with_ragas.py"
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(" quotations")[0] for line in lines] == ["1.00", "0.00"], lines
    assert all("of words verbatim" in line for line in lines)
