"""gen_api_reference.py - writes docs/api-reference.md from the docstrings and signatures of ethos_py's public names.

Usage: python tools/gen_api_reference.py [--check]

The public surface is ``ethos_py.__all__`` plus the ``__all__`` of each public submodule listed in
MODULES. Each function, class, method and property is listed with its signature and its docstring
(examples included) as written in the source, so the reference never drifts from the code; the
test suite runs this script with ``--check`` (tests/test_api_reference.py). Needs the native
library (as ``import ethos_py.document`` does), because the in-process modules load it.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generated_file import write_or_check  # noqa: E402

REPO_DIR = Path(__file__).resolve().parents[1]
OUTPUT = REPO_DIR / "docs" / "api-reference.md"

# The public modules, in reading order: the in-process core, the subprocess wrapper, errors,
# release decisions, citation emission, and the framework adapters (optional extras).
MODULES = (
    "ethos_py.document",
    "ethos_py.proof",
    "ethos_py.artifacts",
    "ethos_py.release",
    "ethos_py.pdf",
    "ethos_py.cli_wrapper",
    "ethos_py.evidence_anchor",
    "ethos_py.crops",
    "ethos_py.grounding",
    "ethos_py.answer",
    "ethos_py.verbatimeter_compat",
    "ethos_py.annotate",
    "ethos_py.report_html",
    "ethos_py.report_html_corpus",
    "ethos_py.notebook",
    "ethos_py.jsonl_pipeline",
    "ethos_py.calibration",
    "ethos_py.repair_pipeline",
    "ethos_py.sensitivity",
    "ethos_py.sensitivity_text",
    "ethos_py.batch",
    "ethos_py.batch_summary",
    "ethos_py.distributed",
    "ethos_py.testing",
    "ethos_py.reply_extract",
    "ethos_py.reply_verify",
    "ethos_py.edits",
    "ethos_py.normalization",
    "ethos_py.redlines",
    "ethos_py.errors",
    "ethos_py.emit",
    "ethos_py.handles",
    "ethos_py.presentation",
    "ethos_py.demo",
    "ethos_py.cli",
    "ethos_py.integrations",
    "ethos_py.integrations.langchain",
    "ethos_py.integrations.langchain_loader",
    "ethos_py.integrations.langchain_parser",
    "ethos_py.integrations.langchain_verifier",
    "ethos_py.integrations.langchain_answer_verifier",
    "ethos_py.integrations.llamaindex",
    "ethos_py.integrations.llamaindex_evaluator",
    "ethos_py.integrations.llamaindex_postprocessor",
    "ethos_py.integrations.llamaindex_reader",
    "ethos_py.integrations.ragas_metric",
)


def public_objects(module: Any) -> list[tuple[str, Any]]:
    """(name, object) for the functions and classes a module exports, defined in the package."""
    out = []
    for name in getattr(module, "__all__", ()):
        value = getattr(module, name)
        if (inspect.isfunction(value) or inspect.isclass(value)) and value.__module__.startswith("ethos_py"):
            out.append((name, value))
    return out


class _Annotation:
    """An annotation kept as the source spells it (the package uses postponed annotations)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _signature(value: Any) -> str:
    if inspect.isclass(value):
        # The constructor the package defines; a class that inherits a builtin one (an exception
        # without __init__) is shown as "(*args)", whatever this Python's inspect says about builtins.
        own_init = any("__init__" in vars(k) and k.__module__.startswith("ethos_py") for k in value.__mro__)
        if not own_init:
            return "(*args)"
    try:
        signature = inspect.signature(value)
    except (TypeError, ValueError):
        return "(*args)"

    def unquoted(annotation: Any) -> Any:
        return _Annotation(annotation) if isinstance(annotation, str) else annotation

    parameters = [p.replace(annotation=unquoted(p.annotation)) for p in signature.parameters.values()]
    return str(signature.replace(parameters=parameters, return_annotation=unquoted(signature.return_annotation)))


def _doc(value: Any) -> str:
    return inspect.cleandoc(value.__doc__) if value.__doc__ else "(undocumented)"


def _members(cls: type) -> list[tuple[str, Any]]:
    """Public methods and properties defined on the class itself, in source order."""
    members = []
    for name, raw in vars(cls).items():
        if name.startswith("_") and name != "__init__":
            continue
        function = raw.__func__ if isinstance(raw, (classmethod, staticmethod)) else raw
        if isinstance(raw, property) or inspect.isfunction(function):
            if name == "__init__" and not raw.__doc__:
                continue
            members.append((name, raw))
    return members


def _render_member(cls: type, name: str, raw: Any) -> list[str]:
    if isinstance(raw, property):
        heading = f"#### `{cls.__name__}.{name}` (property)"
        doc = _doc(raw)
    else:
        function = raw.__func__ if isinstance(raw, (classmethod, staticmethod)) else raw
        kind = "classmethod " if isinstance(raw, classmethod) else ("staticmethod " if isinstance(raw, staticmethod) else "")
        heading = f"#### `{kind}{cls.__name__}.{name}{_signature(function)}`"
        doc = _doc(function)
    return [heading, "", "```text", doc, "```", ""]


def documented_objects() -> list[tuple[str, list[tuple[str, Any]]]]:
    """Per public module, the objects documented under it: those it defines, plus those a private
    module defines and it exports first (so every object appears exactly once)."""
    seen: set[int] = set()
    out = []
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        objects = []
        for name, value in public_objects(module):
            defined_in = value.__module__
            if id(value) in seen or (defined_in != module_name and "._" not in defined_in):
                continue  # listed under the module that defines it
            seen.add(id(value))
            objects.append((name, value))
        out.append((module_name, objects))
    return out


def render() -> str:
    import ethos_py

    sections = documented_objects()
    home = {id(value): module_name for module_name, objects in sections for _, value in objects}
    lines = [
        "# ethos_py API reference",
        "",
        "Generated by `tools/gen_api_reference.py` from the docstrings and signatures in `ethos_py/`;",
        "do not edit by hand (the tests fail when it is out of date). The guide is",
        "[python-api.md](python-api.md). Examples in the docstrings run as doctests from the",
        "repository root.",
        "",
        "## Top-level names (`import ethos_py`)",
        "",
    ]
    for name in sorted(ethos_py.__all__):
        value = getattr(ethos_py, name)
        lines.append(f"- `{name}` — `{home.get(id(value), 'ethos_py')}`")
    lines.append("")
    for module_name, objects in sections:
        module = importlib.import_module(module_name)
        lines += [f"## `{module_name}`", "", (inspect.getdoc(module) or "").split("\n\n")[0], ""]
        for name, value in objects:
            if inspect.isclass(value):
                lines += [f"### class `{name}{_signature(value)}`", "", "```text", _doc(value), "```", ""]
                for member_name, raw in _members(value):
                    lines += _render_member(value, member_name, raw)
            else:
                lines += [f"### `{name}{_signature(value)}`", "", "```text", _doc(value), "```", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/api-reference.md is out of date")
    args = parser.parse_args(argv)
    text = render()
    return write_or_check(OUTPUT, text, "python tools/gen_api_reference.py", args.check)

if __name__ == "__main__":
    sys.exit(main())
