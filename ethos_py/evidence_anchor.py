"""evidence_anchor - ``anchor``: binds evidence refs (an evidence-anchor request) to a grounding source in process.

The request is ``ethos.evidence_anchor_request.v1`` (docs/anchor.md); the result is the
``ethos.evidence_anchor_report.v1`` report, the same bytes ``ethos evidence anchor`` and
``ethos-core evidence anchor`` print. Refs that do not bind are report data; an invalid request
raises ``EthosError`` (``invalid_input``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from . import _ffi
from ._host_io import JsonInput, PathInput, json_input, json_input_path
from ._json import dumps
from .document import DEFAULT_GROUNDING, Document, SourceInput, check_call_options

__all__ = ["anchor", "anchor_json"]


def _anchor_with(document: Document, request: bytes, statement: bool, subject_name: str | None) -> bytes:
    options: dict[str, Any] = {}
    if statement:
        options["statement"] = True
        name = subject_name if subject_name is not None else document.name
        if name is not None:
            options["subject_name"] = name
    # No options at all is the call ethos-core makes without --statement: the same bytes.
    options_bytes = dumps(options) if options else None
    options_ptr, options_len = _ffi.buffer_argument(options_bytes)
    # The private handle accessor is shared within the package: Document owns the handle's life
    # (close() on another thread waits for this call).
    with document._borrowed_handle() as handle:
        return _ffi.call_string(_ffi.lib.ethos_anchor, handle, request, len(request), options_ptr, options_len)


def anchor_json(
    source: Document | SourceInput,
    evidence_refs: JsonInput,
    *,
    grounding: str | None = DEFAULT_GROUNDING,
    statement: bool = False,
    subject_name: str | None = None,
) -> bytes:
    """The evidence-anchor report as canonical JSON bytes (no trailing newline).

    ``source`` is an open ``Document``, a path or the source's bytes (``grounding`` selects the
    loader for the last two). ``evidence_refs`` is the request: a path (``os.PathLike``, or a
    ``str`` that does not start with ``{`` or ``[``), JSON bytes, JSON text or a Python value. With ``statement=True`` the report is wrapped in an
    in-toto Statement (predicate type ``evidence-anchor``) whose subject name is ``subject_name``
    or the file name the source was opened from.

        >>> from pathlib import Path
        >>> report = anchor_json("schemas/examples/document.example.json",
        ...                      Path("schemas/examples/evidence-anchor-request.example.json"))
        >>> report[:40]
        b'{"anchors":[{"achieved_anchor_level":"pa'
    """
    request = json_input(evidence_refs, argument="--evidence-refs")
    if isinstance(source, Document):
        return _anchor_with(source, request, statement, subject_name)
    with Document.open(source, grounding) as document:
        return _anchor_with(document, request, statement, subject_name)


def anchor(
    source: Document | SourceInput,
    evidence_refs: JsonInput,
    *,
    grounding: str | None = DEFAULT_GROUNDING,
    statement: bool = False,
    subject_name: str | None = None,
    ethos_bin: PathInput | None = None,
    output_format: str = "json",
    timeout: float | None = 30.0,
    env: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Like ``anchor_json`` but returns the parsed report (or Statement).

    The keyword arguments of the public ``ethos_pdf.anchor`` work unchanged: with ``ethos_bin``
    (or ``env``) the call runs that program (the bundled ``ethos-core`` for ``env`` alone) through
    ``EthosCli.anchor``; otherwise it runs in process, where ``timeout`` is only checked.
    ``output_format`` is ``"json"``, the only format ``evidence anchor`` has.

        >>> from pathlib import Path
        >>> report = anchor("schemas/examples/document.example.json",
        ...                 "schemas/examples/evidence-anchor-request.example.json")
        >>> [(a["evidence_id"], a["anchor_status"]) for a in report["anchors"]][:2]
        [('summary-page', 'bound'), ('revenue-sentence', 'bound')]
        >>> sorted({a["anchor_status"] for a in report["anchors"]})
        ['bound', 'mismatch', 'not_found', 'unsupported_evidence_kind']
    """
    check_call_options(output_format, ("json",), timeout, grounding)
    if ethos_bin is not None or env is not None:
        if isinstance(source, (Document, bytes, bytearray, memoryview)):
            raise TypeError("with ethos_bin or env the source must be a path (the program reads a file)")
        if subject_name is not None:
            raise ValueError("subject_name applies in process only: drop ethos_bin and env to use it")
        from .cli_wrapper import EthosCli

        cli = EthosCli(ethos_bin=ethos_bin, env=env) if ethos_bin is not None else EthosCli(env=env)
        with json_input_path(evidence_refs, "evidence-refs.json") as refs_path:
            return cli.anchor(
                source, refs_path, grounding=grounding, statement=statement, output_format=output_format, timeout=timeout
            )
    report: dict[str, Any] = json.loads(
        anchor_json(source, evidence_refs, grounding=grounding, statement=statement, subject_name=subject_name)
    )
    return report
