"""cli - the ``ethos`` command (click) running the core in process; docs/cli.md is its specification.

Every failure, click's own usage errors included, ends as exactly one error envelope on stderr
with nothing on stdout, so this command and the compiled ``ethos-core`` are interchangeable. The
native modules are imported inside functions: if the library cannot be loaded, the user still
gets an envelope rather than a traceback.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

import click

from .errors import EthosError

__all__ = ["ethos", "main", "run"]

_FORMATS = ("json", "summary", "text", "junit", "sarif", "github")
# The core's loaders (native/src/sources/registry.cpp), in its order; docs/sources.md.
_GROUNDINGS = ("ethos-native", "ethos-grounding-json", "opendataloader-json", "docling-json", "text", "markdown")
_GROUNDING_HELP = (
    "Source loader (default: ethos-grounding-json for an ethos.grounding.v1 artifact, else ethos-native; docs/sources.md)."
)
# -h works like --help everywhere, as it does in ethos-core.
_CONTEXT = {"help_option_names": ["-h", "--help"]}
# Extra positionals are collected instead of rejected by click, so the error can name them.
_COMMAND_CONTEXT = {"help_option_names": ["-h", "--help"], "allow_extra_args": True}


class _ArgumentError(click.UsageError):
    """An argument error that click does not attribute to a parameter (command, extra token)."""

    def __init__(self, argument: str) -> None:
        super().__init__(f"invalid argument: {argument}")
        self.argument = argument


class _EthosGroup(click.Group):
    """A group whose unknown-command error names the ``COMMAND`` argument."""

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0]
        command = self.get_command(ctx, name)
        if command is None:
            raise _ArgumentError("COMMAND")
        return name, command, args[1:]


def _print_group_help(ctx: click.Context) -> None:
    """A group run without a command lists its commands on stdout and exits 0, like pip and
    ethos-core (click 8.2 would exit 2 with usage on stderr, which breaks the one-envelope rule)."""
    _write_stdout((ctx.get_help() + "\n").encode())
    ctx.exit(0)


def _io_details(argument: str, error: OSError, path: str) -> dict[str, Any]:
    """The details of a host_io envelope: the path only when it is UTF-8, as in ethos-core."""
    from ._host_io import io_reason

    details: dict[str, Any] = {"argument": argument, "reason": io_reason(error)}
    try:
        details["path"] = os.fsencode(path).decode("utf-8")
    except UnicodeDecodeError:
        pass
    return details


def _host_error(code: str, details: dict[str, Any] | None = None) -> EthosError:
    from . import _ffi

    return _ffi.host_error(code, details)


def _read(path: str, argument: str) -> bytes:
    from ._host_io import read_input_file

    try:
        return read_input_file(path, argument=argument)
    except OSError as error:
        raise _host_error("host_io", _io_details(argument, error, path)) from error


def _silence_stdout() -> None:
    # After a failed write Python would flush stdout again at exit and print "Exception ignored"
    # on stderr; pointing fd 1 at /dev/null keeps the single-envelope rule.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except OSError:
        pass


def _write_stdout(data: bytes) -> None:
    try:
        stream = sys.stdout.buffer  # sys.stdout is None when fd 1 was closed at startup
        stream.write(data)
        stream.flush()
    except (OSError, ValueError, AttributeError) as error:
        _silence_stdout()
        raise _host_error("internal_error", {"stream": "stdout"}) from error


def _emit(data: bytes, out: str | None) -> None:
    if out is None:
        _write_stdout(data)
        return
    from ._host_io import write_file_atomic

    try:
        write_file_atomic(out, data)
    except OSError as error:
        raise _host_error("host_io", _io_details("--out", error, out)) from error


def _reject_extra_args(ctx: click.Context) -> None:
    if ctx.args:
        raise _ArgumentError(ctx.args[0])


def _subject_name(source: str) -> str:
    name = os.path.basename(source)
    try:
        # argv arrives surrogate-escaped; the raw bytes must be UTF-8 to become a JSON string.
        os.fsencode(name).decode("utf-8")
    except UnicodeDecodeError:
        raise _host_error("invalid_arguments", {"argument": "SOURCE"}) from None
    return name


# The largest --max-verify-ms (core/verify_deadline.hpp's kMaxVerifyMs).
_MAX_VERIFY_MS = 1 << 40
_VERIFY_FORMAT_HELP = (
    "Output format (default json): json, summary, text (for people), or junit, sarif, github for CI "
    "(results point at the --citations file)."
)
_MAX_VERIFY_MS_HELP = (
    "Time limit of verifying in ms (default none): past it the run fails with input_limit_exceeded and writes nothing."
)


def _max_verify_ms(value: str | None) -> int | None:
    """--max-verify-ms as ethos-core reads it: a positive decimal integer up to 2^40, else invalid_arguments."""
    if value is None:
        return None
    if not (0 < len(value) <= 19 and all("0" <= c <= "9" for c in value)) or not 0 < int(value) <= _MAX_VERIFY_MS:
        raise _host_error("invalid_arguments", {"argument": "--max-verify-ms"})
    return int(value)


def _all_evidence_grounded(report: bytes) -> bool:
    parsed = json.loads(report)
    body = parsed["predicate"] if isinstance(parsed.get("predicate"), dict) else parsed
    value = body.get("all_evidence_grounded")
    if not isinstance(value, bool):
        # The core always writes the field; a report without it is a core bug, not a verdict.
        raise _host_error("internal_error")
    return value


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from ._version_text import version_text

    _write_stdout(version_text().encode())
    ctx.exit(0)


@click.group(cls=_EthosGroup, invoke_without_command=True, context_settings=_CONTEXT)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Print the version and exit.",
)
@click.pass_context
def ethos(ctx: click.Context) -> None:
    """Ethos: a deterministic evidence verifier for AI answers.

    \b
    Start with `ethos demo`. Parse a PDF with `ethos doc parse`, then check
    an AI answer's citations against the document with `ethos verify`.

    \b
    Exit codes: 0 success (an ungrounded report too, unless
    --fail-on-ungrounded: then 1); 2 invalid arguments or input; 3-11 PDF
    parse failures (see `ethos doc parse --help`); 12 internal error. Every
    failure prints one JSON error envelope on stderr; docs/cli.md has the
    details.
    """
    if ctx.invoked_subcommand is None:
        _print_group_help(ctx)


_POLICY_PRESETS = ("strict", "default", "permissive")
_CROP_DIR_HELP = "Write a crop descriptor for every check with evidence into DIR (created if missing)."
_CROP_SOURCE_PDF_HELP = (
    "The source PDF: also render each crop as a PNG with the cited characters highlighted (needs --crop-dir). "
    "Foreign sources render from the PDF they were made from; one without a fingerprint names its crops after the PDF."
)


def _verify_core_arguments(
    source: str,
    citations: str,
    grounding: str | None,
    config: str | None,
    policy: str | None,
    output_format: str,
    fail_on_ungrounded: bool,
    statement: bool,
    out: str | None,
    crop_dir: str | None,
    crop_source_pdf: str | None,
    password_arguments: list[str],
    max_verify_ms: str | None = None,
    text_style: tuple[str | None, str | None, bool] = (None, None, False),
) -> list[str]:
    """The ethos-core argv of a verify with crops: the same options, values unchecked
    (``text_style``: --palette, --color, --no-color)."""
    arguments = ["verify", "--citations", citations, "--format", output_format]
    palette, color, no_color = text_style
    if no_color:
        arguments.append("--no-color")
    for flag, value in (
        ("--palette", palette),
        ("--color", color),
        ("--grounding", grounding),
        ("--config", config),
        ("--policy", policy),
        ("--max-verify-ms", max_verify_ms),
        ("--out", out),
        ("--crop-dir", crop_dir),
        ("--crop-source-pdf", crop_source_pdf),
    ):
        if value is not None:
            arguments += [flag, value]
    if fail_on_ungrounded:
        arguments.append("--fail-on-ungrounded")
    if statement:
        arguments.append("--statement")
    return [*arguments, *password_arguments, "--", source]
_CROP_PASSWORD_HELP = (
    "Password of an encrypted --crop-source-pdf (or use --password-file / $ETHOS_PDF_PASSWORD); "
    "needs --crop-source-pdf."
)
_CROP_PASSWORD_FILE_HELP = "Read the password of an encrypted --crop-source-pdf from FILE (one trailing newline dropped)."


_POLICY_HELP = "Matching policy: strict, default, permissive or a policy JSON file (docs/matching.md)."


@ethos.command("verify", context_settings=_COMMAND_CONTEXT, short_help="Verify citations against a grounding source.")
@click.argument("source", metavar="SOURCE")
@click.option("--citations", metavar="FILE", required=True, help="Citations JSON.")
@click.option("--grounding", type=click.Choice(_GROUNDINGS), default=None, help=_GROUNDING_HELP)
@click.option("--config", metavar="FILE", default=None, help="Verification config JSON (default: built-in default-v1).")
@click.option("--policy", metavar="NAME|FILE", default=None, help=_POLICY_HELP)
@click.option(
    "--format", "output_format", type=click.Choice(_FORMATS), default="json", help=_VERIFY_FORMAT_HELP
)
@click.option("--palette", type=click.Choice(("classic", "colorblind", "neon", "mono")), default=None,
              help="Highlighting of --format text: classic (default), colorblind, neon or mono (bold and inverse video).")
@click.option("--color", type=click.Choice(("auto", "always", "never")), default=None,
              help="Highlight --format text: auto (default: a terminal stdout, no --out, NO_COLOR unset), always or never.")
@click.option("--no-color", is_flag=True, help="Never highlight (as --color never).")
@click.option("--fail-on-ungrounded", is_flag=True, help="Exit 1 when not all evidence is grounded.")
@click.option("--max-verify-ms", metavar="N", default=None, help=_MAX_VERIFY_MS_HELP)
@click.option("--statement", is_flag=True, help="Wrap the report in an in-toto Statement.")
@click.option("--out", metavar="FILE", default=None, help="Write the output atomically to FILE instead of stdout.")
@click.option("--crop-dir", metavar="DIR", default=None, help=_CROP_DIR_HELP)
@click.option("--crop-source-pdf", metavar="PDF", default=None, help=_CROP_SOURCE_PDF_HELP)
@click.option("--password", metavar="P", default=None, help=_CROP_PASSWORD_HELP)
@click.option("--password-file", metavar="FILE", default=None, help=_CROP_PASSWORD_FILE_HELP)
@click.pass_context
def verify_command(
    ctx: click.Context,
    source: str,
    citations: str,
    grounding: str | None,
    config: str | None,
    policy: str | None,
    output_format: str,
    palette: str | None,
    color: str | None,
    no_color: bool,
    fail_on_ungrounded: bool,
    max_verify_ms: str | None,
    statement: bool,
    out: str | None,
    crop_dir: str | None = None,
    crop_source_pdf: str | None = None,
    password: str | None = None,
    password_file: str | None = None,
) -> int:
    """Verify the citations in --citations against SOURCE and write the verification report.

    \b
    An ungrounded report is a successful run: it exits 0 unless
    --fail-on-ungrounded is given, which makes it exit 1 (the report is
    still written).
    """
    from . import _ffi
    from .document import Document

    _reject_extra_args(ctx)
    if crop_dir is not None or crop_source_pdf is not None or password is not None or password_file is not None:
        # Crops are written (and rendered) by ethos-core, like PDF parsing (docs/cli.md §3.10).
        passwords = {"password": password, "password_file": password_file}
        return _run_core(
            _verify_core_arguments(
                source, citations, grounding, config, policy, output_format, fail_on_ungrounded, statement, out,
                crop_dir, crop_source_pdf, _password_arguments(passwords, crop_source_pdf), max_verify_ms,
                (palette, color, no_color),
            ),
            _password_environment(passwords),
        )
    # Argument-level checks finish before any file is touched (docs/cli.md §5.2).
    budget = _max_verify_ms(max_verify_ms)
    subject_name = _subject_name(source) if statement else None
    source_bytes = _read(source, "SOURCE")
    citations_bytes = _read(citations, "--citations")
    config_bytes = None if config is None else _read(config, "--config")
    policy_choice = _policy_choice(policy)

    # Without --grounding the core chooses: Grounding JSON by its artifact_type, else native.
    with Document.from_bytes(source_bytes, grounding) as document:
        report = document.verify_json(
            citations_bytes,
            config_bytes,
            statement=statement,
            subject_name=subject_name,
            policy=policy_choice,
            max_verify_ms=budget,
        )

    ungrounded = fail_on_ungrounded and not _all_evidence_grounded(report)
    if output_format == "summary":
        # The core's bytes as they are (no decode/encode round trip), exactly what ethos-core prints.
        _emit(_ffi.call_string(_ffi.lib.ethos_report_summary_text, report, len(report)), out)
    elif output_format == "text":
        from ._json import dumps

        text_options = dumps({"color": _use_color(color, no_color, out), "palette": palette or "classic"})
        _emit(_ffi.call_string(_ffi.lib.ethos_report_render_text, report, len(report), text_options, len(text_options)), out)
    elif output_format != "json":
        # junit, sarif, github: rendered by the core, pointing at the files as the command line named them.
        from ._json import dumps

        ci = dumps({"citations_path": citations, "format": output_format, "source_path": source})
        _emit(_ffi.call_string(_ffi.lib.ethos_report_ci_text, report, len(report), ci, len(ci)), out)
    else:
        _emit(report + b"\n", out)
    # Exit 1 is reserved for this one verdict; without the flag an ungrounded report exits 0.
    return 1 if ungrounded else 0


# -- PDF work: run in the ethos-core child, whose flags these are (docs/cli.md §3.5) ---------------

# (option, metavar, help). Values are passed to ethos-core as typed, so that ethos-core is the one
# validator and a bad value gets the same envelope from `ethos` and from `ethos-core`.
_PARSE_VALUE_OPTIONS = (
    ("--pages", "SPEC", "Pages to parse, 1-based: N, N-M or N- joined by commas (e.g. 1-3,7,10-). Default: all."),
    ("--password", "P", "Password of an encrypted PDF (or use --password-file / $ETHOS_PDF_PASSWORD)."),
    ("--max-file-bytes", "N", "Largest accepted PDF in bytes (default 268435456 = 256 MiB); exit 7 above it."),
    ("--max-pages", "N", "Most pages the PDF may have (default 5000, at most 9999); exit 6 above it."),
    ("--max-parse-ms", "N", "Wall-time limit of the parse in ms (default 120000); exit 10 when reached."),
    ("--max-memory-mib", "N", "Memory limit of all parse workers together in MiB (default 2048); exit 11 when reached."),
    ("--workers", "N", "Parse worker processes (default: by page count and cores). Never changes the output."),
    ("--cache-dir", "DIR", "Parse cache directory (default $ETHOS_CACHE_DIR, else ~/.cache/ethos/documents)."),
    ("--pdfium-library", "PATH", "The PDFium library to load (default: the one in pypdfium2's wheel)."),
    ("--password-file", "FILE", "Read the password of an encrypted PDF from FILE (one trailing newline dropped)."),
)
_PARSE_EXIT_CODES = """\b
Exit codes: 0 success; 2 invalid arguments or unreadable files;
3 invalid_pdf (no %PDF- header); 4 corrupt_pdf; 5 password_protected;
6 page_limit_exceeded; 7 file_too_large; 8 ocr_required (no text:
scanned or blank pages); 9 unsupported_pdf_feature; 10 parse_timeout;
11 memory_limit_exceeded; 12 internal_error (e.g. PDFium not found).
Every failure prints one JSON error envelope on stderr, nothing on stdout."""


def _parse_options(command: Callable[..., Any], *, diagnostics: bool = True) -> Callable[..., Any]:
    """Adds the parse limits and settings shared by `doc parse` and `fingerprint` (and, without
    --diagnostics, `check-answer`)."""
    if diagnostics:
        command = click.option(
            "--diagnostics",
            is_flag=True,
            help="Add runtime facts (cache, timing, workers, a worker's failure) to the output; never cached or hashed.",
        )(command)
    command = click.option("--quiet", is_flag=True, help="Draw no progress bar (drawn on stderr only when it is a terminal).")(
        command
    )
    command = click.option(
        "--cache-decrypted", is_flag=True, help="Also cache a password-protected PDF's parse (its decrypted text; off by default)."
    )(command)
    command = click.option("--no-cache", "no_cache", is_flag=True, help="Neither read nor write the parse cache.")(
        command
    )
    for flag, metavar, text in reversed(_PARSE_VALUE_OPTIONS):
        command = click.option(flag, metavar=metavar, default=None, help=text)(command)
    return command


def _parse_arguments(options: dict[str, Any]) -> list[str]:
    """The ethos-core flags for the parse options the user gave, in the table's order.

    A --password goes to ethos-core in its environment (_password_environment), not on its
    command line, unless --password-file is given too (then ethos-core rejects the pair)."""
    arguments: list[str] = []
    hide_password = options.get("password_file") is None
    for flag, _metavar, _help in _PARSE_VALUE_OPTIONS:
        value = options.get(flag.lstrip("-").replace("-", "_"))
        if value is not None and not (flag == "--password" and hide_password):
            arguments += [flag, value]
    if options.get("no_cache"):
        arguments.append("--no-cache")
    for flag in ("--cache-decrypted", "--quiet"):
        if options.get(flag.lstrip("-").replace("-", "_")):
            arguments.append(flag)
    if options.get("diagnostics"):
        arguments.append("--diagnostics")
    return arguments


def _password_environment(options: dict[str, Any]) -> dict[str, str]:
    """ETHOS_PDF_PASSWORD for ethos-core when --password was given (see _parse_arguments)."""
    password = options.get("password")
    if password is None or options.get("password_file") is not None:
        return {}
    return {"ETHOS_PDF_PASSWORD": password}


def _password_arguments(options: dict[str, Any], crop_source_pdf: str | None) -> list[str]:
    """The password flags for ethos-core: --password-file as given; --password only beside it
    (ethos-core then rejects the pair), else it travels in the environment (_password_environment).

    A password opens only the PDF a crop is rendered from: without --crop-source-pdf it is
    refused here with ethos-core's envelope, since a --password that travels in the environment
    would not reach ethos-core's check."""
    if crop_source_pdf is None and options.get("password") is not None:
        raise _host_error("invalid_arguments", {"argument": "--password"})
    arguments: list[str] = []
    if options.get("password") is not None and options.get("password_file") is not None:
        arguments += ["--password", options["password"]]
    if options.get("password_file") is not None:
        arguments += ["--password-file", options["password_file"]]
    return arguments


