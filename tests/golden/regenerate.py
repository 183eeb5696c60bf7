#!/usr/bin/env python3
"""regenerate.py - rewrites the golden outputs from the library surface and lists disagreements with the expect blocks.

Usage: python tests/golden/regenerate.py [CASE_NAME ...]

The written files are the exact bytes a CLI would print: expected.json (report or Statement on
stdout), expected.txt (--format summary) or expected.stderr (the error envelope, exit >= 2).
Review every change (git diff) before keeping it: a golden records what the core does, the expect
block records what the contracts say, and test_golden.py requires both to agree.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import check_outcome, load_cases, run_surface


def main(argv: list[str]) -> int:
    wanted = set(argv)
    cases = [c for c in load_cases() if not wanted or c.name in wanted]
    unknown = wanted - {c.name for c in cases}
    if unknown:
        print(f"unknown cases: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    disagreements = 0
    for case in cases:
        exit_code, stdout, stderr = run_surface("library", case)
        for stale in case.directory.glob("expected.*"):
            stale.unlink()
        case.golden_path.write_bytes(stderr if exit_code >= 2 else stdout)
        problems = check_outcome(case, exit_code, stdout, stderr)
        if exit_code >= 2 and case.expect["exit_code"] < 2:
            problems.append(f"failed with {stderr.decode('utf-8', 'replace').strip()}")
        if problems:
            disagreements += 1
            print(f"{case.name}:")
            for problem in problems:
                print(f"  {problem}")
    print(f"{len(cases)} cases written, {disagreements} disagree with their expect block")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
