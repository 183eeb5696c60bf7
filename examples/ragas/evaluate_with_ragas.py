"""evaluate_with_ragas - ragas's evaluate() with Ethos's deterministic grounding metric: no LLM, no key.

    pip install 'ethos-verify[ragas]'
    python examples/ragas/evaluate_with_ragas.py
"""

from __future__ import annotations

import os

from ragas import EvaluationDataset, evaluate

from ethos_py.integrations.ragas_metric import EthosGrounding

os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")  # ragas's own usage analytics off

CONTEXT = "The pilot cut average response time by 30% across all regions. Costs did not rise in the first year."
rows = [
    {"user_input": "What did the pilot do?", "response": 'The report says "the pilot cut average response time by 30%".',
     "retrieved_contexts": [CONTEXT]},
    {"user_input": "What did the pilot do?", "response": 'The report says "the pilot cut average response time by 40%".',
     "retrieved_contexts": [CONTEXT]},
]

result = evaluate(EvaluationDataset.from_list(rows), metrics=[EthosGrounding(), EthosGrounding(scope="all")],
                  show_progress=False)
table = result.to_pandas()
for _, row in table.iterrows():
    print(f"{row['ethos_quote_grounding']:.2f} quotations grounded, {row['ethos_verbatim_share']:.2f} of words verbatim: {row['response']}")
