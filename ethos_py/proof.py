"""proof - what is derived from a report by the core: the proof summary, the summary text and the CI formats."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from . import _ffi
from ._host_io import json_input

__all__ = ["CI_FORMATS", "ci_report_text", "proof_summary", "report_text", "summary_text"]

#: A report or Statement: a dict, JSON bytes, a path (``os.PathLike``, or a ``str`` that does not
#: start with ``{`` or ``[``) or JSON text (a ``str`` that does).
ReportInput = Mapping[str, Any] | bytes | bytearray | memoryview | str | os.PathLike[str]


def proof_summary(report: ReportInput) -> dict[str, Any]:
    """The proof summary (docs/contracts.md, "The proof summary") of a verification report or proof Statement.

        >>> from pathlib import Path
        >>> import ethos_py
        >>> report = ethos_py.verify("examples/quickstart/document.json", Path("examples/quickstart/citations.json"))
        >>> summary = proof_summary(report)
        >>> summary["proof_status"], summary["needs_review_check_ids"]
        ('partially_verified', ['v0004'])
    """
    data = json_input(report)
    summary: dict[str, Any] = json.loads(_ffi.call_string(_ffi.lib.ethos_proof_summary, data, len(data)))
    return summary


def summary_text(report: ReportInput) -> str:
    """The ``--format summary`` text (docs/contracts.md, "The summary text") of a report or Statement; ends with a newline.

        >>> from pathlib import Path
        >>> import ethos_py
        >>> report = ethos_py.verify("examples/quickstart/document.json", Path("examples/quickstart/citations.json"))
        >>> summary_text(report).splitlines()[5]
        'proof_status: partially_verified'
    """
    data = json_input(report)
    return _ffi.call_string(_ffi.lib.ethos_report_summary_text, data, len(data)).decode("utf-8")


#: The formats of ``ci_report_text`` (``ethos verify --format``'s CI choices).
CI_FORMATS = ("junit", "sarif", "github")


def ci_report_text(report: ReportInput, output_format: str, *, citations_path: str = "citations.json",
                   source_path: str | None = None) -> str:
    """A report or Statement for CI systems, as ``ethos verify --format junit|sarif|github`` writes
    it (the core's text, ends with a newline): JUnit XML (a test case per check), SARIF 2.1.0 (a
    result per check that is not grounded) or GitHub workflow commands (an error annotation per such
    check, then a notice). ``citations_path`` and ``source_path`` are the files the results point
    at, as the command line would name them.

        >>> from pathlib import Path
        >>> import ethos_py
        >>> report = ethos_py.verify("examples/quickstart/document.json", Path("examples/quickstart/citations.json"))
        >>> print(ci_report_text(report, "github", citations_path="citations.json"), end="")
        ::error file=citations.json,title=Ethos v0004 mismatch (text_mismatch)::v0004 mismatch (text_mismatch)%0Aclaim: "The pilot eliminated the support backlog in every region"
        ::notice title=Ethos verify::3 of 4 checks grounded in the source
    """
    if output_format not in CI_FORMATS:
        raise ValueError(f"output_format must be one of: {', '.join(CI_FORMATS)}")
    data = json_input(report)
    options = json.dumps({"citations_path": citations_path, "format": output_format,
                          "source_path": source_path or ""}).encode("utf-8")
    return _ffi.call_string(_ffi.lib.ethos_report_ci_text, data, len(data), options, len(options)).decode("utf-8")


def report_text(report: ReportInput, *, palette: str = "classic", color: bool = False) -> str:
    """The report as ``ethos verify --format text`` prints it, for people: a line per check (id,
    status, claim kind, tier or reason, page), the claim, and for a check that is not grounded the
    guards that blocked it and the near-miss diff with its changed words marked; then the proof
    status. ``color`` adds the palette's SGR styles (``palette``: classic, colorblind, neon, mono);
    the marks are printed either way. A claim's control characters print as U+FFFD.

        >>> from pathlib import Path
        >>> import ethos_py
        >>> report = ethos_py.verify("examples/quickstart/document.json", Path("examples/quickstart/citations.json"))
        >>> print(report_text(report), end="")
        ethos verify: 3 of 4 checks grounded
        v0001 grounded quote, tier exact, p0001
          "The pilot cut average response time by 30%"
        v0002 grounded table_cell, tier exact, p0001
          "4.2 days"
        v0003 grounded quote, tier exact, p0001
          "Customer satisfaction rose to 92%"
        v0004 mismatch quote, text_mismatch, p0001
          "The pilot eliminated the support backlog in every region"
        proof: partially_verified
    """
    data = json_input(report)
    options = json.dumps({"color": color, "palette": palette}).encode("utf-8")
    return _ffi.call_string(_ffi.lib.ethos_report_render_text, data, len(data), options, len(options)).decode("utf-8")
