"""`ethos --version` and `ethos-core --version` name what decides reports: package, PDFium build, Unicode."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import harness
import pytest
from conftest import REPO_DIR

import ethos_py
from ethos_py import _ffi
from ethos_py._pdfium import PDFIUM_ENV_VAR, bundled_pdfium_library, parse_environment
from ethos_py._version_text import pdfium_build

QUICKSTART = REPO_DIR / "examples" / "quickstart"


def run(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    env = {**env, "PYTHONPATH": os.pathsep.join(filter(None, [os.fspath(REPO_DIR), env.get("PYTHONPATH")]))}
    return subprocess.run(argv, env=env, capture_output=True, timeout=120, check=False)


def test_both_programs_print_version_pdfium_build_and_unicode_version() -> None:
    env = parse_environment()  # the PDFium the programs parse with (pypdfium2's)
    library = bundled_pdfium_library()
    assert library is not None
    shipped = json.loads((library.parent / "version.json").read_bytes())
    report = ethos_py.verify(QUICKSTART / "document.json", QUICKSTART / "citations.json")
    expected = (
        f"ethos {_ffi.version()}\n"
        f"pdfium {shipped['major']}.{shipped['minor']}.{shipped['build']}\n"
        f"unicode {report['verifier']['unicode_version']}\n"
    ).encode()
    py = run([sys.executable, "-m", "ethos_py.cli", "--version"], env)
    core = run([harness.ethos_core_binary(), "--version"], env)
    assert (py.returncode, py.stdout, py.stderr) == (0, expected, b"")
    assert (core.returncode, core.stdout, core.stderr) == (0, expected, b"")
    # The PDFium build is the one a parsed document records in its profile.
    assert report["verifier"]["unicode_version"] == "14.0.0"


def test_a_missing_pdfium_is_named_not_hidden(tmp_path: Path) -> None:
    env = {**os.environ, PDFIUM_ENV_VAR: str(tmp_path / "libpdfium.so")}
    for argv in ([sys.executable, "-m", "ethos_py.cli", "--version"], [harness.ethos_core_binary(), "--version"]):
        result = run(argv, env)
        assert result.returncode == 0
        assert result.stdout.decode().splitlines()[1] == "pdfium not found"


def test_the_pdfium_build_is_read_like_the_core_reads_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    library = tmp_path / "libpdfium.so"
    monkeypatch.setenv(PDFIUM_ENV_VAR, str(library))
    for text, expected in (
        ('{"major": 159, "minor": 0, "build": 8149, "patch": 0}', "159.0.8149"),
        ('{"major": 159, "minor": 0}', None),
        ('{"major": 159, "minor": 0, "build": 1.5}', None),
        ('{"major": true, "minor": 0, "build": 1}', None),
        ("[1, 2, 3]", None),
        ("not json", None),
    ):
        (tmp_path / "version.json").write_text(text, encoding="utf-8")
        assert pdfium_build() == expected, text
