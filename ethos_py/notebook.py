"""notebook - a verification report that shows itself: the HTML evidence report in Jupyter (``_repr_html_``), the text report elsewhere."""

from __future__ import annotations

import json
import os
from typing import Any

from ._host_io import json_input

__all__ = ["CheckView", "ReportView"]


class ReportView:
    """A thin wrapper around a verification report (a dict, JSON bytes or text, or a path) for
    notebooks: Jupyter shows ``report_fragment_html`` (the HTML evidence report's summary and
    entries, without its script), a console the ``verify --format text`` report. ``source``,
    ``pdf`` and ``decision`` are those of ``render_report_html``; with ``pdf`` the entries show
    the page regions with the matched glyphs highlighted.

        >>> from pathlib import Path
        >>> import ethos_py
        >>> view = ReportView(ethos_py.verify("examples/quickstart/document.json", Path("examples/quickstart/citations.json")))
        >>> view
        <ReportView: 4 checks, 3 grounded, 1 mismatch; proof status partially_verified>
        >>> view._repr_html_().count('<article class="check'), view.check("v0004")._repr_html_().count("<article")
        (4, 1)
    """

    def __init__(self, report: Any, *, source: Any = None, pdf: str | os.PathLike[str] | None = None,
                 decision: Any = None, password: str | None = None) -> None:
        self.report: dict[str, Any] = json.loads(json_input(report))
        self._options: dict[str, Any] = {"source": source, "pdf": pdf, "decision": decision, "password": password}
        self._prepared: tuple[Any, ...] | None = None  # rendered once, on first display

    @property
    def checks(self) -> list[CheckView]:
        """Every check, each shown on its own."""
        return [CheckView(self, str(check.get("id"))) for check in self.report.get("checks", [])]

    def check(self, check_id: str) -> CheckView:
        """The check with this id (``KeyError`` when there is none)."""
        if not any(check.get("id") == check_id for check in self.report.get("checks", [])):
            raise KeyError(f"no check with id {check_id!r} in the report")
        return CheckView(self, check_id)

    def html(self, check_ids: list[str] | None = None) -> str:
        """The HTML fragment (all checks, or those named)."""
        from .report_html import _fragment, _prepare

        if self._prepared is None:
            options = self._options
            self._prepared = _prepare(self.report, options["source"], options["pdf"], options["decision"],
                                      options["password"], 300.0)
        return _fragment(self._prepared, check_ids)

    def _repr_html_(self) -> str:
        return self.html()

    def text(self) -> str:
        """The ``verify --format text`` report (no colour)."""
        from .proof import report_text

        return report_text(self.report)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        from .proof import proof_summary

        counts: dict[str, int] = {}
        for check in self.report.get("checks", []):
            counts[str(check.get("status"))] = counts.get(str(check.get("status")), 0) + 1
        parts = [f"{n} {status}" for status, n in sorted(counts.items(), key=lambda item: (item[0] != "grounded", item[0]))]
        status = proof_summary(self.report).get("proof_status")
        return f"<ReportView: {len(self.report.get('checks', []))} checks, {', '.join(parts)}; proof status {status}>"


class CheckView:
    """One check of a ``ReportView``: the same HTML entry as in the report, or its text block.

        >>> from pathlib import Path
        >>> import ethos_py
        >>> view = ReportView(ethos_py.verify("examples/quickstart/document.json", Path("examples/quickstart/citations.json")))
        >>> view.checks[3]
        <CheckView v0004: mismatch (text_mismatch)>
    """

    def __init__(self, view: ReportView, check_id: str) -> None:
        self.view = view
        self.id = check_id

    @property
    def check(self) -> dict[str, Any]:
        """The check's dict in the report."""
        found: dict[str, Any] = next(c for c in self.view.report["checks"] if c.get("id") == self.id)
        return found

    def _repr_html_(self) -> str:
        return self.view.html([self.id])

    def __repr__(self) -> str:
        check = self.check
        reason = f" ({check['reason']})" if check.get("reason") else ""
        return f"<CheckView {self.id}: {check.get('status')}{reason}>"
