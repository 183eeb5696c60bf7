"""errors - every exception ethos_py raises, for the in-process core and for the subprocess CLI alike.

One root catches every Ethos failure: ``except ethos_py.EthosError`` catches a failing
``Document.verify`` (the core's error, raised as ``EthosError`` itself), a failing
``EthosCli.verify`` or PDF parse (``EthosCommandError`` and its subclasses), a missing or hung
binary, unusable output, a rejected citation emission and a rejected release decision input.
Every one carries ``code``/``error_code`` (the stable code of docs/cli.md §5, ``None`` where the
failure has none), ``message``, ``details`` and ``exit_code``. ``EthosPythonSurfaceError`` is the
public ethos-pdf name; it is the parent of ``EthosError`` and catches exactly the same failures.
Missing input files are the built-in ``FileNotFoundError`` on both paths (as in ethos-pdf), raised
before any work starts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ._json import dumps

__all__ = [
    "CorruptPdfError",
    "EthosCommandError",
    "EthosError",
    "EthosNotFoundError",
    "EthosOutputError",
    "EthosPythonSurfaceError",
    "EthosTimeoutError",
    "FileTooLargeError",
    "InvalidInputError",
    "InvalidPdfError",
    "MemoryLimitExceededError",
    "OcrRequiredError",
    "PageLimitExceededError",
    "ParseTimeoutError",
    "PasswordProtectedError",
    "PdfiumNotFoundError",
    "UnsupportedPdfFeatureError",
    "command_error",
    "parse_envelope",
]


class EthosPythonSurfaceError(Exception):
    """The public ethos-pdf name of the error root: it catches exactly what ``EthosError`` catches.

    Nothing raises this class itself; every ethos_py failure is an ``EthosError`` (a subclass), so
    programs written against ethos-pdf keep working:

        >>> import ethos_py
        >>> try:
        ...     ethos_py.proof_summary({"not": "a report"})
        ... except EthosPythonSurfaceError as error:
        ...     print(error.error_code)
        invalid_input
    """

    #: The stable error code (``invalid_input``, ``corrupt_pdf``, ...) when the failure has one;
    #: ``None`` for failures that happen around the core (binary missing, timeout, bad output).
    error_code: str | None = None


class EthosError(EthosPythonSurfaceError):
    """The one root of every Ethos failure, and the error the native core raises in process.

    ``except EthosError`` catches failures of both paths (in process and subprocess), PDF parse
    failures, citation-emission and release-input rejections. Every subclass has the same fields:
    ``code`` (= ``error_code``; ``None`` when the failure has no stable code), ``message``,
    ``details``, ``exit_code`` (the status the CLIs exit with for it: the command's own status
    for ``EthosCommandError``, 2 for rejected input, 12 for failures around the core such as a
    missing binary or a timeout) and ``envelope`` (the error envelope bytes, no newline; ``b""``
    when the failure has no code).

    Raised as ``EthosError`` itself, it is a failure reported by the core in process, decoded from
    its envelope; ``envelope`` is what ``ethos-core`` prints on stderr for the same failure:

        >>> import ethos_py
        >>> try:
        ...     ethos_py.Document.from_bytes(b"{}")
        ... except EthosError as error:
        ...     print(error.code, error.exit_code)
        invalid_input 2
        >>> try:
        ...     ethos_py.EthosCli("no-such-ethos-binary").explain()
        ... except EthosError as error:
        ...     print(type(error).__name__, error.code)
        EthosNotFoundError None
    """

    code: str | None = None
    message: str | None = None
    details: dict[str, Any]
    exit_code: int
    envelope: bytes

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Two forms: the core's (code, message, details=None, exit_code=12, *, envelope=None), and
        # a plain exception text for subclasses, which set their fields before or after this call;
        # whatever they leave unset is derived here so every failure has every field.
        if len(args) + len(kwargs) < 2:
            super().__init__(*args, **kwargs)
            fields = self.__dict__
            fields.setdefault("details", {})
            fields.setdefault("exit_code", 2 if self.code is not None else 12)
            if "envelope" not in fields:
                message = self.message if self.message is not None else str(self)
                self.envelope = b"" if self.code is None else _fallback_envelope(self.code, message, self.details)
            return
        self._init_core(*args, **kwargs)

    def _init_core(
        self,
        code: str,
        message: str,
        details: Mapping[str, Any] | None = None,
        exit_code: int = 12,
        *,
        envelope: bytes | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.error_code = code
        self.message = message
        self.details = dict(details or {})
        #: The exit status the CLIs use for this code (2..12).
        self.exit_code = exit_code
        #: The canonical envelope bytes from the core (no newline); what the CLIs print on stderr.
        self.envelope = envelope if envelope is not None else _fallback_envelope(code, message, details)

    @classmethod
    def from_envelope(cls, envelope: bytes, exit_code: int) -> EthosError:
        """Builds the error from the core's envelope bytes; an unreadable one is internal_error."""
        parsed = parse_envelope(envelope)
        if parsed is None:
            return cls("internal_error", "malformed error envelope from the core", None, 12)
        details = parsed.get("details")
        return cls(
            parsed["code"],
            str(parsed.get("message", "")),
            details if isinstance(details, dict) else None,
            exit_code,
            envelope=envelope,
        )


