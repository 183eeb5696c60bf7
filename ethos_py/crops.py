"""crops - crop descriptors (docs/cli.md §3.10) in process, and rendered crops through ethos-core.

Descriptors are pure data, computed by the core from a loaded document: ``crop_descriptors`` for a
report made with crop refs, ``crop_element`` for an ``ethos.crop_element_request.v1``. Rendering a
PNG needs PDFium, which never runs in the calling process: with ``crop_source_pdf`` (or
``crop_dir``) ``crop_element`` runs ``ethos-core crop_element`` instead, exactly like the CLIs.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ._host_io import read_input_file
from .cli_wrapper import EthosCli

if TYPE_CHECKING:
    from .document import Document

__all__ = ["crop_descriptors", "crop_descriptors_json", "crop_element", "crop_element_json"]

#: A path (``str`` or ``os.PathLike``) or the file's bytes.
Input = str | os.PathLike[str] | bytes | bytearray | memoryview


def _bytes(value: Input | str) -> bytes:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    return read_input_file(value)


def _open(document: Input, grounding: str | None = None) -> Any:
    from .document import Document

    return Document.from_bytes(_bytes(document), grounding)


def crop_descriptors_json(
    document: Input | Document,
    report: bytes | str | Mapping[str, Any],
    *,
    grounding: str | None = None,
    crop_source_pdf: Input | None = None,
) -> bytes:
    """The descriptors (``descriptor_only``) of every check with evidence in ``report``, as the
    canonical JSON array the core writes, in check order.

    ``report`` (bytes, a JSON string or a dict) must come from a verify against ``document`` with
    crop refs (``Document.verify_json(..., crop_refs=True)`` or ``verify --crop-dir``); the
    descriptors are the files ``verify --crop-dir`` writes, without their trailing newline.
    ``document`` is an open ``Document``, a path or bytes (opened with ``grounding``, as
    ``Document.open``). ``crop_source_pdf`` (a path or bytes) is the PDF given to verify: a
    foreign source without a fingerprint names its crops after it; the descriptors stay
    ``descriptor_only`` (rendering is ethos-core's, ``verify --crop-source-pdf``).

        >>> from pathlib import Path
        >>> from ethos_py import Document
        >>> with Document.open("examples/quickstart/document.json") as document:
        ...     report = document.verify_json(Path("examples/quickstart/citations.json"), crop_refs=True)
        >>> crop_descriptors_json("examples/quickstart/document.json", report)[:2]
        b'[{'
    """
    if isinstance(report, Mapping):
        data = json.dumps(report, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()
    elif isinstance(report, str):
        data = report.encode()
    else:
        data = bytes(report)
    from . import _ffi  # loads the native library on first use, so crop_element(ethos_bin=...) needs none

    from .document import Document  # noqa: F811  (the runtime class; the import above is for typing)

    if crop_source_pdf is None:
        options = b""
    else:
        fingerprint = "sha256:" + hashlib.sha256(_bytes(crop_source_pdf)).hexdigest()
        options = json.dumps({"crop_source_pdf_fingerprint": fingerprint}).encode()

    def call(opened: Any) -> bytes:
        with opened._borrowed_handle() as handle:  # close() on another thread waits for this call
            result: bytes = _ffi.call_string(
                _ffi.lib.ethos_crop_descriptors_with_options,
                handle, data, len(data), options or _ffi.ffi.NULL, len(options),
            )
        return result

    if isinstance(document, Document):
        return call(document)
    with _open(document, grounding) as opened:
        return call(opened)


def crop_descriptors(
    document: Input | Document,
    report: bytes | str | Mapping[str, Any],
    *,
    grounding: str | None = None,
    crop_source_pdf: Input | None = None,
) -> list[dict[str, Any]]:
    """``crop_descriptors_json`` parsed.

        >>> from pathlib import Path
        >>> from ethos_py import Document
        >>> with Document.open("examples/quickstart/document.json") as document:
        ...     report = document.verify_json(Path("examples/quickstart/citations.json"), crop_refs=True)
        >>> descriptors = crop_descriptors("examples/quickstart/document.json", report)
        >>> len(descriptors), descriptors[0]["rendering_status"], descriptors[0]["crop_ref"][:5]
        (4, 'descriptor_only', 'crop-')
    """
    result: list[dict[str, Any]] = json.loads(
        crop_descriptors_json(document, report, grounding=grounding, crop_source_pdf=crop_source_pdf)
    )
    return result


def crop_element_json(document: Input, request: Input, *, check_id: str = "v0001") -> bytes:
    """The descriptor of a descriptor-only crop_element request, computed in process (canonical
    JSON, the bytes ``ethos crop_element`` prints without its newline). Invalid requests raise
    ``EthosError`` with the CLIs' exit-2 envelope.

        >>> crop_element_json("schemas/examples/document.example.json",
        ...                   "schemas/examples/crop-element-request.example.json")[:40]
        b'{"artifact_type":"ethos.crop_descriptor.'
    """
    request_bytes = _bytes(request)
    check = check_id.encode()
    from . import _ffi

    with _open(document) as opened, opened._borrowed_handle() as handle:
        return _ffi.call_string(
            _ffi.lib.ethos_crop_element, handle, request_bytes, len(request_bytes), check, len(check)
        )


def crop_element(
    input_document: str | os.PathLike[str],
    request: str | os.PathLike[str],
    *,
    ethos_bin: str | os.PathLike[str] | None = None,
    check_id: str = "v0001",
    crop_source_pdf: str | os.PathLike[str] | None = None,
    crop_dir: str | os.PathLike[str] | None = None,
    timeout_seconds: float | None = None,
    env: Mapping[str, str] | None = None,
    password: str | None = None,
) -> dict[str, Any]:
    """The crop descriptor of one element (the public ``ethos_pdf.crop_element`` signature).

    With ``ethos_bin`` the named program runs, like the public wrapper. Otherwise a descriptor-only
    request is answered in process, and a rendering (``crop_source_pdf`` with ``crop_dir``) or a
    ``crop_dir`` runs the bundled ``ethos-core``, the one program that renders. ``password`` opens
    an encrypted ``crop_source_pdf``.

        >>> descriptor = crop_element("schemas/examples/document.example.json",
        ...                           "schemas/examples/crop-element-request.example.json")
        >>> descriptor["rendering_status"], descriptor["check_ids"]
        ('descriptor_only', ['v0001'])
    """
    if ethos_bin is not None or crop_source_pdf is not None or crop_dir is not None:
        if ethos_bin is not None:
            cli = EthosCli(ethos_bin=ethos_bin, env=env)
        else:
            from ._locate import find_core_binary

            # The ethos-core paired with the loaded library (a dev build's), else the bundled one.
            core = find_core_binary()
            cli = EthosCli(core, env=env) if core is not None else EthosCli(env=env)
        return cli.crop_element(
            input_document,
            request,
            check_id=check_id,
            crop_source_pdf=crop_source_pdf,
            crop_dir=crop_dir,
            timeout_seconds=timeout_seconds,
            password=password,
        )
    if password is not None:
        raise ValueError("password needs crop_source_pdf")
    result: dict[str, Any] = json.loads(crop_element_json(input_document, request, check_id=check_id))
    return result
