"""test_cli_help_parity - `ethos` and `ethos-core` take the same arguments: both --help trees, walked.

Every command of either program is found from the help output alone (as a user would), and each
command's option set is compared between the two programs, so an option added to one CLI and not
the other fails here. `-h` must print exactly what `--help` prints, on every command and group.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import harness  # tests/golden, put on sys.path by conftest
import pytest

REPO = Path(__file__).resolve().parents[1]

# Commands only the Python CLI has: they run Python code (the bundled demo, the side-by-side
# policy comparison, a model reply's payload and edits: docs/replies.md) with no ethos-core
# counterpart. Everything else must exist in both.
PYTHON_ONLY_COMMANDS = {("demo",), ("sensitivity",), ("reply", "extract"), ("edits", "apply"), ("verify-citations",), ("annotate",), ("verify-jsonl",),
                         ("report", "html"), ("calibrate",), ("repair",), ("batch",)}


def _help(program: str, words: tuple[str, ...], flag: str = "--help") -> str:
    if program == "ethos":
        prefix = [sys.executable, "-m", "ethos_py.cli"]
    else:
        prefix = [os.fspath(harness.ethos_core_binary())]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    done = subprocess.run(
        [*prefix, *words, flag], env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=120, check=False
    )
    assert done.returncode == 0 and done.stderr == b"", (program, words, flag, done.stderr)
    return done.stdout.decode()


def _section(text: str, title: str) -> list[str]:
    """The left column of each row of a help section ("Commands:", "Options:")."""
    rows: list[str] = []
    inside = False
    for line in text.splitlines():
        if line == title:
            inside = True
            continue
        if inside:
            if not line.strip():
                if rows:
                    break
                continue
            # A row starts two spaces in; deeper lines continue the previous row's help text.
            if line.startswith("  ") and not line.startswith("   "):
                rows.append(re.split(r"\s{2,}", line.strip())[0])
    return rows


def _options(text: str) -> set[str]:
    names: set[str] = set()
    for left in _section(text, "Options:"):
        names.update(re.findall(r"(?:^|(?<=[\s,]))(--?[A-Za-z][\w-]*)", left))
    return names


def _walk(program: str) -> dict[tuple[str, ...], set[str]]:
    """Every command reachable from the program's --help: its words and its option names."""
    found: dict[tuple[str, ...], set[str]] = {}
    pending: list[tuple[str, ...]] = [()]
    while pending:
        words = pending.pop()
        text = _help(program, words)
        assert text == _help(program, words, "-h"), (program, words)
        commands = _section(text, "Commands:")
        if not commands:
            found[words] = _options(text)
            continue
        for row in commands:
            # ethos-core lists "doc parse" at the top; ethos lists "doc", then "parse" under it.
            child = tuple(row.split())
            pending.append(child if len(child) > 1 else (*words, *child))
        if words:
            found[(*words, "(group)")] = _options(text)
        else:
            found[("(program)",)] = _options(text)
    return found


@pytest.fixture(scope="module")
def trees() -> dict[str, dict[tuple[str, ...], set[str]]]:
    return {program: _walk(program) for program in ("ethos", "ethos-core")}


def test_the_same_commands(trees: dict[str, dict[tuple[str, ...], set[str]]]) -> None:
    ethos = {words for words in trees["ethos"] if "(group)" not in words}
    core = {words for words in trees["ethos-core"] if "(group)" not in words}
    assert core - ethos == set()
    assert ethos - core == PYTHON_ONLY_COMMANDS
    # Sanity: the walk really went down into the groups.
    assert ("doc", "parse") in core and ("evidence", "anchor") in core


def test_the_same_options_on_every_command(trees: dict[str, dict[tuple[str, ...], set[str]]]) -> None:
    drift = {
        " ".join(words): {"only ethos": sorted(options - trees["ethos-core"][words]),
                          "only ethos-core": sorted(trees["ethos-core"][words] - options)}
        for words, options in trees["ethos"].items()
        if words in trees["ethos-core"] and options != trees["ethos-core"][words]
    }
    assert drift == {}


def test_help_options_are_listed(trees: dict[str, dict[tuple[str, ...], set[str]]]) -> None:
    for tree in trees.values():
        for words, options in tree.items():
            assert {"-h", "--help"} <= options, words
    assert "--diagnostics" in trees["ethos"][("doc", "parse")]
