"""reply_extract - finds the JSON payload in a model's reply (fences, prose, schema sketches, truncation).

Models wrap their JSON in prose, put it in one or several fences (any tag, ``` or ~~~), show a
schema sketch before the real payload, or stop mid-object. ``extract_json_payload`` finds every
candidate, says why each one was chosen or skipped, and parses with the standard library's
``json`` only: a candidate that is not valid JSON is reported, never repaired (docs/replies.md).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Candidate", "Extraction", "extract_json_block", "extract_json_payload"]

#: The largest reply read (16 MiB of text): a reply is a few KB; the bound keeps the scan linear-ish
#: input from turning into minutes of work.
MAX_REPLY_CHARS = 16 * 1024 * 1024

# An opening fence: three or more backticks or tildes, up to three spaces in (CommonMark), then
# the info string (the tag: json, summary-json, none at all).
_FENCE_OPEN = re.compile(r"^( {0,3})(`{3,}|~{3,})[ \t]*([^\n`]*?)[ \t]*$", re.MULTILINE)

# Values a schema sketch writes where the real payload has data: type names and placeholders.
_TYPE_NAMES = frozenset(
    {
        "string", "str", "text", "number", "integer", "int", "float", "double", "boolean", "bool",
        "array", "list", "object", "dict", "null", "none", "any", "date", "datetime", "uuid", "url",
        "string | null", "number | null", "value", "todo", "tbd", "placeholder",
    }
)
_ANGLE_PLACEHOLDER = re.compile(r"^<[^<>]*>$|^\{\{[^{}]*\}\}$|^\[[A-Za-z _-]+\]$")
_ELLIPSIS = re.compile(r"^(\.\.\.|…)+$")
# "a | b | c": the alternatives of an enum written where one value belongs.
_ALTERNATIVES = re.compile(r"^[\w/-]+( [\w/-]+)?(\s*\|\s*[\w/-]+( [\w/-]+)?)+$")
# Comments are not JSON: their presence marks a sketch (when the text fails to parse).
_COMMENT = re.compile(r"(^|[\s,\[{])(//|#)[^\n]*|/\*.*?\*/", re.DOTALL)


@dataclass(frozen=True)
class Candidate:
    r"""One place in the reply that could hold the payload, and what became of it.

    ``span`` is the candidate's JSON text as ``[start, end)`` offsets (Python string indices, i.e.
    Unicode scalars) into the reply; ``fence`` is the fence's tag (``""`` for an untagged fence,
    ``None`` for JSON in the prose); ``status`` is ``chosen``, ``superseded`` (a real payload
    followed by a later one), ``illustrative`` (a schema sketch), ``truncated``, ``invalid_json``
    or ``not_json``; ``reason`` says why in words.

        >>> [(c.status, c.fence) for c in extract_json_payload('```\n{"a": "string"}\n```\n{"a": 1}').skipped]
        [('illustrative', '')]
    """

    span: tuple[int, int]
    fence: str | None
    status: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (in ``Extraction.to_dict``)."""
        return {"fence": self.fence, "reason": self.reason, "span": list(self.span), "status": self.status}


@dataclass(frozen=True)
class Extraction:
    """What ``extract_json_payload`` found: the payload (parsed), its JSON text and span, the
    candidate chosen and why, every skipped candidate and why, and whether a candidate was cut off.

    ``payload`` is ``None`` with ``found`` false when no complete real candidate exists; then
    ``reason`` is ``no_json`` (nothing JSON-like at all), ``truncated`` (the only payload stops
    mid-object), ``illustrative_only`` or ``invalid_json``.

        >>> result = extract_json_payload('Done: {"total": 3} and {"rest": [1, 2')
        >>> result.payload, result.span, result.truncated
        ({'total': 3}, (6, 18), True)
    """

    found: bool
    payload: Any = None
    text: str | None = None
    span: tuple[int, int] | None = None
    chosen: Candidate | None = None
    skipped: tuple[Candidate, ...] = field(default_factory=tuple)
    truncated: bool = False
    reason: str = "last_complete_candidate"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form ``ethos reply extract`` prints."""
        return {
            "artifact_type": "ethos.reply_extraction.v1",
            "chosen": None if self.chosen is None else self.chosen.to_dict(),
            "found": self.found,
            "payload": self.payload,
            "reason": self.reason,
            "skipped": [candidate.to_dict() for candidate in self.skipped],
            "span": None if self.span is None else list(self.span),
            "truncated": self.truncated,
        }


@dataclass(frozen=True)
class _Region:
    """A stretch of the reply searched for JSON: one fence's body, or the prose between fences."""

    start: int
    end: int
    fence: str | None
    closed: bool


