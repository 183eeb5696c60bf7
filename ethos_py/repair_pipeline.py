"""repair_pipeline - the repair cascade over JSON Lines claims: verify, (opt-in) fragment salvage, locate-and-substitute above a threshold, reject.

Records are those of ``ethos verify-jsonl`` (``claim``, exactly one of ``source``/``source_path``/
``document``, optional ``kind`` and ``citation``; every other field passed through in order). The
score of a claim that is not grounded is the similarity of the span the core's near-miss search
located (``match.score``, basis points, read here as a fraction), and a guard's block (numeric,
polarity, token boundary) rules a substitution out whatever the score. Records are streamed in
chunks; each source is opened once, and claims go to the core per source and chunk in one request.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .jsonl_pipeline import JsonlError, _claim, _corpus, _records, _Sources, _verdict

__all__ = ["MODES", "RepairRun", "labelled_scores", "repair_binding", "repair_jsonl", "repair_manifest", "repair_score"]

MODES = ("substitute", "annotate", "off")
SALVAGE = ("longest_grounded",)
_CHUNK = 4096  # records read before they are verified: a bound on memory, and many claims per source per call
_BATCH = 256  # claims per request: the built-in config's max_checks
SCORER = "ethos near_miss similarity (match.score / 10000: Dice over weighted tokens)"


def repair_score(check: Mapping[str, Any]) -> float | None:
    """The score of a check for the substitute stage: the located span's similarity in [0, 1],
    or ``None`` when nothing can be substituted (grounded, not located, or a guard blocks).

        >>> repair_score({"status": "mismatch", "reason": "near_miss",
        ...               "match": {"score": 8125, "source_text": "grew 12%", "guards": [{"name": "numeric", "verdict": "pass"}]}})
        0.8125
        >>> repair_score({"status": "mismatch", "reason": "numeric_guard",
        ...               "match": {"score": 9800, "guards": [{"name": "numeric", "verdict": "block"}]}}) is None
        True
    """
    match = check.get("match") or {}
    score = match.get("score")
    if check.get("status") == "grounded" or check.get("reason") != "near_miss" or isinstance(score, bool) \
            or not isinstance(score, int) or not isinstance(match.get("source_text"), str):
        return None
    if any(guard.get("verdict") == "block" for guard in match.get("guards") or ()):
        return None
    return score / 10000  # correctly rounded: equal to the decimal literal a user would type


def _blocking_guard(check: Mapping[str, Any]) -> str | None:
    if check.get("reason") == "token_boundary":
        return "boundary"
    for guard in (check.get("match") or {}).get("guards") or ():
        if guard.get("verdict") == "block":
            return str(guard.get("name"))
    return None


def repair_binding(policy: Any = None, grounding: str | None = None) -> dict[str, Any]:
    """What a calibration is made for and refused anywhere else: the scorer and the Ethos
    version that computes it, the policy's fingerprint, and the pipeline (stage, loader, guards).

        >>> sorted(repair_binding())
        ['ethos_version', 'pipeline', 'policy_fingerprint', 'scorer']
    """
    from ._manifest import explained_policy, verifier

    return {
        "scorer": SCORER,
        "ethos_version": verifier()["version"],
        "policy_fingerprint": explained_policy(policy).get("policy_fingerprint"),
        "pipeline": {"stage": "substitute", "population": "quote claims not grounded as given",
                     "guards": "a blocking guard rules the substitution out", "grounding": grounding},
    }


@dataclass
class RepairRun:
    """What a run did: records read and written, dropped rejections, actions and rejection
    reasons counted, claims grounded as given per tier, and each source once.

        >>> RepairRun(records=2, actions={"substituted": 2}).actions
        {'substituted': 2}
    """

    records: int = 0
    written: int = 0
    dropped: int = 0
    actions: dict[str, int] = field(default_factory=dict)
    reasons: dict[str, int] = field(default_factory=dict)
    tiers: dict[str, int] = field(default_factory=dict)
    sources: list[dict[str, Any]] = field(default_factory=list)


class _Pending:
    """One record on its way through the cascade."""

    def __init__(self, number: int, record: dict[str, Any]) -> None:
        self.number, self.record = number, record
        self.claim: dict[str, Any] | None = None
        self.key = ""
        self.result: dict[str, Any] | None = None
        self.followup: dict[str, Any] | None = None  # the claim verified after substitution or salvage
        self.next_text: str | None = None


def _config(policy: Any) -> bytes:
    """The built-in config with the policy pinned in, without the target text echoed in each
    check's evidence: a document-wide check would otherwise carry the whole source, per record."""
    from ._json import dumps
    from .document import pinned_config_json

    config = json.loads(pinned_config_json(policy))
    config.setdefault("evidence", {})["include_text"] = False
    return dumps(config)


