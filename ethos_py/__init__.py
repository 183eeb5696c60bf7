"""ethos_py - the Python surface of Ethos, a deterministic evidence verifier for AI answers.

Two paths end in the same native core and give the same report bytes:

- in process, through the C ABI: ``Document``, ``verify``, ``proof_summary``, ``summary_text``;
- as a subprocess: ``EthosCli`` (the bundled ``ethos-core`` by default).

PDFs become documents through ``parse_pdf_json`` / ``parse_pdf_markdown`` / ``parse_pdf_text``,
which run ``ethos-core doc parse`` (PDFium from pypdfium2, in killable child processes).

The in-process names load the native library on first use, so ``EthosCli`` and the exceptions
stay importable even where the library cannot be loaded.
"""

from __future__ import annotations

from importlib import import_module
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _distribution_version
from typing import TYPE_CHECKING, Any

from .cli_wrapper import EthosCli
from .errors import (
    CorruptPdfError,
    EthosCommandError,
    EthosError,
    EthosNotFoundError,
    EthosOutputError,
    EthosPythonSurfaceError,
    EthosTimeoutError,
    FileTooLargeError,
    InvalidPdfError,
    MemoryLimitExceededError,
    OcrRequiredError,
    PageLimitExceededError,
    ParseTimeoutError,
    PasswordProtectedError,
    PdfiumNotFoundError,
    UnsupportedPdfFeatureError,
)
from .pdf import parse_pdf, parse_pdf_bytes, parse_pdf_json, parse_pdf_markdown, parse_pdf_text

from .release import app_answer_release_decision

if TYPE_CHECKING:
    from .document import Document, verify
    from .proof import proof_summary, summary_text

try:
    __version__ = _distribution_version("ethos-py")
except PackageNotFoundError:  # a source checkout that was never installed
    __version__ = "0+unknown"

# name -> module that defines it; imported on first access (PEP 562).
_NATIVE_NAMES = {
    "Document": "document",
    "verify": "document",
    "proof_summary": "proof",
    "summary_text": "proof",
}

__all__ = [
    "CorruptPdfError",
    "Document",
    "EthosCli",
    "EthosCommandError",
    "EthosError",
    "EthosNotFoundError",
    "EthosOutputError",
    "EthosPythonSurfaceError",
    "EthosTimeoutError",
    "FileTooLargeError",
    "InvalidPdfError",
    "MemoryLimitExceededError",
    "OcrRequiredError",
    "PageLimitExceededError",
    "ParseTimeoutError",
    "PasswordProtectedError",
    "PdfiumNotFoundError",
    "UnsupportedPdfFeatureError",
    "__version__",
    "app_answer_release_decision",
    "parse_pdf",
    "parse_pdf_bytes",
    "parse_pdf_json",
    "parse_pdf_markdown",
    "parse_pdf_text",
    "proof_summary",
    "summary_text",
    "verify",
]


def __getattr__(name: str) -> Any:
    module = _NATIVE_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'ethos_py' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
