"""testing - assertions for test suites of RAG apps: assert_grounded(report) and a failure text that shows why.

Plain Python (no pytest needed): the pytest plugin (``ethos_py.pytest_plugin``) offers the same
functions as fixtures. A failure names every check that is not grounded with its claim, status and
reason, each guard that blocked it (``figure changed: source "6.1", quote "3.1"``), the near-miss
word diff, then the proof summary text of the whole report.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from contextlib import ExitStack
from typing import Any

from ._host_io import json_input
from .document import Document
from .proof import ReportInput, summary_text

__all__ = [
    "GroundingAssertionError",
    "assert_grounded",
    "grounding_failure_text",
    "open_source",
    "quote_claims",
    "ungrounded_checks",
    "verify_claims",
]

#: The longest claim text or diff side quoted in a failure message (a megabyte claim must not
#: flood a test log; the report keeps all of it).
_MAX_QUOTED = 240


class GroundingAssertionError(AssertionError):
    """``assert_grounded`` failed: ``report`` is the report, ``failures`` the checks that broke the assertion.

        >>> import ethos_py
        >>> from pathlib import Path
        >>> report = ethos_py.verify("examples/quickstart/document.json", Path("examples/quickstart/citations.json"))
        >>> try:
        ...     assert_grounded(report)
        ... except GroundingAssertionError as failed:
        ...     print([check["id"] for check in failed.failures], isinstance(failed, AssertionError))
        ['v0004'] True
    """

    def __init__(self, message: str, report: dict[str, Any], failures: list[dict[str, Any]]) -> None:
        super().__init__(message)
        self.report = report
        self.failures = failures


def _report(report: ReportInput) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(json_input(report))
    return loaded


def _selected(checks: list[dict[str, Any]], only: Iterable[str | int] | None) -> list[dict[str, Any]]:
    """The checks named by id (``"v0002"``) or by position (0-based), all of them for None."""
    if only is None:
        return checks
    picked: list[dict[str, Any]] = []
    by_id = {check.get("id"): check for check in checks}
    for key in only:
        if isinstance(key, int):
            if not 0 <= key < len(checks):
                raise IndexError(f"check {key} is out of range: the report has {len(checks)} checks")
            picked.append(checks[key])
        elif key in by_id:
            picked.append(by_id[key])
        else:
            raise KeyError(f"no check with id {key!r} in the report")
    return picked


def ungrounded_checks(report: ReportInput, *, only: Iterable[str | int] | None = None) -> list[dict[str, Any]]:
    """The checks of ``report`` (or of those named in ``only``) whose status is not ``grounded``.

        >>> [check["reason"] for check in ungrounded_checks("examples/quickstart/expected-report.json")]
        ['text_mismatch']
    """
    checks = _report(report).get("checks", [])
    return [check for check in _selected(checks, only) if check.get("status") != "grounded"]


def _clip(text: str) -> str:
    text = text.replace("\n", "⏎")
    return text if len(text) <= _MAX_QUOTED else text[:_MAX_QUOTED] + f"… ({len(text)} characters)"


def _diff_line(diff: Sequence[Mapping[str, Any]]) -> str:
    """The near-miss diff as one line: ``[-source-]{+quote+}`` where the two differ."""
    parts: list[str] = []
    for step in diff:
        quote, source = str(step.get("quote", "")), str(step.get("source", ""))
        if step.get("op") == "equal":
            parts.append(quote)
        else:
            parts.append((f"[-{source}-]" if source else "") + (f"{{+{quote}+}}" if quote else ""))
    return _clip(" ".join(part for part in parts if part))  # diff steps are whole tokens apart


def _check_lines(check: Mapping[str, Any]) -> list[str]:
    claim = check.get("claim") or {}
    match = check.get("match") or {}
    head = f"{check.get('id', '?')} {check.get('status', '?')}"
    if check.get("reason"):
        head += f" ({check['reason']})"
    if match.get("tier"):
        head += f" nearest tier {match['tier']}"
    lines = [head, f"  claim: {_clip(str(claim.get('text', claim.get('value', ''))))!r}"]
    for guard in match.get("guards", []):
        if guard.get("verdict") == "block":
            lines.append(f"  guard {guard.get('name')}: {guard.get('detail')}")
    if match.get("diff"):
        lines.append(f"  diff (document [-…-], claim {{+…+}}): {_diff_line(match['diff'])}")
    elif match.get("source_text") and check.get("status") != "grounded":
        lines.append(f"  document has: {_clip(str(match['source_text']))!r}")
    return lines


def grounding_failure_text(report: ReportInput, *, only: Iterable[str | int] | None = None) -> str:
    """What ``assert_grounded`` prints: each check that is not grounded, then the summary text.

        >>> print(grounding_failure_text("examples/quickstart/expected-report.json"))
        Ethos: 1 of 4 checks not grounded
          v0004 mismatch (text_mismatch)
            claim: 'The pilot eliminated the support backlog in every region'
        <BLANKLINE>
        ethos verify summary
        ...
    """
    loaded = _report(report)
    failures = ungrounded_checks(loaded, only=only)
    total = len(_selected(loaded.get("checks", []), only))
    lines = [f"Ethos: {len(failures)} of {total} checks not grounded"]
    for check in failures:
        lines.extend("  " + line for line in _check_lines(check))
    lines.append("")
    lines.append(summary_text(loaded).rstrip("\n"))
    return "\n".join(lines)


def assert_grounded(report: ReportInput, *, only: Iterable[str | int] | None = None) -> dict[str, Any]:
    """Passes when every check of ``report`` (or every check named in ``only``: ids or 0-based
    positions) is ``grounded``, and returns the report as a dict; raises ``GroundingAssertionError``
    with ``grounding_failure_text`` otherwise. A report without checks fails: an empty answer must
    not pass a grounding gate silently.

        >>> import ethos_py
        >>> from pathlib import Path
        >>> report = ethos_py.verify("examples/quickstart/document.json", Path("examples/quickstart/citations.json"))
        >>> _ = assert_grounded(report, only=["v0001", "v0002"])
        >>> assert_grounded(report)
        Traceback (most recent call last):
        ...
        ethos_py.testing.GroundingAssertionError: Ethos: 1 of 4 checks not grounded
        ...
    """
    loaded = _report(report)
    only_list = None if only is None else list(only)
    if not _selected(loaded.get("checks", []), only_list):
        raise GroundingAssertionError("Ethos: the report has no checks to be grounded", loaded, [])
    failures = ungrounded_checks(loaded, only=only_list)
    if failures:
        raise GroundingAssertionError(grounding_failure_text(loaded, only=only_list), loaded, failures)
    return loaded


def open_source(source: str | os.PathLike[str], grounding: str | None = None, *,
                parse_options: Mapping[str, Any] | None = None) -> Document:
    """Opens what the CLIs open: a PDF (a ``.pdf`` name or a ``%PDF-`` header: parsed by ethos-core on
    the way, through the parse cache) or a document/source file under ``grounding``. Close it (or
    use ``with``) when done.

        >>> with open_source("examples/quickstart/document.json") as document:
        ...     document.fingerprint[:7]
        'sha256:'
    """
    from .answer import _documents

    with ExitStack() as stack:
        [document] = _documents(stack, source, grounding, None, parse_options)
        stack.pop_all()  # the caller owns the document now
    return document


def quote_claims(quotes: Iterable[str | Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Claims from quotes: a string is a quote searched in the whole document (``scope:
    "document"``); a mapping is a claim as the citation contract writes it, kept as given.

        >>> quote_claims(["The pilot cut costs", {"kind": "value", "text": "30%", "citation": {"page": "p0001"}}])[0]
        {'kind': 'quote', 'text': 'The pilot cut costs', 'citation': {'scope': 'document'}}
    """
    claims: list[dict[str, Any]] = []
    for quote in quotes:
        if isinstance(quote, str):
            claims.append({"kind": "quote", "text": quote, "citation": {"scope": "document"}})
        else:
            claims.append(dict(quote))
    return claims


def verify_claims(document: Document, claims: Iterable[str | Mapping[str, Any]], *,
                  policy: str | None = None) -> dict[str, Any]:
    """Verifies claims (``quote_claims``'s shorthand) against an open document, pinned to its
    fingerprint when it has one, and returns the report under ``policy`` (a preset name, policy
    JSON or a path; the default policy for None).

        >>> with open_source("examples/quickstart/document.json") as document:
        ...     report = verify_claims(document, ["The pilot cut average response time by 30%"])
        >>> report["checks"][0]["status"], report["checks"][0]["claim"]["citation"]
        ('grounded', {'scope': 'document'})
    """
    citations: dict[str, Any] = {"claims": quote_claims(claims)}
    if document.fingerprint is not None:
        citations["document_fingerprint"] = document.fingerprint
    report: dict[str, Any] = json.loads(document.verify_json(citations, policy=policy))
    return report
