"""reply_verify - verifies the quotes and edit anchors of a model's reply with the core's matcher.

Each quote becomes one ``scope: "document"`` quote claim of one in-process verify (the core's tier
ladder, offset maps, whole-token rule and guards under the policy), so "verified" here means what
a grounded check means everywhere else in Ethos. Plain-text sources are opened with grounding
``text``; the core reports offsets into its element texts, which are mapped back to offsets into
the caller's text by replaying the text loader's paragraph split (native/src/sources/text_source.cpp).
"""

from __future__ import annotations

import bisect
import json
import os
import re
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from typing import Any, Union

from .document import Document
from .errors import EthosError

__all__ = ["QuoteVerdict", "edit_records", "verify_anchors", "verify_quotes"]

VERIFIED = "verified"
NOT_FOUND = "not_found"
AMBIGUOUS = "ambiguous"

# A quote that trails off: "..." or "…" at its end (the model cut it short on purpose).
_TRAILING_ELLIPSIS = re.compile(r"\s*(\.\.\.|…)+\s*$")
_ELLIPSIS = re.compile(r"\.\.\.|…")
_WHITESPACE = re.compile(r"\s+")

#: A policy: a preset name, a policy file's bytes or path (as ``Document.verify`` takes), ``None``
#: for the default.
PolicyInput = Union[str, bytes, "os.PathLike[str]", None]


