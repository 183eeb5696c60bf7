"""_host_io - how bytes get in and out: size-limited input reads, JSON inputs, atomic file writes.

The Python twin of native/cli/host_io.cpp; docs/cli.md §4-§5 is the shared specification.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from typing import Any

from . import _ffi
from ._json import dumps
from .errors import EthosError

__all__ = [
    "MAX_INPUT_BYTES",
    "JsonInput",
    "PathInput",
    "io_reason",
    "json_input",
    "read_input_file",
    "write_file_atomic",
]

#: CONTRACTS.md §1.4: any input file above 256 MiB is ``file_too_large``, checked before reading.
MAX_INPUT_BYTES = 256 * 1024 * 1024

PathInput = str | os.PathLike[str]
#: A JSON input: a path (``os.PathLike`` only), JSON text (``str``), JSON bytes, or any
#: JSON-serializable Python value (which is why the alias cannot be narrower than ``Any``).
JsonInput = Any

_NOT_FOUND = {errno.ENOENT, errno.ENOTDIR}
_PERMISSION = {errno.EACCES, errno.EPERM, errno.EROFS}


def io_reason(error: OSError) -> str:
    """The ``reason`` detail of a ``host_io`` envelope (same table as host_io.cpp)."""
    if error.errno in _NOT_FOUND:
        return "not_found"
    if error.errno == errno.EISDIR:
        return "is_directory"
    if error.errno in _PERMISSION:
        return "permission_denied"
    return "io_error"


def _too_large(argument: str | None) -> EthosError:
    details: dict[str, Any] = {"max_bytes": MAX_INPUT_BYTES}
    if argument is not None:
        details["argument"] = argument
    return _ffi.host_error("file_too_large", details)


def read_input_file(path: PathInput, *, argument: str | None = None) -> bytes:
    """Reads a whole input file.

    Raises ``OSError`` (``FileNotFoundError``, ``IsADirectoryError``, ...) when it cannot be read
    and ``EthosError`` (``file_too_large``) when it is over ``MAX_INPUT_BYTES``; ``argument``
    (``--citations`` ...) is named in that error's details.
    """
    # stat first: a directory or an oversized file is rejected without opening or reading it.
    info = os.stat(path)
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
    if stat.S_ISREG(info.st_mode) and info.st_size > MAX_INPUT_BYTES:
        raise _too_large(argument)
    with open(path, "rb") as handle:
        # Pipes and devices have no size to stat, and a regular file may grow while we read.
        data = handle.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise _too_large(argument)
    return data


def json_input(value: JsonInput, *, argument: str | None = None) -> bytes:
    """The bytes of a JSON input.

    ``os.PathLike`` is a file to read; ``str`` is JSON text (never a path: ``"a.json"`` is not
    valid JSON and the core says so); bytes-like values are passed as they are; anything else is
    serialized in canonical form.
    """
    if isinstance(value, os.PathLike):
        return read_input_file(value, argument=argument)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, str):
        return value.encode("utf-8")
    return dumps(value)


def _default_mode() -> int:
    # The mode open(..., "w") would give; mkstemp alone would leave 0600.
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_file_atomic(path: PathInput, data: bytes) -> None:
    """Replaces ``path`` with ``data`` atomically; raises ``OSError``.

    A temp file in the same directory (so the rename stays on one filesystem) is written, fsynced
    and renamed over ``path``. On failure it is removed: no new file appears and an existing file
    is left untouched.
    """
    target = os.fspath(path)
    try:
        mode = os.stat(target).st_mode
    except OSError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        # A device or pipe (/dev/null, /dev/stdout, a FIFO) is written in place: renaming a file
        # over it would replace the device node itself, and nothing partial can be left on one.
        with open(target, "wb") as stream:
            stream.write(data)
        return
    directory = os.path.dirname(target) or "."
    fd, temp = tempfile.mkstemp(prefix=".ethos-out-", dir=directory)
    try:
        try:
            os.fchmod(fd, _default_mode())
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            # fsync before rename: otherwise a crash can leave the new name pointing at empty data.
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, target)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
    # Persist the directory entry too; the new file is already in place, so failure is moot here.
    try:
        dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)
