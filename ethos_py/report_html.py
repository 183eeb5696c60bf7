"""report_html - the HTML evidence report: one self-contained page with the proof summary, the release decision and every check beside the page region its evidence is on, the matched glyphs highlighted line by line.

The page loads nothing: page images are inline PNGs (rendered by PDFium in a child process, see
``_render_worker``), the style and the script are inline, and a Content-Security-Policy allows only
those two (by their SHA-256) and ``data:`` images. Every text that comes from a claim or a document
is escaped, its invisible characters (bidi controls, zero-width spaces) shown as ``U+XXXX`` marks,
and clipped to ``MAX_TEXT`` characters. The output is deterministic: the same inputs give the same
bytes (no clock, no random ids, fixed PNG encoding).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the CLI imports this module; the native library loads only when a command runs
    from .proof import ReportInput

__all__ = ["MAX_SIDE_PX", "MAX_TEXT", "line_rectangles", "render_report_html", "report_fragment_html"]

#: The longest text (in Unicode scalars) shown from a claim or a document; the rest is counted.
MAX_TEXT = 2000
#: Page images are rendered at this many pixels per point (108 dpi) ...
SCALE = 1.5
#: ... unless a side would exceed this many pixels: a huge (or hostile) page is rendered smaller.
MAX_SIDE_PX = 4000
#: Context shown above and below the evidence in a region image, in display quanta (1/100 pt).
_MARGIN = 2400

# Characters that change how the text around them reads without being seen (the same set as the
# answer page's): bidi embeddings, overrides, isolates and marks, zero-width space, word joiner and
# invisible operators, the BOM, the Mongolian vowel separator and tag characters.
_INVISIBLE = frozenset([0x061C, 0x200B, 0x200E, 0x200F, 0xFEFF, 0x180E, *range(0x202A, 0x202F),
                        *range(0x2060, 0x2065), *range(0x2066, 0x206A)])

#: Verdict groups: the colour, the mark and the outline style of each (colour is never the only signal).
_GROUPS = {"grounded": ("ok", "✓"), "mismatch": ("fail", "✗"), "not_found": ("fail", "✗")}
_REVIEW = ("review", "?")


def _escape_char(c: str) -> str:
    code = ord(c)
    if c == "&":
        return "&amp;"
    if c == "<":
        return "&lt;"
    if c == ">":
        return "&gt;"
    if c == '"':
        return "&quot;"
    if c == "'":
        return "&#39;"
    if (code < 0x20 and c not in "\n\t") or 0x7F <= code < 0xA0 or 0xD800 <= code < 0xE000:
        return "\ufffd"
    if code in _INVISIBLE or 0xE0000 <= code <= 0xE007F:
        return f'<span class="invisible" title="invisible character">U+{code:04X}</span>'
    return c


def escape_text(text: object, limit: int = MAX_TEXT) -> str:
    """``text`` as HTML: escaped, invisible characters shown as ``U+XXXX`` marks, at most ``limit``
    scalars (the rest counted, never shown).

        >>> escape_text('<script>alert(1)</script>\\u202e')
        '&lt;script&gt;alert(1)&lt;/script&gt;<span class="invisible" title="invisible character">U+202E</span>'
        >>> escape_text("x" * 5, limit=3)
        'xxx<span class="clipped">… (2 more characters)</span>'
    """
    value = str(text)
    # ":/" as "&#58;/": shown the same, but a URL in a claim never appears in the page's bytes.
    shown = "".join(_escape_char(c) for c in value[:limit]).replace(":/", "&#58;/")
    if len(value) > limit:
        shown += f'<span class="clipped">… ({len(value) - limit} more characters)</span>'
    return shown


def _attribute(text: object) -> str:
    # Attribute values (ids and statuses): escaped, invisible characters dropped, bounded.
    return "".join(_escape_char(c) for c in str(text)[:200] if ord(c) not in _INVISIBLE).replace(":/", "&#58;/")


def line_rectangles(boxes: Sequence[Sequence[int]]) -> list[list[int]]:
    """Glyph boxes ``[x0, y0, x1, y1]`` (top-left origin) grouped into one rectangle per text line:
    boxes whose vertical extents overlap by at least half the shorter one join a line, and a line's
    rectangle spans its boxes. Lines come top to bottom.

        >>> line_rectangles([[100, 0, 200, 10], [210, 1, 300, 11], [100, 20, 150, 30]])
        [[100, 0, 300, 11], [100, 20, 150, 30]]
    """
    lines: list[list[int]] = []
    for x0, y0, x1, y1 in sorted((list(map(int, box)) for box in boxes), key=lambda b: (b[1], b[0])):
        for line in lines:
            overlap = min(line[3], y1) - max(line[1], y0)
            if overlap * 2 >= min(line[3] - line[1], y1 - y0):
                line[0], line[1], line[2], line[3] = min(line[0], x0), min(line[1], y0), max(line[2], x1), max(line[3], y1)
                break
        else:
            lines.append([x0, y0, x1, y1])
    return sorted(lines, key=lambda b: (b[1], b[0]))


def _group(status: str) -> tuple[str, str]:
    return _GROUPS.get(status, _REVIEW)


def _check_boxes(check: Mapping[str, Any], pages: Mapping[str, Any]) -> dict[str, list[list[int]]]:
    """The check's boxes by page id: the matched glyphs (the match's, or the found fragments' of a
    stitched quotation), else the evidence's own box (a table cell, or where a claim was looked for)."""
    match = check.get("match") or {}
    boxes = list(match.get("boxes") or [])
    for fragment in match.get("fragments") or []:
        boxes += fragment.get("boxes") or []
    evidence = check.get("evidence") or {}
    if not boxes and evidence.get("bbox") and evidence.get("page") is not None:
        boxes = [{"page": evidence["page"], "bbox": evidence["bbox"]}]
    by_page: dict[str, list[list[int]]] = {}
    for box in boxes:
        bbox = box.get("bbox")
        if box.get("page") in pages and isinstance(bbox, list) and len(bbox) == 4:
            by_page.setdefault(box["page"], []).append([int(v) for v in bbox])
    return by_page


def _load_json(value: Any, argument: str) -> Any:
    from ._host_io import json_input
    from .cli import _host_error

    try:
        data = json_input(value, argument=argument)
    except OSError as error:
        from ._host_io import io_reason

        raise _host_error("host_io", {"argument": argument, "reason": io_reason(error)}) from error
    try:
        return json.loads(data)
    except (ValueError, UnicodeDecodeError):
        raise _host_error("invalid_input", {"argument": argument, "path": "$", "reason": "not_json"}) from None


def _render_pages(pdf: str | os.PathLike[str], password: str | None, pages: list[dict[str, Any]],
                  timeout_seconds: float) -> dict[int, dict[str, Any]]:
    from .cli import _host_error

    job = {"pdf": os.fspath(pdf), "password": password, "pages": pages}
    try:
        done = subprocess.run([sys.executable, "-m", "ethos_py._render_worker"], input=json.dumps(job).encode(),
                              capture_output=True, timeout=timeout_seconds, check=False)
    except subprocess.TimeoutExpired:
        raise _host_error("input_limit_exceeded", {"argument": "timeout_seconds", "seconds": timeout_seconds}) from None
    if done.returncode == 3:
        raise _host_error("input_limit_exceeded", {"argument": "--pdf", "limit_side_px": MAX_SIDE_PX})
    if done.returncode != 0:
        # PDFium refused or crashed on this PDF in the child: the PDF, not Ethos, is at fault.
        raise _host_error("corrupt_pdf", {"argument": "--pdf", "stage": "render"})
    rendered = json.loads(done.stdout)["pages"]
    return {int(page["index"]): page for page in rendered}


def _px(quanta: int, scale: float) -> int:
    return round(quanta * scale / 100)


class _Page:
    def __init__(self, page: Mapping[str, Any]) -> None:
        self.id = str(page["id"])
        self.index = int(page["index"])
        self.width = int(page["width"])
        self.height = int(page["height"])
        self.scale = min(SCALE, MAX_SIDE_PX * 100 / max(1, self.width, self.height))


def _region(lines: list[list[int]], page: _Page) -> list[int]:
    """The region shown for a check on a page, in quanta: the page's width, the lines' height plus a margin."""
    top = max(0, min(line[1] for line in lines) - _MARGIN)
    bottom = min(page.height, max(line[3] for line in lines) + _MARGIN)
    return [0, top, page.width, max(bottom, top + 1)]


def _overlay(lines: list[list[int]], origin: Sequence[int], width: int, height: int, group: str, label: str,
             scale: float) -> str:
    """An SVG over an image of ``width`` x ``height`` pixels whose top-left is ``origin`` (quanta):
    one rectangle per line, in the image's pixels; data-box keeps the line in quanta for tests and tools."""
    rects = []
    for x0, y0, x1, y1 in lines:
        rx, ry = _px(x0, scale) - _px(origin[0], scale), _px(y0, scale) - _px(origin[1], scale)
        rw, rh = max(1, _px(x1, scale) - _px(x0, scale)), max(1, _px(y1, scale) - _px(y0, scale))
        rects.append(f'<rect class="line {group}" x="{rx}" y="{ry}" width="{rw}" height="{rh}" '
                     f'data-box="{x0},{y0},{x1},{y1}"><title>{label}</title></rect>')
    return (f'<svg class="overlay" viewBox="0 0 {width} {height}" preserveAspectRatio="none" aria-hidden="true">'
            + "".join(rects) + "</svg>")