def _verify(sources: _Sources, key: str, claims: list[dict[str, Any]], config: bytes) -> list[dict[str, Any]]:
    document = sources.opened[key]
    checks: list[dict[str, Any]] = []
    for start in range(0, len(claims), _BATCH):
        request = {"document_fingerprint": document.fingerprint, "claims": claims[start:start + _BATCH]}
        checks.extend(json.loads(document.verify_json(request, config))["checks"])
    return checks


def _decide(item: _Pending, check: dict[str, Any], described: Mapping[str, Any], *, threshold: float | None, mode: str,
            salvage: str | None) -> None:
    """The cascade up to the second verification: fills ``item.result`` and, when the stored
    text changes, ``item.next_text`` (verified next, as the ``after`` certificate)."""
    assert item.claim is not None
    before = _verdict(check, described)
    text = item.claim["text"]
    result: dict[str, Any] = {"action": "rejected", "accepted": False, "grounded": False, "mode": mode,
                              "threshold": threshold, "score": None, "before": before}
    item.result = result
    match = check.get("match") or {}
    if check.get("status") == "grounded":
        result.update(action="accepted", accepted=True, grounded=True)
        source_text = match.get("source_text")
        if mode == "substitute" and item.claim["kind"] == "quote" and match.get("sound") and isinstance(source_text, str) \
                and source_text != text:
            result["action"] = "normalized"  # grounded at a sound tier: store the document's own characters
            item.next_text = source_text
        return
    if mode == "off" or item.claim["kind"] != "quote":
        result["reason"] = "not_grounded" if mode == "off" else "not_a_quote"
        return
    if salvage == "longest_grounded" and check.get("reason") == "stitched_quotation":
        found = [f for f in match.get("fragments") or () if f.get("found") and f.get("sound", True)]
        if found:
            kept = max(found, key=lambda f: len(f["quote"]))  # the first of the longest
            result["salvage"] = {"kept": kept["quote"], "kept_source_text": kept.get("source_text"),
                                 "dropped": [f["quote"] for f in match["fragments"] if f is not kept],
                                 "caveat": "only the kept fragment is verified; what the dropped fragments said is not"}
            item.next_text = kept["quote"] if mode == "annotate" else kept.get("source_text", kept["quote"])
            result["action"] = "salvaged"
            return
    score = repair_score(check)
    result["score"] = score
    guard = _blocking_guard(check)
    if guard is not None:
        result["reason"] = f"{guard}_guard"
        return
    if score is None:  # a quote stitched from fragments has no one span to substitute (salvage may keep one)
        result["reason"] = "stitched_quotation" if check.get("reason") == "stitched_quotation" else "not_located"
        return
    if threshold is None or score < threshold:
        result["reason"] = "below_threshold"
        return
    if mode == "annotate":
        # The model's wording is kept; the located span is attached as evidence, not as a grounding.
        result.update(action="annotated", accepted=True,
                      located={key: match[key] for key in ("source_text", "start", "end", "score", "diff") if key in match})
        if check.get("evidence") is not None:
            result["located"]["evidence"] = check["evidence"]
        return
    result["action"] = "substituted"
    item.next_text = match["source_text"]


