"""test_docs - the user docs are true and whole: their snippets run against the bundled examples, links resolve, nothing points outside the repository."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import pdf_fixtures as fx

REPO = Path(__file__).resolve().parents[1]

# The pages a user reads. README.md and QUICKSTART.md are also run by the user-path stage of
# .ci/run on a clean install; here they run against the development install, on every test run.
DOC_FILES = sorted(
    [*REPO.glob("docs/*.md"), *REPO.glob("examples/*/README.md")]
    + [REPO / name for name in ("README.md", "QUICKSTART.md", "benchmarks/README.md", "schemas/README.md")]
)

# Where a snippet of a page starts: the page says so ("From this directory", "cd examples/quickstart").
PYTHON_CWD = {"QUICKSTART.md": "examples/quickstart", "examples/quickstart/README.md": "examples/quickstart"}
SHELL_START = {"examples/quickstart/README.md": "examples/quickstart"}

# Shell commands the snippets may run here. Every other first word must be one of NOT_RUN_HERE, with
# the place where that command is exercised, so a new kind of snippet cannot go untested silently.
RUN_HERE = {"ethos", "cd", "echo"}
NOT_RUN_HERE = {
    "pip": "installation: the user-path stage of .ci/run installs the wheel alone and runs the docs",
    "sudo": "installation of system packages: .ci/run",
    "sh": "tools/install-build-deps.sh and the install: .ci/user-path runs README's first command as written",
    "python": "benchmarks and the test suite themselves (minutes); the examples' scripts run in test_examples/test_integrations",
    "eval": "shell completion: test_shell_completion below",
    "dask": "a Dask cluster's start (docs/scale.md): tests/test_batch_distributed.py starts one with these commands",
    "_ETHOS_COMPLETE": "shell completion: test_shell_completion below",
}

# The user-path stage of .ci/run sets this to the python of a fresh environment holding only the
# installed wheel: the snippets then run there (with that environment's `ethos`), as a user's would.
SNIPPET_PYTHON = os.environ.get("ETHOS_DOCS_PYTHON") or sys.executable

# Directories that hold no documentation of ours (build trees, caches, environments).
NOT_DOCS = {".git", "build", "_skbuild", "dist", "node_modules", ".cache", ".venv", "venv", ".pytest_cache", ".mypy_cache"}


@dataclass(frozen=True)
class Block:
    path: Path
    line: int
    lang: str
    body: str
    output: str | None  # the plain ``` block right after it: the output the page promises

    @property
    def page(self) -> str:
        return self.path.relative_to(REPO).as_posix()

    def __str__(self) -> str:
        return f"{self.page}:{self.line}"


FENCE = re.compile(r"^```([\w-]*)[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M)


def blocks(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    matches = list(FENCE.finditer(text))
    found = []
    for index, match in enumerate(matches):
        following = matches[index + 1] if index + 1 < len(matches) else None
        output = None
        if following is not None and following.group(1) == "" and not text[match.end() : following.start()].strip():
            output = following.group(2)
        found.append(Block(path, text.count("\n", 0, match.start()) + 1, match.group(1), match.group(2), output))
    return found


def all_blocks(lang: str) -> list[Block]:
    return [block for path in DOC_FILES for block in blocks(path) if block.lang == lang]


def markdown_files() -> list[Path]:
    return sorted(
        path
        for path in REPO.rglob("*.md")
        if not NOT_DOCS.intersection(path.relative_to(REPO).parts[:-1])
        and not any(part.startswith(".") for part in path.relative_to(REPO).parts[:-1])
    )


def ethos_env(bin_dir: Path, workspace: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([os.fspath(bin_dir), env.get("PATH", "")])
    env["ETHOS_CACHE_DIR"] = os.fspath(workspace / ".parse-cache")  # never the user's cache
    return env


@pytest.fixture(scope="module")
def bin_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory whose ``ethos`` is the snippets' environment's command (a shim when not installed as a script)."""
    installed = Path(SNIPPET_PYTHON).parent / "ethos"
    if installed.exists():
        return installed.parent
    directory = tmp_path_factory.mktemp("bin")
    shim = directory / "ethos"
    shim.write_text(f'#!/bin/sh\nexec "{SNIPPET_PYTHON}" -m ethos_py.cli "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    return directory


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A copy of the bundled examples plus the file names the API guide uses."""
    shutil.copytree(REPO / "examples", tmp_path / "examples", ignore=shutil.ignore_patterns("__pycache__"))
    quickstart = REPO / "examples" / "quickstart"
    sample = REPO / "examples" / "sample"
    shutil.copy(quickstart / "document.json", tmp_path / "doc.json")
    shutil.copy(quickstart / "citations.json", tmp_path / "cites.json")
    shutil.copy(sample / "sample.pdf", tmp_path / "report.pdf")
    shutil.copy(sample / "citations.json", tmp_path / "report-citations.json")
    shutil.copy(sample / "sample.pdf", tmp_path / "examples" / "quickstart" / "report.pdf")  # QUICKSTART §4
    (tmp_path / "locked.pdf").write_bytes(fx.encrypted_pdf("s3cret"))
    return tmp_path


# --- nothing outside the repository -------------------------------------------------------------


def test_no_markdown_file_points_at_files_the_repository_lacks() -> None:
    private = re.compile(r"\b(?:CONTRACTS|DESIGN)(?:\.md|\s*§)")
    offenders = [
        f"{path.relative_to(REPO)}:{number}: {line.strip()}"
        for path in markdown_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if private.search(line)
    ]
    assert offenders == []


def github_slugs(path: Path) -> set[str]:
    """The anchors GitHub gives a page's headings (lowercase, punctuation dropped, spaces -> '-')."""
    slugs: set[str] = set()
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    for heading in re.findall(r"^#{1,6}\s+(.*?)\s*#*$", text, re.M):
        base = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        slug, number = base, 0
        while slug in slugs:
            number += 1
            slug = f"{base}-{number}"
        slugs.add(slug)
    return slugs


def test_links_between_pages_resolve() -> None:
    broken = []
    for page in [*DOC_FILES, *REPO.glob("tests/golden/README.md")]:
        text = FENCE.sub("", page.read_text(encoding="utf-8"))
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            file_part, _, anchor = target.partition("#")
            resolved = (page.parent / file_part).resolve() if file_part else page
            if not resolved.exists():
                broken.append(f"{page.relative_to(REPO)}: {target} (no such file)")
            elif anchor and resolved.suffix == ".md" and anchor not in github_slugs(resolved):
                broken.append(f"{page.relative_to(REPO)}: {target} (no such heading)")
    assert broken == []


# --- Python snippets ----------------------------------------------------------------------------


def promised_output(block: Block) -> str | None:
    """What a snippet says it prints: the output block after it, or the comments of its print lines."""
    if block.output is not None:
        return block.output
    prints = [line for line in block.body.splitlines() if line.startswith("print(")]
    comments = [re.search(r"\)\s+#\s*(.+)$", line) for line in prints]
    if prints and all(comments):
        return "".join(f"{match.group(1).strip()}\n" for match in comments if match)
    return None


PYTHON_BLOCKS = all_blocks("python")


def test_the_docs_have_python_snippets() -> None:
    pages = {block.page for block in PYTHON_BLOCKS}
    assert {"README.md", "QUICKSTART.md", "docs/python-api.md", "examples/quickstart/README.md"} <= pages


@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=str)
def test_python_snippet_runs(block: Block, workspace: Path, bin_dir: Path) -> None:
    cwd = workspace / PYTHON_CWD.get(block.page, "")
    completed = subprocess.run(
        [SNIPPET_PYTHON, "-c", block.body],
        cwd=cwd,
        env=ethos_env(bin_dir, workspace),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert completed.returncode == 0, completed.stderr
    expected = promised_output(block)
    if expected is not None:
        # Trailing spaces are invisible on the page (`print(id, status, "")` ends in one).
        assert [line.rstrip() for line in completed.stdout.splitlines()] == expected.splitlines()


# --- shell snippets -----------------------------------------------------------------------------


def commands(body: str) -> list[str]:
    """The snippet's commands, continuation lines joined, comment-only lines dropped."""
    joined = re.sub(r"\\\n\s*", " ", body)
    return [line for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def first_word(command: str) -> str:
    word = command.split()[0]
    return word.split("=", 1)[0] if "=" in word else word


def synopsis(block: Block) -> bool:
    """A usage synopsis (`ethos verify DOC [--config FILE]`): placeholders, not commands to run."""
    return "[--" in block.body


def runnable(block: Block) -> bool:
    """A snippet of commands this test runs: only `ethos`, `cd` and `echo`."""
    lines = commands(block.body)
    return bool(lines) and not synopsis(block) and all(first_word(line) in RUN_HERE for line in lines)


SHELL_BLOCKS = all_blocks("sh") + all_blocks("bash") + all_blocks("console")


def test_every_shell_snippet_is_run_somewhere() -> None:
    untested = [
        f"{block}: {line}"
        for block in SHELL_BLOCKS
        if not runnable(block) and not synopsis(block)
        for line in commands(block.body)
        if first_word(line) not in RUN_HERE and first_word(line) not in NOT_RUN_HERE
    ]
    assert untested == []


def shell_script(page_blocks: list[Block]) -> str:
    """One script of a page's runnable snippets, in order; each command must exit 0, or with the
    status an ``echo $?    # N`` line after it promises."""
    lines = [command for block in page_blocks for command in commands(block.body)]
    script = []
    for index, command in enumerate(lines):
        if re.match(r"\s*echo \$\?", command):
            continue
        following = lines[index + 1] if index + 1 < len(lines) else ""
        promise = re.match(r"\s*echo \$\?\s*#\s*(\d+)", following)
        expected = promise.group(1) if promise else "0"
        script.append(f"{{ {command}\n}}; rc=$?")
        quoted = command.replace("'", "'\\''")
        script.append(f"[ \"$rc\" -eq {expected} ] || {{ echo 'exit '\"$rc\"' (expected {expected}): {quoted}' >&2; exit 99; }}")
    return "\n".join(script) + "\n"


SHELL_PAGES = sorted({block.page for block in SHELL_BLOCKS if runnable(block)})


def test_the_docs_have_shell_snippets() -> None:
    assert {"QUICKSTART.md", "README.md", "examples/quickstart/README.md", "examples/sample/README.md"} <= set(SHELL_PAGES)


@pytest.mark.parametrize("page", SHELL_PAGES)
def test_shell_snippets_run(page: str, workspace: Path, bin_dir: Path) -> None:
    env = ethos_env(bin_dir, workspace)
    if page == "README.md":
        # README's steps replay the files `ethos demo --out-dir demo` writes, as its text says.
        subprocess.run(["ethos", "demo", "--out-dir", "demo"], cwd=workspace, env=env, check=True, capture_output=True)
    page_blocks = [block for block in SHELL_BLOCKS if block.page == page and runnable(block)]
    completed = subprocess.run(
        ["bash", "-c", shell_script(page_blocks)],
        cwd=workspace / SHELL_START.get(page, ""),
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert completed.returncode == 0, completed.stderr


# --- JSON shown in the docs ---------------------------------------------------------------------


@pytest.mark.parametrize("block", all_blocks("json"), ids=str)
def test_json_snippet_parses(block: Block) -> None:
    json.loads(block.body)


def ethos_json(bin_dir: Path, tmp_path: Path, *arguments: str) -> Any:
    completed = subprocess.run(
        ["ethos", *arguments], env=ethos_env(bin_dir, tmp_path), capture_output=True, check=True
    )
    return json.loads(completed.stdout)


def test_default_v1_shown_is_what_explain_prints(bin_dir: Path, tmp_path: Path) -> None:
    (shown,) = [block for block in blocks(REPO / "docs" / "contracts.md") if block.lang == "json"]
    assert json.loads(shown.body) == ethos_json(bin_dir, tmp_path, "explain")
    digest = hashlib.sha256(json.dumps(json.loads(shown.body), separators=(",", ":"), sort_keys=True).encode()).hexdigest()
    assert digest in (REPO / "docs" / "contracts.md").read_text(encoding="utf-8")


def test_default_policy_shown_is_what_explain_prints(bin_dir: Path, tmp_path: Path) -> None:
    (shown,) = [block for block in blocks(REPO / "docs" / "matching.md") if block.lang == "json"]
    assert json.loads(shown.body) == ethos_json(bin_dir, tmp_path, "explain", "--policy", "default")["policy"]


def test_contracts_example_default_policy_against_explicit_default_v1(bin_dir: Path, tmp_path: Path) -> None:
    """docs/contracts.md: "Revenue rose" grounds only under the default policy, "venue" in "Revenue" only under default-v1."""
    import ethos_py

    text = "revenue rose by 4 % in the year.\n\nRevenue grew in every region.\n".encode()
    citations = {
        "document_fingerprint": "sha256:" + hashlib.sha256(text).hexdigest(),
        "claims": [
            {"kind": "quote", "text": "Revenue rose", "citation": {"element_id": "e000001"}},
            {"kind": "quote", "text": "venue", "citation": {"element_id": "e000002"}},
        ],
    }
    default_v1 = ethos_json(bin_dir, tmp_path, "explain")
    without_config = ethos_py.verify(text, citations, grounding="text")
    with_default_v1 = ethos_py.verify(text, citations, grounding="text", config=default_v1)
    assert [check["status"] for check in without_config["checks"]] == ["grounded", "mismatch"]
    assert without_config["checks"][1]["reason"] == "token_boundary"
    assert [check["status"] for check in with_default_v1["checks"]] == ["mismatch", "grounded"]
    assert without_config["verification_config_sha256"] == with_default_v1["verification_config_sha256"]
    # ... and the report says which rule decided (docs/matching.md "When a policy applies").
    assert "public_matching_rule" in with_default_v1["warnings"]
    assert "public_matching_rule" not in without_config["warnings"]


# --- shell completion (docs/cli.md §7) ----------------------------------------------------------

SCRIPT_MARKERS = {
    "bash_source": "complete -o nosort -F _ethos_completion ethos",
    "zsh_source": "#compdef ethos",
    "fish_source": "complete --no-files --command ethos",
}


def completion_modes() -> set[str]:
    text = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    return set(re.findall(r"_ETHOS_COMPLETE=(\w+) ethos", text))


def test_completion_documented_for_three_shells() -> None:
    assert completion_modes() == set(SCRIPT_MARKERS)


@pytest.mark.parametrize("mode", sorted(SCRIPT_MARKERS))
def test_completion_script_generates(mode: str, bin_dir: Path, tmp_path: Path) -> None:
    env = {**ethos_env(bin_dir, tmp_path), "_ETHOS_COMPLETE": mode}
    completed = subprocess.run(["ethos"], env=env, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    assert SCRIPT_MARKERS[mode] in completed.stdout
    assert completed.stderr == ""


def test_bash_completion_installs_and_completes(bin_dir: Path, tmp_path: Path) -> None:
    env = ethos_env(bin_dir, tmp_path)
    installed = subprocess.run(
        ["bash", "-c", 'eval "$(_ETHOS_COMPLETE=bash_source ethos)" && complete -p ethos'],
        env=env, capture_output=True, text=True, timeout=120,
    )
    assert installed.returncode == 0, installed.stderr
    assert "_ethos_completion" in installed.stdout

    def complete(words: str, cword: int) -> list[str]:
        query = {**env, "_ETHOS_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(cword)}
        result = subprocess.run(["ethos"], env=query, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        return result.stdout.splitlines()

    assert complete("ethos ver", 1) == ["plain,verify", "plain,verify-batch", "plain,verify-citations", "plain,verify-jsonl"]
    assert complete("ethos rep", 1) == ["plain,repair", "plain,reply", "plain,report"]
    assert complete("ethos report ", 2) == ["plain,html"]
    assert complete("ethos re", 1) == ["plain,release", "plain,repair", "plain,reply", "plain,report"]
    assert complete("ethos cal", 1) == ["plain,calibrate"]
    assert complete("ethos bat", 1) == ["plain,batch"]
    assert complete("ethos verify --grounding ", 3) == [
        f"plain,{name}"
        for name in ("ethos-native", "ethos-grounding-json", "opendataloader-json", "docling-json", "text", "markdown")
    ]
