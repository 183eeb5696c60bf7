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

from .errors import EthosError

__all__ = ["JsonlError", "JsonlRun", "run_manifest", "verify_jsonl"]

_SOURCE_KEYS = ("source", "source_path", "document")
_KINDS = ("quote", "value", "presence", "table_cell")
_BATCH = 256  # the built-in config's max_checks
# What the core raises for input it refuses (invalid_input is also a ValueError, a failed parse is not).
_REFUSALS: tuple[type[Exception], ...] = (ValueError, EthosError)
# ... and what opening a source can raise besides (an unreadable file is an OSError).
_OPEN_FAILURES: tuple[type[Exception], ...] = (ValueError, EthosError, OSError)


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
            path = self.document_path(value)
        else:
            path = os.path.join(self.base, value)
        if not os.path.isfile(path):
            raise ValueError(f"{name} {value!r}: no such file")
        return f"path:{os.path.realpath(path)}", name, path

    def document_path(self, value: str) -> str:
        """The file a ``document`` value names (``ethos batch`` resolves paths and fingerprints too)."""
        if value not in self.corpus:
            raise ValueError(f"document {value!r} is not in the --corpus manifest")
        return self.corpus[value]

    def open(self, key: str, kind: str, target: str) -> Any:
        if key in self.opened:
            return self.opened[key]
        document = open_target(kind, target, self.grounding)
        label = "inline text" if kind == "inline" else os.path.relpath(target, self.base)
        self.opened[key] = document
        self.described[key] = {"source": label, "document_fingerprint": document.fingerprint}
        return document

    def close(self) -> None:
        for document in self.opened.values():
            document.close()


def open_target(kind: str, target: str, grounding: str | None, parse_options: Mapping[str, Any] | None = None) -> Any:
    """Opens one source as ``_Sources.key`` describes it: inline text, or a file (a PDF or a parsed
    or foreign document under ``grounding``; any other file as UTF-8 text, byte for byte)."""
    from .document import Document
    from .testing import open_source

    if kind == "inline":
        return Document.from_bytes(target.encode("utf-8"), "text")
    with open(target, "rb") as handle:
        head = handle.read(1024)
    if b"%PDF-" in head or head.lstrip()[:1] in (b"{", b"["):
        return open_source(target, grounding, parse_options=parse_options)
    return Document.open(target, "markdown" if target.lower().endswith((".md", ".markdown")) else "text")


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


def _error(number: int, reason: str, **extra: Any) -> dict[str, Any]:
    """The verdict of a record that could not be verified (``extra``: the unreadable ``input``)."""
    return {"status": "error", "error": {"line": number, "reason": reason, **extra}}


def _read_record(number: int, line: bytes, replace_existing: bool) -> tuple[dict[str, Any], dict[str, Any] | None, dict[str, Any] | None]:
    """(record, claim, None) for a record to verify, else (record, None, its error verdict); a line
    that is no JSON object is the record ``{}`` and its error keeps the line itself as ``input``."""
    try:
        record = json.loads(line)
    except ValueError as error:
        # Never dropped: the line itself goes into the error, the record is the error alone.
        return {}, None, _error(number, f"not JSON: {error}", input=line.decode("utf-8", "replace").rstrip("\r\n"))
    if not isinstance(record, dict):
        return {}, None, _error(number, "a record must be a JSON object", input=record)
    if "ethos" in record and not replace_existing:
        return record, None, _error(number, "the record already has an 'ethos' result (use --replace-existing)")
    try:
        return record, _claim(record), None
    except ValueError as error:
        return record, None, _error(number, str(error))


