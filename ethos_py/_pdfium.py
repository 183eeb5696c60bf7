"""_pdfium - finds the PDFium library shipped in pypdfium2's wheel and hands its path to ethos-core.

ethos-core loads PDFium itself (in its parse workers) from the path in ``ETHOS_PDFIUM_LIBRARY_PATH``.
We never ask users for a PDFium: the one inside the ``pypdfium2_raw`` package is used, and the
environment variable is honoured only as an explicit override (docs/pdf-parsing.md#process-limits-and-cache).
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Mapping
from pathlib import Path

__all__ = ["PDFIUM_ENV_VAR", "bundled_pdfium_library", "parse_environment"]

PDFIUM_ENV_VAR = "ETHOS_PDFIUM_LIBRARY_PATH"

# The file name pypdfium2_raw uses on each platform (Linux is the one Ethos builds for today).
_LIBRARY_NAMES = ("libpdfium.so", "libpdfium.dylib", "pdfium.dll")


def bundled_pdfium_library() -> Path | None:
    """Path of pypdfium2_raw's PDFium library, or ``None`` when pypdfium2 is not installed.

    The package is located without importing it: importing ``pypdfium2_raw`` would load PDFium
    into this process, which only the parse workers of ethos-core need.
    """
    try:
        spec = importlib.util.find_spec("pypdfium2_raw")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        for name in _LIBRARY_NAMES:
            candidate = Path(location) / name
            if candidate.is_file():
                return candidate
    return None


def parse_environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for an ethos-core child that may parse PDFs.

    The current environment plus ``extra``; ``ETHOS_PDFIUM_LIBRARY_PATH`` is set to pypdfium2's
    library unless one of them already sets it (a caller's override wins). When pypdfium2 is
    missing the variable stays unset and ethos-core reports "PDFium not found".
    """
    environment = dict(os.environ)
    if extra:
        environment.update(extra)
    if not environment.get(PDFIUM_ENV_VAR):
        library = bundled_pdfium_library()
        if library is not None:
            environment[PDFIUM_ENV_VAR] = os.fspath(library)
    return environment
