"""sensitivity_text - ``ethos sensitivity --format text``: the per-policy rates as a table, the spread line and the claims that change verdict, for people."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["render_sensitivity_text"]

_COLUMNS = ("grounded", "contiguous", "repaired", "rejected")
_TEXT_WIDTH = 72  # a claim's text is cut to this many characters in the list of changes


def _percent(rate_bp: int) -> str:
    return f"{rate_bp // 100}.{rate_bp % 100:02d}%"


def _cell(value: Mapping[str, int] | None) -> str:
    return "not computed" if value is None else f"{value['count']} ({_percent(value['rate_bp'])})"


def _where(change: Mapping[str, Any]) -> str:
    if "id" in change:
        return str(change["id"])
    return f"{change.get('source', '')}:{change.get('line', '')}"


def _cut(text: Any) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= _TEXT_WIDTH else flat[:_TEXT_WIDTH - 1] + "\u2026"


def render_sensitivity_text(result: Mapping[str, Any]) -> str:
    """The text rendering of a ``sensitivity(...)`` result: one row per policy (what it accepts
    and its rates), the spread line, then each claim that changes verdict between policies.

        >>> from ethos_py.sensitivity import sensitivity
        >>> result = sensitivity("examples/quickstart/document.json", "examples/quickstart/citations.json")
        >>> print(render_sensitivity_text(result).splitlines()[-1])
        Spread: the grounded rate varies by 0.00 percentage points across the three policies (every claim has the same verdict under each).
    """
    policies = list(result["rates"])
    rows = [("policy", "accepts up to", *_COLUMNS)]
    for name in policies:
        rate = result["rates"][name]
        rows.append((name, rate["accept_up_to"], *(_cell(rate[column]) for column in _COLUMNS)))
    widths = [max(len(row[index]) for row in rows) for index in range(len(rows[0]))]
    repair = result["repair"]
    salvage = f", --salvage {repair['salvage']}" if "salvage" in repair else ""
    if "calibration" in repair:
        heading = (f"repaired: accepted by ethos repair --calibration (threshold {repair['threshold']}, made for "
                   f"{repair['calibration']['policy']}: not computed under the other policies){salvage} (substitute)")
    elif repair["computed"]:
        heading = f"repaired: accepted by ethos repair --threshold {repair['threshold']}{salvage} (substitute)"
    else:
        heading = "repaired: not computed (no --threshold; claims not grounded count as rejected)"
    lines = [f"ethos sensitivity: {result['claims']} claims, {len(result['sources'])} source(s), {heading}", ""]
    lines += ["  ".join(cell.ljust(widths[index]) for index, cell in enumerate(row)).rstrip() for row in rows]
    spread = result["spread"]
    points = _percent(spread["grounded_rate_bp"])[:-1]
    lines.append("")
    if spread["changed_count"] == 0:
        lines.append(f"Spread: the grounded rate varies by {points} percentage points across the three policies "
                     "(every claim has the same verdict under each).")
        return "\n".join(lines) + "\n"
    high, low = spread["max"], spread["min"]
    lines.append(f"Spread: the grounded rate varies by {points} percentage points across the three policies "
                 f"({low['policy']} {_percent(low['rate_bp'])} to {high['policy']} {_percent(high['rate_bp'])}); "
                 f"{spread['changed_count']} of {result['claims']} claims change verdict:")
    for change in spread["changed"]:
        verdicts = ", ".join(f"{name} {change['verdicts'][name]['outcome']}" for name in policies)
        lines.append(f"  {_where(change)}  {verdicts}  \"{_cut(change['text'])}\"")
    return "\n".join(lines) + "\n"
