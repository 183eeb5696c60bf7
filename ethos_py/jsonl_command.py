"""jsonl_command - ``ethos verify-jsonl``: claims in JSON Lines verified against their sources, written back with the verdict and a manifest.

Python-only (no ethos-core counterpart): it is ``ethos_py.jsonl_pipeline`` over the in-process
core. A bad record stops the run before anything is written (an ``invalid_input`` envelope naming
the file and line) unless ``--keep-going``; outputs are atomic.
"""

from __future__ import annotations

import click

__all__ = ["add_jsonl_command"]


def add_jsonl_command(ethos: click.Group) -> None:
    """Adds ``verify-jsonl`` to the ``ethos`` command (called once by ethos_py.cli)."""
    from .cli import _COMMAND_CONTEXT, _GROUNDING_HELP, _GROUNDINGS, _POLICY_HELP, _reject_extra_args

    @ethos.command("verify-jsonl", context_settings=_COMMAND_CONTEXT, short_help="Verify claims held in JSON Lines.")
    @click.argument("claims", metavar="CLAIMS.jsonl")
    @click.option("-o", "--out", metavar="FILE", required=True, help="The records with their verdict under 'ethos' (atomic).")
    @click.option("--manifest", metavar="FILE", default=None, help="Also write the run's manifest (atomic).")
    @click.option("--corpus", metavar="FILE", default=None,
                  help='A manifest {"documents": {"<id>": "<path>"}} for records that name a "document".')
    @click.option("--grounding", type=click.Choice(_GROUNDINGS), default=None, help=_GROUNDING_HELP)
    @click.option("--policy", metavar="NAME|FILE", default=None, help=_POLICY_HELP)
    @click.option("--replace-existing", is_flag=True, help="Replace an 'ethos' result a record already has (else refused).")
    @click.option("--keep-going", is_flag=True, help="Record a bad record's error in it and go on (else stop, writing nothing).")
    @click.pass_context
    def verify_jsonl_command(ctx: click.Context, claims: str, out: str, manifest: str | None, corpus: str | None,
                             grounding: str | None, policy: str | None, replace_existing: bool, keep_going: bool) -> int:
        """Verify each record of CLAIMS.jsonl against its own source.

        \b
        A record: "claim" (string) and exactly one of "source" (the text),
        "source_path" (a PDF, a parsed or foreign document, a text or
        Markdown file; relative to CLAIMS.jsonl) or "document" (an id of
        --corpus); optional "kind" (quote, value, presence, table_cell)
        and "citation" (a locator; default the whole document). Every
        field is kept, in order; the verdict goes under "ethos". Each
        source is opened once. Exit 0 (verdicts are data, not failures).
        """
        from ._manifest import write_manifest
        from .cli import _emit, _host_error, _io_details, _policy_choice
        from .jsonl_pipeline import JsonlError, run_manifest, verify_jsonl

        _reject_extra_args(ctx)
        policy_value = _policy_choice(policy)
        try:
            run = verify_jsonl(claims, corpus=corpus, grounding=grounding, policy=policy_value,
                               replace_existing=replace_existing, keep_going=keep_going)
        except JsonlError as error:
            argument = "--corpus" if corpus is not None and error.path == corpus else "CLAIMS"
            raise _host_error("invalid_input", {"argument": argument, "file": error.path, "line": error.line,
                                                "reason": error.reason}) from None
        except OSError as error:
            raise _host_error("host_io", _io_details("CLAIMS", error, claims)) from error
        data = b"".join(run.lines)
        _emit(data, out)
        if manifest is not None:
            write_manifest(manifest, run_manifest(run, input_path=claims, output_path=out, output_bytes=data,
                                                  policy=policy_value))
        counts = ", ".join(f"{status} {count}" for status, count in sorted(run.counts.items()))
        click.echo(f"ethos verify-jsonl: {run.records} records ({counts or 'none'}) -> {out}", err=True)
        return 0