@dataclass(frozen=True)
class QuoteVerdict:
    """The verdict on one quote (or edit anchor): a fact on the record, never an exception.

    ``status`` is ``verified`` (found once at an accepted tier), ``ambiguous`` (found more than
    once, counted at the tier matched and again at the last tier the policy accepts, so "Fees"
    and "FEES" are two occurrences under ``default``: an edit must not guess which) or ``not_found`` (``reason`` says
    why: the core's reason such as ``near_miss``, ``numeric_guard``, ``polarity_guard``, or
    ``empty_quote``, ``prefix_too_short``, ``elided_anchor``, ``rejected``). ``span`` is
    ``[start, end)`` into the source text (Python string indices) when the source is a ``str``;
    ``element_span`` the same inside ``evidence_text`` (the element or running text the core
    searched); ``page`` and ``boxes`` locate it in a parsed PDF. ``diff`` is the near-miss diff
    (quote tokens against the document's own) when there is one. ``prefix`` says the quote
    trailed off and only ``checked_text`` (what precedes its ellipsis) was verified.

        >>> (verdict,) = verify_quotes(["fees are due within 30 days"], "Fees are due within 30 days.")
        >>> verdict.status, verdict.tier, verdict.span, verdict.located_text
        ('verified', 'case', (0, 27), 'Fees are due within 30 days')
    """

    index: int
    quote: str
    status: str
    reason: str | None = None
    tier: str | None = None
    occurrences: int = 0
    span: tuple[int, int] | None = None
    located_text: str | None = None
    element_span: tuple[int, int] | None = None
    evidence_text: str | None = None
    page: str | None = None
    boxes: tuple[Mapping[str, Any], ...] = ()
    diff: tuple[Mapping[str, Any], ...] | None = None
    guards: tuple[Mapping[str, Any], ...] | None = None
    prefix: bool = False
    checked_text: str = ""
    record: Any = field(default=None, compare=False)

    @property
    def verified(self) -> bool:
        """``status == "verified"``: the one status an edit may be applied on."""
        return self.status == VERIFIED

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (the caller's record left out: it may not be JSON)."""
        return {
            "boxes": [dict(box) for box in self.boxes],
            "checked_text": self.checked_text,
            "diff": None if self.diff is None else [dict(step) for step in self.diff],
            "element_span": None if self.element_span is None else list(self.element_span),
            "guards": None if self.guards is None else [dict(guard) for guard in self.guards],
            "index": self.index,
            "located_text": self.located_text,
            "occurrences": self.occurrences,
            "page": self.page,
            "prefix": self.prefix,
            "quote": self.quote,
            "reason": self.reason,
            "span": None if self.span is None else list(self.span),
            "status": self.status,
            "tier": self.tier,
        }


class _TextMap:
    """Offsets of the text loader's running text (paragraphs of non-blank lines, every line
    joined by one LF) mapped back to the caller's text (CRLF/CR line ends, blank lines, a BOM)."""

    def __init__(self, text: str) -> None:
        position = 1 if text.startswith("\ufeff") else 0  # the loader skips a BOM
        lines: list[tuple[int, int]] = []  # (start, end) of every line, terminators excluded
        start = position
        index = position
        while index < len(text):
            char = text[index]
            if char in "\r\n":
                lines.append((start, index))
                if char == "\r" and index + 1 < len(text) and text[index + 1] == "\n":
                    index += 1
                start = index + 1
            index += 1
        if start < len(text):
            lines.append((start, len(text)))
        self.source_starts: list[int] = []
        self.running_starts: list[int] = []
        self.lengths: list[int] = []
        self.element_starts: set[int] = set()
        self.element_ends: set[int] = set()
        pieces: list[str] = []
        cursor = 0
        previous_blank = True
        for line_start, line_end in lines:
            line = text[line_start:line_end]
            if line.strip(" \t\f\v") == "":
                if not previous_blank:
                    self.element_ends.add(cursor - 1)
                previous_blank = True
                continue
            if previous_blank:
                self.element_starts.add(cursor)
            previous_blank = False
            self.source_starts.append(line_start)
            self.running_starts.append(cursor)
            self.lengths.append(line_end - line_start)
            pieces.append(line)
            cursor += len(line) + 1
        if not previous_blank:
            self.element_ends.add(cursor - 1)
        self.running = "\n".join(pieces)

    def to_source(self, offset: int) -> int:
        """The caller's offset of a running-text offset (a joining LF maps to the line's end)."""
        line = bisect.bisect_right(self.running_starts, offset) - 1
        line = max(line, 0)
        return self.source_starts[line] + min(offset - self.running_starts[line], self.lengths[line])

    def locate(self, evidence: str) -> int | None:
        """Where the core's evidence text (one element, or several joined) starts in the running
        text: its first occurrence that begins and ends on element boundaries."""
        position = self.running.find(evidence)
        while position != -1:
            if position in self.element_starts and position + len(evidence) in self.element_ends:
                return position
            position = self.running.find(evidence, position + 1)
        return None


def _same_text(a: str, b: str) -> bool:
    """Equal up to white space: the core joins lines and paragraphs with one LF."""
    return _WHITESPACE.sub(" ", a).strip() == _WHITESPACE.sub(" ", b).strip()


def _quote_of(record: Any, key: str) -> str | None:
    """The quote a record carries: the record itself (a str), ``record[key]`` or ``record.key``."""
    if isinstance(record, str):
        return record
    value = record.get(key) if isinstance(record, Mapping) else getattr(record, key, None)
    return value if isinstance(value, str) else None


def _claims_verdicts(texts: list[str], document: Document, policy: PolicyInput) -> list[dict[str, Any] | None]:
    """One check per text (``None`` for a text the core rejected outright), in one verify call
    when the request is accepted, else one call per text so one bad quote spoils nothing else."""
    fingerprint = document.describe().get("document_fingerprint")

    def request(batch: list[str]) -> dict[str, Any]:
        body: dict[str, Any] = {
            "claims": [{"citation": {"scope": "document"}, "kind": "quote", "text": text} for text in batch]
        }
        if fingerprint is not None:
            body["document_fingerprint"] = fingerprint
        return body

    if not texts:
        return []
    try:
        checks: list[dict[str, Any]] = document.verify(request(texts), policy=policy)["checks"]
        return list(checks)
    except EthosError:
        pass
    results: list[dict[str, Any] | None] = []
    for text in texts:
        try:
            results.append(document.verify(request([text]), policy=policy)["checks"][0])
        except EthosError:
            results.append(None)
    return results


def _verdict(index: int, quote: str, checked: str, prefix: bool, check: dict[str, Any] | None,
             text_map: _TextMap | None, source_text: str | None, record: Any) -> QuoteVerdict:
    """A core check turned into the record's verdict, its offsets mapped into the source text."""
    base: dict[str, Any] = {"index": index, "quote": quote, "checked_text": checked, "prefix": prefix, "record": record}
    if check is None:
        return QuoteVerdict(status=NOT_FOUND, reason="rejected", **base)
    match = check.get("match") or {}
    evidence = check.get("evidence") or {}
    evidence_text = evidence.get("text")
    start, end = match.get("start"), match.get("end")
    element_span = (start, end) if isinstance(start, int) and isinstance(end, int) else None
    located: dict[str, Any] = {
        "tier": match.get("tier"),
        "occurrences": int(match.get("occurrences", 0) or 0),
        "element_span": element_span,
        "evidence_text": evidence_text,
        "page": evidence.get("page"),
        "boxes": tuple(match.get("boxes") or ()),
        "diff": None if match.get("diff") is None else tuple(match["diff"]),
        "guards": None if match.get("guards") is None else tuple(match["guards"]),
    }
    span = None
    located_text = match.get("source_text")
    if text_map is not None and source_text is not None and element_span is not None and isinstance(evidence_text, str):
        offset = text_map.locate(evidence_text)
        if offset is not None:
            span = (text_map.to_source(offset + element_span[0]), text_map.to_source(offset + element_span[1]))
            located_text = source_text[span[0]:span[1]]
            if not _same_text(located_text, str(match.get("source_text", ""))):
                span, located_text = None, None  # never report a place the core did not find
    if check.get("status") != "grounded":
        return QuoteVerdict(status=NOT_FOUND, reason=str(check.get("reason") or check.get("status")), span=span,
                            located_text=located_text, **located, **base)
    if text_map is not None and span is None:
        return QuoteVerdict(status=NOT_FOUND, reason="unmapped_span", **located, **base)
    if located["occurrences"] > 1:
        return QuoteVerdict(status=AMBIGUOUS, reason="found_more_than_once", span=span, located_text=located_text,
                            **located, **base)
    return QuoteVerdict(status=VERIFIED, span=span, located_text=located_text, **located, **base)


def _verify(records: Sequence[Any], source: str | Document, policy: PolicyInput, key: str,
            min_chars: int | None) -> list[QuoteVerdict]:
    """Shared by ``verify_quotes`` (``min_chars``: a trailing quote checks its prefix) and
    ``verify_anchors`` (``None``: an anchor must name exactly what it replaces)."""
    if not isinstance(source, (str, Document)):
        raise TypeError("source must be the source text (str) or an open Document")
    # A bad policy is the caller's error, raised once: not a "rejected" verdict on every quote.
    from .document import explain_policy_json

    explain_policy_json(policy)
    prepared: list[tuple[str, str, bool, str | None]] = []  # quote, checked text, prefix, early reason
    for record in records:
        quote = _quote_of(record, key) or ""
        checked, prefix, reason = quote, False, None
        if min_chars is not None and _TRAILING_ELLIPSIS.search(quote):
            checked, prefix = _TRAILING_ELLIPSIS.sub("", quote), True
            if len(checked.strip()) < min_chars:
                reason = "prefix_too_short"
        elif min_chars is None and _ELLIPSIS.search(quote):
            reason = "elided_anchor"
        if not checked.strip():
            reason = "empty_quote"
        else:
            try:
                checked.encode("utf-8")
            except UnicodeEncodeError:
                reason = "invalid_text"
        prepared.append((quote, checked, prefix, reason))
    with ExitStack() as stack:
        if isinstance(source, Document):
            document, text_map, source_text = source, None, None
        else:
            document = stack.enter_context(Document.from_bytes(source.encode("utf-8"), "text"))
            text_map, source_text = _TextMap(source), source
        asked = [checked for _, checked, _, reason in prepared if reason is None]
        checks = iter(_claims_verdicts(asked, document, policy))
        verdicts = []
        for index, (record, (quote, checked, prefix, reason)) in enumerate(zip(records, prepared)):
            if reason is not None:
                verdicts.append(QuoteVerdict(index, quote, NOT_FOUND, reason, checked_text=checked, prefix=prefix,
                                             record=record))
                continue
            verdicts.append(_verdict(index, quote, checked, prefix, next(checks), text_map, source_text, record))
        return _ambiguous_at_accepted_tier(verdicts, document, policy)


def _loosest_policy(policy: PolicyInput) -> tuple[str, bytes]:
    """The policy's last accepted tier, and the policy searching that tier alone: its
    occurrences then count every accepted reading of the quote, not only the tightest one."""
    from .document import pinned_config_json

    derived = json.loads(pinned_config_json(policy))["matching"]["policy"]
    accepted = str(derived["accept_up_to"])
    derived["tiers"] = [accepted]
    derived["name"] = f"{derived['name']}-occurrences"
    return accepted, json.dumps(derived).encode("utf-8")


def _ambiguous_at_accepted_tier(verdicts: list[QuoteVerdict], document: Document,
                                policy: PolicyInput) -> list[QuoteVerdict]:
    """A quote found once at a tight tier may occur again in a looser accepted form ("Fees" and
    "FEES" under default): the core counts occurrences at the tier it matched, so the verified
    ones are counted again at the last accepted tier, and more than one there is ambiguous."""
    accepted, loosest = _loosest_policy(policy)
    recount = [verdict for verdict in verdicts if verdict.status == VERIFIED and verdict.tier != accepted]
    if not recount:
        return verdicts
    checks = _claims_verdicts([verdict.checked_text for verdict in recount], document, loosest)
    upgraded: dict[int, QuoteVerdict] = {}
    for verdict, check in zip(recount, checks):
        occurrences = int(((check or {}).get("match") or {}).get("occurrences", 0) or 0)
        if check is not None and check.get("status") == "grounded" and occurrences > 1:
            upgraded[verdict.index] = replace(verdict, status=AMBIGUOUS, reason="found_more_than_once",
                                              occurrences=occurrences)
    return [upgraded.get(verdict.index, verdict) for verdict in verdicts]


def verify_quotes(rows: Sequence[Any], source: str | Document, min_chars: int = 40, *, policy: PolicyInput = "default",
                  key: str = "quote") -> list[QuoteVerdict]:
    """Verifies every row's quote (a row is a str, a mapping with ``key`` or an object with that
    attribute) against ``source`` (its text, or an open ``Document`` such as a parsed PDF), one
    ``QuoteVerdict`` per row in order. A quote that trails off (ends with ``...`` or ``…``) is
    checked on what precedes the ellipsis, which must be at least ``min_chars`` characters; its
    verdict has ``prefix=True``.

        >>> source = "The Supplier shall deliver the Goods within 30 days of the order."
        >>> [v.status for v in verify_quotes(["deliver the Goods within 30 days", "within 60 days"], source)]
        ['verified', 'not_found']
    """
    if min_chars < 0:
        raise ValueError("min_chars must be zero or more")
    return _verify(list(rows), source, policy, key, min_chars)


def edit_records(reply: Any) -> list[Any]:
    """The edit records of a reply: a list as given, a mapping's ``edits`` list, or the payload of
    a reply text (``extract_json_payload``) or an ``Extraction``; ``[]`` when there are none.

        >>> edit_records('Edits: {"edits": [{"anchor": "a", "replacement": "b"}]}')
        [{'anchor': 'a', 'replacement': 'b'}]
        >>> edit_records("no JSON")
        []
    """
    from .reply_extract import Extraction, extract_json_payload

    if isinstance(reply, str):
        reply = extract_json_payload(reply)
    if isinstance(reply, Extraction):
        reply = reply.payload
    if isinstance(reply, Mapping):
        reply = reply.get("edits")
    if isinstance(reply, Sequence) and not isinstance(reply, (str, bytes, bytearray)):
        return list(reply)
    return []


def verify_anchors(reply: Any, source: str | Document, policy: PolicyInput = "default", *,
                   key: str = "anchor") -> list[QuoteVerdict]:
    """Verifies the anchor (the quoted text an edit replaces, ``key``) of every edit of ``reply``
    (see ``edit_records``) against ``source``; one verdict per edit, the edit as ``record``. An
    anchor with an ellipsis is ``not_found`` (``elided_anchor``): an edit must name exactly what
    it replaces.

        >>> source = "Fees are due within 30 days. Fees are due within 30 days."
        >>> [v.status for v in verify_anchors([{"anchor": "Fees are due"}, {"anchor": "due within 45 days"}], source)]
        ['ambiguous', 'not_found']
    """
    return _verify(edit_records(reply), source, policy, key, None)