def _regions(text: str) -> list[_Region]:
    """Fence bodies and the prose around them, in reply order. An unclosed fence runs to the end."""
    regions: list[_Region] = []
    position = 0
    while True:
        opening = _FENCE_OPEN.search(text, position)
        if opening is None:
            break
        marker = opening.group(2)
        # A closing fence: the same character, at least as long, alone on its line.
        closing = re.compile(r"^ {0,3}" + re.escape(marker[0]) + "{" + str(len(marker)) + r",}[ \t]*$", re.MULTILINE)
        body_start = min(opening.end() + 1, len(text))
        close = closing.search(text, body_start)
        if opening.start() > position:
            regions.append(_Region(position, opening.start(), None, True))
        body_end = len(text) if close is None else close.start()
        regions.append(_Region(body_start, max(body_start, body_end), opening.group(3).strip(), close is not None))
        if close is None:
            return regions
        position = close.end()
    if position < len(text):
        regions.append(_Region(position, len(text), None, True))
    return regions


def _leaves(value: Any) -> list[Any]:
    """Every scalar inside a JSON value (keys excluded)."""
    stack, leaves = [value], []
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        else:
            leaves.append(item)
    return leaves


def _placeholder(leaf: Any) -> bool:
    """A value a sketch writes: a type name, ``...``, ``<value>``, ``a | b``, or zero/empty/null."""
    if leaf is None or leaf is False or (isinstance(leaf, (int, float)) and leaf == 0) or leaf == "":
        return True
    if not isinstance(leaf, str):
        return False
    word = leaf.strip().lower()
    return bool(
        word in _TYPE_NAMES or _ELLIPSIS.match(word) or _ANGLE_PLACEHOLDER.match(word) or _ALTERNATIVES.match(word)
    )


def _illustrative(value: Any) -> bool:
    """A schema sketch: it has values, and every one of them is a placeholder."""
    leaves = _leaves(value)
    return bool(leaves) and all(_placeholder(leaf) for leaf in leaves)


def _json_start(text: str, index: int) -> bool:
    """Whether ``{`` or ``[`` at ``index`` could open a JSON container (not prose like "[1]" or "{x}")."""
    rest = text[index + 1:index + 64].lstrip()
    if text[index] == "{":
        return rest[:1] in ('"', "}", "")
    return rest[:1] in ("{", "[", '"', "]", "")


def _balanced_end(text: str, start: int, end: int) -> int | None:
    """The end of the bracketed run opening at ``start`` (strings respected), ``None`` when it
    never closes before ``end``: the model stopped mid-object."""
    depth = 0
    in_string = False
    index = start
    while index < end:
        char = text[index]
        if in_string:
            if char == "\\":
                index += 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return None


def _classify(text: str, start: int, end: int, fence: str | None) -> tuple[Candidate, Any]:
    """One candidate ``text[start:end]`` parsed and judged; the value is ``None`` unless it is real."""
    body = text[start:end]
    try:
        value = json.loads(body)
    except (ValueError, RecursionError) as error:
        if _COMMENT.search(body) or "..." in body or "…" in body:
            return Candidate((start, end), fence, "illustrative", "a sketch: comments or ellipses, not JSON"), None
        detail = error.msg if isinstance(error, json.JSONDecodeError) else "nesting too deep"
        return Candidate((start, end), fence, "invalid_json", f"not valid JSON: {detail}"), None
    if _illustrative(value):
        return Candidate((start, end), fence, "illustrative", "a sketch: every value is a placeholder"), None
    return Candidate((start, end), fence, "complete", "valid JSON"), value


