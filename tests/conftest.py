"""conftest - shared pytest fixtures: repository paths, golden cases, schema validators and the surface runner."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
sys.path.insert(0, str(GOLDEN_DIR))

import harness

REPO_DIR = harness.REPO_DIR
SCHEMAS_DIR = harness.SCHEMAS_DIR
SOURCES_DIR = harness.SOURCES_DIR
TOOLS_DIR = harness.TOOLS_DIR
CASES = harness.load_cases()
SCHEMA_FILES = {
    "document": "document.schema.json",
    "citations": "citations.schema.json",
    "verification-config": "verification-config.schema.json",
    "verification-report": "verification-report.schema.json",
    "error-envelope": "error-envelope.schema.json",
    "proof-statement": "proof-statement.schema.json",
    "proof-summary": "proof-summary.schema.json",
    "chunk-record": "chunk-record.schema.json",
    "security-report": "security-report.schema.json",
    "llm-citation-output": "llm-citation-output.schema.json",
    "llm-citation-output-v2": "llm-citation-output-v2.schema.json",
    "evidence-handle-context": "evidence-handle-context.schema.json",
    "policy": "policy.schema.json",
    "app-answer-release-decision": "app-answer-release-decision.schema.json",
    "grounding": "grounding.schema.json",
    "grounding-validation": "grounding-validation.schema.json",
    "evidence-anchor-request": "evidence-anchor-request.schema.json",
    "evidence-anchor-report": "evidence-anchor-report.schema.json",
    "crop-descriptor": "crop-descriptor.schema.json",
    "crop-element-request": "crop-element-request.schema.json",
    "answer-check": "answer-check.schema.json",
    "reply-extraction": "reply-extraction.schema.json",
    "edit-result": "edit-result.schema.json",
}
# Schemas whose contract URN is not urn:ethos:schema:<name>:1 (CONTRACTS §2.10 versions it in the URN).
SCHEMA_URNS = {"llm-citation-output-v2": "urn:ethos:schema:llm-citation-output:2"}


def load_schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMAS_DIR / SCHEMA_FILES[name]).read_text(encoding="utf-8"))


def _registry() -> Registry:
    resources = []
    for name in SCHEMA_FILES:
        schema = load_schema(name)
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


REGISTRY = _registry()


def validator(name: str) -> Draft202012Validator:
    """A validator for one of our schemas (cross-schema $refs resolve through the registry)."""
    return Draft202012Validator(load_schema(name), registry=REGISTRY)


def schema_errors(name: str, instance: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator(name).iter_errors(instance)]


@pytest.fixture(scope="session")
def repo_dir() -> Path:
    return REPO_DIR


@pytest.fixture(scope="session")
def run_surface() -> Callable[[str, harness.Case], tuple[int, bytes, bytes]]:
    """run_surface(surface, case) -> (exit_code, stdout_bytes, stderr_bytes) for library | ethos | ethos-core."""
    return harness.run_surface


# -- a small native document shared by the surface tests ------------------------------------------

SMALL_PAYLOAD = {
    "pages": [{"id": "p0001", "index": 1, "width": 61200, "height": 79200, "rotation": 0}],
    "elements": [
        {
            "id": "e000001",
            "type": "heading",
            "page": "p0001",
            "bbox": [7200, 6000, 40000, 8400],
            "text": "Quarterly report",
        },
        {
            "id": "e000002",
            "type": "text_block",
            "page": "p0001",
            "bbox": [7200, 10100, 54000, 11500],
            "text": "Revenue grew to $12.4M in Q3 2025.",
        },
    ],
}


def script_module(relative_path: str) -> Any:
    """A script of the repository (tools/, benchmarks/: not part of the package) loaded as a module."""
    import importlib.util

    path = REPO_DIR / relative_path
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def document_tool() -> Any:
    """tools/make_native_document.py as a module (it is a script, not part of the package)."""
    return script_module("tools/make_native_document.py")


@pytest.fixture(scope="session")
def small_document(document_tool: Any) -> dict[str, Any]:
    """A correctly hashed one-page native document (heading + one paragraph)."""
    built: dict[str, Any] = document_tool.build_document(SMALL_PAYLOAD)
    return built
