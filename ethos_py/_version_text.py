"""_version_text - the `--version` text: package version, PDFium build and Unicode version.

All three decide reports and fingerprints (a parsed document's profile names the PDFium build,
every report names the Unicode version of the tables), so `ethos --version` prints them, in the
same lines as `ethos-core --version`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from . import _ffi
from ._pdfium import PDFIUM_ENV_VAR, bundled_pdfium_library
from .document import explain_policy_json

__all__ = ["pdfium_build", "version_text"]


def pdfium_build() -> str | None:
    """The PDFium build ("major.minor.build") parsing would use, read from the version.json beside
    the library exactly as ethos-core reads it; ``None`` when there is no PDFium or no version."""
    override = os.environ.get(PDFIUM_ENV_VAR)
    library = Path(override) if override else bundled_pdfium_library()
    if library is None:
        return None
    try:
        version = json.loads((library.parent / "version.json").read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(version, dict):
        return None
    parts = [version.get(key) for key in ("major", "minor", "build")]
    # Unsigned integers only (JSON true/false or 1.0 are not versions), as the core checks.
    if not all(type(part) is int and part >= 0 for part in parts):
        return None
    return ".".join(str(part) for part in parts)


def version_text() -> str:
    unicode_version = json.loads(explain_policy_json())["unicode_version"]
    build = pdfium_build()
    return f"ethos {_ffi.version()}\npdfium {build if build is not None else 'not found'}\nunicode {unicode_version}\n"
