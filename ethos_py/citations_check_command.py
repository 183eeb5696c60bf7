"""citations_check_command - ``ethos verify-citations``: the citations files of a repository checked against their sources, for pre-commit hooks and CI.

A repository that keeps model answers' citations next to the documents they cite wants every
change to a citations file checked: pre-commit passes the changed files, a CI job the files
changed since the base branch. Each citations file is verified against the source its
``document_fingerprint`` names among the ``--source`` files (globs, as YAML passes them, are
expanded here), so one hook serves a repository of many documents. Python-only (it opens sources
and runs verify in process, as ``ethos verify`` does).

Exit status: 0 when every check of every file is grounded, 1 when any is not (or a file is pinned
to a document none of the sources is: it changed, the citations are stale), 2 for input that
cannot be checked (invalid JSON, no source matched) - all files are checked either way.
"""

from __future__ import annotations

import glob
import json
import os
import subprocess
from collections.abc import Sequence
from typing import Any

import click

__all__ = ["add_citations_check_command"]

_FORMATS = ("text", "github")


def _sources(patterns: Sequence[str]) -> list[str]:
    """The files the --source patterns name, each once, in order (a literal path stands for itself)."""
    from .cli import _host_error

    found: list[str] = []
    for pattern in patterns:
        matches = sorted(glob.glob(pattern, recursive=True)) or ([pattern] if os.path.exists(pattern) else [])
        if not matches:
            raise _host_error("invalid_arguments", {"argument": "--source", "value": pattern})
        found.extend(path for path in matches if os.path.isfile(path) and path not in found)
    return found


def _changed_since(revision: str, files: Sequence[str]) -> list[str]:
    """Those of ``files`` that git reports as added or changed since ``revision`` (deleted ones are gone)."""
    from .cli import _host_error

    done = subprocess.run(["git", "diff", "--name-only", "--diff-filter=ACMR", "-z", revision, "--", *files],
                          capture_output=True, check=False)
    if done.returncode != 0:
        raise _host_error("invalid_arguments", {"argument": "--changed-since", "value": revision})
    changed = {os.path.normpath(name) for name in done.stdout.decode("utf-8", "replace").split("\0") if name}
    top = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=False).stdout.strip()
    return [f for f in files if os.path.normpath(os.path.relpath(os.path.abspath(f), top or ".")) in changed]


def add_citations_check_command(ethos: click.Group) -> None:
    """Adds ``verify-citations`` to the ``ethos`` command (called once by ethos_py.cli)."""
    from .cli import _COMMAND_CONTEXT, _GROUNDING_HELP, _GROUNDINGS, _POLICY_HELP, _policy_choice, _read, _reject_extra_args

    @ethos.command("verify-citations", context_settings=_COMMAND_CONTEXT,
                   short_help="Verify citations files against their sources (pre-commit, CI).")
    @click.argument("files", nargs=-1, metavar="CITATIONS...")
    @click.option("--source", "sources", metavar="PATH|GLOB", multiple=True, required=True,
                  help="A source the citations may cite (repeatable; globs such as 'docs/**/*.pdf' are expanded).")
    @click.option("--grounding", type=click.Choice(_GROUNDINGS), default=None, help=_GROUNDING_HELP)
    @click.option("--policy", metavar="NAME|FILE", default=None, help=_POLICY_HELP)
    @click.option("--format", "output_format", type=click.Choice(_FORMATS), default="text",
                  help="text (default): a line per file and the checks that failed; github: workflow annotations.")
    @click.option("--changed-since", metavar="REV", default=None,
                  help="Check only those CITATIONS git reports as changed since REV (a CI job's base commit).")
    @click.pass_context
    def verify_citations_command(ctx: click.Context, files: tuple[str, ...], sources: tuple[str, ...], grounding: str | None,
                                 policy: str | None, output_format: str, changed_since: str | None) -> int:
        """Verify each CITATIONS file against the --source its document_fingerprint names.

        \b
        For pre-commit hooks and CI jobs (docs/integrations.md): sources
        are opened once (a PDF parsed through the parse cache); a file
        pinned to a fingerprint no source has is stale and fails; an
        unpinned file needs exactly one source. Exit 0: every check
        grounded; 1: any check not grounded, or stale citations; 2: a file
        or source that cannot be read (all files are checked either way).
        """
        from .errors import EthosError
        from .proof import ci_report_text
        from .testing import _check_lines, open_source

        _reject_extra_args(ctx)
        policy_value = _policy_choice(policy)
        paths = _sources(sources)
        selected = list(files) if changed_since is None else _changed_since(changed_since, files)
        documents: dict[str | None, tuple[str, Any]] = {}
        opened = []
        try:
            for path in paths:
                document = open_source(path, grounding)
                opened.append(document)
                documents.setdefault(document.fingerprint, (path, document))
            status = 0
            lines: list[str] = []
            for citations_path in selected:
                data = _read(citations_path, "CITATIONS")
                try:
                    pinned = json.loads(data).get("document_fingerprint") if data.strip().startswith(b"{") else None
                except ValueError:
                    pinned = None  # the core reports the JSON error below
                if pinned is None and len(documents) != 1:
                    lines.append(f"{citations_path}: not pinned (no document_fingerprint) and {len(documents)} sources: "
                                 "pin it, or give the one --source it cites")
                    status = max(status, 2)
                    continue
                if pinned is not None and pinned not in documents:
                    lines.append(f"{citations_path}: stale: pinned to {pinned}, which none of the {len(documents)} sources is "
                                 "(the document changed, or give its --source)")
                    status = max(status, 1)
                    continue
                source_path, document = documents[pinned] if pinned is not None else next(iter(documents.values()))
                try:
                    report = json.loads(document.verify_json(data, policy=policy_value))
                except EthosError as error:  # the core refused the file (invalid JSON, a bad claim): report it, go on
                    lines.append(f"{citations_path}: cannot be checked: {error.code}: {error.message} {json.dumps(error.details)}")
                    status = max(status, 2)
                    continue
                failures = [check for check in report["checks"] if check.get("status") != "grounded"]
                if failures:
                    status = max(status, 1)
                if output_format == "github":
                    lines.append(ci_report_text(report, "github", citations_path=citations_path,
                                                source_path=source_path).rstrip("\n"))
                    continue
                lines.append(f"{citations_path}: {len(report['checks']) - len(failures)} of {len(report['checks'])} "
                             f"checks grounded ({source_path})")
                lines.extend("  " + line for failure in failures for line in _check_lines(failure))
            if not selected:
                lines.append("no citations files to check")
            click.echo("\n".join(lines))
            return status
        finally:
            for document in opened:
                document.close()