def _finish(item: _Pending, check: dict[str, Any], described: Mapping[str, Any], mode: str) -> None:
    """The second verification: a substitution, normalization or salvage stands only when its text grounds."""
    assert item.result is not None and item.next_text is not None
    result = item.result
    after = _verdict(check, described)
    result["after"] = after
    if check.get("status") != "grounded" and result["action"] == "normalized":
        result.update(action="accepted")  # the claim grounds as given: kept as written
        item.next_text = None
        return
    if check.get("status") != "grounded":
        result.update(action="rejected", accepted=False, grounded=False,
                      reason=f"{result['action']}_text_not_grounded")
        return
    result.update(accepted=True, grounded=mode != "annotate")
    if mode == "substitute":
        item.record = {**item.record, "claim": item.next_text, "claim_original": item.record["claim"]}


def _line(item: _Pending) -> bytes:
    out = {k: v for k, v in item.record.items() if k != "ethos"}
    out["ethos"] = item.result
    return json.dumps(out, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def repair_jsonl(path: str, *, threshold: float | None, mode: str = "substitute", salvage: str | None = None,
                 drop_rejected: bool = False, corpus: str | None = None, grounding: str | None = None,
                 policy: Any = None, replace_existing: bool = False, keep_going: bool = False,
                 run: RepairRun | None = None) -> Iterator[bytes]:
    """Repairs every record of the JSONL file ``path`` and yields the output lines in input order
    (rejected ones left out with ``drop_rejected``); ``run`` is filled in as it goes. A threshold
    is required unless ``mode`` is ``off``. Raises ``JsonlError`` at the first bad record unless
    ``keep_going`` (the error is then recorded in that record, which is never dropped).

        >>> import tempfile
        >>> directory = tempfile.mkdtemp()
        >>> claims = os.path.join(directory, "claims.jsonl")
        >>> source = "Revenue grew 12% in 2024, driven by strong demand in Europe."
        >>> with open(claims, "w") as handle:
        ...     _ = handle.write(json.dumps({"id": 1, "claim": "revenue grew 12% in 2024 driven by demand in Europe",
        ...                                  "source": source}) + "\\n")
        >>> record = json.loads(next(repair_jsonl(claims, threshold=0.8)))
        >>> record["claim"], record["ethos"]["action"], record["ethos"]["score"] >= 0.8
        ('Revenue grew 12% in 2024, driven by strong demand in Europe', 'substituted', True)
        >>> record["claim_original"]
        'revenue grew 12% in 2024 driven by demand in Europe'
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}")
    if salvage is not None and salvage not in SALVAGE:
        raise ValueError(f"salvage must be one of {', '.join(SALVAGE)}")
    if threshold is None and mode != "off":
        raise ValueError("a threshold is required (--threshold or --calibration): there is no default")
    from ._manifest import count_tier

    run = run if run is not None else RepairRun()
    config = _config(policy)
    sources = _Sources(os.path.dirname(os.path.abspath(path)), _corpus(corpus), grounding)
    failed_sources: dict[str, str] = {}
    keys: dict[tuple[str, str], tuple[str, str, str]] = {}

    def fail(item: _Pending, reason: str, given: Any = None) -> None:
        if not keep_going:
            raise JsonlError(path, item.number, reason)
        item.result = {"action": "error", "accepted": False,
                       "error": {"line": item.number, "reason": reason, **({"input": given} if given is not None else {})}}

    def verified(key: str, items: list[_Pending], claims: list[dict[str, Any]]) -> Iterator[tuple[_Pending, dict[str, Any]]]:
        """Each item with its check; when the core refuses the request (a bad citation in one
        record), each claim is sent alone so the error names that record's line."""
        from .errors import EthosError

        try:
            yield from zip(items, _verify(sources, key, claims, config))
            return
        except EthosError:
            pass
        for item, claim in zip(items, claims):
            try:
                [check] = _verify(sources, key, [claim], config)
            except EthosError as error:
                fail(item, f"the verifier refused the claim: {error}")
                item.next_text = None
                continue
            yield item, check

    def process(chunk: list[_Pending]) -> Iterator[bytes]:
        plans: dict[str, list[_Pending]] = {}
        for item in chunk:
            if item.result is None:
                plans.setdefault(item.key, []).append(item)
        followups: dict[str, list[_Pending]] = {}
        for key, items in plans.items():
            if key in failed_sources:
                for item in items:
                    fail(item, failed_sources[key])
                continue
            for item, check in verified(key, items, [item.claim for item in items if item.claim is not None]):
                _decide(item, check, sources.described[key], threshold=threshold, mode=mode, salvage=salvage)
                if item.next_text is not None:
                    followups.setdefault(key, []).append(item)
        for key, items in followups.items():
            claims = [{**(item.claim or {}), "text": item.next_text} for item in items]
            for item, check in verified(key, items, claims):
                _finish(item, check, sources.described[key], mode)
        for item in chunk:
            assert item.result is not None
            count_tier(run.tiers, item.result.get("before"))
            action = str(item.result["action"])
            run.actions[action] = run.actions.get(action, 0) + 1
            if action == "rejected":
                reason = str(item.result.get("reason"))
                run.reasons[reason] = run.reasons.get(reason, 0) + 1
                if drop_rejected:
                    run.dropped += 1
                    continue
            run.written += 1
            yield _line(item)

    try:
        chunk: list[_Pending] = []
        for number, line in _records(path):
            run.records += 1
            item = _Pending(number, {})
            chunk.append(item)
            try:
                record = json.loads(line)
            except ValueError as error:
                fail(item, f"not JSON: {error}", line.decode("utf-8", "replace").rstrip("\r\n"))
                record = None
            if record is not None and not isinstance(record, dict):
                fail(item, "a record must be a JSON object", record)
            elif isinstance(record, dict):
                item.record = record
                try:
                    if not replace_existing and ("ethos" in record or "claim_original" in record):
                        raise ValueError("the record already has an 'ethos' result or a 'claim_original' "
                                         "(use --replace-existing)")
                    item.claim = _claim(record)
                    named = next((k for k in ("source_path", "document") if k in record), None)
                    memo = (named, record[named]) if named and isinstance(record[named], str) and \
                        sum(k in record for k in ("source", "source_path", "document")) == 1 else None
                    if memo is not None and memo in keys:  # a path resolved once, not once per record
                        item.key, kind, target = keys[memo]
                    else:
                        item.key, kind, target = sources.key(record)
                        if memo is not None:
                            keys[memo] = (item.key, kind, target)
                    if item.key not in sources.opened and item.key not in failed_sources:
                        try:
                            sources.open(item.key, kind, target)
                            run.sources.append({"key": item.key, **sources.described[item.key]})
                        except (ValueError, OSError) as error:  # EthosError is a ValueError
                            failed_sources[item.key] = f"the source cannot be opened: {error}"
                    if item.key in failed_sources:
                        raise ValueError(failed_sources[item.key])
                except ValueError as error:
                    fail(item, str(error))
            if len(chunk) == _CHUNK:
                yield from process(chunk)
                chunk = []
        yield from process(chunk)
    finally:
        sources.close()


def labelled_scores(path: str, *, corpus: str | None = None, grounding: str | None = None,
                    policy: Any = None, opened: list[dict[str, Any]] | None = None) -> Iterator[dict[str, Any]]:
    """For each labelled record (a repair record plus ``faithful`` and ``group``): its line,
    group, label, the core's verdict status, reason and tier (grounded), and its ``score``
    (``None`` when nothing can be substituted). Each source opened is appended to ``opened`` (its
    key, label and fingerprint), once. Raises ``JsonlError`` at the first bad record.

        >>> import tempfile
        >>> directory = tempfile.mkdtemp()
        >>> labelled = os.path.join(directory, "labelled.jsonl")
        >>> with open(labelled, "w") as handle:
        ...     _ = handle.write(json.dumps({"claim": "grew by 12% in 2024", "source": "Revenue grew 12% in 2024.",
        ...                                  "faithful": True, "group": "doc-1"}) + "\\n")
        >>> row = next(labelled_scores(labelled))
        >>> row["group"], row["status"], row["score"] > 0.5
        ('doc-1', 'mismatch', True)
    """
    config = _config(policy)
    sources = _Sources(os.path.dirname(os.path.abspath(path)), _corpus(corpus), grounding)
    try:
        chunk: list[tuple[int, dict[str, Any], dict[str, Any], str]] = []

        def flush() -> Iterator[dict[str, Any]]:
            by_source: dict[str, list[int]] = {}
            for index, (_, _, _, key) in enumerate(chunk):
                by_source.setdefault(key, []).append(index)
            checks: dict[int, dict[str, Any]] = {}
            for key, indexes in by_source.items():
                for index, check in zip(indexes, _verify(sources, key, [chunk[i][2] for i in indexes], config)):
                    checks[index] = check
            for index, (number, record, claim, _) in enumerate(chunk):
                check = checks[index]
                tier = (check.get("match") or {}).get("tier") if check.get("status") == "grounded" else None
                yield {"line": number, "group": record["group"], "faithful": record["faithful"],
                       "status": check.get("status"), "reason": check.get("reason"), "tier": tier,
                       "score": repair_score(check) if claim["kind"] == "quote" else None}

        for number, line in _records(path):
            try:
                record = json.loads(line)
            except ValueError as error:
                raise JsonlError(path, number, f"not JSON: {error}") from None
            if not isinstance(record, dict):
                raise JsonlError(path, number, "a record must be a JSON object")
            try:
                if not isinstance(record.get("faithful"), bool):
                    raise ValueError("faithful must be true or false (is substituting the located span faithful?)")
                if not isinstance(record.get("group"), str) or not record["group"]:
                    raise ValueError("group must be a non-empty string (the unit of independent sampling, "
                                     "such as the document id)")
                claim = _claim(record)
                key, kind, target = sources.key(record)
                if key not in sources.opened:
                    sources.open(key, kind, target)
                    if opened is not None:
                        opened.append({"key": key, **sources.described[key]})
            except (ValueError, OSError) as error:
                raise JsonlError(path, number, str(error)) from None
            chunk.append((number, record, claim, key))
            if len(chunk) == _CHUNK:
                yield from flush()
                chunk = []
        yield from flush()
    finally:
        sources.close()


def repair_manifest(run: RepairRun, *, input_path: str, output_path: str, output_sha256: str, mode: str,
                    threshold: float | None, threshold_source: str, salvage: str | None, drop_rejected: bool,
                    policy: Any = None, grounding: str | None = None,
                    calibration: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The manifest that travels with a repaired file (``ethos.repair_run.v1``): what was read
    and written (with digests), the verifier and policy, the binding, the cascade's settings, the
    threshold and where it came from (with the calibration's target, guarantee and digest), each
    source, the actions and rejection reasons counted, and the ladder profile of the claims as
    given (grounded per tier before any repair, with their share and the cumulative share).

        >>> m = repair_manifest(RepairRun(records=1, written=1, actions={"accepted": 1}, tiers={"exact": 1}),
        ...                     input_path="examples/quickstart/citations.json", output_path="out.jsonl",
        ...                     output_sha256="0" * 64, mode="substitute", threshold=0.8, threshold_source="flag",
        ...                     salvage=None, drop_rejected=False)
        >>> m["artifact_type"], m["cascade"]["threshold"], m["counts"]["actions"], m["ladder_profile"][0]["share"]
        ('ethos.repair_run.v1', 0.8, {'accepted': 1}, 1.0)
    """
    from ._manifest import calibration_summary, explained_policy, file_sha256, ladder_profile, verifier

    cascade: dict[str, Any] = {
        "order": ["verify", "salvage", "substitute", "reject"], "mode": mode, "salvage": salvage,
        "drop_rejected": drop_rejected, "threshold": threshold, "threshold_source": threshold_source,
        "acceptance_rule": "score >= threshold", "binding": repair_binding(policy, grounding),
    }
    if calibration is not None:
        cascade["calibration"] = calibration_summary(calibration)
    return {
        "artifact_type": "ethos.repair_run.v1",
        "input": {"path": input_path, "sha256": file_sha256(input_path), "records": run.records},
        "output": {"path": output_path, "sha256": output_sha256, "records": run.written},
        "verifier": verifier(),
        "policy": explained_policy(policy),
        "cascade": cascade, "sources": run.sources,
        "counts": {"records": run.records, "written": run.written, "dropped": run.dropped,
                   "actions": dict(sorted(run.actions.items())), "rejected_reasons": dict(sorted(run.reasons.items()))},
        "ladder_profile": ladder_profile(run.tiers, run.records),
    }