class InvalidInputError(EthosError, ValueError):
    """Input the Python helpers refuse before or after the core sees it (``invalid_input``, exit 2).

    A ``ValueError`` too, as ethos-pdf raises for the same input (``app_answer_release_decision``
    with an unknown label, say), so both ``except ValueError`` and ``except EthosError`` catch it:

        >>> error = InvalidInputError("unknown claim_type 'fact' (allowed: source_fact, synthesis, unsupported)")
        >>> isinstance(error, ValueError), error.code, error.exit_code
        (True, 'invalid_input', 2)
    """

    def __init__(self, message: str, details: Mapping[str, Any] | None = None) -> None:
        self.code = self.error_code = "invalid_input"
        self.message = message
        self.details = dict(details or {})
        super().__init__(message)


class EthosNotFoundError(EthosError):
    """The ethos binary to run does not exist or cannot be executed.

        >>> from ethos_py import EthosCli
        >>> try:
        ...     EthosCli("no-such-ethos-binary").explain()
        ... except EthosNotFoundError as error:
        ...     print(error.ethos_bin)
        no-such-ethos-binary
    """

    def __init__(self, ethos_bin: str) -> None:
        super().__init__(f"ethos binary not found: {ethos_bin}")
        self.message = f"ethos binary not found: {ethos_bin}; pass ethos_bin= or binary= an existing program"
        self.details = {"ethos_bin": ethos_bin}
        self.exit_code = 12
        self.ethos_bin = ethos_bin


class EthosTimeoutError(EthosError):
    """The ethos command ran longer than the caller's timeout and was killed.

        >>> error = EthosTimeoutError(["ethos-core", "doc", "parse", "big.pdf"], 2.5)
        >>> str(error), error.timeout_seconds
        ('ethos command timed out after 2.5s: ethos-core doc parse big.pdf', 2.5)
    """

    def __init__(self, command: Sequence[str], timeout_seconds: float) -> None:
        super().__init__(f"ethos command timed out after {timeout_seconds:g}s: {' '.join(command)}")
        self.message = str(self)
        self.details = {"timeout_seconds": timeout_seconds}
        self.command = tuple(command)
        self.timeout_seconds = timeout_seconds


class EthosOutputError(EthosError):
    """The ethos command succeeded but its stdout is not UTF-8 or not the expected JSON.

        >>> error = EthosOutputError("stdout is not JSON", ["ethos-core", "explain"], "oops")
        >>> error.command, error.stdout
        (('ethos-core', 'explain'), 'oops')
    """

    def __init__(self, message: str, command: Sequence[str], stdout: str) -> None:
        super().__init__(message)
        self.message = message
        self.details = {}
        self.command = tuple(command)
        self.stdout = stdout


