"""_host_io - how bytes get in and out: size-limited input reads, JSON inputs, atomic file writes.

The Python twin of native/cli/host_io.cpp; docs/cli.md §4-§5 is the shared specification.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import select
import shutil
import stat
import tempfile
import time
from collections.abc import Iterable, Iterator
from typing import IO, Any

from ._json import dumps
from .errors import EthosError

__all__ = [
    "MAX_INPUT_BYTES",
    "BinaryInput",
    "JsonInput",
    "PathInput",
    "binary_input_path",
    "io_reason",
    "is_json_text",
    "json_input",
    "json_input_path",
    "optional_json_input_path",
    "read_input_file",
    "write_file_atomic",
    "write_pieces_atomic",
]

#: docs/contracts.md#errors-and-exit-codes: any input file above 256 MiB is ``file_too_large``, checked before reading.
MAX_INPUT_BYTES = 256 * 1024 * 1024

PathInput = str | os.PathLike[str]
#: A JSON input: a path (``os.PathLike``, or a ``str`` that does not start with ``{`` or ``[``),
#: JSON text (a ``str`` that does), JSON bytes, or any JSON-serializable Python value (which is
#: why the alias cannot be narrower than ``Any``).
JsonInput = Any
#: A binary input such as a PDF: a path, its bytes, or a file object opened in binary mode.
BinaryInput = PathInput | bytes | bytearray | memoryview | IO[bytes]

_NOT_FOUND = {errno.ENOENT, errno.ENOTDIR}
_PERMISSION = {errno.EACCES, errno.EPERM, errno.EROFS}
#: How long a named pipe given as an input may take to get a writer (native/cli/host_io.hpp).
FIFO_WRITER_WAIT_MS = 5000


def io_reason(error: OSError) -> str:
    """The ``reason`` detail of a ``host_io`` envelope (same table as host_io.cpp)."""
    if error.errno in _NOT_FOUND:
        return "not_found"
    if error.errno == errno.EISDIR:
        return "is_directory"
    if error.errno in _PERMISSION:
        return "permission_denied"
    if error.errno == errno.ETIMEDOUT:  # a named pipe without a writer (read_input_file)
        return "no_writer"
    return "io_error"


def _too_large(argument: str | None) -> EthosError:
    # Imported here: the rest of this module needs no native library (EthosCli uses it too).
    from . import _ffi

    details: dict[str, Any] = {"max_bytes": MAX_INPUT_BYTES}
    if argument is not None:
        details["argument"] = argument
    return _ffi.host_error("file_too_large", details)


def _open_fifo(path: str, flags: int) -> int:
    """Opens a named pipe without waiting for a writer (open would block until one comes, for
    ever when none does), then gives it FIFO_WRITER_WAIT_MS to write or close; else ETIMEDOUT."""
    fd = os.open(path, flags | os.O_NONBLOCK)
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        if not poller.poll(FIFO_WRITER_WAIT_MS):
            raise OSError(errno.ETIMEDOUT, "no writer opened the named pipe", path)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


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
    opener = _open_fifo if stat.S_ISFIFO(info.st_mode) else None
    with open(path, "rb", opener=opener) as handle:
        # Pipes and devices have no size to stat, and a regular file may grow while we read.
        data = handle.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise _too_large(argument)
    return data


def is_json_text(text: str) -> bool:
    """The one rule for a ``str`` input: JSON text when its first non-space character is ``{`` or
    ``[`` (every citations, config, request, report or proof file is an object or an array),
    otherwise a path.

        >>> is_json_text(' {"claims": []}'), is_json_text("cites.json"), is_json_text("[1]")
        (True, False, True)
    """
    # JSON's own whitespace only (RFC 8259): other Unicode spaces are part of a file name.
    return text.lstrip(" \t\r\n")[:1] in ("{", "[")


def json_input(value: JsonInput, *, argument: str | None = None) -> bytes:
    """The bytes of a JSON input.

    ``os.PathLike`` is a file to read; a ``str`` is JSON text when ``is_json_text`` says so and a
    path to read otherwise (so ``verify("doc.json", "cites.json")`` reads both files, as
    ``EthosCli`` and the CLIs do); bytes-like values are passed as they are; anything else is
    serialized in canonical form.
    """
    if isinstance(value, os.PathLike):
        return read_input_file(value, argument=argument)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, str):
        if is_json_text(value):
            return value.encode("utf-8")
        return read_input_file(value, argument=argument)
    return dumps(value)


@contextlib.contextmanager
def binary_input_path(value: BinaryInput, *, name: str = "input.pdf") -> Iterator[PathInput]:
    """A path holding ``value`` for as long as the ``with`` block runs.

    A path is used as it is. Bytes, or a file object opened in binary mode (read from its current
    position), are written to a private temporary directory that is removed afterwards: the
    subprocess CLI reads files, and this keeps ``parse_pdf_json(data)`` from needing one.
    """
    if isinstance(value, (str, os.PathLike)):
        yield value
        return
    if isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
    elif callable(getattr(value, "read", None)):
        data = value.read()
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError("the file object must be opened in binary mode ('rb'): its read() returned text")
        data = bytes(data)
    else:
        raise TypeError(f"expected a path, bytes or a binary file object, not {type(value).__name__}")
    # mkdtemp makes the directory 0700: no other user can read or swap the copy.
    directory = tempfile.mkdtemp(prefix="ethos-input-")
    try:
        path = os.path.join(directory, name)
        with open(path, "wb") as stream:
            stream.write(data)
        yield path
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _default_mode() -> int:
    # The mode open(..., "w") would give; mkstemp alone would leave 0600.
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


# An --out temp file: ".ethos-out-<writer pid>-<6 to 8 characters mkstemp or tempfile chose>".
_OUT_TEMP_NAME = re.compile(r"\.ethos-out-([0-9]{1,10})-[A-Za-z0-9_]{6,8}")
# An abandoned temp file is left alone this long after its last change (native/cli/stale_temps.hpp).
STALE_TEMP_SECONDS = 60
# Larger numbers are no process id (pid_t is 32 bits).
_MAX_PID = 2**31 - 1


def _process_gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def remove_stale_out_temps(directory: str) -> None:
    """Removes the --out temp files a killed writer left in ``directory``: our own naming, regular
    files of this user, whose writer process is gone and that have not changed for
    ``STALE_TEMP_SECONDS``. Best effort, never raises (native/cli/stale_temps.cpp, the same rule)."""
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    now = time.time()
    for entry in entries:
        match = _OUT_TEMP_NAME.fullmatch(entry.name)
        if match is None or not 0 < int(match.group(1)) <= _MAX_PID or int(match.group(1)) == os.getpid():
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid():
                continue
            if now - info.st_mtime < STALE_TEMP_SECONDS or not _process_gone(int(match.group(1))):
                continue
            os.unlink(entry.path)
        except OSError:
            continue


def write_file_atomic(path: PathInput, data: bytes) -> None:
    """Replaces ``path`` with ``data`` atomically; raises ``OSError``.

    A temp file in the same directory (so the rename stays on one filesystem) is written, fsynced
    and renamed over ``path``. On failure it is removed: no new file appears and an existing file
    is left untouched.
    """
    write_pieces_atomic(path, (data,))


def write_pieces_atomic(path: PathInput, pieces: Iterable[bytes]) -> None:
    """``write_file_atomic`` of the concatenation of ``pieces``, never held in memory at once
    (``ethos batch`` assembles its output from chunk files this way)."""
    target = os.fspath(path)
    try:
        mode = os.stat(target).st_mode
    except OSError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        # A device or pipe (/dev/null, /dev/stdout, a FIFO) is written in place: renaming a file
        # over it would replace the device node itself, and nothing partial can be left on one.
        with open(target, "wb") as stream:
            for piece in pieces:
                stream.write(piece)
        return
    directory = os.path.dirname(target) or "."
    # The name carries our pid: what a killed writer left here is removed first (as ethos-core does).
    remove_stale_out_temps(directory)
    fd, temp = tempfile.mkstemp(prefix=f".ethos-out-{os.getpid()}-", dir=directory)
    try:
        try:
            os.fchmod(fd, _default_mode())
            for piece in pieces:
                view = memoryview(piece)
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


@contextlib.contextmanager
def json_input_path(value: JsonInput, name: str) -> Iterator[PathInput]:
    """A path for a JSON input handed to a subprocess: paths as they are (the str rule of
    ``is_json_text``), anything else (a dict, JSON text or bytes) written to a temporary file
    named ``name`` for the call."""
    if isinstance(value, os.PathLike) or (isinstance(value, str) and not is_json_text(value)):
        yield value
        return
    with binary_input_path(json_input(value), name=name) as path:
        yield path


@contextlib.contextmanager
def optional_json_input_path(value: JsonInput | None, name: str) -> Iterator[PathInput | None]:
    """``json_input_path`` for an optional input: ``None`` stays ``None``."""
    if value is None:
        yield None
        return
    with json_input_path(value, name) as path:
        yield path