def _diff_html(diff: Sequence[Mapping[str, Any]]) -> str:
    parts = []
    for step in diff[:400]:
        quote, source = str(step.get("quote", "")), str(step.get("source", ""))
        if step.get("op") == "equal":
            parts.append(f'<span class="same">{escape_text(quote, 400)}</span>')
            continue
        if source:
            parts.append(f'<del title="only in the document">{escape_text(source, 400)}</del>')
        if quote:
            parts.append(f'<ins title="only in the claim">{escape_text(quote, 400)}</ins>')
    if len(diff) > 400:
        parts.append(f'<span class="clipped">… ({len(diff) - 400} more steps)</span>')
    return " ".join(parts)


def _quoted(text: object) -> str:
    return f'<q><bdi class="text">{escape_text(text)}</bdi></q>'


def _details(check: Mapping[str, Any]) -> str:
    """The check's facts as a definition list: claim, status, reason, tier and reading, guards,
    near-miss diff, stitched fragments, the document's text and warnings."""
    claim = check.get("claim") or {}
    match = check.get("match") or {}
    evidence = check.get("evidence") or {}
    rows: list[tuple[str, str]] = []
    text = claim.get("text", claim.get("value", ""))
    rows.append(("Claim", _quoted(text)))
    citation = claim.get("citation")
    if isinstance(citation, Mapping) and citation:
        cited = ", ".join(f"{escape_text(k, 40)} <code>{escape_text(json.dumps(v, ensure_ascii=False, sort_keys=True), 200)}</code>"
                          for k, v in sorted(citation.items()))
        rows.append(("Cites", cited))
    status = str(check.get("status", "?"))
    group, mark = _group(status)
    rows.append(("Status", f'<span class="badge {group}"><span class="mark" aria-hidden="true">{mark}</span> {escape_text(status, 60)}</span>'))
    if check.get("reason"):
        rows.append(("Reason", f"<code>{escape_text(check['reason'], 80)}</code>"))
    if match.get("tier"):
        tier = f"<code>{escape_text(match['tier'], 40)}</code>"
        if match.get("sound") is False:
            tier += " (not sound: skeleton letters only)"
        if match.get("occurrences") is not None:
            tier += f", {int(match['occurrences'])} occurrence(s)"
        rows.append(("Tier", tier))
    if match.get("reading"):
        rows.append(("Reading", f"<code>{escape_text(match['reading'], 40)}</code> (found in a further reading of the evidence)"))
    if check.get("evidence_tier"):
        rows.append(("Evidence", f"<code>{escape_text(check['evidence_tier'], 40)}</code> via <code>{escape_text(check.get('match_method', ''), 60)}</code>"))
    if match.get("score") is not None:
        rows.append(("Similarity", f"{int(match['score']) / 100:.2f}%"))
    guards = match.get("guards") or []
    if guards:
        items = "".join(
            f'<li class="guard {"block" if guard.get("verdict") == "block" else "pass"}"><code>{escape_text(guard.get("name", "?"), 40)}</code> '
            f'{escape_text(guard.get("verdict", "?"), 20)}{": " + escape_text(guard["detail"], 400) if guard.get("detail") else ""}</li>'
            for guard in guards[:50])
        rows.append(("Guards", f'<ul class="guards">{items}</ul>'))
    if match.get("diff"):
        rows.append(("Difference", f'<p class="diff" dir="auto">{_diff_html(match["diff"])}</p>'
                                   '<p class="legend"><del>struck</del>: only in the document; <ins>underlined</ins>: only in the claim</p>'))
    fragments = match.get("fragments") or []
    if fragments:
        listed: list[str] = []
        for fragment in fragments[:100]:
            if fragment.get("elided"):
                listed.append(f'<li class="elided">elided from the document: {_quoted(fragment["elided"])}</li>')
            if fragment.get("found"):
                listed.append(f'<li class="fragment found">found ({escape_text(fragment.get("tier", "?"), 40)}): {_quoted(fragment.get("quote", ""))}</li>')
            else:
                listed.append(f'<li class="fragment missing">not found: {_quoted(fragment.get("quote", ""))}</li>')
        rows.append(("Fragments", f'<ol class="fragments">{"".join(listed)}</ol>'))
    if match.get("source_text") is not None:
        rows.append(("Document has", _quoted(match["source_text"])))
    elif evidence.get("text") is not None:
        rows.append(("Evidence text", _quoted(evidence["text"])))
    warnings = check.get("warnings") or []
    if warnings:
        rows.append(("Warnings", ", ".join(f"<code>{escape_text(w if isinstance(w, str) else json.dumps(w, sort_keys=True), 200)}</code>" for w in warnings[:20])))
    return '<dl class="facts">' + "".join(f"<dt>{name}</dt><dd>{value}</dd>" for name, value in rows) + "</dl>"


_CSS = """
.ethos-report{--ok:#0072b2;--fail:#d55e00;--review:#b07800;--bg:#fff;--fg:#1a1a1a;--muted:#555;--card:#f6f7f9;--line:#d0d4da;
 color:var(--fg);background:var(--bg);font-family:system-ui,sans-serif;line-height:1.45}
@media (prefers-color-scheme:dark){.ethos-report{--ok:#56b4e9;--fail:#ff8c5a;--review:#f0e442;--bg:#15171a;--fg:#e8e8e8;--muted:#aaa;--card:#1f2226;--line:#3a3f46}}
.ethos-report{max-width:72em;margin:0 auto;padding:1em}
.ethos-report h1{font-size:1.5em;margin:.2em 0 .6em}
.ethos-report code{font-family:ui-monospace,monospace;font-size:.92em;overflow-wrap:anywhere}
.ethos-report .notice{border-left:4px solid var(--review);padding:.4em .8em;background:var(--card)}
.ethos-report table{border-collapse:collapse;margin:.5em 0}
.ethos-report th,.ethos-report td{border:1px solid var(--line);padding:.25em .5em;text-align:left;vertical-align:top}
.ethos-report .check{background:var(--card);border:1px solid var(--line);border-left:6px solid var(--line);border-radius:4px;margin:1em 0;padding:.6em .9em}
.ethos-report .check.ok{border-left:6px solid var(--ok)}
.ethos-report .check.fail{border-left:6px dashed var(--fail)}
.ethos-report .check.review{border-left:6px dotted var(--review)}
.ethos-report .check:focus{outline:3px solid var(--fg);outline-offset:2px}
.ethos-report .check h3{margin:0 0 .4em;font-size:1.05em}
.ethos-report .badge{font-weight:600;padding:0 .35em;border-radius:3px;border:2px solid}
.ethos-report .badge.ok{color:var(--ok)}.ethos-report .badge.fail{color:var(--fail);border-style:dashed}.ethos-report .badge.review{color:var(--review);border-style:dotted}
.ethos-report .facts{display:grid;grid-template-columns:max-content 1fr;gap:.2em .8em;margin:.3em 0}
.ethos-report .facts dt{font-weight:600;color:var(--muted)}.ethos-report .facts dd{margin:0;overflow-wrap:anywhere;white-space:pre-wrap}
.ethos-report .invisible{border:1px dashed currentColor;font-size:.75em;padding:0 .2em;font-family:ui-monospace,monospace}
.ethos-report .clipped{color:var(--muted);font-style:italic}
.ethos-report del{text-decoration:line-through 2px;color:var(--fail)}
.ethos-report ins{text-decoration:underline 2px;color:var(--ok)}
.ethos-report .guard.block{font-weight:600}
.ethos-report .elided{color:var(--muted)}
.ethos-report .region{margin:.5em 0 0}
.ethos-report .frame{position:relative;display:inline-block;max-width:100%;line-height:0;border:1px solid var(--line)}
.ethos-report .frame img{max-width:100%;height:auto;display:block;background:#fff}
.ethos-report .overlay{position:absolute;left:0;top:0;width:100%;height:100%;pointer-events:none}
.ethos-report rect.line{fill-opacity:.22;stroke-width:2;vector-effect:non-scaling-stroke}
.ethos-report rect.ok{fill:#0072b2;stroke:#0072b2}
.ethos-report rect.fail{fill:#d55e00;stroke:#d55e00;stroke-dasharray:6 3}
.ethos-report rect.review{fill:#e69f00;stroke:#8a6000;stroke-dasharray:2 2}
.ethos-report figcaption{font-size:.9em;color:var(--muted);margin-top:.2em}
.ethos-report a{color:inherit}
.ethos-report .filters{margin:.5em 0;padding:.4em .8em;border:1px solid var(--line)}
.ethos-report .filters label{margin-right:1em;white-space:nowrap}
.ethos-report .keys{font-size:.9em;color:var(--muted)}
.ethos-report kbd{border:1px solid var(--line);border-radius:3px;padding:0 .3em}
.ethos-report .num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.ethos-report .headline{font-size:1.3em;margin:.3em 0}
.ethos-report code.fingerprint{white-space:nowrap;overflow-wrap:normal}
.ethos-report meter{width:6em;vertical-align:middle}
.ethos-report caption{text-align:left;color:var(--muted);caption-side:bottom;font-size:.9em;padding-top:.2em}
@media print{.ethos-report .filters,.ethos-report .keys{display:none}
 .ethos-report .check[hidden]{display:block}
 .ethos-report .check{break-inside:avoid;background:none}
 .ethos-report .page-figure{break-before:page}
 .ethos-report tr{break-inside:avoid}
 .ethos-report *{print-color-adjust:exact;-webkit-print-color-adjust:exact}}
"""