def _run_core(arguments: Sequence[str], environment: dict[str, str] | None = None, stdin_data: bytes | None = None) -> int:
    """Runs ethos-core with ``arguments``; its stdout, stderr and exit code become ours, unchanged.
    ``stdin_data`` is what ethos-core reads on its standard input (an answer read from ours)."""
    from ._locate import find_core_binary
    from ._pdfium import parse_environment

    binary = find_core_binary()
    if binary is None:
        raise _host_error("internal_error", {"reason": "core_unavailable"})
    from .progress import run_core_process

    try:
        # With a progress bar on a terminal; ethos-core dies with us (ethos_py/progress.py).
        completed = run_core_process([os.fspath(binary), *arguments], parse_environment(environment), stdin_data)
    except OSError as error:
        raise _host_error("internal_error", {"reason": "core_unavailable"}) from error
    if completed.returncode < 0 or (completed.returncode != 0 and not completed.stderr):
        # Killed by a signal, or failed without its envelope: not a result to pass on.
        raise _host_error("internal_error", {"reason": "core_failed"})
    _write_stdout(completed.stdout)
    _write_stderr(completed.stderr)
    return completed.returncode


def _looks_like_pdf(path: str) -> bool:
    """The rule ethos-core applies to `fingerprint DOC` (docs/cli.md §3.2): a .pdf name or a
    %PDF- header within the first 1024 bytes. Unreadable files are left to the JSON path's errors."""
    if path.lower().endswith(".pdf"):
        return True
    try:
        with open(path, "rb") as handle:
            return b"%PDF-" in handle.read(1024)
    except OSError:
        return False


