"""conftest - shared pytest fixtures: repository paths, golden cases, schema validators and the surface runner."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
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
    "jsonl-run": "jsonl-run.schema.json",
    "jsonl-result": "jsonl-result.schema.json",
    "repair-run": "repair-run.schema.json",
    "calibration": "calibration.schema.json",
    "sensitivity": "sensitivity.schema.json",
    "calibrate-run": "calibrate-run.schema.json",
    "sensitivity-run": "sensitivity-run.schema.json",
    "batch-summary": "batch-summary.schema.json",
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


# -- the ASan + UBSan build shared by every sanitizer test of a session -----------------------------

NATIVE_DIR = REPO_DIR / "native"
#: Set to a directory to keep the sanitizer build there and rebuild it incrementally across runs.
SANITIZER_BUILD_ENV = "ETHOS_SANITIZER_BUILD_DIR"


@pytest.fixture(scope="session")
def sanitizer_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The asan preset (ASan + UBSan, -Werror) configured once per session, with libethos.so and
    ethos-core built (a test that needs more, such as ctest's native tests and fuzz-corpus
    replays, builds the rest into the same directory). In $ETHOS_SANITIZER_BUILD_DIR when set,
    else in a temporary directory."""
    chosen = os.environ.get(SANITIZER_BUILD_ENV)
    build = Path(chosen) if chosen else tmp_path_factory.mktemp("asan") / "build"
    subprocess.run(["cmake", "-S", str(NATIVE_DIR), "-B", str(build), "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                    "-DETHOS_WERROR=ON", "-DETHOS_SANITIZE=ON"], check=True, capture_output=True, text=True)
    built = subprocess.run(["cmake", "--build", str(build), "-j2", "--target", "ethos", "ethos-core"], capture_output=True,
                           text=True)
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]
    return build


def sanitizer_environment(build: Path, log_dir: Path | None = None) -> dict[str, str]:
    """The environment that runs Python, ``ethos`` and ``ethos-core`` on the sanitizer build: the
    ASan and UBSan runtimes preloaded into Python (which loads libethos.so), the build's library
    and ethos-core chosen, and any report aborting the process. With ``log_dir``, every process
    (the parse workers too, whose stderr is /dev/null) writes its reports into files there
    (``asan.<pid>``, ``ubsan.<pid>``) as well."""
    compiler = shutil.which("gcc") or "gcc"
    runtimes = [subprocess.run([compiler, f"-print-file-name={name}"], check=True, capture_output=True,
                               text=True).stdout.strip() for name in ("libasan.so", "libubsan.so")]
    asan = "detect_leaks=0:abort_on_error=1"  # CPython itself is not leak-clean
    ubsan = "halt_on_error=1:abort_on_error=1:print_stacktrace=1"
    if log_dir is not None:
        asan += f":log_path={log_dir / 'asan'}"
        ubsan += f":log_path={log_dir / 'ubsan'}"
    env = dict(os.environ)
    env.update({
        "LD_PRELOAD": ":".join(runtimes),
        "ASAN_OPTIONS": asan,
        "UBSAN_OPTIONS": ubsan,
        "ETHOS_LIBRARY": str(build / "libethos.so"),
        "ETHOS_CORE": str(build / "ethos-core"),
    })
    return env
