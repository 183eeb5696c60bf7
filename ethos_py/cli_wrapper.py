"""cli_wrapper - ``EthosCli``: runs an Ethos command-line program as a subprocess (bundled ethos-core by default).

Compatible with the public ``ethos_pdf.EthosCli`` (docs/python-api.md#ethoscli-subprocess): missing inputs raise
``FileNotFoundError`` before anything is spawned, ``--format`` is always passed, exit 1 is accepted
only with ``fail_on_ungrounded``, and every other failure becomes an ``EthosCommandError``
subclass chosen from the stderr envelope. Needs no native library in this process.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ._host_io import BinaryInput, JsonInput, binary_input_path, json_input_path, optional_json_input_path
from ._locate import find_core_binary
from ._pdfium import parse_environment
from .errors import (
    EthosNotFoundError,
    EthosOutputError,
    EthosTimeoutError,
    command_error,
)

__all__ = ["EthosCli"]

PathLike = str | os.PathLike[str]
#: A program: a path, or a command prefix such as ``[sys.executable, "-m", "ethos_py.cli"]``.
Binary = PathLike | Sequence[str]

_BUNDLED = "ethos-core"
_FORMATS = ("json", "summary")


class EthosCli:
    """Runs ``doc parse``/``verify``/``fingerprint``/``explain`` through an Ethos CLI (docs/cli.md).

    ``binary`` is a path or a command prefix; ``ethos_bin`` a program name looked up on PATH (the
    public wrapper's spelling). With neither, the ``ethos-core`` bundled in ``ethos_py/_lib`` runs.
    ``env`` is added to the current environment; ``cwd`` is the working directory, and relative
    input paths are checked against it.

    JSON inputs (citations, config, evidence refs, NDJSON requests) follow the one ``str`` rule of
    the package: JSON text when the first non-space character is ``{`` or ``[``, otherwise a path;
    a dict, JSON text or bytes is written to a temporary file for the call. PDFs may be a path,
    their bytes or a binary file object.

        >>> cli = EthosCli(binary=["ethos-core"], cwd="examples/quickstart")
        >>> cli.command_prefix, cli.cwd
        (('ethos-core',), 'examples/quickstart')
        >>> report = cli.verify("document.json", citations="citations.json")  # doctest: +SKIP
    """

    def __init__(
        self,
        binary: Binary | None = None,
        *,
        ethos_bin: PathLike | None = None,
        cwd: PathLike | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        if binary is not None and ethos_bin is not None:
            raise ValueError("provide either binary or ethos_bin, not both")
        self.cwd = None if cwd is None else os.fspath(cwd)
        self.env = None if env is None else dict(env)
        self.command_prefix: tuple[str, ...] = self._resolve_prefix(binary, ethos_bin)

    def _resolve_prefix(self, binary: Binary | None, ethos_bin: PathLike | None) -> tuple[str, ...]:
        if ethos_bin is not None:
            name = os.fspath(ethos_bin)
            search_path = (self.env or {}).get("PATH", os.environ.get("PATH"))
            # Unresolved names are kept: running them raises EthosNotFoundError with the name.
            return (shutil.which(name, path=search_path) or name,)
        if binary is None:
            # The bundled ethos-core, or the one beside a dev or sanitizer ETHOS_LIBRARY, so that
            # parsing and in-process verification always come from the same build.
            bundled = find_core_binary()
            return (os.fspath(bundled) if bundled is not None else _BUNDLED,)
        if isinstance(binary, (str, os.PathLike)):
            return (os.fspath(binary),)
        prefix = tuple(os.fspath(part) for part in binary)
        if not prefix:
            raise ValueError("binary must not be an empty command")
        return prefix

    @property
    def ethos_bin(self) -> str:
        """The program that runs (first element of the command), as the public wrapper names it."""
        return self.command_prefix[0]

    # -- commands ---------------------------------------------------------------------------

    def verify(
        self,
        source: PathLike,
        citations: JsonInput,
        *,
        grounding: str | None = None,
        config: JsonInput | None = None,
        fail_on_ungrounded: bool = False,
        output_format: str = "json",
        timeout: float | None = 30.0,
        statement: bool = False,
    ) -> Any:
        """Runs ``verify``; returns the report dict (``json``) or the summary text (``summary``).

        With ``statement=True`` the dict is the in-toto Statement (report at ``["predicate"]``).
        An ungrounded report is returned normally; with ``fail_on_ungrounded`` the exit 1 it
        causes is accepted too. Other failures raise ``EthosCommandError`` or a subclass.
        """
        command, stdout = self._verify(
            source, citations, grounding, config, fail_on_ungrounded, output_format, timeout, statement
        )
        text = _decode_stdout(stdout, command)
        return text if output_format == "summary" else _load_json(text, command)

    def verify_bytes(
        self,
        source: PathLike,
        citations: JsonInput,
        *,
        grounding: str | None = None,
        config: JsonInput | None = None,
        fail_on_ungrounded: bool = False,
        output_format: str = "json",
        timeout: float | None = 30.0,
        statement: bool = False,
    ) -> bytes:
        """Like ``verify`` but returns stdout exactly as written (for byte comparisons)."""
        return self._verify(
            source, citations, grounding, config, fail_on_ungrounded, output_format, timeout, statement
        )[1]

    def fingerprint(self, doc: BinaryInput, *, timeout: float | None = 30.0, **parse_options: Any) -> dict[str, Any]:
        """Runs ``fingerprint DOC`` and returns the document description.

        ``DOC`` is a document JSON or a PDF (a path, its bytes or a binary file object); a PDF is
        parsed first (or found in the parse cache), with ``parse_options`` (the keyword arguments
        of ``parse_pdf`` but ``output_format``).
        """
        from .pdf import ParseOptions

        _check_timeout(timeout)
        options = ParseOptions(**parse_options)
        with binary_input_path(doc, name="input") as doc_path:
            self._require_file(doc_path)
            command = (
                *self.command_prefix,
                "fingerprint",
                *options.arguments(include_format=False),
                "--",
                os.fspath(doc_path),
            )
            stdout = self._run(command, timeout=timeout, environment=parse_environment(options.environment(self.env)))
        result: dict[str, Any] = _load_json(_decode_stdout(stdout, command), command)
        return result

    def parse_pdf(
        self,
        input_pdf: BinaryInput,
        *,
        output_format: str = "json",
        pages: str | None = None,
        diagnostics: bool = False,
        timeout_seconds: float | None = None,
        **options: Any,
    ) -> Any:
        """Runs ``doc parse INPUT_PDF --format FORMAT``: a dict for ``json``, else the text.

        ``input_pdf`` is a path, the PDF's bytes or a binary file object (read from its position).

        Markdown and text are returned exactly as written, trailing newline included. ``options``
        are the extensions of ``ethos_py.parse_pdf`` (``password``, ``max_file_bytes``,
        ``max_pages``, ``max_parse_ms``, ``max_memory_mib``, ``workers``, ``cache_dir``,
        ``use_cache``, ``pdfium_library``). Failures raise the ``EthosCommandError`` subclass of
        their code; ``timeout_seconds`` kills the command (``EthosTimeoutError``).
        """
        stdout = self.parse_pdf_bytes(
            input_pdf,
            output_format=output_format,
            pages=pages,
            diagnostics=diagnostics,
            timeout_seconds=timeout_seconds,
            **options,
        )
        command = (*self.command_prefix, "doc", "parse")
        text = _decode_stdout(stdout, command)
        return _load_json(text, command) if output_format == "json" else text

    def parse_pdf_json(
        self,
        input_pdf: BinaryInput,
        *,
        pages: str | None = None,
        diagnostics: bool = False,
        timeout_seconds: float | None = None,
        **options: Any,
    ) -> Any:
        """Parses a PDF and returns the document JSON value."""
        return self.parse_pdf(
            input_pdf, output_format="json", pages=pages, diagnostics=diagnostics, timeout_seconds=timeout_seconds, **options
        )

    def parse_pdf_markdown(
        self,
        input_pdf: BinaryInput,
        *,
        pages: str | None = None,
        diagnostics: bool = False,
        timeout_seconds: float | None = None,
        **options: Any,
    ) -> str:
        """Parses a PDF and returns its Markdown rendering."""
        text: str = self.parse_pdf(
            input_pdf,
            output_format="markdown",
            pages=pages,
            diagnostics=diagnostics,
            timeout_seconds=timeout_seconds,
            **options,
        )
        return text

    def parse_pdf_text(
        self,
        input_pdf: BinaryInput,
        *,
        pages: str | None = None,
        diagnostics: bool = False,
        timeout_seconds: float | None = None,
        **options: Any,
    ) -> str:
        """Parses a PDF and returns its plain text."""
        text: str = self.parse_pdf(
            input_pdf, output_format="text", pages=pages, diagnostics=diagnostics, timeout_seconds=timeout_seconds, **options
        )
        return text

    def parse_pdf_bytes(
        self,
        input_pdf: BinaryInput,
        *,
        output_format: str = "json",
        pages: str | None = None,
        diagnostics: bool = False,
        timeout_seconds: float | None = None,
        **options: Any,
    ) -> bytes:
        """Like ``parse_pdf`` but returns stdout exactly as written (for byte comparisons)."""
        from .pdf import ParseOptions

        parse_options = ParseOptions(output_format=output_format, pages=pages, diagnostics=diagnostics, **options)
        _check_timeout(timeout_seconds)
        with binary_input_path(input_pdf) as pdf_path:
            self._require_file(pdf_path)
            # "--" keeps a PDF path that starts with "-" from being read as an option.
            command = (
                *self.command_prefix,
                "doc",
                "parse",
                *parse_options.arguments(),
                "--",
                os.fspath(pdf_path),
            )
            return self._run(
                command, timeout=timeout_seconds, environment=parse_environment(parse_options.environment(self.env))
            )

    def explain(self, *, timeout: float | None = 30.0) -> dict[str, Any]:
        """Runs ``explain`` and returns the built-in verification config."""
        _check_timeout(timeout)
        command = (*self.command_prefix, "explain")
        result: dict[str, Any] = _load_json(_decode_stdout(self._run(command, timeout=timeout), command), command)
        return result

    def anchor(
        self,
        source: PathLike,
        evidence_refs: JsonInput,
        *,
        grounding: str | None = None,
        statement: bool = False,
        output_format: str = "json",
        timeout: float | None = 30.0,
    ) -> dict[str, Any]:
        """Runs ``evidence anchor SOURCE --evidence-refs FILE`` and returns the anchor report.

        With ``statement=True`` the dict is the in-toto Statement (report at ``["predicate"]``).
        Refs that do not bind are report data (exit 0); an invalid request raises
        ``EthosCommandError`` (``error_code`` ``invalid_input``). ``output_format`` is the public
        wrapper's argument: ``"json"``, the only format ``evidence anchor`` writes.
        """
        stdout = self.anchor_bytes(
            source, evidence_refs, grounding=grounding, statement=statement, output_format=output_format, timeout=timeout
        )
        command = (*self.command_prefix, "evidence", "anchor")
        result: dict[str, Any] = _load_json(_decode_stdout(stdout, command), command)
        return result

    def anchor_bytes(
        self,
        source: PathLike,
        evidence_refs: JsonInput,
        *,
        grounding: str | None = None,
        statement: bool = False,
        output_format: str = "json",
        timeout: float | None = 30.0,
    ) -> bytes:
        """Like ``anchor`` but returns stdout exactly as written (for byte comparisons)."""
        if output_format != "json":
            raise ValueError("output_format must be 'json': evidence anchor writes JSON only")
        _check_timeout(timeout)
        self._require_file(source)
        with json_input_path(evidence_refs, "evidence-refs.json") as refs_path:
            self._require_file(refs_path)
            flags = self._request_flags(grounding, None, False, statement)
            # "--" keeps a SOURCE that starts with "-" from being read as an option.
            command = [*self.command_prefix, "evidence", "anchor", "--evidence-refs", os.fspath(refs_path), *flags]
            command += ["--", os.fspath(source)]
            return self._run(command, timeout=timeout)

    def verify_batch(
        self,
        source: PathLike,
        citations_ndjson: JsonInput,
        *,
        merged: bool = False,
        grounding: str | None = None,
        config: JsonInput | None = None,
        fail_on_ungrounded: bool = False,
        timeout: float | None = 30.0,
        statement: bool = False,
    ) -> Any:
        """Runs ``verify-batch``: a list of reports (one per NDJSON line) or, with ``merged``, one
        report dict. An ungrounded report is returned normally; with ``fail_on_ungrounded`` the
        exit 1 it causes is accepted too. A bad line raises ``EthosCommandError`` (its
        ``details["line"]`` names it)."""
        stdout = self.verify_batch_bytes(
            source,
            citations_ndjson,
            merged=merged,
            grounding=grounding,
            config=config,
            fail_on_ungrounded=fail_on_ungrounded,
            timeout=timeout,
            statement=statement,
        )
        command = (*self.command_prefix, "verify-batch")
        text = _decode_stdout(stdout, command)
        if merged:
            return _load_json(text, command)
        return [_load_json(line, command) for line in text.splitlines()]

    def verify_batch_bytes(
        self,
        source: PathLike,
        citations_ndjson: JsonInput,
        *,
        merged: bool = False,
        grounding: str | None = None,
        config: JsonInput | None = None,
        fail_on_ungrounded: bool = False,
        timeout: float | None = 30.0,
        statement: bool = False,
    ) -> bytes:
        """Like ``verify_batch`` but returns stdout exactly as written (for byte comparisons)."""
        _check_timeout(timeout)
        self._require_file(source)
        with (
            json_input_path(citations_ndjson, "citations.ndjson") as ndjson_path,
            optional_json_input_path(config, "config.json") as config_path,
        ):
            self._require_file(ndjson_path)
            flags = self._request_flags(grounding, config_path, fail_on_ungrounded, statement)
            command = [*self.command_prefix, "verify-batch", "--citations-ndjson", os.fspath(ndjson_path)]
            if merged:
                command.append("--merged")
            command += [*flags, "--", os.fspath(source)]
            return self._run(command, timeout=timeout, accept_exit_1=fail_on_ungrounded)

    def crop_element(
        self,
        input_document: PathLike,
        request: PathLike,
        *,
        check_id: str = "v0001",
        crop_source_pdf: PathLike | None = None,
        crop_dir: PathLike | None = None,
        timeout_seconds: float | None = None,
        password: str | None = None,
    ) -> dict[str, Any]:
        """Runs ``crop_element`` and returns the crop descriptor (docs/cli.md §3.10).

        ``request`` is an ``ethos.crop_element_request.v1`` file. With ``crop_source_pdf`` (the
        document's own PDF; needs ``crop_dir``) the element is rendered and the descriptor and its
        PNG are written into ``crop_dir``; ``crop_dir`` alone writes the descriptor there.
        ``password`` opens an encrypted ``crop_source_pdf``; it reaches ethos-core in its
        environment, never on its command line.
        """
        if not check_id:
            raise ValueError("check_id must be non-empty")
        if crop_source_pdf is not None and crop_dir is None:
            raise ValueError("crop_source_pdf needs crop_dir")
        if password is not None and crop_source_pdf is None:
            raise ValueError("password needs crop_source_pdf")
        _check_timeout(timeout_seconds)
        self._require_file(input_document)
        self._require_file(request)
        if crop_source_pdf is not None:
            self._require_file(crop_source_pdf)
        command = [*self.command_prefix, "crop_element", "--request", os.fspath(request), "--check-id", check_id]
        if crop_source_pdf is not None:
            command += ["--crop-source-pdf", os.fspath(crop_source_pdf)]
        if crop_dir is not None:
            command += ["--crop-dir", os.fspath(crop_dir)]
        command += ["--", os.fspath(input_document)]
        extra = dict(self.env or {})
        if password is not None:
            extra["ETHOS_PDF_PASSWORD"] = password
        stdout = self._run(command, timeout=timeout_seconds, environment=parse_environment(extra))
        result: dict[str, Any] = _load_json(_decode_stdout(stdout, tuple(command)), tuple(command))
        return result

    # -- plumbing ---------------------------------------------------------------------------

    def _verify(
        self,
        source: PathLike,
        citations: JsonInput,
        grounding: str | None,
        config: JsonInput | None,
        fail_on_ungrounded: bool,
        output_format: str,
        timeout: float | None,
        statement: bool,
    ) -> tuple[tuple[str, ...], bytes]:
        if output_format not in _FORMATS:
            raise ValueError(f"output_format must be one of: {', '.join(_FORMATS)}")
        _check_timeout(timeout)
        self._require_file(source)
        with (
            json_input_path(citations, "citations.json") as citations_path,
            optional_json_input_path(config, "config.json") as config_path,
        ):
            self._require_file(citations_path)
            flags = self._request_flags(grounding, config_path, fail_on_ungrounded, statement)
            # "--" keeps a SOURCE that starts with "-" from being read as an option.
            command = (
                *self.command_prefix, "verify", "--citations", os.fspath(citations_path),
                *flags, "--format", output_format, "--", os.fspath(source),
            )  # fmt: skip
            return command, self._run(command, timeout=timeout, accept_exit_1=fail_on_ungrounded)

    def _request_flags(
        self, grounding: str | None, config: PathLike | None, fail_on_ungrounded: bool, statement: bool
    ) -> list[str]:
        """The options verify, verify-batch and anchor share, checked before anything is spawned."""
        if grounding is not None and not grounding:
            raise ValueError("grounding must be non-empty when provided")
        flags: list[str] = []
        if grounding is not None:
            flags += ["--grounding", grounding]
        if config is not None:
            self._require_file(config)
            flags += ["--config", os.fspath(config)]
        if fail_on_ungrounded:
            flags.append("--fail-on-ungrounded")
        if statement:
            flags.append("--statement")
        return flags

    def _require_file(self, path: PathLike) -> None:
        resolved = Path(path)
        if self.cwd is not None and not resolved.is_absolute():
            resolved = Path(self.cwd) / resolved
        if not resolved.is_file():
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), os.fspath(path))

    def _run(
        self,
        command: Sequence[str],
        *,
        timeout: float | None,
        accept_exit_1: bool = False,
        environment: Mapping[str, str] | None = None,
    ) -> bytes:
        run_env: dict[str, str] | None = None if environment is None else dict(environment)
        if run_env is None and self.env is not None:
            run_env = dict(os.environ)
            run_env.update(self.env)
        # ethos-core ends (with its parse workers) when this process dies, not only on a timeout.
        run_env = dict(os.environ) if run_env is None else run_env
        run_env["ETHOS_PARENT_PID"] = str(os.getpid())
        try:
            completed = _run_process_group(list(command), cwd=self.cwd, env=run_env, timeout=timeout)
        except (FileNotFoundError, PermissionError, NotADirectoryError) as error:
            raise EthosNotFoundError(self.ethos_bin) from error
        except subprocess.TimeoutExpired as error:
            raise EthosTimeoutError(command, timeout or 0.0) from error

        returncode = completed.returncode
        # Exit 1 is a verdict only with --fail-on-ungrounded, and only if the report was written.
        ok = returncode == 0 or (accept_exit_1 and returncode == 1 and bool(completed.stdout.strip()))
        if not ok:
            raise command_error(
                command,
                returncode,
                completed.stdout.decode("utf-8", errors="replace"),
                completed.stderr.decode("utf-8", errors="replace"),
            )
        return completed.stdout


def _run_process_group(
    argv: list[str], *, cwd: str | None, env: Mapping[str, str] | None, timeout: float | None
) -> subprocess.CompletedProcess[bytes]:
    """Runs ``argv`` in its own process group and collects its output.

    On a timeout (or any interruption, Ctrl-C included) the whole group is killed, not just the
    direct child: ``doc parse`` runs parse workers of its own, and none may outlive the call.
    """
    process = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except BaseException:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        # No communicate() here: a stray process still holding the pipes must not block us.
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()
        process.wait()
        raise
    return subprocess.CompletedProcess(argv, process.returncode, stdout, stderr)


def _check_timeout(timeout: float | None) -> None:
    if timeout is not None and timeout <= 0:
        raise ValueError("timeout must be greater than zero when provided")


def _decode_stdout(stdout: bytes, command: Sequence[str]) -> str:
    try:
        return stdout.decode("utf-8")
    except UnicodeDecodeError as error:
        raise EthosOutputError("ethos returned non-UTF-8 stdout", command, stdout.decode("utf-8", "replace")) from error


def _load_json(text: str, command: Sequence[str]) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise EthosOutputError(f"ethos returned invalid JSON: {error.msg}", command, text) from error
