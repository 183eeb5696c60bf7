"""openai_style - @ethos_py.verify_answer on an OpenAI-style chat completion stream (scripted chunks: no key, no network)."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import ethos_py

HERE = Path(__file__).resolve().parent
DOCUMENT = HERE.parent / "quickstart" / "document.json"

# What a model might stream, cut where a tokenizer would: one quotation exact, one with a changed figure.
SCRIPT = (
    'The report says the pilot "cut average response time by 30%", and that '
    "“satisfaction rose to 95% in the final month”. Rollout is planned next."
)


def fake_completion_stream(text: str) -> Iterator[Any]:
    """Chunks shaped like ``client.chat.completions.create(..., stream=True)``'s."""
    for start in range(0, len(text), 6):
        time.sleep(0.01)  # the network's pace
        yield SimpleNamespace(choices=[SimpleNamespace(delta=SimpleNamespace(content=text[start:start + 6]))])
    yield SimpleNamespace(choices=[SimpleNamespace(delta=SimpleNamespace(content=None), finish_reason="stop")])


# The static source is the parsed document (a Path: a str would be literal text); a call may pass
# its own `context` instead, which wins.
@ethos_py.verify_answer(source=DOCUMENT, palette="classic", print_stats=True)
def answer(question: str, context: Any = None) -> Iterator[Any]:
    # With the real client: return client.chat.completions.create(model=..., messages=[...], stream=True)
    return fake_completion_stream(SCRIPT)


if __name__ == "__main__":
    stream = answer("What did the pilot achieve?")
    for chunk in stream:  # the chunks arrive unchanged; verdicts go to stderr as words are decided
        sys.stdout.write(chunk.choices[0].delta.content or "")
        sys.stdout.flush()
    sys.stdout.write("\n")
    assert stream.result is not None
    print("gate passed:", stream.result["gate"]["passed"])