def _scan_region(text: str, region: _Region) -> list[tuple[Candidate, Any]]:
    """The candidates of one region: a fence's JSON body, or each JSON container in prose."""
    found: list[tuple[Candidate, Any]] = []
    index = region.start
    while index < region.end:
        char = text[index]
        # In prose a bracket must look like JSON's ("[1]" is a footnote); a fence's first bracket is the payload's.
        if char not in "{[" or (region.fence is None and not _json_start(text, index)):
            if region.fence is not None:
                # A fence holds one payload; text before its first bracket makes it not JSON.
                if not char.isspace():
                    found.append((Candidate((region.start, region.end), region.fence, "not_json",
                                            "the fence does not hold JSON"), None))
                    return found
            index += 1
            continue
        end = _balanced_end(text, index, region.end)
        if end is None:
            # Runs to the region's end without closing: the reply stopped mid-object when the
            # region is the tail of the reply (or an unclosed fence).
            stripped_end = len(text[region.start:region.end].rstrip()) + region.start
            span = (index, max(index, stripped_end))
            if region.fence is not None and region.closed:
                found.append(_classify(text, span[0], span[1], region.fence))
            elif region.end == len(text):
                found.append((Candidate(span, region.fence, "truncated", "the reply stops before the JSON closes"), None))
            return found
        if region.fence is None and not text[index + 1:end - 1].strip():
            index = end  # "{}" or "[]" in prose says nothing; it must not outvote a real payload
            continue
        found.append(_classify(text, index, end, region.fence))
        if region.fence is not None:
            return found
        index = end
    return found


def extract_json_payload(text: str) -> Extraction:
    """Finds the payload of a model's reply: the last complete candidate that is not a sketch.

        >>> reply = 'Schema:\\n```json\\n{"name": "string"}\\n```\\nAnswer:\\n```json\\n{"name": "Ada"}\\n```'
        >>> result = extract_json_payload(reply)
        >>> result.payload, result.chosen.fence, [c.status for c in result.skipped]
        ({'name': 'Ada'}, 'json', ['illustrative'])
    """
    if not isinstance(text, str):
        raise TypeError("text must be a str")
    if len(text) > MAX_REPLY_CHARS:
        raise ValueError(f"reply longer than {MAX_REPLY_CHARS} characters")
    candidates: list[tuple[Candidate, Any]] = []
    for region in _regions(text):
        candidates.extend(_scan_region(text, region))
    complete = [index for index, (candidate, _) in enumerate(candidates) if candidate.status == "complete"]
    truncated = any(candidate.status == "truncated" for candidate, _ in candidates)
    if not complete:
        skipped = tuple(candidate for candidate, _ in candidates)
        statuses = {candidate.status for candidate in skipped}
        reason = next((s for s in ("truncated", "invalid_json", "illustrative") if s in statuses), "no_json")
        return Extraction(False, skipped=skipped, truncated=truncated,
                          reason="illustrative_only" if reason == "illustrative" else reason)
    winner = complete[-1]
    chosen_candidate, payload = candidates[winner]
    chosen = Candidate(chosen_candidate.span, chosen_candidate.fence, "chosen",
                       "the last complete candidate that is not a sketch")
    skipped_list = []
    for index, (candidate, _) in enumerate(candidates):
        if index == winner:
            continue
        if candidate.status == "complete":
            candidate = Candidate(candidate.span, candidate.fence, "superseded", "a later complete candidate follows")
        skipped_list.append(candidate)
    start, end = chosen.span
    return Extraction(True, payload, text[start:end], chosen.span, chosen, tuple(skipped_list), truncated)


def extract_json_block(text: str) -> str | None:
    """The JSON text of the reply's payload (``extract_json_payload``'s choice), or ``None``.

        >>> extract_json_block('Here you go: {"a": 1} Hope it helps.')
        '{"a": 1}'
        >>> extract_json_block("no JSON here") is None
        True
    """
    return extract_json_payload(text).text
