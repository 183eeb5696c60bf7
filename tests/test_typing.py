"""test_typing.py - ethos_py passes mypy --strict (the [tool.mypy] configuration in pyproject.toml) and ships py.typed."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO_DIR = Path(__file__).resolve().parents[1]


def test_package_is_marked_typed() -> None:
    assert (REPO_DIR / "ethos_py" / "py.typed").is_file()


def test_mypy_strict_passes_on_ethos_py() -> None:
    config = (REPO_DIR / "pyproject.toml").read_text(encoding="utf-8")
    assert "[tool.mypy]" in config and "strict = true" in config
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(REPO_DIR / "pyproject.toml"), "--no-incremental", "ethos_py"],
        cwd=REPO_DIR, capture_output=True, text=True, timeout=900, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout
