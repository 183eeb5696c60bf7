"""annotate - a copy of the source PDF with the report's evidence drawn on it: highlights over grounded quotes, a marked span and a note on every near miss and guard catch.

The annotations are written by PDFium (pypdfium2, the PDFium the parser uses) in a child process
with a time limit, so a hostile PDF can only crash or hang a killable child; the original file is
never opened for writing, and the copy is written atomically. The report must be about this PDF:
its document fingerprint must be the fingerprint of the PDF's parse (the parse cache makes that
parse free when the report was verified against it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import click

from ._host_io import write_file_atomic

if TYPE_CHECKING:  # the CLI imports this module; the native library loads only when a command runs
    from .proof import ReportInput

__all__ = ["annotate_pdf", "annotation_plan"]

#: Grounded quotes: a translucent yellow highlight. Not grounded: an orange-red squiggly underline
#: (another colour and another mark: colour is never the only signal) and a note.
_GROUNDED = [255, 214, 0, 110]
_NOT_GROUNDED = [230, 60, 0, 255]
_MAX_QUOTED = 400


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_QUOTED else text[:_MAX_QUOTED] + "…"


def _note(check: Mapping[str, Any]) -> str:
    """What a note says: the check, the verdict, the claim, the blocking guards, the diff."""
    from .testing import _check_lines

    return "\n".join(line.strip() for line in _check_lines(check))


def annotation_plan(report: Mapping[str, Any], document: Mapping[str, Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """The annotations for ``report``'s checks on ``document``'s pages, and the ids of the checks that
    have nothing to draw (no boxes: not found, or a source without geometry).

        >>> plan, skipped = annotation_plan({"checks": [{"id": "v0001", "status": "grounded",
        ...     "claim": {"text": "Revenue grew"}, "match": {"tier": "exact",
        ...     "boxes": [{"page": "p0001", "bbox": [7200, 9600, 38000, 11000]}]}}]},
        ...     {"payload": {"pages": [{"id": "p0001", "index": 1, "width": 59528, "height": 84189}]}})
        >>> [(a["kind"], a["page"], a["quads"]) for a in plan], skipped
        ([('highlight', 1, [[7200, 9600, 38000, 11000]])], [])
    """
    pages = {page["id"]: page for page in document["payload"]["pages"]}
    plan: list[dict[str, Any]] = []
    skipped: list[str] = []
    for check in report["checks"]:
        grounded = check.get("status") == "grounded"
        boxes = [box for box in (check.get("match") or {}).get("boxes") or [] if box.get("page") in pages]
        evidence = check.get("evidence") or {}
        if not boxes and evidence.get("page") in pages and evidence.get("bbox"):
            # A table cell's value, or where a claim that is not there was looked for: the evidence's box.
            boxes = [{"page": evidence["page"], "bbox": evidence["bbox"]}]
        if not boxes:
            skipped.append(str(check.get("id")))
            continue
        by_page: dict[str, list[list[int]]] = {}
        for box in boxes:
            by_page.setdefault(box["page"], []).append([int(v) for v in box["bbox"]])
        claim = _clip(str((check.get("claim") or {}).get("text", "")))
        for page_id, quads in by_page.items():
            page = pages[page_id]
            common = {"page": int(page["index"]), "quads": quads}
            if grounded:
                tier = (check.get("match") or {}).get("tier", "")
                plan.append({**common, "kind": "highlight", "color": _GROUNDED,
                             "contents": f"{check['id']} grounded (tier {tier}): {claim}"})
            else:
                plan.append({**common, "kind": "squiggly", "color": _NOT_GROUNDED, "contents": _note(check)})
                plan.append({**common, "quads": quads[:1], "kind": "note", "color": _NOT_GROUNDED, "contents": _note(check)})
    return plan, skipped


def annotate_pdf(pdf: str | os.PathLike[str], report: ReportInput, out: str | os.PathLike[str], *,
                 password: str | None = None, document: ReportInput | None = None,
                 timeout_seconds: float = 300.0) -> dict[str, Any]:
    """Writes ``out``: a copy of ``pdf`` with ``report``'s evidence as annotations (see the module
    documentation). ``document`` is the parsed document the report was verified against (default:
    the PDF's parse, through the parse cache); the report's fingerprint must be its fingerprint.
    Returns ``{"annotations": n, "highlights": h, "notes": k, "skipped_check_ids": [...]}``.
    Raises ``EthosError`` ``source_mismatch`` for a report about another document.

        >>> import tempfile
        >>> from pathlib import Path
        >>> import ethos_py
        >>> from ethos_py.demo import SAMPLE_PDF
        >>> with ethos_py.Document.from_bytes(ethos_py.parse_pdf_bytes(SAMPLE_PDF)) as document:
        ...     report = document.verify_json(Path("ethos_py/data/sample-citations.json"))
        >>> summary = annotate_pdf(SAMPLE_PDF, report, Path(tempfile.mkdtemp()) / "annotated.pdf")
        >>> summary["highlights"], summary["notes"]
        (4, 2)
    """
    from ._host_io import json_input
    from .cli import _host_error

    loaded_report: dict[str, Any] = json.loads(json_input(report))
    if document is None:
        from .pdf import parse_pdf_bytes

        parsed: dict[str, Any] = json.loads(parse_pdf_bytes(pdf, password=password))
    else:
        parsed = json.loads(json_input(document))
    if loaded_report.get("document_fingerprint") != parsed.get("fingerprint"):
        raise _host_error("source_mismatch", {"argument": "REPORT", "path": "$.document_fingerprint",
                                              "expected": parsed.get("fingerprint")})
    plan, skipped = annotation_plan(loaded_report, parsed)
    with tempfile.TemporaryDirectory(prefix="ethos-annotate-") as scratch:
        copy = os.path.join(scratch, "annotated.pdf")
        job = {"pdf": os.fspath(pdf), "password": password, "out": copy, "annotations": plan}
        try:
            done = subprocess.run([sys.executable, "-m", "ethos_py._annotate_worker"], input=json.dumps(job).encode(),
                                  capture_output=True, timeout=timeout_seconds, check=False)
        except subprocess.TimeoutExpired:
            raise _host_error("input_limit_exceeded", {"argument": "timeout_seconds", "seconds": timeout_seconds}) from None
        if done.returncode != 0 or not os.path.exists(copy):
            # PDFium refused or crashed on this PDF in the child: the PDF, not Ethos, is at fault.
            raise _host_error("corrupt_pdf", {"argument": "SOURCE", "stage": "annotate"})
        with open(copy, "rb") as handle:
            data = handle.read()
    write_file_atomic(out, data)
    return {"annotations": len(plan), "highlights": sum(a["kind"] == "highlight" for a in plan),
            "notes": sum(a["kind"] == "note" for a in plan), "skipped_check_ids": skipped}


def add_annotate_command(ethos: click.Group) -> None:
    """Adds ``annotate`` to the ``ethos`` command (called once by ethos_py.cli)."""
    from ._json import dumps
    from .cli import _COMMAND_CONTEXT, _emit, _read, _reject_extra_args

    @ethos.command("annotate", context_settings=_COMMAND_CONTEXT, short_help="Draw a report's evidence on a copy of the PDF.")
    @click.argument("source", metavar="SOURCE.pdf")
    @click.argument("report", metavar="REPORT.json")
    @click.option("--out", metavar="FILE", required=True, help="The annotated copy (written atomically; SOURCE is never changed).")
    @click.option("--document", metavar="DOC.json", default=None,
                  help="The parsed document the report was verified against (default: SOURCE's parse, from the cache).")
    @click.option("--password", metavar="P", default=None, help="The PDF's password (also ETHOS_PDF_PASSWORD).")
    @click.pass_context
    def annotate_command(ctx: click.Context, source: str, report: str, out: str, document: str | None,
                         password: str | None) -> int:
        """Write a copy of SOURCE.pdf with REPORT's evidence as annotations.

        \b
        Grounded quotes and cells get a yellow highlight over their glyph
        boxes, line by line; a check that is not grounded gets an
        orange-red squiggly underline where its evidence is and a note
        with its id, status, reason, blocking guards and near-miss diff.
        Written by PDFium in a child process; any PDF viewer shows them.
        Prints {"annotations","highlights","notes","skipped_check_ids"}.
        The report must be about SOURCE (its document fingerprint), else
        source_mismatch (exit 2) and nothing is written.
        """
        _reject_extra_args(ctx)
        report_bytes = _read(report, "REPORT")
        document_bytes = None if document is None else _read(document, "--document")
        summary = annotate_pdf(source, report_bytes, out, password=password or os.environ.get("ETHOS_PDF_PASSWORD"),
                               document=document_bytes)
        _emit(dumps(summary) + b"\n", None)
        return 0
