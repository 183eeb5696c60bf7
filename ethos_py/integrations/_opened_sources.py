"""_opened_sources.py - the sources a framework step verifies against, each opened once and kept for its later calls."""

from __future__ import annotations

import os
import threading

from ..document import Document

SourceInput = Document | str | os.PathLike[str]


class OpenedSources:
    """Opens a path (a PDF, a parsed document, any source ``ethos_py.testing.open_source`` reads) on
    first use and hands the same Document to every later call, from any thread; a Document given
    as it is passes through."""

    def __init__(self) -> None:
        self._opened: dict[str, Document] = {}
        self._lock = threading.Lock()

    def open(self, source: SourceInput) -> Document:
        if isinstance(source, Document):
            return source
        key = os.path.realpath(os.fspath(source))
        with self._lock:
            if key not in self._opened:
                from ..testing import open_source

                self._opened[key] = open_source(source)
            return self._opened[key]
