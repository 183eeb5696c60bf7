"""_locate - finds the compiled files shipped in ethos_py/_lib (libethos.so, ethos-core, ethos.h)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def find_bundled(name: str) -> Path | None:
    """Path of ``ethos_py/_lib/<name>``, or ``None`` when no installation ships it.

    The package's own ``_lib`` comes first. Then every ``sys.path`` entry is searched, because a
    scikit-build-core editable install leaves the .py files in the source tree and puts the
    compiled files under ``site-packages/ethos_py/_lib``.
    """
    candidate = PACKAGE_DIR / "_lib" / name
    if candidate.is_file():
        return candidate
    for entry in sys.path:
        candidate = Path(entry or ".") / "ethos_py" / "_lib" / name
        if candidate.is_file():
            return candidate.resolve()
    return None


def find_header() -> Path | None:
    """The shipped ``ethos.h``, or the one in a source checkout (``native/include/ethos.h``).

    When ``ETHOS_LIBRARY`` names a dev or sanitizer build and this is a source checkout, the
    checkout's header wins: that library was built from it, while a shipped header may be older.
    """
    checkout = PACKAGE_DIR.parent / "native" / "include" / "ethos.h"
    if os.environ.get("ETHOS_LIBRARY") and checkout.is_file():
        return checkout
    shipped = find_bundled("ethos.h")
    if shipped is not None:
        return shipped
    return checkout if checkout.is_file() else None


def find_core_binary() -> Path | None:
    """The ethos-core that ``ethos`` runs for PDF work (``doc parse``, PDF ``fingerprint``, ``demo``).

    The one beside ``ETHOS_LIBRARY`` when that names a dev or sanitizer build (the pair is built
    together, so the child parses with the same core that verifies in process), else the bundled one.
    """
    library = os.environ.get("ETHOS_LIBRARY")
    if library:
        beside = Path(library).parent / "ethos-core"
        if beside.is_file():
            return beside
    return find_bundled("ethos-core")