_SCRIPT = """
(function () {
  "use strict";
  var report = document.querySelector(".ethos-report");
  var form = report.querySelector("form.filters");
  var checks = Array.prototype.slice.call(report.querySelectorAll("article.check"));
  var shown = report.querySelector("#shown-count");
  function apply() {
    var on = {};
    Array.prototype.forEach.call(form.querySelectorAll("input[type=checkbox]"), function (box) { on[box.value] = box.checked; });
    var count = 0;
    checks.forEach(function (check) { check.hidden = !on[check.getAttribute("data-status")]; if (!check.hidden) count++; });
    shown.textContent = String(count);
  }
  form.hidden = false;
  form.addEventListener("change", apply);
  apply();
  function visible() { return checks.filter(function (check) { return !check.hidden; }); }
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target && target.tagName === "INPUT") return;
    var step = event.key === "j" || event.key === "n" ? 1 : event.key === "k" || event.key === "p" ? -1 : 0;
    if (!step) return;
    var list = visible();
    if (!list.length) return;
    var at = list.indexOf(document.activeElement);
    var next = at < 0 ? (step > 0 ? 0 : list.length - 1) : Math.min(list.length - 1, Math.max(0, at + step));
    list[next].focus();
    list[next].scrollIntoView({block: "nearest"});
    event.preventDefault();
  });
})();
"""


#: The whole page's own rules (a notebook's fragment leaves its host page alone).
_PAGE_CSS = "body{margin:0;background:#fff}@media (prefers-color-scheme:dark){body{background:#15171a}}" + _CSS


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def _policy(script: str | None) -> str:
    # Nothing is fetched; only the page's inline style and script run (by hash: a script smuggled
    # into the page by any other way is refused; a page without a script allows none); images only
    # as data: URIs.
    return ("default-src 'none'; img-src data:; style-src " + _csp_hash(_PAGE_CSS) + "; script-src "
            + (_csp_hash(script) if script is not None else "'none'") + "; base-uri 'none'; form-action 'none'")


#: The evidence report's policy (see ``_policy``).
CONTENT_SECURITY_POLICY = _policy(_SCRIPT)


def _html_page(title: str, body: str, script: str | None) -> str:
    """A whole page around ``body`` (HTML): the head with its policy, the shared style and, when
    given, the script. Every page of this package (the evidence report, the corpus view) is one."""
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f'<meta http-equiv="Content-Security-Policy" content="{_policy(script)}">\n'
            '<meta name="referrer" content="no-referrer">\n'
            '<meta name="color-scheme" content="light dark">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{escape_text(title, 200)}</title>\n"
            f"<style>{_PAGE_CSS}</style>\n</head>\n<body>\n" + body
            + (f"\n<script>{script}</script>" if script is not None else "") + "\n</body>\n</html>\n")


def _summary_html(report: Mapping[str, Any], summary: Mapping[str, Any]) -> str:
    counts: dict[str, int] = {}
    for check in report.get("checks", []):
        counts[str(check.get("status"))] = counts.get(str(check.get("status")), 0) + 1
    rows = [("Proof status", f"<strong>{escape_text(summary.get('proof_status', '?'), 40)}</strong>"),
            ("Request certified", "yes" if summary.get("request_certified") else "no"),
            ("Checks", ", ".join(f"{n} {escape_text(status, 40)}" for status, n in sorted(counts.items())) or "none")]
    review = summary.get("needs_review_check_ids") or []
    if review:
        rows.append(("Needs review", " ".join(f'<a href="#check-{_attribute(i)}"><code>{escape_text(i, 20)}</code></a>' for i in review[:500])))
    limits = summary.get("proof_limitations") or []
    if limits:
        rows.append(("Limitations", ", ".join(f"<code>{escape_text(x, 60)}</code>" for x in limits)))
    rows.append(("Document", f"<code>{escape_text(report.get('document_fingerprint', '?'), 80)}</code>"
                 + (" <strong>(stale)</strong>" if report.get("fingerprint_stale") else "")))
    rows.append(("Policy", f"<code>{escape_text(report.get('policy_fingerprint', '?'), 80)}</code>"))
    verifier = report.get("verifier") or {}
    rows.append(("Verifier", f"{escape_text(verifier.get('name', '?'), 40)} {escape_text(verifier.get('version', '?'), 40)}"))
    body = "".join(f"<tr><th scope=\"row\">{name}</th><td>{value}</td></tr>" for name, value in rows)
    return f'<section id="summary"><h2>Proof summary</h2><table class="summary">{body}</table></section>'


