"""batch_journal - the work directory of an ``ethos batch`` job: the job's identity, committed chunk files and their journal.

A chunk is committed by writing its file durably (write, fsync, rename, fsync of the directory)
and then appending a journal line (chunk, records, SHA-256) and fsyncing the journal. On resume a
chunk counts as committed only when its journal line and its file agree, so a torn last line or a
chunk whose line never made it is simply done again, and a record is never written twice.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

_JOURNAL_FORMAT = "ethos.batch_journal.v1"


class ForeignJob(Exception):
    """The work directory holds an interrupted job with other inputs or options."""


def _fsync_directory(directory: str) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_durable(path: str, data: bytes) -> None:
    temp = f"{path}.tmp-{os.getpid()}"
    with open(temp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temp, path)
    _fsync_directory(os.path.dirname(path))


class _Journal:
    """The work directory: the job's identity, one file per committed chunk and a journal line
    (chunk, records, sha256) per commit, written after the chunk file is durable. A chunk counts as
    committed only when its journal line and its file agree, so a torn last line or a chunk file
    whose journal line never made it is simply done again."""

    def __init__(self, directory: str, identity: Mapping[str, Any], resume: bool) -> None:
        self.directory = directory
        self.path = os.path.join(directory, "journal.jsonl")
        self.committed: dict[int, int] = {}
        header = json.dumps({"format": _JOURNAL_FORMAT, **identity}, sort_keys=True, separators=(",", ":")) + "\n"
        if resume and os.path.isfile(self.path):
            with open(self.path, "rb") as handle:
                lines = handle.read().split(b"\n")
            if lines[0].decode("utf-8", "replace") + "\n" != header:
                raise ForeignJob(directory)
            for raw in lines[1:]:
                try:
                    entry = json.loads(raw)
                    chunk_path = self.chunk_path(int(entry["chunk"]))
                    with open(chunk_path, "rb") as chunk_file:
                        if hashlib.sha256(chunk_file.read()).hexdigest() == entry["sha256"]:
                            self.committed[int(entry["chunk"])] = int(entry["records"])
                except (ValueError, KeyError, TypeError, OSError):
                    continue  # a torn line, or a chunk to do again
            self.handle = open(self.path, "ab")
            return
        if os.path.isdir(directory):
            shutil.rmtree(directory)
        os.makedirs(directory)
        _write_durable(self.path, header.encode("utf-8"))
        self.handle = open(self.path, "ab")

    def chunk_path(self, index: int) -> str:
        return os.path.join(self.directory, f"chunk-{index:08d}.jsonl")

    def commit(self, index: int, data: bytes, records: int) -> None:
        _write_durable(self.chunk_path(index), data)
        entry = {"chunk": index, "records": records, "sha256": hashlib.sha256(data).hexdigest()}
        self.handle.write(json.dumps(entry, sort_keys=True).encode("utf-8") + b"\n")
        self.handle.flush()
        os.fsync(self.handle.fileno())
        self.committed[index] = records

    def pieces(self, chunks: int) -> Iterator[bytes]:
        return self.pieces_of(range(chunks))

    def pieces_of(self, indexes: Iterable[int]) -> Iterator[bytes]:
        for index in indexes:
            with open(self.chunk_path(index), "rb") as handle:
                yield handle.read()

    def close(self) -> None:
        self.handle.close()


def _digest(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


