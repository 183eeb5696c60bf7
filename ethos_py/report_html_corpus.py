"""report_html_corpus - the corpus view: an ``ethos batch`` summary (``ethos.batch_summary.v1``) as one self-contained page of tables.

The page is ``report_html``'s: the same shell, style sheet, escaping and Content-Security-Policy
(without a script: the view is static, so the policy allows none). Every text from the summary
(document labels, claims, reasons, statuses) is escaped, since claims and labels come from
whoever wrote the corpus and the answers. The output is deterministic: the same summary gives
the same bytes (rows in a fixed order, no clock).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from .report_html import _attribute, _html_page, escape_text

__all__ = ["ARTIFACT_TYPE", "MAX_DOCUMENTS", "render_corpus_html"]

#: The artifact type that marks a batch summary (``ethos batch --summary``).
ARTIFACT_TYPE = "ethos.batch_summary.v1"
#: Documents listed (worst grounded rate first); the rest are counted under the table.
MAX_DOCUMENTS = 1000
#: The longest claim shown (in Unicode scalars); the rest is counted.
_MAX_CLAIM = 500

# What each field of the summary must be: "count" a non-negative integer, "rate" a number in
# [0, 1], "counts" an object of counts, "text" a string, "text?" a string or null.
_TOP = {"records": "count", "grounded": "count", "grounded_rate": "rate", "counts": "counts"}
_ROWS = {
    "by_document": {"document": "text?", "document_fingerprint": "text?", "records": "count", "grounded": "count",
                    "grounded_rate": "rate", "counts": "counts"},
    "by_kind": {"kind": "text", "records": "count", "grounded": "count", "grounded_rate": "rate"},
    "by_reason": {"reason": "text", "records": "count"},
    "by_tier": {"tier": "text?", "grounded": "count"},
    "most_failed": {"claim": "text", "failures": "count", "documents": "count", "reasons": "counts"},
}


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _fits(value: Any, kind: str) -> bool:
    if kind == "count":
        return _is_count(value)
    if kind == "rate":
        return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1
    if kind == "counts":
        return isinstance(value, dict) and all(isinstance(k, str) and _is_count(v) for k, v in value.items())
    return isinstance(value, str) or (kind == "text?" and value is None)


def _refuse(argument: str, path: str) -> Exception:
    from .cli import _host_error

    return _host_error("invalid_input", {"argument": argument, "path": path, "reason": "not_a_batch_summary"})


def _checked(summary: Any, argument: str) -> Mapping[str, Any]:
    """``summary`` if it is a well-formed batch summary, else ``invalid_input`` at the first wrong field."""
    if not isinstance(summary, dict) or summary.get("artifact_type") != ARTIFACT_TYPE:
        raise _refuse(argument, "$.artifact_type")
    for name, kind in _TOP.items():
        if not _fits(summary.get(name), kind):
            raise _refuse(argument, f"$.{name}")
    for section, fields in _ROWS.items():
        rows = summary.get(section)
        if not isinstance(rows, list):
            raise _refuse(argument, f"$.{section}")
        for index, row in enumerate(rows):
            if not isinstance(row, dict):
                raise _refuse(argument, f"$.{section}[{index}]")
            for name, kind in fields.items():
                if not _fits(row.get(name), kind):
                    raise _refuse(argument, f"$.{section}[{index}].{name}")
    return summary


def _number(value: int) -> str:
    return f"{value:,}"


def _percent(part: int, whole: int) -> str:
    """``part`` of ``whole`` as a percentage with one decimal, never rounded to 0% or 100% when it is neither."""
    if not whole:
        return "–"
    shown = f"{100 * part / whole:.1f}%"
    if shown == "100.0%" and part < whole:
        return "&gt;99.9%"
    if shown == "0.0%" and part > 0:
        return "&lt;0.1%"
    return shown


def _rate_cell(part: int, whole: int, rate: float, name: str = "rate") -> str:
    # The rate as the summary states it (data-value) and as a person reads it (text and a meter).
    return (f'<td class="num {name}" data-value="{rate!r}"><meter min="0" max="1" value="{rate!r}" aria-hidden="true">'
            f"</meter> {_percent(part, whole)}</td>")


def _statuses(counts: Mapping[str, int], skip: str = "grounded") -> str:
    shown = [f"<code>{escape_text(status, 60)}</code> {_number(count)}" for status, count in sorted(counts.items())
             if status != skip]
    return ", ".join(shown) or "–"


def _table(section: str, title: str, head: list[str], numeric: set[int], rows: list[str], caption: str = "") -> str:
    num = ' class="num"'
    cells = "".join(f'<th scope="col"{num if i in numeric else ""}>{name}</th>' for i, name in enumerate(head))
    body = "".join(rows) or f'<tr><td colspan="{len(head)}">None.</td></tr>'
    return (f'<section id="{section}"><h2>{title}</h2><table class="{section}"><thead><tr>{cells}</tr></thead>'
            f"<tbody>{body}</tbody>" + (f"<caption>{caption}</caption>" if caption else "") + "</table></section>")


def _document_label(row: Mapping[str, Any]) -> str:
    if row["document"] is None:
        return "<em>(no document: the record named none the corpus holds)</em>"
    return f"<code>{escape_text(row['document'], 500)}</code>"


def _fingerprint(value: str | None) -> str:
    if value is None:
        return "–"
    short = value[:19] + "…" if len(value) > 20 else value  # "sha256:" and 12 hex digits
    return f'<code class="fingerprint" title="{_attribute(value)}">{escape_text(short, 40)}</code>'


def _overall(summary: Mapping[str, Any]) -> str:
    records, grounded = summary["records"], summary["grounded"]
    headline = (f'<p class="headline"><strong id="grounded-rate" data-value="{summary["grounded_rate"]!r}">'
                f"{_percent(grounded, records)}</strong> grounded: <span id=\"grounded-count\">{_number(grounded)}</span> "
                f"of <span id=\"record-count\">{_number(records)}</span> records, over "
                f"{_number(len(summary['by_document']))} document(s).</p>"
                "<p>Every record counts, those that could not be verified (status <code>error</code>) as not grounded.</p>")
    rows = [f"<tr><td><code>{escape_text(status, 60)}</code></td><td class=\"num\">{_number(count)}</td>"
            f'<td class="num">{_percent(count, records)}</td></tr>' for status, count in sorted(summary["counts"].items())]
    return headline + _table("statuses", "Records by status", ["Status", "Records", "Share"], {1, 2}, rows)


def _documents(summary: Mapping[str, Any], limit: int) -> str:
    def order(row: Mapping[str, Any]) -> tuple[Any, ...]:
        # Worst rate first (exact, from the counts), then by label (an unresolved document last), then fingerprint.
        rate = Fraction(row["grounded"], row["records"]) if row["records"] else Fraction(0)
        return rate, row["document"] is None, row["document"] or "", row["document_fingerprint"] or ""

    ordered = sorted(summary["by_document"], key=order)
    rows = [f'<tr><td>{_document_label(row)}</td><td>{_fingerprint(row["document_fingerprint"])}</td>'
            f'<td class="num">{_number(row["records"])}</td><td class="num">{_number(row["grounded"])}</td>'
            f'<td>{_statuses(row["counts"])}</td>{_rate_cell(row["grounded"], row["records"], row["grounded_rate"])}</tr>'
            for row in ordered[:limit]]
    rest = ordered[limit:]
    caption = "Worst grounded rate first; ties by document."
    if rest:
        caption += (f" The {_number(len(rest))} other document(s) ({_number(sum(r['records'] for r in rest))} records, "
                    f"{_number(sum(r['grounded'] for r in rest))} grounded) are in the summary JSON.")
    return _table("documents", f"By document ({_number(len(ordered))})",
                  ["Document", "Fingerprint", "Records", "Grounded", "Not grounded", "Grounded rate"], {2, 3, 5}, rows, caption)


def _kinds(summary: Mapping[str, Any]) -> str:
    rows = [f'<tr><td><code>{escape_text(row["kind"], 60)}</code></td><td class="num">{_number(row["records"])}</td>'
            f'<td class="num">{_number(row["grounded"])}</td>{_rate_cell(row["grounded"], row["records"], row["grounded_rate"])}</tr>'
            for row in summary["by_kind"]]
    return _table("kinds", "By claim kind", ["Kind", "Records", "Grounded", "Grounded rate"], {1, 2, 3}, rows,
                  "<code>invalid</code>: records whose kind is none of quote, value, presence, table_cell.")


def _reasons(summary: Mapping[str, Any]) -> str:
    failed = summary["records"] - summary["grounded"]
    rows = [f'<tr><td><code>{escape_text(row["reason"], 120)}</code></td><td class="num">{_number(row["records"])}</td>'
            f'<td class="num">{_percent(row["records"], failed)}</td></tr>' for row in summary["by_reason"]]
    return _table("reasons", "Why claims were not grounded", ["Reason", "Records", "Share of not grounded"], {1, 2}, rows,
                  "Most frequent first; <code>error</code>: records that could not be verified.")


def _tiers(summary: Mapping[str, Any]) -> str:
    records, cumulative, rows = summary["records"], 0, []
    for row in summary["by_tier"]:
        cumulative += row["grounded"]
        name = f"<code>{escape_text(row['tier'], 60)}</code>" if row["tier"] is not None else "<em>(no matched text)</em>"
        share = round(row["grounded"] / records, 6) if records else 0.0
        total = round(cumulative / records, 6) if records else 0.0
        rows.append(f'<tr><td>{name}</td><td class="num">{_number(row["grounded"])}</td>'
                    f'<td class="num" data-value="{share!r}">{_percent(row["grounded"], records)}</td>'
                    f"{_rate_cell(cumulative, records, total, 'cumulative')}</tr>")
    return _table("tiers", "Grounded claims by matching tier",
                  ["Tier", "Grounded", "Share of records", "Cumulative share"], {1, 2, 3}, rows,
                  "The ladder from the strictest comparison to the loosest; the cumulative share is grounded at "
                  "that tier or a stricter one. <em>(no matched text)</em>: presence claims.")


def _most_failed(summary: Mapping[str, Any]) -> str:
    rows = []
    for number, row in enumerate(summary["most_failed"], 1):
        reasons = ", ".join(f"<code>{escape_text(reason, 120)}</code> {_number(count)}"
                            for reason, count in sorted(row["reasons"].items(), key=lambda item: (-item[1], item[0])))
        rows.append(f'<tr><td class="num">{number}</td><td>{escape_text(row["claim"], _MAX_CLAIM)}</td>'
                    f'<td class="num">{_number(row["failures"])}</td><td class="num">{_number(row["documents"])}</td>'
                    f"<td>{reasons}</td></tr>")
    return _table("most-failed", "The claims that fail most often", ["#", "Claim", "Failures", "Documents", "Reasons"],
                  {0, 2, 3}, rows, "By failures, then by text; the same claim text in several records and documents counts once.")


def _render(summary: Any, argument: str, max_documents: int = MAX_DOCUMENTS) -> str:
    checked = _checked(summary, argument)
    body = ('<main class="ethos-report corpus"><h1>Ethos corpus report</h1><section id="overall"><h2>Overall</h2>'
            + _overall(checked) + "</section>" + _documents(checked, max_documents) + _kinds(checked) + _reasons(checked)
            + _tiers(checked) + _most_failed(checked) + "</main>")
    return _html_page("Ethos corpus report", body, None)


def render_corpus_html(summary: Any, *, max_documents: int = MAX_DOCUMENTS) -> str:
    """The corpus view of an ``ethos batch`` summary (a dict, JSON bytes or text, or a path): one
    self-contained page with the grounded rate overall, tables per document (worst grounded rate
    first, at most ``max_documents`` rows), per claim kind, per reason, per matching tier (with the
    cumulative share) and the claims that fail most often. Raises ``EthosError`` ``invalid_input``
    (``reason`` ``not_a_batch_summary``, ``path`` the first wrong field) for anything else.

        >>> from ethos_py.batch_summary import summarize
        >>> summary = summarize([b'{"claim":"<b>x</b>","ethos":{"status":"not_found","reason":"no_match","source":"a.pdf"}}'])
        >>> page = render_corpus_html(summary)
        >>> page.startswith("<!DOCTYPE html>"), "&lt;b&gt;x&lt;/b&gt;" in page, "<b>" in page
        (True, True, False)
    """
    from .report_html import _load_json

    return _render(summary if isinstance(summary, dict) else _load_json(summary, "SUMMARY"), "SUMMARY", max_documents)
