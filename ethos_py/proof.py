"""proof - what is derived from a report by the core: the proof summary and the summary text."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from . import _ffi
from ._host_io import json_input

__all__ = ["proof_summary", "summary_text"]

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
