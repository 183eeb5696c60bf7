"""redlines - an EXAMPLE reply schema (contract redlines and summaries) built on the domain-free reply layer.

Nothing in Ethos depends on this module: ``reply_extract``, ``reply_verify`` and ``edits`` know
nothing of contracts. It shows the pattern for one domain (docs/replies.md "A worked schema"):
typed records parsed from the extracted payload, legacy field values coerced to one vocabulary,
and every record that does not fit reported, not dropped. Copy it and change the fields for yours.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import InvalidInputError
from .reply_extract import Extraction, extract_json_payload

__all__ = [
    "MARKET_POSITIONS",
    "ContractSummary",
    "RedlineEdit",
    "RedlineOutput",
    "SummaryClause",
    "coerce_market_position",
    "parse_contract_summary",
    "parse_redline_output",
]

#: The market positions a redline may take; ``unknown`` when the model wrote something else.
MARKET_POSITIONS = ("market_standard", "off_market", "not_applicable", "unknown")

# Values older prompts (and older models) wrote, folded to the vocabulary above.
_LEGACY_POSITIONS = {
    "market": "market_standard",
    "market standard": "market_standard",
    "market-standard": "market_standard",
    "standard": "market_standard",
    "off-market": "off_market",
    "off market": "off_market",
    "offmarket": "off_market",
    "non-market": "off_market",
    "n/a": "not_applicable",
    "na": "not_applicable",
    "none": "not_applicable",
    "not applicable": "not_applicable",
}


def coerce_market_position(value: Any) -> str:
    """One of ``MARKET_POSITIONS`` for whatever the model wrote (legacy spellings included).

        >>> [coerce_market_position(v) for v in ["market", "Off-Market", "N/A", "off_market", "bold", None]]
        ['market_standard', 'off_market', 'not_applicable', 'off_market', 'unknown', 'unknown']
    """
    if not isinstance(value, str):
        return "unknown"
    word = value.strip().lower()
    if word in MARKET_POSITIONS:
        return word
    return _LEGACY_POSITIONS.get(word, _LEGACY_POSITIONS.get(word.replace("_", " "), "unknown"))


@dataclass(frozen=True)
class RedlineEdit:
    """One proposed change: the quoted ``anchor`` it replaces, the ``replacement``, why, and the
    ``market_position`` (coerced; ``raw_market_position`` keeps what the model wrote).

        >>> RedlineEdit("30 days", "45 days", market_position=coerce_market_position("off-market")).market_position
        'off_market'
    """

    anchor: str
    replacement: str
    rationale: str = ""
    market_position: str = "unknown"
    raw_market_position: Any = None


@dataclass(frozen=True)
class RedlineOutput:
    """The edits of a redline reply, the records that were not edits (``problems``: index and
    reason) and how the payload was found (``extraction``).

        >>> parse_redline_output('[{"anchor": "a b c", "replacement": "d"}, "x"]').problems
        ((1, 'not an object'),)
    """

    edits: tuple[RedlineEdit, ...]
    problems: tuple[tuple[int, str], ...]
    extraction: Extraction


@dataclass(frozen=True)
class SummaryClause:
    """A clause of a contract summary and the quotes that support it (to check with
    ``verify_quotes``).

        >>> SummaryClause("Term", "One year.", ("twelve (12) months",)).quotes
        ('twelve (12) months',)
    """

    title: str
    summary: str
    quotes: tuple[str, ...]


@dataclass(frozen=True)
class ContractSummary:
    """The clauses of a summary reply, the records that were not clauses, and the extraction.

        >>> [c.title for c in parse_contract_summary('{"clauses": [{"title": "Fees", "quote": "30 days"}]}').clauses]
        ['Fees']
    """

    clauses: tuple[SummaryClause, ...]
    problems: tuple[tuple[int, str], ...]
    extraction: Extraction


def _payload_items(text: str, keys: tuple[str, ...]) -> tuple[list[Any], Extraction]:
    """The record list of a reply's payload (under the first of ``keys``, or the payload itself)."""
    extraction = extract_json_payload(text)
    if not extraction.found:
        raise InvalidInputError(f"the reply holds no JSON payload ({extraction.reason})",
                                {"reason": f"no_payload:{extraction.reason}"})
    payload = extraction.payload
    if isinstance(payload, Mapping):
        payload = next((payload[key] for key in keys if key in payload), None)
    if not isinstance(payload, list):
        raise InvalidInputError(f"the payload has no list under {' or '.join(keys)}", {"reason": "no_records"})
    return payload, extraction


def _text(record: Mapping[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = record.get(key)
        if isinstance(value, str):
            return value
    return None


def parse_redline_output(text: str) -> RedlineOutput:
    """The redline edits of a reply (payload ``{"edits": [...]}`` or a list; field aliases of
    older prompts read too). No payload raises ``InvalidInputError``; a record without a string
    anchor and replacement is a problem, reported with its index.

        >>> out = parse_redline_output('```json\\n{"edits": [{"anchor": "30 days", "replacement": "45 days", '
        ...                            '"market_position": "market"}, {"anchor": 5}]}\\n```')
        >>> out.edits[0].market_position, out.problems
        ('market_standard', ((1, 'no anchor'),))
    """
    items, extraction = _payload_items(text, ("edits", "redlines", "changes"))
    edits: list[RedlineEdit] = []
    problems: list[tuple[int, str]] = []
    for index, item in enumerate(items):
        if not isinstance(item, Mapping):
            problems.append((index, "not an object"))
            continue
        anchor = _text(item, "anchor", "anchor_quote", "original", "quote")
        replacement = _text(item, "replacement", "proposed", "new_text", "revised")
        if anchor is None:
            problems.append((index, "no anchor"))
            continue
        if replacement is None:
            problems.append((index, "no replacement"))
            continue
        raw = item.get("market_position", item.get("position"))
        edits.append(RedlineEdit(anchor, replacement, _text(item, "rationale", "reason") or "",
                                 coerce_market_position(raw), raw))
    return RedlineOutput(tuple(edits), tuple(problems), extraction)


def parse_contract_summary(text: str) -> ContractSummary:
    """The clauses of a summary reply (payload ``{"clauses": [...]}`` or a list), each with its
    supporting quotes (``quotes`` list or one ``quote``).

        >>> summary = parse_contract_summary('{"clauses": [{"title": "Term", "summary": "One year.", '
        ...                                  '"quotes": ["continues for twelve (12) months"]}]}')
        >>> summary.clauses[0].quotes
        ('continues for twelve (12) months',)
    """
    items, extraction = _payload_items(text, ("clauses", "summary", "sections"))
    clauses: list[SummaryClause] = []
    problems: list[tuple[int, str]] = []
    for index, item in enumerate(items):
        if not isinstance(item, Mapping):
            problems.append((index, "not an object"))
            continue
        raw_quotes = item.get("quotes", [item["quote"]] if "quote" in item else [])
        quotes = tuple(q for q in raw_quotes if isinstance(q, str)) if isinstance(raw_quotes, list) else ()
        title = _text(item, "title", "clause", "name")
        if title is None:
            problems.append((index, "no title"))
            continue
        clauses.append(SummaryClause(title, _text(item, "summary", "text") or "", quotes))
    return ContractSummary(tuple(clauses), tuple(problems), extraction)