@ethos.group("doc", cls=_EthosGroup, invoke_without_command=True, context_settings=_CONTEXT, short_help="Parse documents.")
@click.pass_context
def doc_group(ctx: click.Context) -> None:
    """Turn source documents into Ethos documents (`doc parse`)."""
    if ctx.invoked_subcommand is None:
        _print_group_help(ctx)


@doc_group.command("parse", context_settings=_COMMAND_CONTEXT, epilog=_PARSE_EXIT_CODES, short_help="Parse a PDF.")
@click.argument("pdf", metavar="PDF")
@click.option("--format", "output_format", metavar="json|markdown|text", default=None, help="Output format (default json).")
@_parse_options
@click.option("--out", metavar="FILE", default=None, help="Write the output atomically to FILE instead of stdout.")
@click.pass_context
def doc_parse_command(ctx: click.Context, /, pdf: str, output_format: str | None, out: str | None, **options: Any) -> int:
    """Parse PDF into an Ethos document: canonical JSON (default), Markdown or text.

    \b
    The JSON has pages, elements in reading order (headings, lists,
    tables, headers/footers), spans with glyph geometry, chunks and
    security warnings, with a fingerprint that citations pin. The same
    PDF and options always give the same bytes; results are cached by
    the PDF's hash. PDFium (from pypdfium2) runs in child processes
    under the limits below.
    """
    _reject_extra_args(ctx)
    arguments = ["doc", "parse"]
    if output_format is not None:
        arguments += ["--format", output_format]
    arguments += _parse_arguments(options)
    if out is not None:
        arguments += ["--out", out]
    # "--" keeps a PDF path that starts with "-" from being read as an option.
    return _run_core([*arguments, "--", pdf], _password_environment(options))