class EthosCommandError(EthosError):
    """The ethos command exited with a failure status (anything but 0, or 1 when not expected).

    The stderr envelope is decoded into ``error_code``, ``message`` and ``details``:

        >>> stderr = '{"error":{"code":"host_io","details":{"argument":"SOURCE"},"message":"m"}}'
        >>> error = EthosCommandError(["ethos-core", "verify", "x.json"], 2, "", stderr)
        >>> error.exit_code, error.error_code, error.details
        (2, 'host_io', {'argument': 'SOURCE'})
    """

    def __init__(
        self,
        command: Sequence[str],
        returncode: int,
        stdout: str,
        stderr: str,
        error_code: str | None = None,
    ) -> None:
        super().__init__(f"ethos command exited {returncode}: {' '.join(command)}")
        self.command = tuple(command)
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        envelope = parse_envelope(stderr.encode("utf-8", errors="replace"))
        #: The envelope's code; ``None`` only when stderr holds no envelope (e.g. an old binary).
        #: Derived from stderr when not given.
        self.error_code = error_code if error_code is not None else (envelope or {}).get("code")
        self.message = None if envelope is None else str(envelope.get("message", ""))
        details = None if envelope is None else envelope.get("details")
        self.details = dict(details) if isinstance(details, dict) else {}
        #: The envelope's code and the exit status, under the names ``EthosError`` uses.
        self.code = self.error_code
        self.exit_code = returncode
        #: The envelope line of stderr (no newline), as ``EthosError.envelope``; ``b""`` without one.
        self.envelope = b"" if envelope is None else stderr.strip().encode("utf-8")


class PdfiumNotFoundError(EthosCommandError):
    """The command could not find or load PDFium.

        >>> stderr = '{"error":{"code":"internal_error","message":"PDFium not found"}}'
        >>> type(command_error(["ethos-core", "doc", "parse", "x.pdf"], 12, "", stderr)).__name__
        'PdfiumNotFoundError'
    """


class InvalidPdfError(EthosCommandError):
    """The command reported ``invalid_pdf`` (exit 3).

        >>> stderr = '{"error":{"code":"invalid_pdf","message":"m"}}'
        >>> error = command_error(["ethos-core", "doc", "parse", "x.pdf"], 3, "", stderr)
        >>> type(error).__name__, error.exit_code
        ('InvalidPdfError', 3)
    """


class CorruptPdfError(EthosCommandError):
    """The command reported ``corrupt_pdf`` (exit 4).

        >>> stderr = '{"error":{"code":"corrupt_pdf","message":"m"}}'
        >>> error = command_error(["ethos-core", "doc", "parse", "x.pdf"], 4, "", stderr)
        >>> type(error).__name__, error.exit_code
        ('CorruptPdfError', 4)
    """


class ParseTimeoutError(EthosCommandError):
    """The command reported ``parse_timeout`` (exit 10).

        >>> stderr = '{"error":{"code":"parse_timeout","message":"m"}}'
        >>> error = command_error(["ethos-core", "doc", "parse", "x.pdf"], 10, "", stderr)
        >>> type(error).__name__, error.exit_code
        ('ParseTimeoutError', 10)
    """


# The classes below are ours (the public wrapper has none for these codes): one per remaining
# parse failure of docs/contracts.md#errors-and-exit-codes, so callers need not compare ``error_code`` strings.


class PasswordProtectedError(EthosCommandError):
    """The command reported ``password_protected`` (exit 5): the PDF needs a (different) password.

        >>> stderr = '{"error":{"code":"password_protected","message":"m"}}'
        >>> error = command_error(["ethos-core", "doc", "parse", "x.pdf"], 5, "", stderr)
        >>> type(error).__name__, error.exit_code
        ('PasswordProtectedError', 5)
    """


class PageLimitExceededError(EthosCommandError):
    """The command reported ``page_limit_exceeded`` (exit 6): more pages than ``max_pages``.

        >>> stderr = '{"error":{"code":"page_limit_exceeded","message":"m"}}'
        >>> error = command_error(["ethos-core", "doc", "parse", "x.pdf"], 6, "", stderr)
        >>> type(error).__name__, error.exit_code
        ('PageLimitExceededError', 6)
    """


class FileTooLargeError(EthosCommandError):
    """The command reported ``file_too_large`` (exit 7): an input is larger than ``max_file_bytes``.

        >>> stderr = '{"error":{"code":"file_too_large","message":"m"}}'
        >>> error = command_error(["ethos-core", "doc", "parse", "x.pdf"], 7, "", stderr)
        >>> type(error).__name__, error.exit_code
        ('FileTooLargeError', 7)
    """