def _decision_html(decision: Mapping[str, Any]) -> str:
    grounding = decision.get("grounding") or {}
    head = (f"<p>Question: {_quoted(decision.get('question', ''))}</p>"
            f"<p>App status: <strong>{escape_text(decision.get('app_status', '?'), 60)}</strong>; proof status "
            f"<code>{escape_text(grounding.get('proof_status', '?'), 40)}</code></p>")
    rows = []
    for claim in (decision.get("claims") or [])[:2000]:
        action = str(claim.get("release_action", "?"))
        group = "ok" if action == "show_final" else "fail" if action == "block" else "review"
        checks = " ".join(f'<a href="#check-{_attribute(i)}"><code>{escape_text(i, 20)}</code></a>' for i in (claim.get("check_ids") or [])[:50])
        labels = ", ".join(f"{key} <code>{escape_text(claim[key], 60)}</code>" for key in ("question_relevance", "claim_type", "claim_support") if claim.get(key))
        rows.append(f'<tr><td><code>{escape_text(claim.get("id", "?"), 40)}</code></td><td>{_quoted(claim.get("text", ""))}</td>'
                    f'<td><span class="badge {group}">{escape_text(action, 40)}</span><br><code>{escape_text(claim.get("release_reason", ""), 60)}</code></td>'
                    f"<td>{labels}</td><td>{checks}</td></tr>")
    table = ("<table><thead><tr><th>Claim</th><th>Text</th><th>Release</th><th>Labels</th><th>Checks</th></tr></thead><tbody>"
             + "".join(rows) + "</tbody></table>")
    notes = "".join(f"<li>{escape_text(note, 1000)}</li>" for note in (decision.get("notes") or [])[:50])
    return (f'<section id="decision"><h2>Release decision</h2>{head}{table}'
            + (f"<ul class=\"notes\">{notes}</ul>" if notes else "") + "</section>")


class _Layout:
    """What is drawn where: each check's line rectangles and region per page, and the pages to render."""

    def __init__(self, report: Mapping[str, Any], document: Mapping[str, Any] | None) -> None:
        payload = (document or {}).get("payload") or {}
        self.pages = {str(p["id"]): _Page(p) for p in payload.get("pages") or [] if isinstance(p, Mapping) and "id" in p}
        self.checks: list[dict[str, Any]] = []
        for check in report.get("checks", []):
            by_page = _check_boxes(check, self.pages)
            placed = []
            for page_id in sorted(by_page, key=lambda pid: self.pages[pid].index):
                lines = line_rectangles(by_page[page_id])
                placed.append({"page": self.pages[page_id], "lines": lines, "region": _region(lines, self.pages[page_id])})
            self.checks.append({"check": check, "placed": placed})

    def render_job(self) -> list[dict[str, Any]]:
        regions: dict[int, list[list[int]]] = {}
        scales: dict[int, float] = {}
        for entry in self.checks:
            for place in entry["placed"]:
                x0, y0, x1, y1 = place["region"]
                scale = scales[place["page"].index] = place["page"].scale
                regions.setdefault(place["page"].index, []).append([_px(x0, scale), _px(y0, scale), _px(x1, scale), _px(y1, scale)])
        return [{"index": index, "scale": scales[index], "regions": regions[index]} for index in sorted(regions)]


def _check_html(number: int, entry: Mapping[str, Any], images: Mapping[int, dict[str, Any]] | None,
                region_at: dict[int, int]) -> str:
    check = entry["check"]
    status = str(check.get("status", "?"))
    group, mark = _group(status)
    check_id = _attribute(check.get("id", f"#{number}"))
    kind = (check.get("claim") or {}).get("kind", "")
    figures = []
    for place in entry["placed"]:
        page = place["page"]
        caption = f"Page {page.index}"
        lines = place["lines"]
        label = f"{check_id} {status}"
        if images is not None and page.index in images:
            rendered = images[page.index]
            slot = region_at[page.index]
            region_at[page.index] += 1
            png = rendered["regions"][slot]
            if png is None:
                continue
            x0, y0, x1, y1 = place["region"]
            width = min(rendered["width"], _px(x1, page.scale)) - _px(x0, page.scale)
            height = min(rendered["height"], _px(y1, page.scale)) - _px(y0, page.scale)
            figures.append(
                f'<figure class="region" data-page="{page.index}" data-region="{x0},{y0},{x1},{y1}">'
                f'<div class="frame"><img src="data:image/png;base64,{png}" width="{width}" height="{height}" '
                f'alt="Page {page.index}, the region of check {check_id}">'
                + _overlay(lines, (x0, y0), width, height, group, label, page.scale)
                + f'</div><figcaption>{caption}: {len(lines)} highlighted line(s), {escape_text(status, 40)} '
                  f'(<a href="#page-{page.index}">full page</a>)</figcaption></figure>')
        else:
            boxes = "; ".join(f"[{', '.join(str(v) for v in line)}]" for line in lines[:50])
            figures.append(f'<p class="where" data-page="{page.index}">{caption}, lines at <code>{boxes}</code> '
                           "(display quanta, 1/100 pt from the top-left corner)</p>")
    if not entry["placed"]:
        figures.append('<p class="where">No box to show: the report places this check on no page of the document.</p>')
    return (f'<article class="check {group}" id="check-{check_id}" data-check-id="{check_id}" data-status="{_attribute(status)}" tabindex="0">'
            f'<h3><span class="badge {group}"><span class="mark" aria-hidden="true">{mark}</span> {escape_text(status, 40)}</span> '
            f"<code>{escape_text(check.get('id', '?'), 40)}</code> {escape_text(kind, 40)}</h3>"
            + _details(check) + "".join(figures) + "</article>")