@ethos.group("rag", cls=_EthosGroup, invoke_without_command=True, context_settings=_CONTEXT, short_help="Retrieval helpers.")
@click.pass_context
def rag_group(ctx: click.Context) -> None:
    """Prepare parsed documents for retrieval (`rag chunk`)."""
    if ctx.invoked_subcommand is None:
        _print_group_help(ctx)


@rag_group.command("chunk", context_settings=_COMMAND_CONTEXT, short_help="Export chunks as chunks.jsonl.")
@click.argument("doc", metavar="DOC")
@click.option("--out", metavar="FILE", default=None, help="Write the output atomically to FILE instead of stdout.")
@click.pass_context
def rag_chunk_command(ctx: click.Context, doc: str, out: str | None) -> int:
    """Print the chunks of DOC (an Ethos document JSON) as JSON lines.

    \b
    One canonical JSON object per chunk: its text, element and page
    references, boxes and token estimate, the warnings it carries, and
    the document and source fingerprints that later citations pin.
    """
    from .artifacts import rag_chunks_jsonl

    _reject_extra_args(ctx)
    _emit(rag_chunks_jsonl(_read(doc, "DOC")), out)
    return 0


@ethos.group(
    "grounding", cls=_EthosGroup, invoke_without_command=True, context_settings=_CONTEXT, short_help="Grounding JSON tools."
)
@click.pass_context
def grounding_group(ctx: click.Context) -> None:
    """Grounding JSON v1 artifacts (`grounding check`)."""
    if ctx.invoked_subcommand is None:
        _print_group_help(ctx)


@grounding_group.command("check", context_settings=_COMMAND_CONTEXT, short_help="Validate a Grounding JSON v1 artifact.")
@click.argument("file", metavar="FILE")
@click.option("--source-artifact", metavar="PDF", default=None, help="The source file the artifact claims to represent.")
@click.option("--out", metavar="FILE", default=None, help="Write the output atomically to FILE instead of stdout.")
@click.pass_context
def grounding_check_command(ctx: click.Context, file: str, source_artifact: str | None, out: str | None) -> int:
    """Validate FILE as an ethos.grounding.v1 artifact and print the report.

    \b
    The report is ethos.grounding_validation.v1. With --source-artifact,
    also check that the artifact's source.sha256 is the hash of that
    file. Exits 0 when the structure is valid and the binding is not
    mismatched, else 1 (the report is still written).
    """
    from .grounding import grounding_check_json, grounding_check_passed

    _reject_extra_args(ctx)
    artifact = _read(file, "FILE")
    source_bytes = None if source_artifact is None else _read(source_artifact, "--source-artifact")
    report = grounding_check_json(artifact, source_bytes)
    _emit(report + b"\n", out)
    return 0 if grounding_check_passed(report) else 1


@ethos.group("security", cls=_EthosGroup, invoke_without_command=True, context_settings=_CONTEXT, short_help="Security findings.")
@click.pass_context
def security_group(ctx: click.Context) -> None:
    """Inspect parsed documents for hidden or risky content (`security report`)."""
    if ctx.invoked_subcommand is None:
        _print_group_help(ctx)


@security_group.command("report", context_settings=_COMMAND_CONTEXT, short_help="Report security findings.")
@click.argument("doc", metavar="DOC")
@click.option("--out", metavar="FILE", default=None, help="Write the output atomically to FILE instead of stdout.")
@click.pass_context
def security_report_command(ctx: click.Context, doc: str, out: str | None) -> int:
    """Print the security report of DOC (an Ethos document JSON).

    \b
    One finding per security warning (hidden or off-page text,
    annotations, external links, image-only pages), located on its page,
    with up to 120 characters of the text concerned and whether the
    default chunks leave that text out.
    """
    from .artifacts import security_report_json

    _reject_extra_args(ctx)
    _emit(security_report_json(_read(doc, "DOC")) + b"\n", out)
    return 0


@ethos.command(
    "fingerprint",
    context_settings=_COMMAND_CONTEXT,
    epilog=_PARSE_EXIT_CODES,
    short_help="Describe a document or PDF and its fingerprints.",
)
@click.argument("doc", metavar="DOC")
@_parse_options
@click.pass_context
def fingerprint_command(ctx: click.Context, /, doc: str, **options: Any) -> int:
    """Print the description (fingerprints, grounding, counts) of DOC as JSON.

    \b
    DOC is an Ethos document JSON, or a PDF (a .pdf name or a %PDF- header),
    which is parsed first exactly like `doc parse` (or read from the parse
    cache); the parse options apply to PDFs only.
    """
    from .document import Document

    _reject_extra_args(ctx)
    parse_arguments = _parse_arguments(options)
    # With parse options ethos-core decides even for a JSON DOC, so both commands judge them alike.
    if parse_arguments or _looks_like_pdf(doc):
        return _run_core(["fingerprint", *parse_arguments, "--", doc], _password_environment(options))
    data = _read(doc, "DOC")
    with Document.from_bytes(data) as document:
        description = document.describe_json()
    _write_stdout(description + b"\n")
    return 0


