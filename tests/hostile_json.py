"""hostile_json - the hostile JSON matrix: every JSON input of the CLIs (slots) x byte-level and structural mutations, seeded and bounded.

A slot is one JSON input of one command, with a sound base taken from schemas/examples (the
command succeeds on it) and the argv that feeds a file in its place. A mutation turns the base's
bytes into hostile bytes: cut, nested 10,000 deep, duplicate keys, numbers past double range,
NaN/Infinity tokens, lone surrogates, invalid UTF-8, a byte order mark, NUL bytes, a huge string,
a 100,000-element array, and for every member of the base (arrays stand for their items by their
first three) a value of the wrong type and an empty array/object in its place. The
``document_payload`` slot re-hashes each mutated payload (payload_sha256, fingerprint), so its
mutations pass the integrity check and reach the document reader. $HOSTILE_JSON_MEMBERS=N keeps N
members a slot (all top-level ones, then a seeded sample): the sanitizer run uses it to stay within
its time. The same seed always gives the same cases, so a failure names a case that replays exactly.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "schemas" / "examples"
SEED = 24
#: Member paths given wrong types per slot: every one unless $HOSTILE_JSON_MEMBERS caps them (all
#: top-level members, then a seeded sample below).
MEMBERS_ENV = "HOSTILE_JSON_MEMBERS"
DEPTH = 10_000
LONG_STRING = 1_000_000
LONG_ARRAY = 100_000


def _claims_for_release() -> bytes:
    return json.dumps([
        {"id": "c1", "text": "Revenue grew to $12.4M", "check_ids": ["v0001"], "question_relevance": "direct_answer",
         "claim_type": "source_fact", "claim_support": "supported"},
        {"id": "c2", "text": "Margins improved", "check_id": "v0002", "question_relevance": "supports_answer",
         "claim_type": "source_fact", "claim_support": "supported"},
    ], indent=1).encode()


def _batch_lines() -> bytes:
    line = json.dumps(json.loads((EXAMPLES / "citations.example.json").read_bytes()), separators=(",", ":"))
    return (line + "\n" + line + "\n").encode()


@dataclass(frozen=True)
class Slot:
    """One JSON input: its sound bytes, and argv with ``{input}`` where the hostile file goes."""

    base: Callable[[], bytes]
    argv: tuple[str, ...]
    lines: bool = False  # NDJSON: mutations apply to the first line, the second stays sound
    under: tuple[str, ...] = ()  # structural mutations only below this path
    rehash: bool = False  # re-hash a native document after a structural mutation
    depth: int | None = None  # structural mutations only this deep (the hashed document: its identity fields)


def _example(name: str) -> Callable[[], bytes]:
    return lambda: (EXAMPLES / name).read_bytes()


DOCUMENT = str(EXAMPLES / "document.example.json")
CITATIONS = str(EXAMPLES / "citations.example.json")
REPORT = str(EXAMPLES / "verification-report.example.json")
QUESTION = "What was revenue in Q3 2025?"
CLAIMS = "{claims}"  # written next to the cases: release needs a claims file for its report slots

SLOTS: dict[str, Slot] = {
    "document": Slot(_example("document.example.json"), ("verify", "{input}", "--citations", CITATIONS), depth=2),
    "grounding": Slot(_example("grounding.example.json"), ("grounding", "check", "{input}")),
    "citations": Slot(_example("citations.example.json"), ("verify", DOCUMENT, "--citations", "{input}")),
    "verification_config": Slot(_example("verification-config.example.json"),
                                ("verify", DOCUMENT, "--citations", CITATIONS, "--config", "{input}")),
    "policy": Slot(_example("policy.example.json"), ("verify", DOCUMENT, "--citations", CITATIONS, "--policy", "{input}")),
    "anchor_request": Slot(_example("evidence-anchor-request.example.json"),
                           ("evidence", "anchor", DOCUMENT, "--evidence-refs", "{input}")),
    "batch_lines": Slot(_batch_lines, ("verify-batch", DOCUMENT, "--citations-ndjson", "{input}"), lines=True),
    "release_report": Slot(_example("verification-report.example.json"),
                           ("release", "{input}", "--question", QUESTION, "--claims", CLAIMS)),
    "release_statement": Slot(_example("proof-statement.example.json"),
                              ("release", "{input}", "--question", QUESTION, "--claims", CLAIMS)),
    "release_summary": Slot(_example("proof-summary.example.json"),
                            ("release", "{input}", "--question", QUESTION, "--claims", CLAIMS)),
    "release_claims": Slot(_claims_for_release, ("release", REPORT, "--question", QUESTION, "--claims", "{input}")),
    "document_payload": Slot(_example("document.example.json"), ("security", "report", "{input}"), under=("payload",),
                             rehash=True),
}


# -- byte-level mutations ---------------------------------------------------------------------------

def _first(pattern: bytes, data: bytes) -> int:
    import re

    match = re.search(pattern, data)
    return -1 if match is None else match.start()


def _replace_first_number(token: bytes) -> Callable[[bytes], bytes]:
    def mutate(data: bytes) -> bytes:
        import re

        # A number that is a value (after ':', '[' or ',', and followed by the end of that value),
        # not digits inside a string such as "sha256:4c..".
        match = re.search(rb'(?<=[:\[,])\s*-?\d+(\.\d+)?([eE][-+]?\d+)?(?=\s*[,\]}])', data)
        if match is None:
            return data[:1] + b'"n":' + token + b"," + data[1:]
        return data[:match.start()] + token + data[match.end():]

    return mutate


def _into_first_string(raw: bytes) -> Callable[[bytes], bytes]:
    """``raw`` spliced into the first string value (after the opening quote of a value)."""

    def mutate(data: bytes) -> bytes:
        at = _first(rb':\s*"', data)
        if at < 0:
            at = _first(rb'"', data) - 1
        quote = data.index(b'"', at + 1)
        return data[:quote + 1] + raw + data[quote + 1:]

    return mutate


def _member_after_brace(member: bytes) -> Callable[[bytes], bytes]:
    """``member`` (``"key":value,``) inserted right after the first ``{``."""

    def mutate(data: bytes) -> bytes:
        at = data.find(b"{")
        if at < 0:
            return data
        return data[:at + 1] + member + data[at + 1:]

    return mutate


def _duplicate_first_key(data: bytes) -> bytes:
    value = json.loads(data)
    if isinstance(value, dict) and value:
        key = next(iter(value))
        return _member_after_brace(json.dumps(key).encode() + b":" + json.dumps(value[key]).encode() + b",")(data)
    return _member_after_brace(b'"k":1,"k":2,')(data) if b"{" in data else b'{"k":1,"k":2}'


def _duplicate_nested_key(data: bytes) -> bytes:
    # The second '{' is the first nested object (or the first array item's object).
    first = data.find(b"{")
    second = data.find(b"{", first + 1)
    if second < 0:
        return _duplicate_first_key(data)
    return data[:second + 1] + b'"dup":1,"dup":2,' + data[second + 1:]


BYTE_MUTATIONS: dict[str, Callable[[bytes], bytes]] = {
    "empty": lambda data: b"",
    "whitespace_only": lambda data: b" \n\t\r\n",
    "truncated_half": lambda data: data[: len(data) // 2],
    "truncated_last_byte": lambda data: data.rstrip()[:-1],
    "trailing_garbage": lambda data: data.rstrip() + b" }",
    "two_documents": lambda data: data.rstrip() + b"\n" + data,
    "deep_nesting_top": lambda data: b"[" * DEPTH + data + b"]" * DEPTH,
    "deep_nesting_member": lambda data: _member_after_brace(b'"zz":' + b"[" * DEPTH + b"]" * DEPTH + b",")(data),
    "deep_objects_member": lambda data: _member_after_brace(b'"zz":' + b'{"a":' * DEPTH + b"1" + b"}" * DEPTH + b",")(data),
    "duplicate_key": _duplicate_first_key,
    "duplicate_nested_key": _duplicate_nested_key,
    "number_overflow": _replace_first_number(b"1e999999"),
    "number_underflow": _replace_first_number(b"1e-999999"),
    "integer_past_64_bits": _replace_first_number(b"123456789012345678901234567890123456789"),
    "negative_zero": _replace_first_number(b"-0.0"),
    "nan_token": _replace_first_number(b"NaN"),
    "infinity_token": _replace_first_number(b"Infinity"),
    "minus_infinity_token": _replace_first_number(b"-Infinity"),
    "leading_zero_number": _replace_first_number(b"0123"),
    "lone_high_surrogate_escape": _into_first_string(rb"\ud800"),
    "lone_low_surrogate_escape": _into_first_string(rb"\udfff"),
    "reversed_surrogate_pair_escape": _into_first_string(rb"\udc00\ud800"),
    "encoded_surrogate_bytes": _into_first_string(b"\xed\xa0\x80"),
    "invalid_utf8_byte": _into_first_string(b"\xff"),
    "overlong_utf8": _into_first_string(b"\xc0\xaf"),
    "truncated_utf8_sequence": _into_first_string(b"\xe2\x82"),
    "code_point_past_max_utf8": _into_first_string(b"\xf4\x90\x80\x80"),
    "noncharacter_escape": _into_first_string(rb"\ufffe\uffff"),
    "byte_order_mark": lambda data: b"\xef\xbb\xbf" + data,
    "utf16_encoded": lambda data: data.decode("utf-8").encode("utf-16"),
    "nul_byte_raw_in_string": _into_first_string(b"\x00"),
    "nul_escape_in_string": _into_first_string(rb"\u0000"),
    "nul_byte_after_document": lambda data: data + b"\x00",
    "control_character_in_string": _into_first_string(b"\x07\x1b"),
    "bad_escape": _into_first_string(rb"\x41"),
    "long_string": _into_first_string(b"a" * LONG_STRING),
    "long_array_member": lambda data: _member_after_brace(b'"zz":[' + b",".join([b"0"] * LONG_ARRAY) + b"],")(data),
    "single_quotes": lambda data: data.replace(b'"', b"'"),
    "comment": lambda data: b"// comment\n" + data,
    "top_null": lambda data: b"null",
    "top_array": lambda data: b"[]",
    "top_string": lambda data: b'"text"',
    "top_number": lambda data: b"0",
    "top_object": lambda data: b"{}",
}


# -- structural mutations: every member given a wrong type, every shape emptied -------------------

#: Values of each JSON type; a member gets one whose type differs from its own.
WRONG_VALUES: tuple[Any, ...] = (None, True, 0, -1, 2**63, 1.5, "", "x", [], {}, [None], {"": None})


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return {str: "string", list: "array", dict: "object"}[type(value)]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*prefix, key), item
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:3]):  # the first items stand for the rest
            yield (*prefix, index), item
            yield from _paths(item, (*prefix, index))


def _replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    copy = json.loads(json.dumps(value))
    target = copy
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = new
    return copy


def members_per_slot() -> int | None:
    value = os.environ.get(MEMBERS_ENV)
    return int(value) if value else None


def _chosen_paths(name: str, value: Any, under: tuple[str, ...], depth: int | None) -> list[tuple[tuple[Any, ...], Any]]:
    every = [entry for entry in _paths(value) if entry[0][:len(under)] == under and len(entry[0]) > len(under)
             and (depth is None or len(entry[0]) <= depth)]
    limit = members_per_slot()
    if limit is None:
        return every
    top = [entry for entry in every if len(entry[0]) == len(under) + 1]
    rest = [entry for entry in every if len(entry[0]) > len(under) + 1]
    rng = random.Random(f"{SEED}:{name}")
    picked = rng.sample(rest, min(len(rest), max(0, limit - len(top))))
    return top + sorted(picked, key=lambda entry: every.index(entry))


def _document_tool() -> Any:
    from conftest import script_module

    return script_module("tools/make_native_document.py")


def rehashed(document: Any) -> Any:
    """``document`` with payload_sha256 and fingerprint recomputed from its (mutated) payload."""
    tool = _document_tool()
    payload_sha = tool.payload_sha256(document["payload"])
    return {**document, "payload_sha256": payload_sha, "fingerprint": tool.document_fingerprint(
        config_sha256=document["config_sha256"], payload_sha256=payload_sha, profile_id=document["profile"]["id"],
        profile_sha256=document["profile"]["sha256"], schema_version=document["schema_version"],
        source_fingerprint=document["source"]["fingerprint"])}


def structural_mutations(name: str, base: bytes, slot: Slot | None = None) -> dict[str, bytes]:
    """``wrong_type:<path>`` and ``empty:<path>`` cases of the slot ``name``."""
    slot = slot or SLOTS[name]
    value = json.loads(base)
    rng = random.Random(f"{SEED}:{name}:types")
    finish = rehashed if slot.rehash else (lambda changed: changed)
    cases: dict[str, bytes] = {}
    for path, current in _chosen_paths(name, value, slot.under, slot.depth):
        label = "/".join(map(str, path))
        wrong = [candidate for candidate in WRONG_VALUES if _json_type(candidate) != _json_type(current)]
        cases[f"wrong_type:{label}"] = json.dumps(finish(_replaced(value, path, rng.choice(wrong))), ensure_ascii=False).encode()
        if isinstance(current, list) and current:
            cases[f"empty:{label}"] = json.dumps(finish(_replaced(value, path, [])), ensure_ascii=False).encode()
        elif isinstance(current, dict) and current:
            cases[f"empty:{label}"] = json.dumps(finish(_replaced(value, path, {})), ensure_ascii=False).encode()
    return cases


@dataclass(frozen=True)
class Case:
    slot: str
    mutation: str
    data: bytes

    @property
    def id(self) -> str:
        return f"{self.slot}-{self.mutation}"


def _on_first_line(mutate: Callable[[bytes], bytes]) -> Callable[[bytes], bytes]:
    def apply(data: bytes) -> bytes:
        first, _, rest = data.partition(b"\n")
        return mutate(first).replace(b"\n", b" ") + b"\n" + rest

    return apply


def cases(slots: dict[str, Slot] | None = None) -> list[Case]:
    """Every case of the matrix, in a fixed order."""
    out = []
    for name, slot in (slots or SLOTS).items():
        base = slot.base()
        out.append(Case(name, "base", base))
        for mutation, mutate in BYTE_MUTATIONS.items():
            if slot.lines and mutation != "utf16_encoded":
                mutate = _on_first_line(mutate)
            out.append(Case(name, mutation, mutate(base)))
        first_line = base.partition(b"\n")[0] if slot.lines else base
        for mutation, data in structural_mutations(name, first_line, slot).items():
            if slot.lines:
                data = data + b"\n" + base.partition(b"\n")[2]
            out.append(Case(name, mutation, data))
    return out


def argv(case: Case, path: Path, claims: Path) -> list[str]:
    """The command line of a case whose hostile bytes are in ``path``."""
    return [str(path) if part == "{input}" else str(claims) if part == CLAIMS else part for part in SLOTS[case.slot].argv]


def claims_file(directory: Path) -> Path:
    path = directory / "release-claims.json"
    path.write_bytes(_claims_for_release())
    return path
