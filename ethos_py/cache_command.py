"""cache_command - ``ethos cache info|clear``: the parse cache's location, size and limit, and its removal.

Both run in ethos-core (which owns the cache), so ``ethos`` and ``ethos-core`` print the same bytes.
"""

from __future__ import annotations

from typing import Any

import click

__all__ = ["add_cache_commands"]

_CACHE_DIR_HELP = "Parse cache directory (default $ETHOS_CACHE_DIR, else ~/.cache/ethos/documents)."


def add_cache_commands(ethos: click.Group) -> None:
    """Adds the ``cache`` group to the ``ethos`` command (called once by ethos_py.cli)."""
    from .cli import _COMMAND_CONTEXT, _CONTEXT, _EthosGroup, _reject_extra_args, _run_core, _write_stdout

    @ethos.group("cache", cls=_EthosGroup, invoke_without_command=True, context_settings=_CONTEXT,
                 short_help="Inspect or clear the parse cache.")
    @click.pass_context
    def cache_group(ctx: click.Context) -> None:
        """The parse cache: documents parsed from PDFs, kept so the same PDF is never parsed twice.

        \b
        Bounded by $ETHOS_CACHE_MAX_BYTES (e.g. 500M; default 1 GiB): past
        it, the least recently used entries are removed. The directory is
        private (0700), every entry is checked against the PDF and parser
        build it was written for, and a password-protected PDF is cached
        only with `doc parse --cache-decrypted`.
        """
        if ctx.invoked_subcommand is None:
            # As `ethos doc` alone: the command list on stdout, exit 0.
            _write_stdout((ctx.get_help() + "\n").encode())
            ctx.exit(0)

    @cache_group.command("info", context_settings=_COMMAND_CONTEXT, short_help="Show the parse cache's location, size and limit.")
    @click.option("--cache-dir", metavar="DIR", default=None, help=_CACHE_DIR_HELP)
    @click.pass_context
    def cache_info_command(ctx: click.Context, cache_dir: str | None) -> Any:
        """Print the parse cache as JSON: directory, entries, bytes and max_bytes (the limit)."""
        _reject_extra_args(ctx)
        return _run_core(["cache", "info", *([] if cache_dir is None else ["--cache-dir", cache_dir])])

    @cache_group.command("clear", context_settings=_COMMAND_CONTEXT, short_help="Remove every entry of the parse cache.")
    @click.option("--cache-dir", metavar="DIR", default=None, help=_CACHE_DIR_HELP)
    @click.pass_context
    def cache_clear_command(ctx: click.Context, cache_dir: str | None) -> Any:
        """Remove every parsed document from the parse cache; print what was removed as JSON
        (directory, removed_entries, removed_bytes). Other files are left alone."""
        _reject_extra_args(ctx)
        return _run_core(["cache", "clear", *([] if cache_dir is None else ["--cache-dir", cache_dir])])
