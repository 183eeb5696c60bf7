"""document - ``Document``, an open grounding source held by the native core, and ``verify``."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import stat
import threading
import weakref
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from typing import Any, TypeVar

from . import _ffi
from ._host_io import (
    JsonInput,
    PathInput,
    is_json_text,
    json_input,
    json_input_path,
    optional_json_input_path,
    read_input_file,
)
from ._json import dumps

__all__ = ["Document", "verify", "verify_batch"]

#: No grounding named: the core opens an ``ethos.grounding.v1`` artifact as Grounding JSON and
#: anything else as a native document (docs/sources.md).
DEFAULT_GROUNDING: str | None = None

SourceInput = PathInput | bytes | bytearray | memoryview
_DocumentT = TypeVar("_DocumentT", bound="Document")


class Document:
    """A loaded, validated and indexed grounding source.

    The document is immutable once open, so any number of threads may verify against it at once
    (the core runs without the GIL). Release it with ``close()`` or a ``with`` block; a document
    that is simply dropped is released by its finalizer. ``close()`` from one thread while others
    are verifying is safe: it waits for the calls already running to finish (their results are
    complete), and every call that starts after it raises ``ValueError`` ("closed").

    Create documents with ``Document.open`` or ``Document.from_bytes``:

        >>> from pathlib import Path
        >>> with Document.open("examples/quickstart/document.json") as document:
        ...     report = document.verify(Path("examples/quickstart/citations.json"))
        >>> [check["status"] for check in report["checks"]]
        ['grounded', 'grounded', 'grounded', 'mismatch']
    """

    def __init__(self, handle: Any, *, name: str | None = None) -> None:
        """Wraps a raw ``ethos_document *``; use ``open``/``from_bytes`` instead."""
        if handle == _ffi.ffi.NULL:
            raise ValueError("Document needs a non-NULL ethos_document handle")
        self._handle = handle
        # finalize() runs at most once, whether called by close(), garbage collection or exit; it
        # holds the handle, not self, so it does not keep the document alive.
        self._finalizer = weakref.finalize(self, _ffi.lib.ethos_document_free, handle)
        self._name = name
        self._description: dict[str, Any] | None = None
        # Native calls in flight on the handle and whether close() began: close() waits for the
        # count to reach zero before freeing, so no call ever runs on a freed document.
        self._calls = threading.Condition(threading.Lock())
        self._in_flight = 0
        self._closing = False

    @classmethod
    def open(cls, source: SourceInput, grounding: str | None = DEFAULT_GROUNDING) -> Document:
        """Opens a source from a path (``str`` or ``os.PathLike``) or from its bytes.

        A path is subject to the 256 MiB limit (``EthosError`` ``file_too_large``) and raises
        ``OSError`` (e.g. ``FileNotFoundError``) when unreadable. An invalid document raises
        ``EthosError`` with the core's code (``invalid_input`` ...).
        """
        if isinstance(source, (bytes, bytearray, memoryview)):
            return cls.from_bytes(source, grounding)
        data = read_input_file(source)
        return cls.from_bytes(data, grounding, name=os.path.basename(os.fspath(source)))

    @classmethod
    def from_bytes(
        cls,
        data: bytes | bytearray | memoryview,
        grounding: str | None = DEFAULT_GROUNDING,
        *,
        name: str | None = None,
    ) -> Document:
        """Opens a source from its bytes. ``name`` is the default Statement subject name."""
        options = dumps({} if grounding is None else {"grounding": grounding})
        handle = _ffi.open_document(bytes(data), options)
        return cls(handle, name=name)

    @property
    def name(self) -> str | None:
        """The file name the document was opened from (``None`` for bytes)."""
        return self._name

    @property
    def closed(self) -> bool:
        """True once ``close()`` was called (or the finalizer ran)."""
        return self._closing or not self._finalizer.alive

    def close(self) -> None:
        """Releases the native document, after the calls other threads have in flight on it
        finished; calls that start later raise ``ValueError``. Closing twice is harmless."""
        with self._calls:
            self._closing = True
            while self._in_flight:
                self._calls.wait()
        self._finalizer()

    def __enter__(self: _DocumentT) -> _DocumentT:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"fingerprint={self.fingerprint!r}"
        return f"<ethos_py.Document name={self._name!r} {state}>"

    def _live_handle(self) -> Any:
        """The handle, or ``ValueError`` when closed: only for a check or a call that cannot race
        close(); native calls hold it with ``_borrowed_handle``."""
        if self.closed:
            raise ValueError("operation on a closed ethos_py.Document")
        return self._handle

    @contextmanager
    def _borrowed_handle(self) -> Iterator[Any]:
        """The handle for one native call: close() waits until the block ends (shared within the
        package; every call into the core on this document goes through it)."""
        with self._calls:
            if self.closed:
                raise ValueError("operation on a closed ethos_py.Document")
            self._in_flight += 1
        try:
            yield self._handle
        finally:
            with self._calls:
                self._in_flight -= 1
                if self._in_flight == 0:
                    self._calls.notify_all()

    def _request_options(
        self,
        options: dict[str, Any],
        statement: bool,
        subject_name: str | None,
        claim_validation: str,
        policy: str | bytes | os.PathLike[str] | None,
    ) -> bytes | None:
        """The options JSON of a verify call (``options`` holds the call's own ones), or None."""
        if statement:
            options["statement"] = True
            name = subject_name if subject_name is not None else self._name
            if name is not None:
                options["subject_name"] = name
        elif subject_name is not None:
            options["subject_name"] = subject_name
        if claim_validation != "strict":
            options["claim_validation"] = claim_validation
        options.update(policy_options(policy))
        # No options at all is the same call ethos-core makes, so both give the same bytes.
        return dumps(options) if options else None

    def describe_json(self) -> bytes:
        """The core's description as canonical JSON bytes (what ``ethos fingerprint`` prints)."""
        with self._borrowed_handle() as handle:
            return _ffi.call_string(_ffi.lib.ethos_document_describe, handle)

    def describe(self) -> dict[str, Any]:
        """The core's description: fingerprints, grounding identity and counts (a fresh dict)."""
        if self._description is None:
            # The document is immutable, so its description is parsed once.
            self._description = json.loads(self.describe_json())
        else:
            self._live_handle()
        return copy.deepcopy(self._description)

    @property
    def fingerprint(self) -> str | None:
        """``sha256:…`` document fingerprint, or ``None`` when the source declares none."""
        value = self.describe().get("document_fingerprint")
        return value if isinstance(value, str) else None

    def verify_json(
        self,
        citations: JsonInput,
        config: JsonInput | None = None,
        *,
        statement: bool = False,
        subject_name: str | None = None,
        claim_validation: str = "strict",
        policy: str | bytes | os.PathLike[str] | None = None,
        crop_refs: bool = False,
        crop_source_pdf: PathInput | bytes | None = None,
        max_verify_ms: int | None = None,
    ) -> bytes:
        """Verifies citations and returns the canonical report bytes (no trailing newline).

        ``citations`` and ``config`` may be a path (``os.PathLike``, or a ``str`` whose first
        non-space character is not ``{`` or ``[``), JSON text (a ``str`` that starts with one),
        JSON bytes or a Python value. ``config=None`` uses the built-in ``default-v1``. With
        ``statement=True`` the report is wrapped in an in-toto Statement whose subject name is
        ``subject_name`` or, by default, the file name the document was opened from.
        A "not grounded" verdict is a normal report; invalid input raises ``EthosError``.
        ``policy`` selects the matching policy (docs/matching.md): a preset name (``"strict"``,
        ``"default"``, ``"permissive"``), policy JSON bytes, or a path to a policy file.
        ``crop_refs=True`` is ``verify --crop-dir``'s report: every evidence names its crop
        descriptor (``ethos_py.crops.crop_descriptors`` computes them). ``crop_source_pdf`` (a
        path or the bytes; needs ``crop_refs``) is ``--crop-source-pdf``: the PDF the crops come
        from, which names them when the source has no fingerprint (docs/sources.md "Crops").
        ``max_verify_ms`` is ``--max-verify-ms``: a time limit of the call in milliseconds (1 to
        2**40); past it the call raises ``EthosError`` ``input_limit_exceeded`` with details
        ``{"argument": "--max-verify-ms", "max_verify_ms": N}`` and returns no report.
        """
        self._live_handle()  # a closed document refuses before any input is read
        citations_bytes = json_input(citations)
        config_bytes = None if config is None else json_input(config)
        options: dict[str, Any] = {"crop_refs": True} if crop_refs else {}
        if max_verify_ms is not None:
            options["max_verify_ms"] = max_verify_ms
        if crop_source_pdf is not None:
            options["crop_source_pdf_fingerprint"] = _sha256_of(crop_source_pdf)
        options_bytes = self._request_options(options, statement, subject_name, claim_validation, policy)
        config_ptr, config_len = _ffi.buffer_argument(config_bytes)
        options_ptr, options_len = _ffi.buffer_argument(options_bytes)
        with self._borrowed_handle() as handle:
            return _ffi.call_string(
                _ffi.lib.ethos_verify,
                handle,
                citations_bytes,
                len(citations_bytes),
                config_ptr,
                config_len,
                options_ptr,
                options_len,
            )

    def verify(
        self,
        citations: JsonInput,
        config: JsonInput | None = None,
        *,
        statement: bool = False,
        subject_name: str | None = None,
        claim_validation: str = "strict",
        policy: str | bytes | os.PathLike[str] | None = None,
        max_verify_ms: int | None = None,
    ) -> dict[str, Any]:
        """Like ``verify_json`` but returns the parsed report (or Statement)."""
        report: dict[str, Any] = json.loads(
            self.verify_json(
                citations,
                config,
                statement=statement,
                subject_name=subject_name,
                claim_validation=claim_validation,
                policy=policy,
                max_verify_ms=max_verify_ms,
            )
        )
        return report

    def verify_batch_json(
        self,
        requests: Sequence[JsonInput] | bytes | os.PathLike[str],
        config: JsonInput | None = None,
        *,
        merged: bool = False,
        statement: bool = False,
        subject_name: str | None = None,
        claim_validation: str = "strict",
        policy: str | bytes | os.PathLike[str] | None = None,
        max_verify_ms: int | None = None,
    ) -> bytes:
        """Verifies many citations requests in ONE native call (the core reads config and policy
        once) and returns the output bytes: one canonical report per request, each followed by
        ``\n`` (what ``verify-batch`` prints), or with ``merged=True`` one merged report (no
        trailing newline).

        ``requests`` is a sequence of citations inputs (Python values, JSON bytes or text, each
        on one line, or paths) or NDJSON as ``bytes``, as a ``str`` (NDJSON text when it starts
        with ``{`` or ``[``, otherwise a path) or as an ``os.PathLike``. Report ``i`` is byte for byte what
        ``verify_json(requests[i], ...)`` returns. A bad request fails the whole call with an
        ``EthosError`` whose ``details["line"]`` is its 1-based position; other arguments are
        those of ``verify_json`` (``max_verify_ms`` bounds the whole call). Safe to call from
        several threads on one document at once.
        """
        self._live_handle()  # a closed document refuses before any input is read
        ndjson = _ndjson(requests)
        config_bytes = None if config is None else json_input(config)
        options: dict[str, Any] = {"merged": True} if merged else {}
        if max_verify_ms is not None:
            options["max_verify_ms"] = max_verify_ms
        options_bytes = self._request_options(options, statement, subject_name, claim_validation, policy)
        config_ptr, config_len = _ffi.buffer_argument(config_bytes)
        options_ptr, options_len = _ffi.buffer_argument(options_bytes)
        with self._borrowed_handle() as handle:
            return _ffi.call_batch_output(
                handle,
                ndjson,
                len(ndjson),
                config_ptr,
                config_len,
                options_ptr,
                options_len,
            )

    def verify_batch(
        self,
        requests: Sequence[JsonInput] | bytes | os.PathLike[str],
        config: JsonInput | None = None,
        *,
        merged: bool = False,
        statement: bool = False,
        subject_name: str | None = None,
        claim_validation: str = "strict",
        policy: str | bytes | os.PathLike[str] | None = None,
        max_verify_ms: int | None = None,
    ) -> Any:
        """Like ``verify_batch_json`` but parsed: a list of reports, or the merged report (a dict)."""
        data = self.verify_batch_json(
            requests,
            config,
            merged=merged,
            statement=statement,
            subject_name=subject_name,
            claim_validation=claim_validation,
            policy=policy,
            max_verify_ms=max_verify_ms,
        )
        if merged:
            return json.loads(data)
        return [json.loads(line) for line in data.splitlines()]


def _sha256_of(data: PathInput | bytes) -> str:
    """``sha256:`` of a file's bytes (a path, under the input size limit) or of bytes."""
    raw = bytes(data) if isinstance(data, (bytes, bytearray, memoryview)) else read_input_file(data)
    return "sha256:" + hashlib.sha256(raw).hexdigest()


def _ndjson(requests: Sequence[JsonInput] | bytes | os.PathLike[str]) -> bytes:
    """NDJSON bytes of a batch: given as such (bytes or a path), or one line per request."""
    if isinstance(requests, os.PathLike):
        return read_input_file(requests, argument="--citations-ndjson")
    if isinstance(requests, (bytes, bytearray, memoryview)):
        return bytes(requests)
    if isinstance(requests, str):
        # The one str rule (is_json_text): NDJSON text when it starts like JSON, else a path.
        if is_json_text(requests):
            return requests.encode("utf-8")
        return read_input_file(requests, argument="--citations-ndjson")
    lines = []
    for index, request in enumerate(requests):
        line = json_input(request)
        if b"\n" in line:
            raise ValueError(f"request {index} spans several lines; NDJSON needs one request per line")
        lines.append(line)
    return b"".join(line + b"\n" for line in lines)


#: The largest policy file or policy bytes (1 MiB, as ethos-core's --policy): a policy is a few KB,
#: and its bytes are carried twice over (Latin-1 scalars in the options JSON, then parsed).
MAX_POLICY_BYTES = 1 << 20


def _policy_too_large() -> Exception:
    return _ffi.host_error("file_too_large", {"argument": "--policy", "max_bytes": MAX_POLICY_BYTES})


def policy_options(policy: str | bytes | os.PathLike[str] | None) -> dict[str, str]:
    """The verify/explain options naming a policy: a preset name, or the policy file's exact
    bytes carried as Latin-1 scalars so the core alone parses them (core/api.hpp). Policy bytes
    over ``MAX_POLICY_BYTES`` raise ``EthosError`` ``file_too_large`` (argument ``--policy``)."""
    if policy is None:
        return {}
    if isinstance(policy, str):
        return {"policy": policy}
    if not isinstance(policy, bytes):
        # A regular file over the limit is refused before it is read.
        info = os.stat(policy)
        if stat.S_ISREG(info.st_mode) and info.st_size > MAX_POLICY_BYTES:
            raise _policy_too_large()
    data = policy if isinstance(policy, bytes) else read_input_file(policy, argument="--policy")
    if len(data) > MAX_POLICY_BYTES:
        raise _policy_too_large()
    return {"policy_bytes_latin1": data.decode("latin-1")}


def explain_policy_json(policy: str | bytes | os.PathLike[str] | None = None) -> bytes:
    """A matching policy (default: the default policy) with every assumption it makes, as
    canonical JSON bytes (what ``ethos explain --policy`` prints)."""
    options = policy_options(policy)
    options_bytes = dumps(options) if options else None
    options_ptr, options_len = _ffi.buffer_argument(options_bytes)
    return _ffi.call_string(_ffi.lib.ethos_policy_explain, options_ptr, options_len)


def pinned_config_json(policy: str | bytes | os.PathLike[str] | None = None) -> bytes:
    """The built-in default-v1 config with a policy (default: the default policy) written whole
    into ``matching.policy`` (``config_version`` ``default-v1+<policy name>``), as canonical JSON
    bytes (what ``ethos explain --pinned`` prints): passed back as a config, it decides as a
    verify without a config (or with that policy) does."""
    options = policy_options(policy)
    options_bytes = dumps(options) if options else None
    options_ptr, options_len = _ffi.buffer_argument(options_bytes)
    return _ffi.call_string(_ffi.lib.ethos_config_pinned, options_ptr, options_len)


#: ``verify``/``anchor`` output formats: the report (or Statement) as a dict, or the summary text.
OUTPUT_FORMATS = ("json", "summary")


def check_call_options(output_format: str, formats: Sequence[str], timeout: float | None, grounding: str | None) -> None:
    """The checks ethos-pdf makes before anything runs, shared by both paths (and ``anchor``)."""
    if output_format not in formats:
        raise ValueError(f"output_format must be one of: {', '.join(formats)}")
    if timeout is not None and timeout <= 0:
        raise ValueError("timeout must be greater than zero when provided")
    if grounding is not None and not grounding:
        raise ValueError("grounding must be non-empty when provided")


def verify(
    source: Document | SourceInput,
    citations: JsonInput,
    *,
    config: JsonInput | None = None,
    statement: bool = False,
    subject_name: str | None = None,
    policy: str | bytes | os.PathLike[str] | None = None,
    grounding: str | None = None,
    ethos_bin: PathInput | None = None,
    fail_on_ungrounded: bool = False,
    output_format: str = "json",
    timeout: float | None = 30.0,
    env: Mapping[str, str] | None = None,
    max_verify_ms: int | None = None,
) -> Any:
    """Verifies ``citations`` against ``source`` (a ``Document``, a path or the source's bytes).

    Returns the report as a dict (the Statement when ``statement=True``), or with
    ``output_format="summary"`` the ``--format summary`` text. A source given as a path is opened
    and closed here; open a ``Document`` once to verify many citation sets. ``citations`` and
    ``config`` are inputs as in ``Document.verify_json`` (a ``str`` is JSON text when it starts
    with ``{`` or ``[``, otherwise a path); ``grounding`` selects the source loader; ``policy``: see
    ``Document.verify_json``; ``max_verify_ms``: see ``Document.verify_json`` (in process only).

    The keyword arguments of the public ``ethos_pdf.verify`` work unchanged. With ``ethos_bin``
    (or ``env``) the call runs that program (the bundled ``ethos-core`` for ``env`` alone) through
    ``EthosCli``, with ``timeout`` in seconds; without them it runs in process, where ``timeout``
    is only checked (there is no process to kill) and ``fail_on_ungrounded`` changes nothing: an
    ungrounded report is returned either way (``all_evidence_grounded`` says it).

        >>> from pathlib import Path
        >>> report = verify("examples/quickstart/document.json", "examples/quickstart/citations.json")
        >>> report["all_evidence_grounded"], len(report["checks"])
        (False, 4)
    """
    check_call_options(output_format, OUTPUT_FORMATS, timeout, grounding)
    if ethos_bin is not None or env is not None:
        if isinstance(source, (Document, bytes, bytearray, memoryview)):
            raise TypeError("with ethos_bin or env the source must be a path (the program reads a file)")
        if policy is not None or subject_name is not None or max_verify_ms is not None:
            raise ValueError(
                "policy, subject_name and max_verify_ms apply in process only: drop ethos_bin and env to use them"
            )
        from .cli_wrapper import EthosCli

        cli = EthosCli(ethos_bin=ethos_bin, env=env) if ethos_bin is not None else EthosCli(env=env)
        with json_input_path(citations, "citations.json") as citations_path:
            with optional_json_input_path(config, "config.json") as config_path:
                return cli.verify(
                    source,
                    citations_path,
                    grounding=grounding,
                    config=config_path,
                    fail_on_ungrounded=fail_on_ungrounded,
                    output_format=output_format,
                    timeout=timeout,
                    statement=statement,
                )
    if isinstance(source, Document):
        if grounding is not None:
            raise ValueError("grounding applies when a source is opened: an open Document already has one")
        data = source.verify_json(
            citations, config, statement=statement, subject_name=subject_name, policy=policy, max_verify_ms=max_verify_ms
        )
    else:
        with Document.open(source, grounding) as document:
            data = document.verify_json(
                citations,
                config,
                statement=statement,
                subject_name=subject_name,
                policy=policy,
                max_verify_ms=max_verify_ms,
            )
    if output_format == "summary":
        from .proof import summary_text

        return summary_text(data)
    return json.loads(data)


def verify_batch(
    source: Document | SourceInput,
    requests: Sequence[JsonInput] | bytes | os.PathLike[str],
    *,
    config: JsonInput | None = None,
    merged: bool = False,
    statement: bool = False,
    subject_name: str | None = None,
    policy: str | bytes | os.PathLike[str] | None = None,
    max_verify_ms: int | None = None,
) -> Any:
    """Verifies many citations requests against ``source`` in one native call: a list of
    reports (one per request, in order) or, with ``merged=True``, one merged report.
    See ``Document.verify_batch``; a path source is opened and closed here.

        >>> import json
        >>> from pathlib import Path
        >>> request = json.loads(Path("examples/quickstart/citations.json").read_text())
        >>> reports = verify_batch("examples/quickstart/document.json", [request, request])
        >>> [len(report["checks"]) for report in reports]
        [4, 4]
        >>> len(verify_batch("examples/quickstart/document.json", [request, request], merged=True)["checks"])
        8
    """
    # An open Document is the caller's to close; a source opened here is closed here.
    with nullcontext(source) if isinstance(source, Document) else Document.open(source) as document:
        return document.verify_batch(
            requests,
            config,
            merged=merged,
            statement=statement,
            subject_name=subject_name,
            policy=policy,
            max_verify_ms=max_verify_ms,
        )
