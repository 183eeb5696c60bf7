"""_ffi - the raw binding: opens libethos.so with cffi (ABI mode) and checks its ABI version on import.

Everything else in ethos_py calls the core through the helpers here, which own the two rules of
the C ABI that are easy to get wrong: every out-string is released with ``ethos_string_free``, and
an ``ETHOS_ERROR`` status carries an envelope that becomes an ``EthosError``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, cast

import cffi

from ._json import dumps
from ._locate import find_bundled, find_header
from .errors import EthosError, parse_envelope

__all__ = [
    "LIBRARY_ENV",
    "abi_version",
    "call_string",
    "error_envelope",
    "ffi",
    "header_path",
    "host_error",
    "lib",
    "library_path",
    "open_document",
    "version",
]

#: Environment variable naming the libethos.so to load instead of the bundled one (dev, sanitizers).
LIBRARY_ENV = "ETHOS_LIBRARY"

_BEGIN = "/* BEGIN CDEF */"
_END = "/* END CDEF */"


def _read_cdef(header: Path) -> str:
    text = header.read_text(encoding="utf-8")
    begin, end = text.find(_BEGIN), text.find(_END)
    if begin < 0 or end < begin:
        raise ImportError(f"ethos_py: {header} has no {_BEGIN} ... {_END} block")
    return text[begin + len(_BEGIN) : end]


def _library_location() -> Path:
    override = os.environ.get(LIBRARY_ENV)
    if override:
        return Path(override)
    bundled = find_bundled("libethos.so")
    if bundled is None:
        raise ImportError(
            "ethos_py: libethos.so not found in ethos_py/_lib; reinstall the package "
            f"(pip install -e .) or point {LIBRARY_ENV} at a built libethos.so"
        )
    return bundled


def _load() -> tuple[cffi.FFI, Any, Path, Path]:
    header = find_header()
    if header is None:
        raise ImportError("ethos_py: ethos.h not found (neither in ethos_py/_lib nor native/include)")
    ffi_ = cffi.FFI()
    ffi_.cdef(_read_cdef(header))
    location = _library_location()
    try:
        # Any: the functions come from the cdef at run time, so no static type can name them.
        lib_: Any = ffi_.dlopen(os.fspath(location))
    except OSError as exc:
        raise ImportError(f"ethos_py: cannot load {location}: {exc}") from exc
    expected, actual = int(lib_.ETHOS_ABI_VERSION), int(lib_.ethos_abi_version())
    if actual != expected:
        raise ImportError(
            f"ethos_py: {location} implements C ABI version {actual}, but {header} declares "
            f"version {expected}; rebuild the library or reinstall ethos-verify so both match"
        )
    return ffi_, lib_, location, header


ffi, lib, library_path, header_path = _load()


def abi_version() -> int:
    """The C ABI version of the loaded library."""
    return int(lib.ethos_abi_version())


def version() -> str:
    """The core's version string (static in the library, never freed)."""
    return _c_string(lib.ethos_version()).decode("utf-8")


def _c_string(pointer: Any) -> bytes:
    # ffi.string of a char * is always bytes (str only for wchar_t *).
    return cast(bytes, ffi.string(pointer))


def _consume(out: Any) -> bytes:
    """Copies the out-string and releases it; every out-string goes through here exactly once."""
    pointer = out[0]
    try:
        return b"" if pointer == ffi.NULL else _c_string(pointer)
    finally:
        lib.ethos_string_free(pointer)


def _status_error(status: int, envelope: bytes) -> BaseException:
    if status == lib.ETHOS_OUT_OF_MEMORY:
        return MemoryError("ethos: the native core ran out of memory")
    return error_from_envelope(envelope)


def call_string(function: Callable[..., int], *args: Any) -> bytes:
    """Calls ``function(*args, char **out)`` and returns the out-string's bytes."""
    out = ffi.new("char **")
    status = function(*args, out)
    data = _consume(out)
    if status != lib.ETHOS_OK:
        raise _status_error(status, data)
    return data


def call_sized_string(function: Callable[..., int], *args: Any) -> bytes:
    """Calls ``function(*args, char **out, size_t *out_len)`` and returns the out-string's bytes:
    on success its ``out_len`` bytes, copied without scanning for the NUL (a verify-batch output
    is hundreds of MB); on failure the envelope."""
    out = ffi.new("char **")
    out_len = ffi.new("size_t *")
    status = function(*args, out, out_len)
    pointer = out[0]
    try:
        if status == lib.ETHOS_OK:
            return b"" if pointer == ffi.NULL else cast(bytes, ffi.unpack(pointer, int(out_len[0])))
        envelope = b"" if pointer == ffi.NULL else _c_string(pointer)
    finally:
        lib.ethos_string_free(pointer)
    raise _status_error(status, envelope)