class OcrRequiredError(EthosCommandError):
    """The command reported ``ocr_required`` (exit 8): the selected pages hold no extractable text.

        >>> stderr = '{"error":{"code":"ocr_required","message":"m"}}'
        >>> error = command_error(["ethos-core", "doc", "parse", "x.pdf"], 8, "", stderr)
        >>> type(error).__name__, error.exit_code
        ('OcrRequiredError', 8)
    """


class UnsupportedPdfFeatureError(EthosCommandError):
    """The command reported ``unsupported_pdf_feature`` (exit 9), e.g. an unknown security handler.

        >>> stderr = '{"error":{"code":"unsupported_pdf_feature","message":"m"}}'
        >>> error = command_error(["ethos-core", "doc", "parse", "x.pdf"], 9, "", stderr)
        >>> type(error).__name__, error.exit_code
        ('UnsupportedPdfFeatureError', 9)
    """


class MemoryLimitExceededError(EthosCommandError):
    """The command reported ``memory_limit_exceeded`` (exit 11): the parse workers together passed ``max_memory_mib``.

        >>> stderr = '{"error":{"code":"memory_limit_exceeded","message":"m"}}'
        >>> error = command_error(["ethos-core", "doc", "parse", "x.pdf"], 11, "", stderr)
        >>> type(error).__name__, error.exit_code
        ('MemoryLimitExceededError', 11)
    """


_CLASS_BY_CODE: dict[str, type[EthosCommandError]] = {
    "invalid_pdf": InvalidPdfError,
    "corrupt_pdf": CorruptPdfError,
    "password_protected": PasswordProtectedError,
    "page_limit_exceeded": PageLimitExceededError,
    "file_too_large": FileTooLargeError,
    "ocr_required": OcrRequiredError,
    "unsupported_pdf_feature": UnsupportedPdfFeatureError,
    "parse_timeout": ParseTimeoutError,
    "memory_limit_exceeded": MemoryLimitExceededError,
}
# Used only when stderr holds no envelope (an old or foreign binary): the public wrapper's mapping,
# kept as it is; our own classes are chosen by envelope code only.
_CLASS_BY_EXIT: dict[int, type[EthosCommandError]] = {
    3: InvalidPdfError,
    4: CorruptPdfError,
    10: ParseTimeoutError,
}


def command_error(command: Sequence[str], returncode: int, stdout: str, stderr: str) -> EthosCommandError:
    """The ``EthosCommandError`` subclass for a failed run: envelope code first, then exit code.

        >>> type(command_error(["ethos-core", "doc", "parse", "x.pdf"], 4, "", "")).__name__
        'CorruptPdfError'
    """
    envelope = parse_envelope(stderr.encode("utf-8", errors="replace"))
    code = None if envelope is None else envelope["code"]
    cls: type[EthosCommandError]
    if code in _CLASS_BY_CODE:
        cls = _CLASS_BY_CODE[code]
    elif "ETHOS_PDFIUM_LIBRARY_PATH" in stderr or "PDFium not found" in stderr:
        cls = PdfiumNotFoundError
    else:
        cls = _CLASS_BY_EXIT.get(returncode, EthosCommandError)
    return cls(command, returncode, stdout, stderr, code)


def parse_envelope(data: bytes) -> dict[str, Any] | None:
    """The ``error`` object of an envelope line, or ``None`` when ``data`` is not an envelope.

        >>> parse_envelope(b'{"error":{"code":"invalid_pdf","message":"the input is not a PDF file"}}')
        {'code': 'invalid_pdf', 'message': 'the input is not a PDF file'}
        >>> parse_envelope(b"not json") is None
        True
    """
    try:
        value = json.loads(data)
    except ValueError:  # also covers UnicodeDecodeError
        return None
    if not isinstance(value, dict) or not isinstance(value.get("error"), dict):
        return None
    error: dict[str, Any] = value["error"]
    return error if isinstance(error.get("code"), str) else None


def _fallback_envelope(code: str, message: str, details: Mapping[str, Any] | None) -> bytes:
    # Only for errors built in Python without the core (tests, malformed envelopes); real errors
    # always keep the core's own bytes.
    error: dict[str, Any] = {"code": code, "message": message}
    if details:
        error["details"] = dict(details)
    return dumps({"error": error})
