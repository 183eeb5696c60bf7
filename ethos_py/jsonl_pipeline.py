"""jsonl_pipeline - verify claims held in JSON Lines, each against its own source, and write them back with the verdict under one key.

Extraction pipelines keep evidence quotes beside extracted fields, one record per line. A record
has a string ``claim`` and exactly one source: ``source`` (the text itself), ``source_path`` (a
PDF, a parsed or foreign document, or a text or Markdown file; relative to the JSONL file) or
``document`` (an id of a ``--corpus`` manifest); optionally ``kind`` (quote, default; value,
presence, table_cell) and ``citation`` (a locator; default the whole document). Every field is
passed through untouched, in input order; the verdict goes under ``ethos``. Each distinct source is
opened and indexed once; claims are verified per source in requests of up to 256.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["JsonlError", "JsonlRun", "run_manifest", "verify_jsonl"]

_SOURCE_KEYS = ("source", "source_path", "document")
_KINDS = ("quote", "value", "presence", "table_cell")
_BATCH = 256  # the built-in config's max_checks


class JsonlError(ValueError):
    """A record that cannot be verified: ``path`` and ``line`` (1-based) say where, ``reason`` what.

        >>> str(JsonlError("claims.jsonl", 3, "claim must be a string"))
        'claims.jsonl:3: claim must be a string'
    """

    def __init__(self, path: str, line: int, reason: str) -> None:
        super().__init__(f"{path}:{line}: {reason}")
        self.path, self.line, self.reason = path, line, reason


@dataclass
class JsonlRun:
    """What a run did: records read, verdict counts, grounded claims per tier, each source once
    (its key, label and fingerprint), and the output's lines.

        >>> JsonlRun(records=1, counts={"grounded": 1}).counts
        {'grounded': 1}
    """

    records: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    tiers: dict[str, int] = field(default_factory=dict)
    sources: list[dict[str, Any]] = field(default_factory=list)
    lines: list[bytes] = field(default_factory=list)


def _records(path: str) -> Iterator[tuple[int, bytes]]:
    with open(path, "rb") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                yield number, line


def _corpus(manifest: str | None) -> dict[str, str]:
    """A corpus manifest: {"documents": {"<id>": "<path relative to the manifest>"}}."""
    if manifest is None:
        return {}
    with open(manifest, "rb") as handle:
        data = json.load(handle)
    documents = data.get("documents") if isinstance(data, dict) else None
    if not isinstance(documents, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in documents.items()):
        raise JsonlError(manifest, 1, 'a corpus manifest is {"documents": {"<id>": "<path>", ...}}')
    base = os.path.dirname(os.path.abspath(manifest))
    return {key: os.path.join(base, value) for key, value in documents.items()}


class _Sources:
    """Every source of a run, opened once (a PDF parsed through the parse cache)."""

    def __init__(self, base: str, corpus: dict[str, str], grounding: str | None) -> None:
        self.base, self.corpus, self.grounding = base, corpus, grounding
        self.opened: dict[str, Any] = {}
        self.described: dict[str, dict[str, Any]] = {}

    def key(self, record: Mapping[str, Any]) -> tuple[str, str, str]:
        """(cache key, kind, what opens it) of a record's source; ValueError when it has none or several."""
        given = [k for k in _SOURCE_KEYS if k in record]
        if len(given) != 1:
            raise ValueError(f"needs exactly one of source, source_path, document (has {len(given) or 'none'})")
        name = given[0]
        value = record[name]
        if not isinstance(value, str):
            raise ValueError(f"{name} must be a string")
        if name == "source":
            digest = hashlib.sha256(value.encode("utf-8")).hexdigest()
            return f"text:{digest}", "inline", value
        if name == "document":
            if value not in self.corpus:
                raise ValueError(f"document {value!r} is not in the --corpus manifest")
            path = self.corpus[value]
        else:
            path = os.path.join(self.base, value)
        if not os.path.isfile(path):
            raise ValueError(f"{name} {value!r}: no such file")
        return f"path:{os.path.realpath(path)}", name, path

    def open(self, key: str, kind: str, target: str) -> Any:
        if key in self.opened:
            return self.opened[key]
        from .document import Document
        from .testing import open_source

        if kind == "inline":
            document = Document.from_bytes(target.encode("utf-8"), "text")
            label = "inline text"
        else:
            with open(target, "rb") as handle:
                head = handle.read(1024)
            if b"%PDF-" in head or head.lstrip()[:1] in (b"{", b"["):
                document = open_source(target, self.grounding)
            else:  # a text file, read as UTF-8 byte for byte
                document = Document.open(target, "markdown" if target.lower().endswith((".md", ".markdown")) else "text")
            label = os.path.relpath(target, self.base)
        self.opened[key] = document
        self.described[key] = {"source": label, "document_fingerprint": document.fingerprint}
        return document

    def close(self) -> None:
        for document in self.opened.values():
            document.close()