@ethos.command(
    "crop_element",
    context_settings=_COMMAND_CONTEXT,
    short_help="Describe (and render) the crop of one document element.",
)
@click.argument("doc", metavar="DOC")
@click.option("--request", metavar="FILE", required=True, help="crop_element request JSON (ethos.crop_element_request.v1).")
@click.option("--check-id", metavar="ID", default=None, help="Check id the crop is named after (vNNNN, default v0001).")
@click.option("--crop-source-pdf", metavar="PDF", default=None, help="The document's source PDF: render the crop (needs --crop-dir).")
@click.option("--crop-dir", metavar="DIR", default=None, help="Also write the descriptor (and PNG) into DIR (created if missing).")
@click.option("--out", metavar="FILE", default=None, help="Write the descriptor atomically to FILE instead of stdout.")
@click.option("--password", metavar="P", default=None, help=_CROP_PASSWORD_HELP)
@click.option("--password-file", metavar="FILE", default=None, help=_CROP_PASSWORD_FILE_HELP)
@click.pass_context
def crop_element_command(
    ctx: click.Context,
    doc: str,
    request: str,
    check_id: str | None,
    crop_source_pdf: str | None,
    crop_dir: str | None,
    out: str | None,
    password: str | None = None,
    password_file: str | None = None,
) -> int:
    """Print the crop descriptor of the element named by the crop_element request in DOC.

    \b
    With --crop-source-pdf (the document's own PDF) and --crop-dir the element
    is rendered as a PNG and the descriptor and PNG are written into DIR. An
    invalid request (ref drift, fingerprint mismatch, unknown element, a bbox
    empty or outside its page, a bad check id) exits 2. Runs ethos-core.
    """
    _reject_extra_args(ctx)
    arguments = ["crop_element", "--request", request]
    for flag, value in (
        ("--check-id", check_id),
        ("--crop-source-pdf", crop_source_pdf),
        ("--crop-dir", crop_dir),
        ("--out", out),
    ):
        if value is not None:
            arguments += [flag, value]
    passwords = {"password": password, "password_file": password_file}
    return _run_core([*arguments, *_password_arguments(passwords, crop_source_pdf), "--", doc], _password_environment(passwords))


def _policy_choice(policy: str | None) -> str | bytes | None:
    """--policy NAME|FILE: a preset name as is, else the policy file's bytes (read here, like
    every input file, so a missing file gives the same envelope as ethos-core)."""
    if policy is None or policy in _POLICY_PRESETS:
        return policy
    return _read(policy, "--policy")


@ethos.command(
    "explain",
    context_settings=_COMMAND_CONTEXT,
    short_help="Print the built-in verification config, or a matching policy.",
)
@click.option("--policy", metavar="NAME|FILE", default=None, help="strict, default, permissive or a policy JSON file.")
@click.option("--pinned", is_flag=True, help="Print the config with the policy written into it.")
@click.pass_context
def explain_command(ctx: click.Context, policy: str | None, pinned: bool) -> int:
    """Print the built-in default-v1 verification config as JSON. With --policy, print that matching policy, its fingerprint and every assumption it makes instead. With --pinned, print default-v1 with the policy (default, or --policy's) written into matching.policy: passed back as --config it decides as verify without --config does."""
    from . import _ffi
    from .document import explain_policy_json, pinned_config_json

    _reject_extra_args(ctx)
    if pinned:
        _write_stdout(pinned_config_json(None if policy is None else _policy_choice(policy)) + b"\n")
    elif policy is None:
        _write_stdout(_ffi.call_string(_ffi.lib.ethos_config_default) + b"\n")
    else:
        _write_stdout(explain_policy_json(_policy_choice(policy)) + b"\n")
    return 0


@ethos.command("demo", context_settings=_COMMAND_CONTEXT, short_help="Parse the bundled sample PDF and verify citations.")
@click.option(
    "--out-dir",
    metavar="DIR",
    default=None,
    help="Write sample.pdf, document.json, citations.json, report.json and report.html into DIR "
    "(default: report.html alone, into a new temporary directory).",
)
@click.pass_context
def demo_command(ctx: click.Context, out_dir: str | None) -> int:
    """Parse the sample PDF shipped with Ethos, verify an AI answer's citations against it and
    print the verification summary.

    \b
    Some citations are grounded; one quote was altered and is caught
    (status mismatch). Exits 0: an ungrounded check is a verdict, not a
    failure. Then writes the HTML evidence report (each check beside
    its page region, the matched glyphs highlighted) and prints its
    path on the last line. With --out-dir, rerun the steps yourself:
      ethos doc parse DIR/sample.pdf --out DIR/document.json
      ethos verify DIR/document.json --citations DIR/citations.json --format summary
      ethos report html DIR/report.json --pdf DIR/sample.pdf --out DIR/report.html
    """
    from .demo import demo_report_html

    _reject_extra_args(ctx)
    summary, path = demo_report_html(out_dir)
    _write_stdout(summary + f"\nHTML evidence report: {path}\n".encode("utf-8", "surrogateescape"))
    return 0


