"""grounding - Grounding JSON v1 validation (``grounding check``) through the native core."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from . import _ffi
from ._json import dumps

__all__ = ["grounding_check", "grounding_check_json", "grounding_check_passed"]


def grounding_check_json(artifact: bytes, source_artifact: bytes | None = None) -> bytes:
    """The ``ethos.grounding_validation.v1`` report (canonical JSON bytes) of an artifact.

    An invalid artifact is report data (``structure: "invalid"`` with one ``error``), not an
    exception. ``source_artifact`` is the file the artifact claims to represent (its bytes); when
    given, ``source_binding`` says whether the artifact's ``source.sha256`` is their hash.

        >>> grounding_check_json(b'{"artifact_type": "ethos.grounding.v1"}')[:30]
        b'{"artifact_type":"ethos.ground'
    """
    options = b""
    if source_artifact is not None:
        digest = "sha256:" + hashlib.sha256(bytes(source_artifact)).hexdigest()
        options = dumps({"source_artifact_sha256": digest})
    data = bytes(artifact)
    return _ffi.call_string(_ffi.lib.ethos_grounding_check, data, len(data), options, len(options))


def grounding_check(artifact: bytes, source_artifact: bytes | None = None) -> dict[str, Any]:
    """``grounding_check_json`` parsed into a dict.

        >>> from pathlib import Path
        >>> report = grounding_check(Path("schemas/examples/grounding.example.json").read_bytes())
        >>> report["structure"], report["source_binding"]
        ('valid', 'not_checked')
    """
    result: dict[str, Any] = json.loads(grounding_check_json(artifact, source_artifact))
    return result


def grounding_check_passed(report: bytes) -> bool:
    """True when the structure is valid and the source binding is not mismatched (exit 0).

        >>> from pathlib import Path
        >>> grounding_check_passed(grounding_check_json(Path("schemas/examples/grounding.example.json").read_bytes()))
        True
        >>> grounding_check_passed(grounding_check_json(b"{}"))
        False
    """
    value = json.loads(report)
    return bool(value["structure"] == "valid" and value["source_binding"] != "mismatched")
