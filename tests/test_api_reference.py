"""test_api_reference.py - every public name of ethos_py documents an example, the examples run, and docs/api-reference.md is current."""
from __future__ import annotations

import doctest
import importlib
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

REPO_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_DIR / "tools"))
import gen_api_reference  # noqa: E402

# Modules whose doctests tests/test_emit.py already runs (emit, handles, presentation, integrations).
DOCTESTED_HERE = [
    "errors", "proof", "document", "artifacts", "pdf", "cli_wrapper", "cli", "release", "demo",
    "evidence_anchor", "crops", "grounding", "answer", "verbatimeter_compat", "testing", "reply_extract",
    "reply_verify", "edits", "redlines", "normalization", "annotate", "jsonl_pipeline",
    "report_html", "report_html_corpus", "notebook",
    "calibration", "repair_pipeline", "calibrate_command", "repair_command", "sensitivity_command", "_manifest",
    "batch", "batch_command", "batch_summary", "distributed", "sensitivity", "sensitivity_text",
]


def _public_callables() -> list[tuple[str, object]]:
    import ethos_py

    found: dict[str, object] = {}
    for name in ethos_py.__all__:
        value = getattr(ethos_py, name)
        if inspect.isfunction(value) or inspect.isclass(value):
            found[f"ethos_py.{name}"] = value
    for module_name in gen_api_reference.MODULES:
        for name, value in gen_api_reference.public_objects(importlib.import_module(module_name)):
            found[f"{module_name}.{name}"] = value
    return sorted(found.items())


def test_the_public_surface_is_large_enough_to_mean_something() -> None:
    assert len(_public_callables()) >= 60


@pytest.mark.parametrize(("qualname", "value"), _public_callables(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_public_function_and_class_has_a_docstring_example(qualname: str, value: object) -> None:
    doc = inspect.getdoc(value) or ""
    assert ">>>" in doc, f"{qualname}: the docstring needs a short example"


@pytest.mark.parametrize("module", DOCTESTED_HERE)
def test_docstring_examples_run(module: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO_DIR)  # examples name repository files by relative path
    loaded = importlib.import_module(f"ethos_py.{module}")
    results = doctest.testmod(loaded, optionflags=doctest.ELLIPSIS)
    assert results.failed == 0
    assert results.attempted > 0


def test_api_reference_is_up_to_date() -> None:
    done = subprocess.run([sys.executable, str(REPO_DIR / "tools" / "gen_api_reference.py"), "--check"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr


def test_api_reference_lists_every_top_level_name() -> None:
    import ethos_py

    text = (REPO_DIR / "docs" / "api-reference.md").read_text(encoding="utf-8")
    for name in ethos_py.__all__:
        assert f"- `{name}`" in text, name
    assert "(undocumented)" not in text
