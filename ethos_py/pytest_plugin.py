"""pytest_plugin - the ``pytest11`` entry point: Ethos fixtures and assertions for test suites of RAG apps.

Installed with the package and loaded by pytest on its own (disable with ``-p no:ethos``). Fixtures:

- ``ethos_document(path, grounding=None, **parse_options)``: opens a PDF (parsed by ethos-core
  through its parse cache) or a document/source file, once per test session and path; closed when
  the session ends.
- ``ethos_verify(source, claims, policy=None)``: verifies claims (strings are quotes searched in
  the whole document) against a path or an open document and returns the report.
- ``assert_grounded(report, only=None)``: ``ethos_py.testing.assert_grounded``; a failure prints
  each check that is not grounded with its blocking guards and near-miss diff, then the summary.

Nothing here imports the native library until a fixture is used, so the plugin costs a test run
that does not use it nothing. Each xdist worker is a session of its own: documents are opened once
per worker; parses are shared through the parse cache on disk.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from .document import Document

OpenDocument = Callable[..., "Document"]


@pytest.fixture(scope="session")
def ethos_document() -> Iterator[OpenDocument]:
    """Opens a PDF or document file as an ``ethos_py.Document``, once per session and
    (path, grounding, parse options); call it with the path."""
    from .testing import open_source

    opened: dict[tuple[str, str | None, tuple[tuple[str, str], ...]], Document] = {}

    def open_document(path: str | os.PathLike[str], grounding: str | None = None, **parse_options: Any) -> Document:
        key = (os.path.realpath(os.fspath(path)), grounding, tuple(sorted((k, repr(v)) for k, v in parse_options.items())))
        document = opened.get(key)
        if document is None:
            document = open_source(path, grounding, parse_options=parse_options)
            opened[key] = document
        return document

    try:
        yield open_document
    finally:
        for document in opened.values():
            document.close()


@pytest.fixture
def ethos_verify(ethos_document: OpenDocument) -> Callable[..., dict[str, Any]]:
    """Verifies claims against a source (a path opened through ``ethos_document``, or an open
    ``Document``) and returns the report dict."""
    from .document import Document
    from .testing import verify_claims

    def verify(source: str | os.PathLike[str] | Document, claims: Iterable[str | Mapping[str, Any]],
               policy: str | None = None) -> dict[str, Any]:
        document = source if isinstance(source, Document) else ethos_document(source)
        return verify_claims(document, claims, policy=policy)

    return verify


@pytest.fixture
def assert_grounded() -> Callable[..., dict[str, Any]]:
    """``ethos_py.testing.assert_grounded``, as a fixture."""
    from .testing import assert_grounded as assert_report_grounded

    return assert_report_grounded