def _pages_html(layout: _Layout, images: Mapping[int, dict[str, Any]]) -> str:
    by_index = {page.index: page for page in layout.pages.values()}
    figures = []
    for index in sorted(images):
        rendered = images[index]
        page = by_index[index]
        rects = []
        for entry in layout.checks:
            status = str(entry["check"].get("status", "?"))
            group, _ = _group(status)
            for place in entry["placed"]:
                if place["page"].index == index:
                    rects.append(_overlay(place["lines"], (0, 0), rendered["width"], rendered["height"], group,
                                          f"{_attribute(entry['check'].get('id', '?'))} {_attribute(status)}", page.scale))
        figures.append(f'<figure class="page-figure" id="page-{index}" data-page="{index}"><div class="frame">'
                       f'<img src="data:image/png;base64,{rendered["png"]}" width="{rendered["width"]}" height="{rendered["height"]}" '
                       f'alt="Page {index} with every check\'s evidence highlighted">' + "".join(rects)
                       + f"</div><figcaption>Page {index} (<code>{escape_text(page.id, 40)}</code>)</figcaption></figure>")
    return '<section id="pages"><h2>Pages</h2>' + "".join(figures) + "</section>" if figures else ""


def _body(report: Mapping[str, Any], summary: Mapping[str, Any], layout: _Layout,
          images: Mapping[int, dict[str, Any]] | None, decision: Mapping[str, Any] | None,
          notice: str | None, interactive: bool, check_ids: Sequence[str] | None = None) -> str:
    # Each page's region images are consumed in check order (the order they were rendered in).
    region_at: dict[int, int] = {index: 0 for index in images} if images is not None else {}
    if check_ids is not None:
        # One check or a few (a notebook's per-check view): their entries alone, numbered as in the report.
        wanted = set(check_ids)
        entries = [_check_html(n, e, images, region_at) for n, e in enumerate(layout.checks, 1)]
        chosen = [html for html, e in zip(entries, layout.checks) if str(e["check"].get("id")) in wanted]
        return '<main class="ethos-report">' + "".join(chosen) + "</main>"
    statuses = sorted({str(c.get("status", "?")) for c in report.get("checks", [])})
    parts = ['<main class="ethos-report">', "<h1>Ethos evidence report</h1>"]
    if notice:
        parts.append(f'<p class="notice">{notice}</p>')
    parts.append(_summary_html(report, summary))
    if decision is not None:
        parts.append(_decision_html(decision))
    parts.append(f'<section id="checks"><h2>Checks ({len(layout.checks)})</h2>')
    if interactive:
        boxes = "".join(f'<label><input type="checkbox" value="{_attribute(s)}" checked> {escape_text(s, 40)}</label>' for s in statuses)
        parts.append(f'<form class="filters" hidden><strong>Show:</strong> {boxes} (<span id="shown-count">{len(layout.checks)}</span> shown)</form>'
                     '<p class="keys">Keys: <kbd>j</kbd>/<kbd>n</kbd> next check, <kbd>k</kbd>/<kbd>p</kbd> previous; '
                     "line highlights: solid = grounded, dashed = not grounded, dotted = needs review.</p>")
    for number, entry in enumerate(layout.checks, 1):
        parts.append(_check_html(number, entry, images, region_at))
    parts.append("</section>")
    if images:
        parts.append(_pages_html(layout, images))
    parts.append("</main>")
    return "".join(parts)


