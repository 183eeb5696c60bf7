"""reply_commands - ``ethos reply extract`` and ``ethos edits apply``: a model reply's payload, and its verified edits applied.

Python-only commands (no ethos-core counterpart: they are built on ``ethos_py.reply_extract``,
``reply_verify`` and ``edits``). Failures are the CLI's envelopes (docs/cli.md §5): a reply
without a payload is ``invalid_input`` naming the argument and the reason, never a traceback.
"""

from __future__ import annotations

import sys
from typing import Any

import click

__all__ = ["add_reply_commands"]

_STDIN_LIMIT = 256 * 1024 * 1024


def _read_text(path: str, argument: str) -> str:
    """A UTF-8 text argument file ("-" is stdin), else a host_io / invalid_input envelope."""
    from .cli import _host_error, _read

    if path == "-":
        try:
            data = sys.stdin.buffer.read(_STDIN_LIMIT + 1)
        except (OSError, ValueError, AttributeError) as error:
            raise _host_error("host_io", {"argument": argument, "reason": "read_failed"}) from error
        if len(data) > _STDIN_LIMIT:
            raise _host_error("file_too_large", {"argument": argument})
    else:
        data = _read(path, argument)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise _host_error("invalid_input", {"argument": argument, "path": "$", "reason": "not_utf8"}) from None


def _source_text(path: str) -> str:
    """The text edits apply to: a text file as it is, or a PDF's text as ethos-core parses it."""
    from .answer import _is_pdf

    if path != "-" and _is_pdf(path):
        from .pdf import parse_pdf_text

        return parse_pdf_text(path)
    return _read_text(path, "--source")


def _payload_error(argument: str, reason: str) -> Exception:
    from .cli import _host_error

    return _host_error("invalid_input", {"argument": argument, "path": "$", "reason": f"no_payload:{reason}"})


def add_reply_commands(ethos: click.Group) -> None:
    """Adds the ``reply`` and ``edits`` groups to the ``ethos`` command (called once by ethos_py.cli)."""
    from ._json import dumps
    from .cli import (
        _COMMAND_CONTEXT,
        _CONTEXT,
        _POLICY_HELP,
        _EthosGroup,
        _emit,
        _policy_choice,
        _print_group_help,
        _reject_extra_args,
    )

    @ethos.group("reply", cls=_EthosGroup, invoke_without_command=True, context_settings=_CONTEXT,
                 short_help="Read a model's reply.")
    @click.pass_context
    def reply_group(ctx: click.Context) -> None:
        """A model's reply: find its JSON payload (`reply extract`; docs/replies.md)."""
        if ctx.invoked_subcommand is None:
            _print_group_help(ctx)

    @reply_group.command("extract", context_settings=_COMMAND_CONTEXT, short_help="Print the JSON payload of a reply.")
    @click.option("--file", "file", metavar="FILE", default="-", help="The reply text (default -, stdin).")
    @click.option("--out", metavar="FILE", default=None, help="Write the output atomically to FILE instead of stdout.")
    @click.pass_context
    def reply_extract_command(ctx: click.Context, file: str, out: str | None) -> int:
        """Find the JSON payload in a model's reply and print how it was found.

        \b
        Fenced (any tag, ``` or ~~~) or bare JSON among prose; schema
        sketches (placeholder values, comments) are skipped; the last
        complete candidate wins. Prints ethos.reply_extraction.v1: the
        payload, its span, the candidate chosen and every candidate
        skipped, with reasons. No payload (none, only a sketch, cut off,
        invalid JSON): exit 2, invalid_input with details.reason
        no_payload:<why>.
        """
        from .reply_extract import extract_json_payload

        _reject_extra_args(ctx)
        result = extract_json_payload(_read_text(file, "--file"))
        if not result.found:
            raise _payload_error("--file", result.reason)
        _emit(dumps(result.to_dict()) + b"\n", out)
        return 0

    @ethos.group("edits", cls=_EthosGroup, invoke_without_command=True, context_settings=_CONTEXT,
                 short_help="Apply a reply's verified edits.")
    @click.pass_context
    def edits_group(ctx: click.Context) -> None:
        """Edits a model proposes to a document (`edits apply`; docs/replies.md)."""
        if ctx.invoked_subcommand is None:
            _print_group_help(ctx)

    @edits_group.command("apply", context_settings=_COMMAND_CONTEXT, short_help="Apply the edits whose anchors verify.")
    @click.option("--source", metavar="FILE", required=True, help="The document: UTF-8 text, or a PDF (its parsed text).")
    @click.option("--reply", metavar="FILE", required=True, help="The model's reply (prose and JSON; - for stdin).")
    @click.option("--out", metavar="FILE", default=None,
                  help="Write the edited text atomically to FILE (the report then leaves the text out).")
    @click.option("--policy", metavar="NAME|FILE", default="default", help=_POLICY_HELP + " Default: default.")
    @click.option("--fail-on-skipped", is_flag=True, help="Exit 1 when any edit was skipped (the outputs are still written).")
    @click.pass_context
    def edits_apply_command(ctx: click.Context, source: str, reply: str, out: str | None, policy: str,
                            fail_on_skipped: bool) -> int:
        """Apply the edits of a reply whose anchors verify, and report every edit.

        \b
        Each edit is {"anchor": quoted text it replaces, "replacement": new
        text}, read from the reply's payload (`edits` list, or a list).
        An anchor is verified with the matcher under --policy; only one
        found exactly once is replaced, in document order, overlaps
        refused. Prints ethos.edit_result.v1 on stdout: applied edits
        (old and new spans) and skipped ones with their reason (not_found,
        ambiguous, overlap, no_replacement) and near-miss diff.
        """
        from .edits import apply_edits
        from .reply_extract import extract_json_payload

        _reject_extra_args(ctx)
        policy_value = _policy_choice(policy)  # checked before any other file is read
        text = _source_text(source)
        extraction = extract_json_payload(_read_text(reply, "--reply"))
        if not extraction.found:
            raise _payload_error("--reply", extraction.reason)
        result = apply_edits(text, extraction, policy=policy_value)
        report: dict[str, Any] = result.to_dict()
        if out is not None:
            _emit(result.text.encode("utf-8"), out)
            del report["text"]
        _emit(dumps(report) + b"\n", None)
        return 1 if fail_on_skipped and result.skipped else 0
