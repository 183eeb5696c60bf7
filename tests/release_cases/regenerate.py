"""regenerate - rewrites each release case's expected.json / expected.stderr from ethos-core and prints disagreements.

Usage: python tests/release_cases/regenerate.py PATH/TO/ethos-core
"""

from __future__ import annotations

import json
import sys

from release_harness import check_expect, load_cases, run_surface


def main(ethos_core: str) -> int:
    failures = 0
    for case in load_cases():
        exit_code, stdout, stderr = run_surface("ethos-core", case, ethos_core)
        if exit_code != case.expect["exit_code"]:
            print(f"{case.name}: exit {exit_code} != {case.expect['exit_code']}: {stderr!r}")
            failures += 1
            continue
        output = stdout if exit_code == 0 else stderr
        parsed = json.loads(output)
        problems = check_expect(case, parsed if exit_code == 0 else None, parsed if exit_code != 0 else None)
        for problem in problems:
            print(f"{case.name}: {problem}")
        failures += bool(problems)
        case.golden_path.write_bytes(output)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
