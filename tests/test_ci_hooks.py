"""test_ci_hooks - ethos verify-citations as pre-commit and CI run it: sources chosen by fingerprint, stale and unpinned
citations, changed files only; the repository's pre-commit hook run by the real pre-commit; the composite action's script
run by bash as GitHub would run it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import harness
import pytest
import yaml

from ethos_py.demo import SAMPLE_PDF
from ethos_py.proof import ci_report_text

REPO = Path(__file__).resolve().parents[1]
QUICKSTART = REPO / "examples" / "quickstart"
ETHOS = [sys.executable, "-m", "ethos_py.cli"]


def _git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org"}
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env, check=True)
    return done.stdout.strip()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with two documents and their citations: the sample PDF's (one changed figure, one
    fabrication) and the quickstart document's (one fabrication), plus a grounded file."""
    (tmp_path / "docs").mkdir()
    shutil.copyfile(SAMPLE_PDF, tmp_path / "docs" / "report.pdf")
    shutil.copyfile(QUICKSTART / "document.json", tmp_path / "docs" / "pilot.json")
    (tmp_path / "answers").mkdir()
    shutil.copyfile(REPO / "ethos_py" / "data" / "sample-citations.json", tmp_path / "answers" / "report-citations.json")
    shutil.copyfile(QUICKSTART / "citations.json", tmp_path / "answers" / "pilot-citations.json")
    quickstart = json.loads((QUICKSTART / "citations.json").read_text(encoding="utf-8"))
    quickstart["claims"] = quickstart["claims"][:3]  # the three true ones
    (tmp_path / "answers" / "good-citations.json").write_text(json.dumps(quickstart), encoding="utf-8")
    return tmp_path


def _run(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*ETHOS, "verify-citations", *args], cwd=project, capture_output=True, text=True,
                          timeout=harness.SUBPROCESS_TIMEOUT, check=False)


def test_each_file_is_verified_against_the_source_its_fingerprint_names(project: Path) -> None:
    done = _run(project, "answers/report-citations.json", "answers/pilot-citations.json", "answers/good-citations.json",
                "--source", "docs/**/*.pdf", "--source", "docs/pilot.json")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert "answers/report-citations.json: 4 of 6 checks grounded (docs/report.pdf)" in lines
    assert "answers/pilot-citations.json: 3 of 4 checks grounded (docs/pilot.json)" in lines
    assert "answers/good-citations.json: 3 of 3 checks grounded (docs/pilot.json)" in lines
    assert '    guard numeric: figure changed: source "6.1", quote "3.1"' in lines
    grounded = _run(project, "answers/good-citations.json", "--source", "docs/*")
    assert (grounded.returncode, grounded.stdout) == (0, "answers/good-citations.json: 3 of 3 checks grounded (docs/pilot.json)\n")


def test_github_format_is_verify_s_annotations(project: Path) -> None:
    done = _run(project, "answers/pilot-citations.json", "--source", "docs/pilot.json", "--format", "github")
    report = json.loads(subprocess.run([*ETHOS, "verify", "docs/pilot.json", "--citations", "answers/pilot-citations.json"],
                                       cwd=project, capture_output=True, check=True).stdout)
    assert done.returncode == 1
    assert done.stdout == ci_report_text(report, "github", citations_path="answers/pilot-citations.json",
                                         source_path="docs/pilot.json")


def test_stale_unpinned_and_invalid_citations(project: Path) -> None:
    stale = json.loads((project / "answers" / "good-citations.json").read_text(encoding="utf-8"))
    stale["document_fingerprint"] = "sha256:" + "0" * 64
    (project / "answers" / "stale-citations.json").write_text(json.dumps(stale), encoding="utf-8")
    done = _run(project, "answers/stale-citations.json", "--source", "docs/*")
    assert done.returncode == 1 and "stale: pinned to sha256:000" in done.stdout
    unpinned = dict(stale)
    del unpinned["document_fingerprint"]
    (project / "answers" / "unpinned-citations.json").write_text(json.dumps(unpinned), encoding="utf-8")
    # With one source the file is verified, and verify itself refuses unpinned citations (stale).
    one = _run(project, "answers/unpinned-citations.json", "--source", "docs/pilot.json")
    assert one.returncode == 1 and "stale (missing_citation_fingerprint)" in one.stdout
    both = _run(project, "answers/unpinned-citations.json", "--source", "docs/*")
    assert both.returncode == 2 and "not pinned" in both.stdout
    (project / "answers" / "broken-citations.json").write_text('{"document_fingerprint": 3', encoding="utf-8")
    broken = _run(project, "answers/broken-citations.json", "answers/good-citations.json", "--source", "docs/pilot.json")
    assert broken.returncode == 2 and "cannot be checked" in broken.stdout and "3 of 3 checks grounded" in broken.stdout
    nothing = _run(project, "answers/good-citations.json", "--source", "docs/*.docx")
    assert nothing.returncode == 2 and json.loads(nothing.stderr)["error"]["details"] == {"argument": "--source", "value": "docs/*.docx"}


