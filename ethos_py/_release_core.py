"""_release_core - the native release decision (``ethos_release_decision``) on JSON bytes, for the CLI."""

from __future__ import annotations

from collections.abc import Sequence

from . import _ffi
from ._json import dumps


def release_decision_json(
    report: bytes,
    claims: bytes,
    question: str,
    *,
    verification_report_ref: str | None = None,
    notes: Sequence[str] = (),
) -> bytes:
    """The decision's canonical JSON (no trailing newline) computed by the core.

    ``report`` (a report, Statement or proof summary) and ``claims`` (a JSON array) are the raw
    bytes of the files the user named, so the core parses exactly what ``ethos-core`` parses.
    Invalid input raises ``EthosError`` (``invalid_input``, exit 2).
    """
    options: dict[str, object] = {"question": question}
    if verification_report_ref is not None:
        options["verification_report_ref"] = verification_report_ref
    if notes:
        options["notes"] = list(notes)
    options_bytes = dumps(options)
    return _ffi.call_string(
        _ffi.lib.ethos_release_decision, report, len(report), claims, len(claims), options_bytes, len(options_bytes)
    )