def _claim(record: Mapping[str, Any]) -> dict[str, Any]:
    text = record.get("claim")
    if not isinstance(text, str):
        raise ValueError("claim must be a string")
    kind = record.get("kind", "quote")
    if kind not in _KINDS:
        raise ValueError(f"kind must be one of {', '.join(_KINDS)}")
    citation = record.get("citation", {"scope": "document"})
    if not isinstance(citation, dict):
        raise ValueError("citation must be an object (a locator)")
    return {"kind": kind, "text": text, "citation": citation}


def _verdict(check: Mapping[str, Any], described: Mapping[str, Any]) -> dict[str, Any]:
    """The result stored under ``ethos``: the check without its echo of the claim and its request id."""
    verdict = {key: value for key, value in check.items() if key not in ("claim", "id")}
    verdict.update(described)
    return verdict


def verify_jsonl(path: str, *, corpus: str | None = None, grounding: str | None = None, policy: Any = None,
                 replace_existing: bool = False, keep_going: bool = False) -> JsonlRun:
    """Verifies every record of the JSONL file ``path`` and returns the run with the output lines
    (each ends with a newline, in input order; blank lines are dropped). Raises ``JsonlError`` at
    the first bad record unless ``keep_going``, which records the error in that record instead.

        >>> import tempfile, os
        >>> directory = tempfile.mkdtemp()
        >>> claims = os.path.join(directory, "claims.jsonl")
        >>> with open(claims, "w") as handle:
        ...     _ = handle.write('{"id": 7, "claim": "grew 12%", "source": "Revenue grew 12% in 2024."}\\n')
        >>> run = verify_jsonl(claims)
        >>> record = json.loads(run.lines[0])
        >>> record["id"], record["claim"], record["ethos"]["status"]
        (7, 'grew 12%', 'grounded')
    """
    base = os.path.dirname(os.path.abspath(path))
    sources = _Sources(base, _corpus(corpus), grounding)
    run = JsonlRun()
    plans: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    targets: dict[str, tuple[str, str]] = {}
    records: list[tuple[int, dict[str, Any]]] = []
    verdicts: dict[int, dict[str, Any]] = {}

    def fail(number: int, reason: str) -> None:
        if not keep_going:
            raise JsonlError(path, number, reason)
        verdicts[number] = {"status": "error", "error": {"line": number, "reason": reason}}

    try:
        for number, line in _records(path):
            run.records += 1
            try:
                record = json.loads(line)
            except ValueError as error:
                if not keep_going:
                    raise JsonlError(path, number, f"not JSON: {error}") from None
                # Never dropped: the line itself goes into the error, the record is the error alone.
                records.append((number, {}))
                verdicts[number] = {"status": "error", "error": {"line": number, "reason": f"not JSON: {error}",
                                                                 "input": line.decode("utf-8", "replace").rstrip("\r\n")}}
                continue
            if not isinstance(record, dict):
                if not keep_going:
                    raise JsonlError(path, number, "a record must be a JSON object")
                records.append((number, {}))
                verdicts[number] = {"status": "error", "error": {"line": number, "reason": "a record must be a JSON object",
                                                                 "input": record}}
                continue
            records.append((number, record))
            if "ethos" in record and not replace_existing:
                fail(number, "the record already has an 'ethos' result (use --replace-existing)")
                continue
            try:
                claim = _claim(record)
                key, kind, target = sources.key(record)
            except ValueError as error:
                fail(number, str(error))
                continue
            targets[key] = (kind, target)
            plans.setdefault(key, []).append((number, claim))
        for key, planned in plans.items():
            kind, target = targets[key]
            try:
                document = sources.open(key, kind, target)
            except (ValueError, OSError) as error:  # EthosError is a ValueError; an unreadable file an OSError
                for number, _ in planned:
                    fail(number, f"the source cannot be opened: {error}")
                continue
            run.sources.append({"key": key, **sources.described[key]})
            for start in range(0, len(planned), _BATCH):
                chunk = planned[start:start + _BATCH]
                request = {"document_fingerprint": document.fingerprint, "claims": [claim for _, claim in chunk]}
                report = json.loads(document.verify_json(request, policy=policy))
                for (number, _), check in zip(chunk, report["checks"]):
                    verdicts[number] = _verdict(check, sources.described[key])
    finally:
        sources.close()
    for number, record in records:
        verdict = verdicts[number]
        status = verdict.get("status", "error")
        run.counts[status] = run.counts.get(status, 0) + 1
        tier = (verdict.get("match") or {}).get("tier")
        if status == "grounded" and tier:
            run.tiers[tier] = run.tiers.get(tier, 0) + 1
        out = {k: v for k, v in record.items() if k != "ethos"}
        out["ethos"] = verdict
        run.lines.append(json.dumps(out, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n")
    return run


def run_manifest(run: JsonlRun, *, input_path: str, output_path: str, output_bytes: bytes, policy: Any = None) -> dict[str, Any]:
    """The manifest that travels with the output: what was read and written (with digests), the
    verifier, PDFium and Unicode versions, the policy with its fingerprint and assumptions, each
    source, the verdict counts and the ladder profile (grounded claims per tier, cumulative share).

        >>> run = JsonlRun(records=2, counts={"grounded": 2}, tiers={"exact": 1, "case": 1})
        >>> manifest = run_manifest(run, input_path="examples/quickstart/citations.json", output_path="out.jsonl",
        ...                         output_bytes=b"")
        >>> [(row["tier"], row["cumulative_share"]) for row in manifest["ladder_profile"]]
        [('exact', 0.5), ('whitespace', 0.5), ('typography', 0.5), ('case', 1.0), ('skeleton', 1.0)]
    """
    from ._version_text import version_text
    from .document import explain_policy_json

    with open(input_path, "rb") as handle:
        input_digest = hashlib.sha256(handle.read()).hexdigest()
    explained = json.loads(explain_policy_json(policy))
    versions = dict(line.split(" ", 1) for line in version_text().splitlines() if " " in line)
    profile, cumulative = [], 0
    for tier in ("exact", "whitespace", "typography", "case", "skeleton"):
        cumulative += run.tiers.get(tier, 0)
        profile.append({"tier": tier, "grounded": run.tiers.get(tier, 0),
                        "cumulative_share": cumulative / run.records if run.records else 0.0})
    return {
        "artifact_type": "ethos.jsonl_run.v1",
        "input": {"path": input_path, "sha256": input_digest, "records": run.records},
        "output": {"path": output_path, "sha256": hashlib.sha256(output_bytes).hexdigest(), "records": len(run.lines)},
        "verifier": {"name": "ethos", "version": versions.get("ethos"), "pdfium": versions.get("pdfium"),
                     "unicode_version": versions.get("unicode")},
        "policy": explained,
        "sources": run.sources,
        "counts": dict(sorted(run.counts.items())),
        "ladder_profile": profile,
    }
