"""report_html_command - ``ethos report html``: the HTML evidence report of a verification report (ethos_py.report_html)."""

from __future__ import annotations

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

    @report_group.command("html", context_settings=_COMMAND_CONTEXT, short_help="Write the HTML evidence report.")
    @click.argument("report", metavar="REPORT.json")
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
        """
        _reject_extra_args(ctx)
        from .report_html import render_report_html

        report_bytes = _read(report, "REPORT")
        source_bytes = None if source is None else _read(source, "--source")
        decision_bytes = None if decision is None else _read(decision, "--decision")
        if pdf is not None:
            _read(pdf, "--pdf")  # a missing or unreadable PDF is a host_io error before any work
        page = render_report_html(report_bytes, source=source_bytes, pdf=pdf, decision=decision_bytes,
                                  password=password or os.environ.get("ETHOS_PDF_PASSWORD"))
        _emit(page.encode("utf-8"), out)
        return 0