def _prepare(report: ReportInput, source: Any, pdf: str | os.PathLike[str] | None, decision: Any,
             password: str | None, timeout_seconds: float) -> tuple[dict[str, Any], dict[str, Any], _Layout,
                                                                    dict[int, dict[str, Any]] | None, dict[str, Any] | None, str | None]:
    from ._host_io import json_input
    from .cli import _host_error
    from .proof import proof_summary

    loaded = _load_json(report, "REPORT")
    if not isinstance(loaded, dict) or not isinstance(loaded.get("checks"), list):
        raise _host_error("invalid_input", {"argument": "REPORT", "path": "$.checks", "reason": "not_a_report"})
    summary = proof_summary(json_input(loaded))  # the core reads the report: a malformed one fails here
    document: dict[str, Any] | None = None
    if source is not None:
        document = _load_json(source, "--source")
        if not isinstance(document, dict):
            raise _host_error("invalid_input", {"argument": "--source", "path": "$", "reason": "not_a_document"})
    elif pdf is not None:
        from .pdf import parse_pdf_bytes

        document = json.loads(parse_pdf_bytes(pdf, password=password))
    if document is not None and source is not None and pdf is not None:
        # The images must be of the parsed PDF: its bytes' hash is the document's source fingerprint.
        origin = document.get("source")
        expected = origin.get("fingerprint") if isinstance(origin, dict) else None
        if expected is not None:
            from ._host_io import read_input_file

            actual = "sha256:" + hashlib.sha256(read_input_file(pdf, argument="--pdf")).hexdigest()
            if actual != expected:
                raise _host_error("source_mismatch", {"argument": "--pdf", "path": "$.source.fingerprint", "expected": expected})
    if document is not None and document.get("fingerprint") != loaded.get("document_fingerprint"):
        raise _host_error("source_mismatch", {"argument": "REPORT", "path": "$.document_fingerprint",
                                              "expected": document.get("fingerprint")})
    loaded_decision: dict[str, Any] | None = None
    if decision is not None:
        loaded_decision = _load_json(decision, "--decision")
        if not isinstance(loaded_decision, dict) or loaded_decision.get("artifact_type") != "ethos.app_answer_release_decision.v1":
            raise _host_error("invalid_input", {"argument": "--decision", "path": "$.artifact_type",
                                                "reason": "not_a_release_decision"})
    layout = _Layout(loaded, document)
    images = None
    notice = None
    if pdf is None:
        notice = ("No PDF was given (<code>--pdf</code>): the evidence is shown as text and page coordinates, "
                  "without page images.")
    else:
        job = layout.render_job()
        images = _render_pages(pdf, password, job, timeout_seconds) if job else {}
    if document is None:
        notice = ("Neither the parsed document (<code>--source</code>) nor the PDF (<code>--pdf</code>) was given: "
                  "the evidence is shown as text only, without page places or images.")
    return loaded, summary, layout, images, loaded_decision, notice


def render_report_html(report: ReportInput, *, source: Any = None, pdf: str | os.PathLike[str] | None = None,
                       decision: Any = None, password: str | None = None, timeout_seconds: float = 300.0) -> str:
    """The HTML evidence report of ``report`` (a dict, JSON bytes or text, or a path): one
    self-contained page (see the module documentation). ``source`` is the parsed document the
    report was verified against (gives the pages and their sizes); ``pdf`` is the PDF itself (its
    pages are rendered; without ``source`` it is parsed, through the parse cache); ``decision`` is
    an ``ethos.app_answer_release_decision.v1``. Raises ``EthosError`` ``source_mismatch`` for a
    report about another document, ``invalid_input`` for a file that is not what it should be.

        >>> from pathlib import Path
        >>> import ethos_py
        >>> report = ethos_py.verify("examples/quickstart/document.json", Path("examples/quickstart/citations.json"))
        >>> page = render_report_html(report, source=Path("examples/quickstart/document.json"))
        >>> page.startswith("<!DOCTYPE html>"), page.count('<article class="check')
        (True, 4)
    """
    loaded, summary, layout, images, loaded_decision, notice = _prepare(report, source, pdf, decision, password, timeout_seconds)
    return _html_page("Ethos evidence report", _body(loaded, summary, layout, images, loaded_decision, notice, True), _SCRIPT)


def report_fragment_html(report: ReportInput, *, source: Any = None, pdf: str | os.PathLike[str] | None = None,
                         decision: Any = None, password: str | None = None, timeout_seconds: float = 300.0,
                         check_ids: Sequence[str] | None = None) -> str:
    """The same report as an HTML fragment for embedding (a notebook cell's output): its style and
    the same entries, without the page's head, script and filters. With ``check_ids``, only those
    checks' entries (the same HTML as in the report).

        >>> from pathlib import Path
        >>> import ethos_py
        >>> report = ethos_py.verify("examples/quickstart/document.json", Path("examples/quickstart/citations.json"))
        >>> fragment = report_fragment_html(report)
        >>> fragment.startswith('<div class="ethos-embed"><style>'), "<script" in fragment
        (True, False)
    """
    return _fragment(_prepare(report, source, pdf, decision, password, timeout_seconds), check_ids)


def _fragment(prepared: tuple[Any, ...], check_ids: Sequence[str] | None) -> str:
    # ethos_py.notebook keeps ``prepared`` (the pages rendered once) for every view of one report.
    loaded, summary, layout, images, loaded_decision, notice = prepared
    return (f'<div class="ethos-embed"><style>{_CSS}</style>'
            + _body(loaded, summary, layout, images, loaded_decision, notice, False, check_ids) + "</div>")
