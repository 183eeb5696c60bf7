"""report_html_command - ``ethos report html``: the HTML evidence report of a verification report (ethos_py.report_html), or the corpus view of a batch summary (ethos_py.report_html_corpus)."""

from __future__ import annotations

import json
import os

import click


def add_report_commands(ethos: click.Group) -> None:
    """Adds the ``report`` group and ``report html`` to the ``ethos`` command (called once by ethos_py.cli)."""
    from .cli import _COMMAND_CONTEXT, _CONTEXT, _EthosGroup, _emit, _print_group_help, _read, _reject_extra_args

    @ethos.group("report", cls=_EthosGroup, invoke_without_command=True, context_settings=_CONTEXT,
                 short_help="Present a verification report.")
    @click.pass_context
    def report_group(ctx: click.Context) -> None:
        """Present a verification report for people (`report html`)."""
        if ctx.invoked_subcommand is None:
            _print_group_help(ctx)

    @report_group.command("html", context_settings=_COMMAND_CONTEXT, short_help="Write the HTML evidence report or corpus view.")
    @click.argument("report", metavar="REPORT.json|SUMMARY.json")
    @click.option("--source", metavar="DOC.json", default=None,
                  help="The parsed document the report was verified against (pages and their sizes).")
    @click.option("--pdf", metavar="SOURCE.pdf", default=None,
                  help="The PDF: its page regions are shown with the matched glyphs highlighted (without --source it is parsed, through the cache).")
    @click.option("--decision", metavar="DECISION.json", default=None, help="An app answer release decision to show too.")
    @click.option("--password", metavar="P", default=None, help="The PDF's password (also ETHOS_PDF_PASSWORD).")
    @click.option("--out", metavar="FILE", default=None, help="Write the page atomically to FILE instead of stdout.")
    @click.pass_context
    def report_html_command(ctx: click.Context, report: str, source: str | None, pdf: str | None, decision: str | None,
                            password: str | None, out: str | None) -> int:
        """Write REPORT's HTML evidence report: one self-contained page.

        \b
        The proof summary, the release decision (--decision), then every
        check: claim, status, reason, tier and reading, guards, near-miss
        diff and stitched fragments, beside an image of the page region
        with the matched glyphs highlighted line by line (--pdf) and a
        link to the whole page. Filters by status, j/k keys, print and
        dark styles. Nothing is fetched: images are inline and a content
        security policy allows only the page's own style and script.
        Without --pdf the evidence is shown as text. The same inputs give
        the same bytes.

        \b
        Given an `ethos batch` summary (ethos.batch_summary.v1) instead,
        it writes the corpus view: the grounded rate overall, then tables
        per document (worst rate first), claim kind, reason and matching
        tier (with the cumulative share) and the claims that fail most
        often (the page `ethos batch --html` writes).
        """
        _reject_extra_args(ctx)
        from .report_html import render_report_html

        report_bytes = _read(report, "REPORT")
        corpus = _batch_summary(report_bytes)
        if corpus is not None:
            from .cli import _host_error
            from .report_html_corpus import _render

            given = [name for name, value in (("--source", source), ("--pdf", pdf), ("--decision", decision)) if value is not None]
            if given:  # a corpus view has no document or decision to show: an option would be silently ignored
                raise _host_error("invalid_input", {"argument": given[0], "reason": "not_for_a_batch_summary"})
            _emit(_render(corpus, "REPORT").encode("utf-8"), out)
            return 0
        source_bytes = None if source is None else _read(source, "--source")
        decision_bytes = None if decision is None else _read(decision, "--decision")
        if pdf is not None:
            _read(pdf, "--pdf")  # a missing or unreadable PDF is a host_io error before any work
        page = render_report_html(report_bytes, source=source_bytes, pdf=pdf, decision=decision_bytes,
                                  password=password or os.environ.get("ETHOS_PDF_PASSWORD"))
        _emit(page.encode("utf-8"), out)
        return 0


def _batch_summary(data: bytes) -> dict[str, object] | None:
    """The parsed JSON when it is a batch summary (its ``artifact_type`` says so), else None: a
    verification report (or a file that is neither) goes to the evidence report, which says what is wrong."""
    from .report_html_corpus import ARTIFACT_TYPE

    try:
        loaded = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return None
    return loaded if isinstance(loaded, dict) and loaded.get("artifact_type") == ARTIFACT_TYPE else None
