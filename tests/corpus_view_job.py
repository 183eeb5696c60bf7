"""corpus_view_job - a small real ``ethos batch`` job for the corpus view's tests: generated PDFs (one with markup in its file name), claims of every kind, grounded and not, a hostile claim failing in two documents, a record naming no document."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import harness
from pdf_fixtures import text_pdf

ETHOS = [sys.executable, "-m", "ethos_py.cli"]
#: Markup, a remote image and a bidi override: it must reach the page as text.
HOSTILE_CLAIM = '<script>document.title="pwned"</script><img src="http://127.0.0.1:9/leak.png">\u202e'
#: A corpus path is a document's label on the page: one holding markup.
HOSTILE_LABEL = "q<b>&amp;'x.pdf"
LINES = {
    "alpha.pdf": ["Alpha sales rose 4% in the second quarter.", "Alpha hired 12 engineers."],
    "beta.pdf": ["Beta closed its Leeds office in May.", "Beta revenue reached 8.1 million."],
    "gamma.pdf": ["Gamma recalled 300 heaters.", "Gamma paid no dividend this year."],
    HOSTILE_LABEL: ["Quux opened a plant in Ghent."],
}


def make_job(root: Path, repeat: int = 1) -> Path:
    """The corpus under ``root/corpus`` and ``root/claims.jsonl`` (its records ``repeat`` times over); returns ``root``."""
    corpus = root / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    for name, lines in LINES.items():
        (corpus / name).write_bytes(text_pdf([lines]))
    records: list[Any] = []
    for _ in range(repeat):
        records += [
            {"claim": "Alpha sales rose 4% in the second quarter", "document": "alpha.pdf"},
            {"claim": "ALPHA HIRED 12 ENGINEERS", "document": "alpha.pdf"},
            {"claim": "Alpha hired 14 engineers", "document": "alpha.pdf"},
            {"claim": "Beta closed its Leeds office in May", "document": "beta.pdf"},
            {"claim": "Beta revenue reached 8.1 million", "document": "beta.pdf"},
            {"claim": "Gamma recalled 300 heaters", "document": "gamma.pdf", "kind": "presence"},
            {"claim": "Revenue fell", "document": "gamma.pdf"},
            {"claim": "Revenue fell", "document": "beta.pdf"},
            {"claim": HOSTILE_CLAIM, "document": "gamma.pdf"},
            {"claim": HOSTILE_CLAIM, "document": "alpha.pdf"},
            {"claim": "Quux opened a plant in Ghent", "document": HOSTILE_LABEL},
            {"claim": "Quux closed a plant in Ghent", "document": HOSTILE_LABEL},
            {"claim": "Quux closed", "document": HOSTILE_LABEL, "kind": "guess"},
            {"claim": "x", "document": "nowhere.pdf"},
        ]
    (root / "claims.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return root


def env(root: Path) -> dict[str, str]:
    return {**os.environ, "ETHOS_CACHE_DIR": str(root / "cache")}


def ethos(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``ethos ARGS`` run in ``root`` (its own parse cache)."""
    return subprocess.run([*ETHOS, *args], cwd=root, capture_output=True, text=True, env=env(root),
                          timeout=harness.SUBPROCESS_TIMEOUT, check=False)


def batch(root: Path, out: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``ethos batch claims.jsonl --corpus corpus -o OUT ARGS`` in ``root``."""
    return ethos(root, "batch", "claims.jsonl", "--corpus", "corpus", "-o", out, "--quiet", *args)