def _utf8_argument(value: str, argument: str) -> str:
    """A command-line value as a JSON string: argv arrives surrogate-escaped, so non-UTF-8 fails."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise _host_error("invalid_arguments", {"argument": argument}) from None
    return value


@ethos.command("release", context_settings=_COMMAND_CONTEXT, short_help="Decide which claims of an answer an app may show.")
@click.argument("report", metavar="REPORT")
@click.option("--question", metavar="TEXT", required=True, help="The question the answer responds to (non-blank).")
@click.option("--claims", metavar="FILE", required=True, help="JSON array of the answer's claims with the app's labels.")
@click.option("--report-ref", metavar="REF", default=None, help="How the decision names the report (default verification_report.json).")
@click.option("--note", "notes", metavar="TEXT", multiple=True, help="A note copied into the decision; repeat for several.")
@click.option("--out", metavar="FILE", default=None, help="Write the output atomically to FILE instead of stdout.")
@click.pass_context
def release_command(
    ctx: click.Context, report: str, question: str, claims: str, report_ref: str | None, notes: tuple[str, ...], out: str | None
) -> int:
    """Print the app answer release decision (schema 1.1.0) for the claims in --claims.

    \b
    REPORT is a verification report, a proof Statement or a proof summary;
    each claim carries the app's labels (question_relevance, claim_type,
    claim_support) and the check ids tying it to REPORT. A claim is final
    only when its checks are reusable grounded evidence, it answers the
    question, it states a source fact and the app marked it supported.
    Invalid claims are invalid_input (exit 2).
    """
    from ._release_core import release_decision_json

    _reject_extra_args(ctx)
    question = _utf8_argument(question, "--question")
    report_ref = None if report_ref is None else _utf8_argument(report_ref, "--report-ref")
    note_list = [_utf8_argument(note, "--note") for note in notes]
    report_bytes = _read(report, "REPORT")
    claims_bytes = _read(claims, "--claims")
    decision = release_decision_json(
        report_bytes, claims_bytes, question, verification_report_ref=report_ref, notes=note_list
    )
    _emit(decision + b"\n", out)
    return 0


@ethos.group("evidence", cls=_EthosGroup, invoke_without_command=True, context_settings=_CONTEXT, short_help="Evidence anchoring.")
@click.pass_context
def evidence_group(ctx: click.Context) -> None:
    """Bind evidence refs to grounding sources (`evidence anchor`)."""
    if ctx.invoked_subcommand is None:
        _print_group_help(ctx)


@evidence_group.command("anchor", context_settings=_COMMAND_CONTEXT, short_help="Bind evidence refs to a grounding source.")
@click.argument("source", metavar="SOURCE")
@click.option("--evidence-refs", "evidence_refs", metavar="FILE", required=True, help="Evidence-anchor request JSON.")
@click.option("--grounding", type=click.Choice(_GROUNDINGS), default=None, help=_GROUNDING_HELP)
@click.option("--statement", is_flag=True, help="Wrap the report in an in-toto Statement.")
@click.option("--out", metavar="FILE", default=None, help="Write the output atomically to FILE instead of stdout.")
@click.pass_context
def evidence_anchor_command(
    ctx: click.Context, source: str, evidence_refs: str, grounding: str | None, statement: bool, out: str | None
) -> int:
    """Check each evidence ref of --evidence-refs (an ethos.evidence_anchor_request.v1) against SOURCE and print the evidence-anchor report: per ref the fingerprint, page, text, bbox and table cell checks, the anchor status and the anchor level achieved.

    \b
    Refs that do not bind (not_found, mismatch, stale_fingerprint, ...)
    are report data: the command exits 0. An invalid request exits 2
    with the error envelope.
    """
    from .document import Document
    from .evidence_anchor import anchor_json

    _reject_extra_args(ctx)
    # Argument-level checks finish before any file is touched (docs/cli.md §5.2).
    subject_name = _subject_name(source) if statement else None
    source_bytes = _read(source, "SOURCE")
    request = _read(evidence_refs, "--evidence-refs")
    with Document.from_bytes(source_bytes, grounding) as document:
        report = anchor_json(document, request, statement=statement, subject_name=subject_name)
    # Anchors that do not bind are report data: the run succeeded (docs/contracts.md#errors-and-exit-codes).
    _emit(report + b"\n", out)
    return 0


@ethos.command(
    "verify-batch", context_settings=_COMMAND_CONTEXT, short_help="Verify many citations requests against one grounding source."
)
@click.argument("source", metavar="SOURCE")
@click.option("--citations-ndjson", "citations_ndjson", metavar="FILE", required=True, help="Citations requests, one JSON document per line.")
@click.option("--merged", is_flag=True, help="Write one merged report (all lines must pin the same document fingerprint).")
@click.option("--grounding", type=click.Choice(_GROUNDINGS), default=None, help=_GROUNDING_HELP)
@click.option("--config", metavar="FILE", default=None, help="Verification config JSON (default: built-in default-v1).")
@click.option("--policy", metavar="NAME|FILE", default=None, help=_POLICY_HELP)
@click.option("--fail-on-ungrounded", is_flag=True, help="Exit 1 when any report is not all grounded.")
@click.option("--max-verify-ms", metavar="N", default=None, help=_MAX_VERIFY_MS_HELP)
@click.option("--statement", is_flag=True, help="Wrap each report in an in-toto Statement.")
@click.option("--out", metavar="FILE", default=None, help="Write the output atomically to FILE instead of stdout.")
@click.option("--quiet", is_flag=True, help="Draw no progress bar (drawn on stderr only when it is a terminal).")
@click.pass_context
def verify_batch_command(
    ctx: click.Context,
    source: str,
    citations_ndjson: str,
    merged: bool,
    grounding: str | None,
    config: str | None,
    policy: str | None,
    fail_on_ungrounded: bool,
    max_verify_ms: str | None,
    statement: bool,
    out: str | None,
    quiet: bool,
) -> int:
    """Verify every line of --citations-ndjson (one citations JSON request per line) against SOURCE, which is loaded and indexed once, and write one verification report per line (NDJSON, in input order), or with --merged one report for all lines.

    \b
    Every line must be valid: the first bad line fails the whole run (exit 2,
    nothing written, the error names that line). Ungrounded reports exit 0
    unless --fail-on-ungrounded is given, which makes the run exit 1 when
    any report is not all grounded (the reports are still written).
    """
    from .document import Document

    _reject_extra_args(ctx)
    from ._locate import find_core_binary
    from .progress import verify_batch_core_arguments, wants_progress

    # (Without a bundled ethos-core the batch runs here as always, without a bar.)
    if not merged and not quiet and wants_progress([]) and find_core_binary() is not None:
        # A bar of records done needs the core to report them: on a terminal the batch runs in
        # ethos-core, which prints the same bytes and envelopes (docs/cli.md §3.9).
        return _run_core(verify_batch_core_arguments(ctx.params))
    # Argument-level checks finish before any file is touched (docs/cli.md §5.2).
    budget = _max_verify_ms(max_verify_ms)
    subject_name = _subject_name(source) if statement else None
    source_bytes = _read(source, "SOURCE")
    ndjson = _read(citations_ndjson, "--citations-ndjson")
    config_bytes = None if config is None else _read(config, "--config")
    policy_choice = _policy_choice(policy)

    with Document.from_bytes(source_bytes, grounding) as document:
        output = document.verify_batch_json(
            ndjson,
            config_bytes,
            merged=merged,
            statement=statement,
            subject_name=subject_name,
            policy=policy_choice,
            max_verify_ms=budget,
        )
    if merged:
        output += b"\n"
    ungrounded = fail_on_ungrounded and not all(_all_evidence_grounded(line) for line in output.splitlines())
    _emit(output, out)
    # As for verify: exit 1 only for this verdict, and only when asked for.
    return 1 if ungrounded else 0


def _argument_details(error: click.UsageError) -> dict[str, Any]:
    """``{"argument": ...}`` for a usage error, naming the argument as the user wrote it."""
    argument: str | None = None
    if isinstance(error, _ArgumentError):
        argument = error.argument
    elif isinstance(error, (click.NoSuchOption, click.BadOptionUsage)):
        argument = error.option_name
    elif isinstance(error, click.BadParameter) and error.param is not None:
        param = error.param
        argument = param.opts[0] if isinstance(param, click.Option) else param.human_readable_name
    return {} if argument is None else {"argument": argument}


def _write_stderr(data: bytes) -> None:
    try:
        stream = sys.stderr.buffer
        stream.write(data)
        stream.flush()
    except (OSError, ValueError, AttributeError):
        pass  # stderr is the last channel; there is nowhere left to report its failure


def _fail(error: EthosError) -> int:
    _write_stderr(error.envelope + b"\n")
    return error.exit_code


def _fail_with(code: str, details: dict[str, Any] | None = None) -> int:
    try:
        return _fail(_host_error(code, details))
    except Exception:  # noqa: BLE001 - the last resort must not raise
        # The core could not even build the envelope; say so in the same shape, built here.
        return _fail(EthosError(code, "the native core could not report this failure", details, 12))


def _exception_details(error: BaseException) -> dict[str, str]:
    """``details.exception`` of an unexpected failure: what a bug report needs, as valid UTF-8."""
    kind = type(error)
    name = kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
    message = str(error).encode("utf-8", "backslashreplace").decode("utf-8")
    return {"message": message, "type": name}


def run(argv: Sequence[str] | None = None) -> int:
    """Runs the ``ethos`` command and returns its exit status (never raises, never exits).

        >>> run(["explain", "--policy", "no-such-policy.json"])  # prints the envelope on stderr
        2
    """
    try:
        from . import _ffi  # noqa: F401  (loads and checks the library once, up front)
    except ImportError as error:
        # Without the core there is nobody to build the envelope; this one is built in Python.
        envelope_error = EthosError(
            "internal_error",
            "the Ethos native library could not be loaded",
            {"reason": "library_unavailable", "detail": str(error)},
            12,
        )
        return _fail(envelope_error)
    try:
        result = ethos.main(args=None if argv is None else list(argv), prog_name="ethos", standalone_mode=False)
    except click.UsageError as error:
        return _fail_with("invalid_arguments", _argument_details(error))
    except EthosError as error:
        return _fail(error)
    except MemoryError:
        return _fail_with("memory_limit_exceeded")
    except Exception as error:  # noqa: BLE001 - no traceback unless asked for (docs/cli.md §5.1)
        if os.environ.get("ETHOS_DEBUG") == "1":
            # Before the envelope, so that the envelope stays the last line of stderr.
            import traceback

            _write_stderr("".join(traceback.format_exception(error)).encode("utf-8", "backslashreplace"))
        return _fail_with("internal_error", {"exception": _exception_details(error)})
    return result if isinstance(result, int) else 0


def _ngram_value(value: str | None) -> int | None:
    """--ngram as ethos-core reads it: a decimal integer from 3 to 1000 (at most four digits)."""
    if value is None:
        return None
    if not (0 < len(value) <= 4 and all("0" <= c <= "9" for c in value)) or not 3 <= int(value) <= 1000:
        raise _host_error("invalid_arguments", {"argument": "--ngram"})
    return int(value)


def _argv_text(value: str, argument: str) -> str:
    """A literal text argument: argv arrives surrogate-escaped, and it must be UTF-8."""
    try:
        return os.fsencode(value).decode("utf-8")
    except UnicodeDecodeError:
        raise _host_error("invalid_arguments", {"argument": argument}) from None


def _read_answer_file(path: str) -> bytes:
    if path != "-":
        return _read(path, "--answer-file")
    try:
        data = sys.stdin.buffer.read(256 * 1024 * 1024 + 1)
    except (OSError, ValueError, AttributeError) as error:
        raise _host_error("host_io", {"argument": "--answer-file", "reason": "read_failed"}) from error
    if len(data) > 256 * 1024 * 1024:
        raise _host_error("file_too_large", {"argument": "--answer-file"})
    return data


def _check_answer_core_arguments(sources: Sequence[str], parse_arguments: list[str], **given: Any) -> list[str]:
    """The ethos-core command line of one `check-answer` run, flags as typed."""
    arguments = ["check-answer", *parse_arguments]
    for flag in ("--answer", "--answer-file", "--grounding", "--scope", "--ngram", "--policy", "--format", "--out",
                 "--palette", "--color"):
        value = given.get(flag.lstrip("-").replace("-", "_"))
        if value is not None:
            arguments += [flag, value]
    for text in given.get("source_text", ()):
        arguments += ["--source-text", text]
    for flag in ("--fail", "--subsequence"):
        if given.get(flag.lstrip("-")):
            arguments.append(flag)
    if given.get("no_color"):
        arguments.append("--no-color")
    return [*arguments, "--", *sources]


def _use_color(color: str | None, no_color: bool, out: str | None) -> bool:
    """ethos-core's rule (native/cli/answer_command.cpp): --no-color and --color never say no,
    --color always yes; auto highlights a terminal stdout (no --out), NO_COLOR unset or empty,
    TERM not dumb."""
    if no_color or color == "never":
        return False
    if color == "always":
        return True
    try:
        terminal = os.isatty(1)
    except OSError:
        terminal = False
    return out is None and terminal and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


@ethos.command(
    "check-answer",
    context_settings=_COMMAND_CONTEXT,
    epilog=_PARSE_EXIT_CODES,
    short_help="Measure how much of an answer is verbatim in a source and verify its quotations.",
)
@click.argument("sources", metavar="SOURCE...", nargs=-1)
@click.option("--answer", "answer_text", metavar="TEXT", default=None, help="The answer text itself.")
@click.option("--answer-file", metavar="FILE", default=None, help="Read the answer from FILE (- reads standard input).")
@click.option(
    "--source-text", metavar="TEXT", multiple=True, help="Another source given as literal text (repeatable)."
)
@click.option("--grounding", type=click.Choice(_GROUNDINGS), default=None, help=_GROUNDING_HELP)
@click.option(
    "--scope",
    type=click.Choice(("all", "quotes")),
    default=None,
    help="Measure the whole answer (all, default) or its quotations only.",
)
@click.option("--ngram", metavar="N", default=None, help="Shortest run counted as verbatim, in words (default and minimum 3).")
@click.option(
    "--policy", type=click.Choice(_POLICY_PRESETS), default=None, help="Matching policy preset (default: default)."
)
@click.option(
    "--subsequence",
    is_flag=True,
    help="Also read the answer in order only: the most words found in one source in the same order, gaps allowed, "
    "and ROUGE-L against the smallest source window holding every verbatim word.",
)
@click.option(
    "--fail", is_flag=True, help="Exit 1 when the gate fails (a quotation not grounded, or none under --scope quotes)."
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(("json", "text", "html")),
    default=None,
    help="Output format: json (default), text, or html (one self-contained page: highlighted answer, runs linked to "
    "their page and boxes).",
)
@click.option(
    "--palette",
    type=click.Choice(("classic", "colorblind", "neon", "mono")),
    default=None,
    help="Highlighting of --format text and html: classic (default), colorblind, neon or mono (bold and inverse video).",
)
@click.option(
    "--color",
    type=click.Choice(("auto", "always", "never")),
    default=None,
    help="Highlight --format text: auto (default: a terminal stdout, no --out, NO_COLOR unset), always or never.",
)
@click.option("--no-color", "no_color", is_flag=True, help="Never highlight (as --color never).")
@click.option("--out", metavar="FILE", default=None, help="Write the output atomically to FILE instead of stdout.")
@functools.partial(_parse_options, diagnostics=False)
@click.pass_context
def check_answer_command(
    ctx: click.Context,
    /,
    sources: tuple[str, ...],
    answer_text: str | None,
    answer_file: str | None,
    source_text: tuple[str, ...],
    grounding: str | None,
    scope: str | None,
    ngram: str | None,
    policy: str | None,
    subsequence: bool,
    fail: bool,
    output_format: str | None,
    palette: str | None,
    color: str | None,
    no_color: bool,
    out: str | None,
    **parse_options: Any,
) -> int:
    """Measure the verbatim coverage of an answer against each SOURCE (and
    each --source-text): which words are in a run of at least --ngram words
    found verbatim, the share of words matched, every run and where it is in
    the source (element, page, offsets, highlight boxes). Quotations in the
    answer are verified with the matching ladder at document scope, as verify
    would; --scope quotes measures the quotations only.

    \b
    A SOURCE is an Ethos native document JSON, a PDF (a .pdf name or a %PDF-
    header: parsed on the way like `doc parse`, or read from the parse
    cache, with the parse options below), or what --grounding names. Several
    SOURCEs are the passages of one context (a RAG context).

    \b
    --format text highlights each word of the answer by its verdict (in a
    verbatim run, not, in a grounded quotation, in one that is not, in one
    too short to check) on a terminal; --color always forces it, --no-color
    or NO_COLOR turn it off. The figures are always printed as text too.
    --format html writes one self-contained page (no script, nothing
    fetched) with the same highlighting, each run linked to its page and
    boxes, and to the page of a PDF SOURCE.

    \b
    The run exits 0 unless --fail is given: then it exits 1 when a quotation
    is not grounded, or under --scope quotes when the answer has no quotation
    to check (the output is still written). See docs/answers.md.
    """
    from .answer import check_answer_json, render_html, render_result

    _reject_extra_args(ctx)
    # The order of ethos-core's checks, so a bad command line gets the same envelope from both.
    if not sources:
        raise _host_error("invalid_arguments", {"argument": "SOURCE"})
    if (answer_text is None) == (answer_file is None):
        raise _host_error("invalid_arguments", {"argument": "--answer"})
    ngram_value = _ngram_value(ngram)
    parse_arguments = _parse_arguments(parse_options)
    # A PDF is parsed by ethos-core (PDFium only ever runs in its workers), so ethos-core runs the
    # whole command, as for `fingerprint`: one implementation, the same bytes and envelopes. An
    # answer on our standard input is handed to it on its own.
    if parse_arguments or any(_looks_like_pdf(path) for path in sources):
        stdin_data = _read_answer_file("-") if answer_file == "-" else None
        # ethos-core's stdout is our pipe, not the terminal: "auto" is decided here.
        resolved = color if color in ("always", "never") else ("always" if _use_color(color, no_color, out) else "never")
        arguments = _check_answer_core_arguments(
            sources, parse_arguments, answer=answer_text, answer_file=answer_file, grounding=grounding, scope=scope,
            ngram=ngram, policy=policy, format=output_format, out=out, source_text=source_text, fail=fail,
            palette=palette, color=resolved if color is not None or output_format == "text" else None,
            subsequence=subsequence,
            no_color=no_color,
        )
        return _run_core(arguments, _password_environment(parse_options), stdin_data)
    from .document import Document

    with contextlib.ExitStack() as stack:
        documents = [stack.enter_context(Document.from_bytes(_read(path, "SOURCE"), grounding)) for path in sources]
        texts = [_argv_text(text, "--source-text") for text in source_text]
        if answer_text is not None:
            answer = _argv_text(answer_text, "--answer")
        else:
            try:
                answer = _read_answer_file(answer_file or "-").decode("utf-8")
            except UnicodeDecodeError:
                raise _host_error("invalid_input", {"argument": "--answer-file", "reason": "not_utf8"}) from None
        result = check_answer_json(
            answer,
            documents,
            scope=scope or "all",
            ngram=3 if ngram_value is None else ngram_value,
            policy=policy,
            source_text=texts,
            subsequence=subsequence,
        )
    if output_format == "html":
        # No PDF SOURCE here (ethos-core renders those), so no page links: ethos-core's bytes.
        _emit(render_html(result, answer, palette=palette or "classic", pdf_links=[None] * (len(sources) + len(texts))).encode("utf-8"), out)
    elif output_format == "text":
        _emit(render_result(result, answer, palette=palette or "classic", color=_use_color(color, no_color, out)).encode("utf-8"), out)
    else:
        _emit(result + b"\n", out)
    # Measuring always succeeds; only --fail turns a failed gate into exit 1 (the output is still written).
    return 1 if fail and not json.loads(result)["gate"]["passed"] else 0


from .cache_command import add_cache_commands  # noqa: E402  (uses the helpers above)

add_cache_commands(ethos)

from .reply_commands import add_reply_commands  # noqa: E402  (uses the helpers above)

add_reply_commands(ethos)

from .citations_check_command import add_citations_check_command  # noqa: E402  (uses the helpers above)

add_citations_check_command(ethos)

from .annotate import add_annotate_command  # noqa: E402  (uses the helpers above)

add_annotate_command(ethos)

from .jsonl_command import add_jsonl_command  # noqa: E402  (uses the helpers above)

add_jsonl_command(ethos)

from .report_html_command import add_report_commands  # noqa: E402  (uses the helpers above)

add_report_commands(ethos)

from .calibrate_command import add_calibrate_command  # noqa: E402  (uses the helpers above)

add_calibrate_command(ethos)

from .repair_command import add_repair_command  # noqa: E402  (uses the helpers above)

add_repair_command(ethos)

from .batch_command import add_batch_command  # noqa: E402  (uses the helpers above)

add_batch_command(ethos)

from .sensitivity_command import add_sensitivity_command  # noqa: E402  (uses the helpers above)

add_sensitivity_command(ethos)


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Console-script entry point of ``ethos``: runs ``run(argv)`` and exits with its status.

        >>> main(["--version"])  # doctest: +SKIP
        ethos 0.1.0
    """
    # Ctrl-C ends the process the way it ends ethos-core (by the signal), not with a traceback.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(run(argv))


if __name__ == "__main__":
    # `python -m ethos_py.cli` runs this file as __main__, a second copy of the module: the commands
    # added from other modules (verify-jsonl, sensitivity ...) raise ethos_py.cli's error classes,
    # which only ethos_py.cli's own run() recognizes, so that copy is the one run.
    from ethos_py.cli import main as _package_main

    _package_main()
