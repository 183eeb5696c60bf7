"""The Unicode table generator reads only its pinned, hash-checked UCD files."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = ROOT / "tools" / "gen_unicode_tables.py"


def load_generator() -> ModuleType:
    from conftest import script_module

    module: ModuleType = script_module("tools/gen_unicode_tables.py")
    return module


def test_a_ucd_file_other_than_the_pinned_one_is_refused(tmp_path: Path) -> None:
    gen = load_generator()
    source = gen.find_ucd_dir([])
    for name in gen.UCD_FILES:
        shutil.copy(source / name, tmp_path / name)
    with (tmp_path / "SpecialCasing.txt").open("a", encoding="utf-8") as handle:
        handle.write("0041; 0062; 0041; 0041; # a changed mapping\n")
    result = subprocess.run([sys.executable, str(GENERATOR), "--check", "--ucd", str(tmp_path)], capture_output=True, text=True)
    assert result.returncode == 2
    assert "SpecialCasing.txt is not the pinned Unicode 14.0.0 file" in result.stderr
    assert "tools/requirements-unicode.txt" in result.stderr


def test_a_missing_ucd_directory_says_how_to_get_the_files(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, str(GENERATOR), "--check", "--ucd", str(tmp_path / "none")], capture_output=True, text=True)
    assert result.returncode == 2
    assert "pip install --require-hashes -r tools/requirements-unicode.txt" in result.stderr


def test_the_tables_name_the_pinned_unicode_version() -> None:
    gen = load_generator()
    for path, macro in ((gen.OUTPUT, "ETHOS_UNICODE_VERSION"), (gen.MATCH_OUTPUT, "ETHOS_MATCH_UNICODE_VERSION")):
        found = re.search(rf'#define {macro} "([0-9.]+)"', path.read_text(encoding="utf-8"))
        assert found is not None and found.group(1) == gen.UNICODE_VERSION
    # The requirements pin and the generator's package directory agree on the version.
    assert f"{gen.UCD_PACKAGE}==0.0.6 --hash=sha256:" in (ROOT / "tools" / "requirements-unicode.txt").read_text(encoding="utf-8")