def call_batch_output(*args: Any) -> bytes:
    """``ethos_verify_batch_output(*args, ...)``: the batch's output copied once, by the core (on
    two threads), straight into a new ``bytes`` of its length,
    instead of into a malloc'd C string that ``ffi.unpack`` then copies again (a serial copy and
    ~52,000 page faults per 213 MB)."""
    out_output = ffi.new("ethos_batch_output **")
    out_len = ffi.new("size_t *")
    out_error = ffi.new("char **")
    status = lib.ethos_verify_batch_output(*args, out_output, out_len, out_error)
    envelope = _consume(out_error)
    try:
        if status != lib.ETHOS_OK:
            raise _status_error(status, envelope)
        # bytes(n) is zero-filled by calloc: fresh pages, untouched until the copy writes them. The
        # object is private to this function until it is returned, so filling it in place is what
        # C code does with PyBytes_FromStringAndSize(NULL, n) before handing the object out.
        data = bytes(int(out_len[0]))
        status = lib.ethos_batch_output_copy(out_output[0], ffi.from_buffer(data), len(data), out_error)
        envelope = _consume(out_error)
        if status != lib.ETHOS_OK:
            raise _status_error(status, envelope)
        return data
    finally:
        lib.ethos_batch_output_free(out_output[0])


def open_document(source: bytes, options: bytes | None) -> Any:
    """``ethos_document_open``: the raw ``ethos_document *``, which the caller must free."""
    out_document = ffi.new("ethos_document **")
    out_error = ffi.new("char **")
    options_ptr, options_len = buffer_argument(options)
    status = lib.ethos_document_open(source, len(source), options_ptr, options_len, out_document, out_error)
    envelope = _consume(out_error)
    if status == lib.ETHOS_OK:
        if out_document[0] == ffi.NULL:  # OK without a handle would break the ABI contract
            raise host_error("internal_error")
        return out_document[0]
    lib.ethos_document_free(out_document[0])  # NULL-safe; never leak a handle from a failed open
    raise _status_error(status, envelope)


def error_envelope(code: str, details: Mapping[str, Any] | None = None) -> tuple[bytes, int]:
    """The core's envelope bytes and exit code for a failure found on the host side."""
    code_bytes = code.encode("utf-8")
    details_bytes = None if not details else dumps(details)
    details_ptr, details_len = buffer_argument(details_bytes)
    out = ffi.new("char **")
    exit_code = ffi.new("int *")
    status = lib.ethos_error_envelope(code_bytes, len(code_bytes), details_ptr, details_len, out, exit_code)
    data = _consume(out)
    if status != lib.ETHOS_OK:
        # An unknown code is a bug in the caller; the core explains it in the envelope it returned.
        raise _status_error(status, data)
    return data, int(exit_code[0])


def host_error(code: str, details: Mapping[str, Any] | None = None) -> EthosError:
    """An ``EthosError`` whose envelope bytes come from the core (same bytes as ethos-core)."""
    envelope, exit_code = error_envelope(code, details)
    return EthosError.from_envelope(envelope, exit_code)


def error_from_envelope(envelope: bytes) -> EthosError:
    """The ``EthosError`` for an envelope returned by a failing call."""
    parsed = parse_envelope(envelope)
    exit_code = None if parsed is None else _exit_code_of(parsed["code"])
    # A code this library does not know: consumers tolerate it (docs/contracts.md#errors-and-exit-codes); it exits 12.
    return EthosError.from_envelope(envelope, 12 if exit_code is None else exit_code)


def _exit_code_of(code: str) -> int | None:
    # Deliberately never raises: it runs while an error is being built, and must not recurse.
    code_bytes = code.encode("utf-8")
    out = ffi.new("char **")
    exit_code = ffi.new("int *")
    status = lib.ethos_error_envelope(code_bytes, len(code_bytes), ffi.NULL, 0, out, exit_code)
    lib.ethos_string_free(out[0])
    return int(exit_code[0]) if status == lib.ETHOS_OK else None


def buffer_argument(data: bytes | None) -> tuple[Any, int]:
    """A (pointer, length) pair for an optional C buffer argument: NULL and 0 for None."""
    return (ffi.NULL, 0) if data is None else (data, len(data))
