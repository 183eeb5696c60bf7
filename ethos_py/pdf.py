"""pdf - parse a PDF into an Ethos document (JSON), Markdown or text through the bundled ethos-core.

PDFium never runs in this process: ``ethos-core doc parse`` parses in killable child processes
with input, page, time and memory limits (docs/pdf-parsing.md#process-limits-and-cache), using the PDFium library that
pypdfium2's wheel ships. Failures raise the ``EthosCommandError`` subclass of their stable code
(``InvalidPdfError``, ``PasswordProtectedError``, ``ParseTimeoutError``, ...); a missing input
path raises ``FileNotFoundError`` before anything is spawned. A PDF may also be given as bytes or
a binary file object (copied to a private temporary file for the parse).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ._host_io import BinaryInput

__all__ = [
    "DEFAULT_MAX_FILE_BYTES",
    "DEFAULT_MAX_MEMORY_MIB",
    "DEFAULT_MAX_PAGES",
    "DEFAULT_MAX_PARSE_MS",
    "PARSE_FORMATS",
    "ParseOptions",
    "parse_pdf",
    "parse_pdf_bytes",
    "parse_pdf_json",
    "parse_pdf_markdown",
    "parse_pdf_text",
]

PathLike = str | os.PathLike[str]

#: Output formats of ``doc parse``: the document JSON, a Markdown rendering, plain text.
PARSE_FORMATS = ("json", "markdown", "text")

# The limits ethos-core applies when no flag is given (docs/pdf-parsing.md#process-limits-and-cache); documented here so
# callers can see them, never passed implicitly (the core stays the one place that decides).
DEFAULT_MAX_FILE_BYTES = 256 * 1024 * 1024
DEFAULT_MAX_PAGES = 5000
DEFAULT_MAX_PARSE_MS = 120_000
DEFAULT_MAX_MEMORY_MIB = 2048


@dataclass(frozen=True)
class ParseOptions:
    """The options of one ``doc parse`` run; ``None`` means the core's default.

    ``arguments()`` gives the ethos-core flags, in one fixed order, so every surface that parses
    (module functions, ``EthosCli``, the ``ethos`` command) spells a request the same way.

        >>> ParseOptions(pages="1-2", use_cache=False).arguments()
        ['--format', 'json', '--pages', '1-2', '--no-cache']
    """

    output_format: str = "json"
    pages: str | None = None
    password: str | None = None
    max_file_bytes: int | None = None
    max_pages: int | None = None
    max_parse_ms: int | None = None
    max_memory_mib: int | None = None
    workers: int | None = None
    cache_dir: PathLike | None = None
    use_cache: bool = True
    pdfium_library: PathLike | None = None
    diagnostics: bool = False
    cache_decrypted: bool = False

    def __post_init__(self) -> None:
        if self.output_format not in PARSE_FORMATS:
            raise ValueError(f"output_format must be one of: {', '.join(PARSE_FORMATS)}")
        if self.pages is not None and (not isinstance(self.pages, str) or not self.pages.strip()):
            raise ValueError("pages must be a non-empty page selection such as '1-3,7' when provided")
        if self.password is not None and not isinstance(self.password, str):
            raise ValueError("password must be a string when provided")
        for name in ("max_file_bytes", "max_pages", "max_parse_ms", "max_memory_mib", "workers"):
            value = getattr(self, name)
            # bool is an int subclass; True is never a meaningful limit.
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValueError(f"{name} must be a positive integer when provided")
        for name in ("cache_dir", "pdfium_library"):
            value = getattr(self, name)
            if value is not None and not os.fspath(value):
                raise ValueError(f"{name} must be a non-empty path when provided")

    def environment(self, base: Mapping[str, str] | None = None) -> dict[str, str]:
        """``base`` plus the variables these options pass to ethos-core: the password as
        ``ETHOS_PDF_PASSWORD`` (docs/cli.md §3.5)."""
        environment = dict(base or {})
        if self.password is not None:
            environment["ETHOS_PDF_PASSWORD"] = self.password
        return environment

    def arguments(self, *, include_format: bool = True) -> list[str]:
        """The flags that follow ``doc parse PDF`` (``fingerprint PDF`` takes them without
        ``--format``) on the ethos-core command line."""
        arguments = ["--format", self.output_format] if include_format else []
        if self.pages is not None:
            arguments += ["--pages", self.pages]
        # The password never goes on the command line (any user can read a process's argv): it
        # travels in the child's environment, see environment().
        limits = (
            ("--max-file-bytes", self.max_file_bytes),
            ("--max-pages", self.max_pages),
            ("--max-parse-ms", self.max_parse_ms),
            ("--max-memory-mib", self.max_memory_mib),
            ("--workers", self.workers),
        )
        for flag, value in limits:
            if value is not None:
                arguments += [flag, str(value)]
        if self.cache_dir is not None:
            arguments += ["--cache-dir", os.fspath(self.cache_dir)]
        if not self.use_cache:
            arguments.append("--no-cache")
        if self.cache_decrypted:
            arguments.append("--cache-decrypted")
        if self.pdfium_library is not None:
            arguments += ["--pdfium-library", os.fspath(self.pdfium_library)]
        if self.diagnostics:
            arguments.append("--diagnostics")
        return arguments


def _cli(ethos_bin: PathLike | None, env: Mapping[str, str] | None) -> Any:
    from .cli_wrapper import EthosCli

    return EthosCli(ethos_bin=ethos_bin, env=env) if ethos_bin is not None else EthosCli(env=env)


def parse_pdf_bytes(
    input_pdf: BinaryInput,
    *,
    output_format: str = "json",
    timeout_seconds: float | None = None,
    ethos_bin: PathLike | None = None,
    env: Mapping[str, str] | None = None,
    **options: Any,
) -> bytes:
    """Parses ``input_pdf`` and returns ethos-core's stdout exactly as written (ends with ``\\n``).

    ``options`` are the keyword arguments of ``parse_pdf``. Use it to compare or store the bytes;
    the document JSON is canonical, so its bytes are its identity.

        >>> from ethos_py.demo import SAMPLE_PDF
        >>> parse_pdf_bytes(SAMPLE_PDF, use_cache=False).endswith(b"\\n")  # doctest: +SKIP
        True
    """
    return bytes(
        _cli(ethos_bin, env).parse_pdf_bytes(
            input_pdf, output_format=output_format, timeout_seconds=timeout_seconds, **options
        )
    )


def parse_pdf(
    input_pdf: BinaryInput,
    *,
    output_format: str = "json",
    pages: str | None = None,
    password: str | None = None,
    max_file_bytes: int | None = None,
    max_pages: int | None = None,
    max_parse_ms: int | None = None,
    max_memory_mib: int | None = None,
    workers: int | None = None,
    cache_dir: PathLike | None = None,
    use_cache: bool = True,
    pdfium_library: PathLike | None = None,
    diagnostics: bool = False,
    cache_decrypted: bool = False,
    timeout_seconds: float | None = None,
    ethos_bin: PathLike | None = None,
    env: Mapping[str, str] | None = None,
) -> Any:
    """Parses one PDF: the document as a dict for ``json``, the rendering as ``str`` otherwise.

    ``input_pdf`` is a path, the PDF's bytes, or a file object opened in binary mode (read from
    its current position); the same holds for ``parse_pdf_json``, ``parse_pdf_markdown``,
    ``parse_pdf_text`` and ``parse_pdf_bytes``.

    - ``pages``: a selection such as ``"1-3,7,10-"`` (1-based; the fingerprint depends on it).
    - ``password``: opens an encrypted PDF (without it: ``PasswordProtectedError``).
    - limits (``None`` = the core's default): ``max_file_bytes`` (256 MiB), ``max_pages`` (5000),
      ``max_parse_ms`` (120000, wall time), ``max_memory_mib`` (2048, all parse workers together).
    - ``workers``: parse processes (default: by page count and cores); never changes the output.
    - ``cache_dir``/``use_cache``: parsed documents are cached by the PDF's hash and the options
      (default directory ``$ETHOS_CACHE_DIR``, else ``~/.cache/ethos/documents``).
    - ``cache_decrypted``: with a ``password``, cache the parse too (off by default: the entry
      would be a decrypted copy of what the password protects).
    - ``pdfium_library``: another PDFium than pypdfium2's (``ETHOS_PDFIUM_LIBRARY_PATH`` too).
    - ``timeout_seconds``: kills the whole ethos-core process from here (``EthosTimeoutError``);
      ``max_parse_ms`` is the limit that reports ``parse_timeout``.
    - ``ethos_bin``: run another ethos program instead of the bundled ``ethos-core``.

        >>> from ethos_py.demo import SAMPLE_PDF
        >>> parse_pdf(SAMPLE_PDF, output_format="text", pages="1").splitlines()[0]  # doctest: +SKIP
        'Northwind Trading — Annual Report 2024'
    """
    return _cli(ethos_bin, env).parse_pdf(
        input_pdf,
        output_format=output_format,
        pages=pages,
        diagnostics=diagnostics,
        timeout_seconds=timeout_seconds,
        password=password,
        max_file_bytes=max_file_bytes,
        max_pages=max_pages,
        max_parse_ms=max_parse_ms,
        max_memory_mib=max_memory_mib,
        workers=workers,
        cache_dir=cache_dir,
        use_cache=use_cache,
        pdfium_library=pdfium_library,
        cache_decrypted=cache_decrypted,
    )


def parse_pdf_json(input_pdf: BinaryInput, **kwargs: Any) -> dict[str, Any]:
    """Parses one PDF and returns the Ethos document (docs/contracts.md, "Documents") as a dict.

        >>> from ethos_py.demo import SAMPLE_PDF
        >>> parse_pdf_json(SAMPLE_PDF)["fingerprint"][:7]  # doctest: +SKIP
        'sha256:'
    """
    document: dict[str, Any] = parse_pdf(input_pdf, output_format="json", **kwargs)
    return document


def parse_pdf_markdown(input_pdf: BinaryInput, **kwargs: Any) -> str:
    """Parses one PDF and returns its Markdown rendering (headings, lists, pipe tables).

        >>> from ethos_py.demo import SAMPLE_PDF
        >>> parse_pdf_markdown(SAMPLE_PDF).startswith("# ")  # doctest: +SKIP
        True
    """
    text: str = parse_pdf(input_pdf, output_format="markdown", **kwargs)
    return text


def parse_pdf_text(input_pdf: BinaryInput, **kwargs: Any) -> str:
    """Parses one PDF and returns its plain text, elements in reading order.

        >>> from ethos_py.demo import SAMPLE_PDF
        >>> "Revenue" in parse_pdf_text(SAMPLE_PDF)  # doctest: +SKIP
        True
    """
    text: str = parse_pdf(input_pdf, output_format="text", **kwargs)
    return text