def _verify_planned(document: Any, planned: list[tuple[int, dict[str, Any]]], described: Mapping[str, Any],
                    policy: Any) -> tuple[dict[int, dict[str, Any]], dict[int, str]]:
    """(verdicts, refusals) of claims against one open document, verified in requests of up to 256
    claims. A request the core refuses as a whole (one claim's bad locator) is retried claim by
    claim, so only the claims it refuses get a refusal (the reason), their neighbours a verdict."""
    verdicts: dict[int, dict[str, Any]] = {}
    refused: dict[int, str] = {}
    for start in range(0, len(planned), _BATCH):
        chunk = planned[start:start + _BATCH]
        try:
            checks = _checks(document, [claim for _, claim in chunk], policy)
        except _REFUSALS:
            for number, claim in chunk:
                try:
                    verdicts[number] = _verdict(_checks(document, [claim], policy)[0], described)
                except _REFUSALS as error:
                    refused[number] = f"the claim was refused: {error}"
            continue
        for (number, _), check in zip(chunk, checks):
            verdicts[number] = _verdict(check, described)
    return verdicts, refused


def _checks(document: Any, claims: list[dict[str, Any]], policy: Any) -> list[dict[str, Any]]:
    request = {"document_fingerprint": document.fingerprint, "claims": claims}
    checks: list[dict[str, Any]] = json.loads(document.verify_json(request, policy=policy))["checks"]
    return checks


def _output_line(record: Mapping[str, Any], verdict: Mapping[str, Any]) -> bytes:
    """The record, every field but an old ``ethos`` kept in order, with the verdict under ``ethos``."""
    out = {k: v for k, v in record.items() if k != "ethos"}
    out["ethos"] = verdict
    return json.dumps(out, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


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
    from ._manifest import count_tier

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
        verdicts[number] = _error(number, reason)

    try:
        for number, line in _records(path):
            run.records += 1
            record, claim, problem = _read_record(number, line, replace_existing)
            records.append((number, record))
            if claim is None:
                if not keep_going:
                    raise JsonlError(path, number, (problem or {})["error"]["reason"])
                verdicts[number] = problem or {}
                continue
            try:
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
            except _OPEN_FAILURES as error:
                for number, _ in planned:
                    fail(number, f"the source cannot be opened: {error}")
                continue
            run.sources.append({"key": key, **sources.described[key]})
            checked, refused = _verify_planned(document, planned, sources.described[key], policy)
            verdicts.update(checked)
            for number, reason in refused.items():
                fail(number, reason)
    finally:
        sources.close()
    for number, record in records:
        verdict = verdicts[number]
        status = verdict.get("status", "error")
        run.counts[status] = run.counts.get(status, 0) + 1
        count_tier(run.tiers, verdict)
        run.lines.append(_output_line(record, verdict))
    return run


def run_manifest(run: JsonlRun, *, input_path: str, output_path: str, output_bytes: bytes, policy: Any = None) -> dict[str, Any]:
    """The manifest that travels with the output: what was read and written (with digests), the
    verifier, PDFium and Unicode versions, the policy with its fingerprint and assumptions, each
    source, the verdict counts and the ladder profile (grounded claims per tier, their share and the
    cumulative share).

        >>> run = JsonlRun(records=2, counts={"grounded": 2}, tiers={"exact": 1, "case": 1})
        >>> manifest = run_manifest(run, input_path="examples/quickstart/citations.json", output_path="out.jsonl",
        ...                         output_bytes=b"")
        >>> [(row["tier"], row["cumulative_share"]) for row in manifest["ladder_profile"]]
        [('exact', 0.5), ('whitespace', 0.5), ('typography', 0.5), ('case', 1.0), ('skeleton', 1.0)]
    """
    from ._manifest import explained_policy, file_sha256, ladder_profile, verifier

    return {
        "artifact_type": "ethos.jsonl_run.v1",
        "input": {"path": input_path, "sha256": file_sha256(input_path), "records": run.records},
        "output": {"path": output_path, "sha256": hashlib.sha256(output_bytes).hexdigest(), "records": len(run.lines)},
        "verifier": verifier(),
        "policy": explained_policy(policy),
        "sources": run.sources,
        "counts": dict(sorted(run.counts.items())),
        "ladder_profile": ladder_profile(run.tiers, run.records),
    }