def test_changed_since_checks_only_what_a_change_touched(project: Path) -> None:
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "base")
    base = _git(project, "rev-parse", "HEAD")
    files = ["answers/report-citations.json", "answers/pilot-citations.json", "answers/good-citations.json"]
    untouched = _run(project, *files, "--source", "docs/*", "--changed-since", base)
    assert (untouched.returncode, untouched.stdout) == (0, "no citations files to check\n")
    good = project / "answers" / "good-citations.json"
    good.write_text(good.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    _git(project, "commit", "-qam", "touch the good file")
    changed = _run(project, *files, "--source", "docs/*", "--changed-since", base)
    assert (changed.returncode, changed.stdout) == (0, "answers/good-citations.json: 3 of 3 checks grounded (docs/pilot.json)\n")
    assert _run(project, *files, "--source", "docs/*", "--changed-since", "no-such-rev").returncode == 2


def test_the_repository_hook_runs_under_the_real_pre_commit(project: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    pre_commit = shutil.which("pre-commit") or str(Path(sys.executable).with_name("pre-commit"))
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert {hook["id"] for hook in hooks} == {"ethos-verify-citations", "ethos-verify-citations-system"}
    # The hooks as committed at this repository's HEAD (pre-commit clones the revision).
    revision = _git(REPO, "rev-parse", "HEAD")
    config = {"repos": [{"repo": str(REPO), "rev": revision,
                         "hooks": [{"id": "ethos-verify-citations-system", "args": ["--source", "docs/**/*.pdf", "--source", "docs/*.json"]}]}]}
    (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path_factory.mktemp("pre-commit-home")),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run([pre_commit, "run", "--files", "answers/good-citations.json"], cwd=project, capture_output=True,
                          text=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Ethos - citations are grounded (installed ethos)" in done.stdout and "Passed" in done.stdout
    failing = subprocess.run([pre_commit, "run", "--all-files"], cwd=project, capture_output=True, text=True, env=env,
                             timeout=600, check=False)
    assert failing.returncode == 1
    assert "figure changed" in failing.stdout and "answers/pilot-citations.json: 3 of 4" in failing.stdout


def _action_script() -> tuple[str, dict[str, Any]]:
    action = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"
    [step] = [s for s in action["runs"]["steps"] if s.get("name") == "Verify citations"]
    assert "${{" not in step["run"]  # inputs reach the script as environment variables only
    return step["run"], action


def test_the_composite_action_s_script_gates_changed_citations(project: Path) -> None:
    script, action = _action_script()
    assert set(action["inputs"]) >= {"sources", "citations", "changed-only", "base", "policy", "package", "python-version"}
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "base")
    base = _git(project, "rev-parse", "HEAD")
    env = {**os.environ, "ETHOS_SOURCES": "docs/**/*.pdf\ndocs/*.json", "ETHOS_CITATIONS": "**/*citations*.json",
           "ETHOS_CHANGED_ONLY": "true", "ETHOS_BASE": base, "ETHOS_POLICY": "",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", "-c", script], cwd=project, capture_output=True, text=True, env=env, timeout=300,
                              check=False)

    assert (run().returncode, run().stdout) == (0, "no citations files to check\n")
    pilot = project / "answers" / "pilot-citations.json"
    pilot.write_text(pilot.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    _git(project, "commit", "-qam", "change the pilot's citations")
    done = run()
    assert done.returncode == 1
    assert done.stdout.startswith("::error file=answers/pilot-citations.json,title=Ethos v0004 mismatch (text_mismatch)::")
    env["ETHOS_CHANGED_ONLY"] = "false"
    every = run()
    assert every.returncode == 1 and every.stdout.count("::notice") == 3
