"""sources_support - runs verify / grounding check on all three surfaces for the foreign-source tests."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from harness import ethos_core_binary

import ethos_py
from ethos_py.errors import EthosError
from ethos_py.grounding import grounding_check_json, grounding_check_passed

TIMEOUT = 120


def _process(command: list[str], cwd: Path) -> tuple[int, bytes, bytes]:
    done = subprocess.run(command, cwd=cwd, capture_output=True, timeout=TIMEOUT, check=False)
    return done.returncode, done.stdout, done.stderr


def verify_library(source: Path, citations: Path, grounding: str | None) -> tuple[int, bytes, bytes]:
    """What a CLI would print, computed in process: (exit code, stdout, stderr)."""
    try:
        with ethos_py.Document.open(source, grounding) as document:
            report = document.verify_json(citations.read_bytes())
    except EthosError as error:
        return error.exit_code, b"", bytes(error.envelope) + b"\n"
    return 0, report + b"\n", b""


def verify_all(source: Path, citations: Path, grounding: str | None = None) -> tuple[int, bytes, bytes]:
    """Runs verify on the library, `ethos` and `ethos-core`; asserts byte-identical results."""
    args = ["verify", source.name, "--citations", str(citations)]
    if grounding is not None:
        args += ["--grounding", grounding]
    results = {
        "library": verify_library(source, citations, grounding),
        "ethos": _process([sys.executable, "-m", "ethos_py.cli", *args], source.parent),
        "ethos-core": _process([ethos_core_binary(), *args], source.parent),
    }
    assert results["ethos"] == results["library"], (results["ethos"], results["library"])
    assert results["ethos-core"] == results["library"], (results["ethos-core"], results["library"])
    return results["library"]


def grounding_check_all(artifact: Path, source_artifact: Path | None = None) -> tuple[int, bytes, bytes]:
    """`grounding check` on the library, `ethos` and `ethos-core`; asserts byte-identical results."""
    args = ["grounding", "check", str(artifact)]
    if source_artifact is not None:
        args += ["--source-artifact", str(source_artifact)]
    report = grounding_check_json(
        artifact.read_bytes(), None if source_artifact is None else source_artifact.read_bytes()
    )
    library = (0 if grounding_check_passed(report) else 1, report + b"\n", b"")
    for command in ([sys.executable, "-m", "ethos_py.cli", *args], [ethos_core_binary(), *args]):
        assert _process(command, artifact.parent) == library, command
    return library


def envelope(stderr: bytes) -> dict[str, Any]:
    """The one error envelope line of a failed run."""
    assert stderr.endswith(b"\n") and stderr.count(b"\n") == 1
    return json.loads(stderr)


def text_quote_checks(text: bytes, quotes: list[str], citation: dict[str, Any]) -> list[dict[str, Any]]:
    """The checks of `quotes`, each with `citation`, verified in process against `text` as a text source."""
    import hashlib

    citations = {
        "document_fingerprint": "sha256:" + hashlib.sha256(text).hexdigest(),
        "claims": [{"kind": "quote", "text": quote, "citation": citation} for quote in quotes],
    }
    checks: list[dict[str, Any]] = ethos_py.verify(text, citations, grounding="text")["checks"]
    return checks
