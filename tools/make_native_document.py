#!/usr/bin/env python3
"""make_native_document.py - fixture tool: builds a correctly hashed native Ethos document (docs/contracts.md#documents) from a payload.

Usage:
    python tools/make_native_document.py payload.json > document.json
    python tools/make_native_document.py --check payload.json      # only report payload problems

Input: either a bare payload object (pages, elements, spans, tables, chunks, regions,
security_warnings, parser_warnings; missing arrays and the coordinate system are filled in), or a
wrapper {"payload": {...}, "source_text"?: str, "parser_version"?: str, "parse_config"?: {...},
"profile_sha256"?: hex} that pins the non-payload identity fields.

Output: the complete document, pretty-printed with sorted keys and a trailing newline, with
    payload_sha256 = sha256(c14n(payload with every "bbox"/"bboxes" key removed recursively))
    fingerprint    = "sha256:" + sha256(c14n({config_sha256, payload_sha256, profile_id,
                                              profile_sha256, schema_version, source_fingerprint}))
where c14n(v) = json.dumps(v, separators=(",", ":"), sort_keys=True, ensure_ascii=False) as UTF-8.

There is no PDF behind a fixture: `source.fingerprint` and `source.bytes` describe stand-in bytes
(the UTF-8 of `source_text`, or by default the canonical payload bytes), `config_sha256` is the
hash of a fixture parse config and `profile.sha256` the hash of the profile descriptor below.
Everything is deterministic: the same input always gives the same bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from typing import Any

SCHEMA_VERSION = "1.0.0"
PROFILE_ID = "ethos-deterministic-v1"
DEFAULT_PARSER_VERSION = "0.1.0"
DEFAULT_PARSE_CONFIG = {"fixture": True, "pages": "all", "profile": PROFILE_ID}
PROFILE_DESCRIPTOR = {"id": PROFILE_ID, "kind": "fixture"}
COORDINATE_SYSTEM = {"origin": "top-left", "quantum_per_point": 100, "unit": "quantum"}
PAYLOAD_ARRAYS = (
    "pages",
    "elements",
    "spans",
    "tables",
    "chunks",
    "regions",
    "security_warnings",
    "parser_warnings",
)
GEOMETRY_KEYS = frozenset({"bbox", "bboxes"})


def c14n(value: Any) -> bytes:
    """Canonical JSON v1 bytes (docs/contracts.md#conventions), without trailing newline."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode("utf-8")


def sha256_hex(data: bytes) -> str:
    """Bare lowercase hex sha256 of bytes."""
    return hashlib.sha256(data).hexdigest()


def strip_geometry(value: Any) -> Any:
    """A copy of value with every "bbox"/"bboxes" key removed at any depth."""
    if isinstance(value, dict):
        return {k: strip_geometry(v) for k, v in value.items() if k not in GEOMETRY_KEYS}
    if isinstance(value, list):
        return [strip_geometry(v) for v in value]
    return value


def payload_sha256(payload: dict) -> str:
    """Bare hex payload hash (geometry excluded, origin_locator kept)."""
    return sha256_hex(c14n(strip_geometry(payload)))


def document_fingerprint(
    *,
    config_sha256: str,
    payload_sha256: str,
    profile_id: str,
    profile_sha256: str,
    schema_version: str,
    source_fingerprint: str,
) -> str:
    """The composite document fingerprint ("sha256:" + hex)."""
    basis = {
        "config_sha256": config_sha256,
        "payload_sha256": payload_sha256,
        "profile_id": profile_id,
        "profile_sha256": profile_sha256,
        "schema_version": schema_version,
        "source_fingerprint": source_fingerprint,
    }
    return "sha256:" + sha256_hex(c14n(basis))


def complete_payload(partial: dict) -> dict:
    """The payload with the coordinate system and every required array present."""
    payload = {"coordinate_system": dict(COORDINATE_SYSTEM)}
    payload.update(partial)
    for key in PAYLOAD_ARRAYS:
        payload.setdefault(key, [])
    return payload


def build_document(spec: dict) -> dict:
    """A complete native document from a bare payload or a wrapper (see module docstring)."""
    if "payload" in spec:
        unknown = set(spec) - {"payload", "source_text", "parser_version", "parse_config", "profile_sha256"}
        if unknown:
            raise ValueError(f"unknown wrapper keys: {sorted(unknown)}")
        payload = complete_payload(spec["payload"])
        source_bytes = spec["source_text"].encode("utf-8") if "source_text" in spec else c14n(payload)
        parser_version = spec.get("parser_version", DEFAULT_PARSER_VERSION)
        parse_config = spec.get("parse_config", DEFAULT_PARSE_CONFIG)
        profile_sha = spec.get("profile_sha256", sha256_hex(c14n(PROFILE_DESCRIPTOR)))
    else:
        payload = complete_payload(spec)
        source_bytes = c14n(payload)
        parser_version = DEFAULT_PARSER_VERSION
        parse_config = DEFAULT_PARSE_CONFIG
        profile_sha = sha256_hex(c14n(PROFILE_DESCRIPTOR))

    source_fp = "sha256:" + sha256_hex(source_bytes)
    config_sha = sha256_hex(c14n(parse_config))
    payload_sha = payload_sha256(payload)
    return {
        "schema_version": SCHEMA_VERSION,
        "parser": {"name": "ethos", "version": parser_version},
        "profile": {"id": PROFILE_ID, "sha256": profile_sha},
        "source": {"fingerprint": source_fp, "bytes": len(source_bytes)},
        "config_sha256": config_sha,
        "payload_sha256": payload_sha,
        "fingerprint": document_fingerprint(
            config_sha256=config_sha,
            payload_sha256=payload_sha,
            profile_id=PROFILE_ID,
            profile_sha256=profile_sha,
            schema_version=SCHEMA_VERSION,
            source_fingerprint=source_fp,
        ),
        "payload": payload,
    }


def _render_value(value: Any, indent: str) -> str:
    if isinstance(value, dict) and value:
        inner = indent + "  "
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {_render_value(value[k], inner)}" for k in sorted(value)]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and value and any(isinstance(v, (dict, list)) for v in value):
        inner = indent + "  "
        return "[\n" + ",\n".join(inner + _render_value(v, inner) for v in value) + "\n" + indent + "]"
    # scalars, empty containers and flat lists (bboxes, id lists) stay on one line
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def render(document: dict) -> bytes:
    """The bytes this tool writes: indented, sorted keys, flat arrays on one line, raw non-ASCII, one trailing newline."""
    return (_render_value(document, "") + "\n").encode("utf-8")


def check_payload(payload: dict) -> list[str]:
    """Consistency problems of a (completed) payload: duplicate ids, dangling refs, bad offsets."""
    problems: list[str] = []
    ids: dict[str, set[str]] = {}
    for key in ("pages", "elements", "spans", "tables", "chunks", "regions"):
        seen: set[str] = set()
        for item in payload.get(key, []):
            if item["id"] in seen:
                problems.append(f"{key}: duplicate id {item['id']}")
            seen.add(item["id"])
        ids[key] = seen
    warnings = [w["id"] for w in payload.get("security_warnings", []) + payload.get("parser_warnings", [])]
    if len(set(warnings)) != len(warnings):
        problems.append("warnings: duplicate id")
    ids["warnings"] = set(warnings)

    def need(kind: str, ref: str, where: str) -> None:
        if ref not in ids[kind]:
            problems.append(f"{where}: unknown {kind} ref {ref}")

    pages_by_id = {p["id"]: p for p in payload.get("pages", [])}
    for el in payload.get("elements", []):
        need("pages", el["page"], el["id"])
        for ref in el.get("span_refs", []):
            need("spans", ref, el["id"])
        for ref in el.get("warning_refs", []):
            need("warnings", ref, el["id"])
        if "table_ref" in el:
            need("tables", el["table_ref"], el["id"])
        if "region_ref" in el:
            need("regions", el["region_ref"], el["id"])
    owner = {ref: el for el in payload.get("elements", []) for ref in el.get("span_refs", [])}
    for span in payload.get("spans", []):
        need("pages", span["page"], span["id"])
        if ("char_start" in span) != ("char_end" in span):
            problems.append(f"{span['id']}: char_start and char_end go together")
        if "char_start" in span:
            el = owner.get(span["id"])
            if el is None:
                problems.append(f"{span['id']}: char offsets without an owning element")
            elif el.get("text", "")[span["char_start"] : span["char_end"]] != span["text"]:
                problems.append(f"{span['id']}: text is not {el['id']}.text[{span['char_start']}:{span['char_end']}]")
    for table in payload.get("tables", []):
        for ref in table["page_refs"]:
            need("pages", ref, table["id"])
        for cell in table["cells"]:
            if cell["row"] + cell["row_span"] > table["n_rows"] or cell["col"] + cell["col_span"] > table["n_cols"]:
                problems.append(f"{table['id']}: cell ({cell['row']},{cell['col']}) exceeds the grid")
    for chunk in payload.get("chunks", []):
        for ref in chunk["element_refs"]:
            need("elements", ref, chunk["id"])
        for ref in chunk["page_refs"]:
            need("pages", ref, chunk["id"])
    for region in payload.get("regions", []):
        need("pages", region["page"], region["id"])
    for item in [*payload.get("elements", []), *payload.get("spans", []), *payload.get("regions", [])]:
        page = pages_by_id.get(item["page"])
        x0, y0, x1, y1 = item["bbox"]
        if not (x0 <= x1 and y0 <= y1):
            problems.append(f"{item['id']}: inverted bbox")
        if page and not (0 <= x0 and 0 <= y0 and x1 <= page["width"] and y1 <= page["height"]):
            problems.append(f"{item['id']}: bbox outside its page")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("payload", help="payload JSON file (bare payload or wrapper)")
    parser.add_argument("--check", action="store_true", help="only check the payload; exit 1 on problems")
    args = parser.parse_args(argv)
    with open(args.payload, "rb") as fh:
        spec = json.loads(fh.read().decode("utf-8"))
    document = build_document(spec)
    problems = check_payload(document["payload"])
    for problem in problems:
        print(f"make_native_document: {problem}", file=sys.stderr)
    if problems:
        return 1
    if not args.check:
        sys.stdout.buffer.write(render(document))
    return 0


if __name__ == "__main__":
    sys.exit(main())
