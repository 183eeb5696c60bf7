"""generated_file.py - writes a generated file, or with --check says whether the committed one is stale (shared by the tools/gen_*.py generators)."""
from __future__ import annotations

import sys
from pathlib import Path


def write_or_check(output: Path, text: str, command: str, check: bool) -> int:
    """Writes `text` to `output` (exit status 0), or with `check` compares instead: 1 and a message
    naming `command` (how to regenerate it) when the committed file differs."""
    if check:
        current = output.read_text(encoding="utf-8") if output.exists() else None
        if current != text:
            print(f"{output} is stale: run {command}", file=sys.stderr)
            return 1
        return 0
    output.write_text(text, encoding="utf-8")
    return 0
