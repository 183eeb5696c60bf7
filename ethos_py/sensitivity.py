"""sensitivity - the same claims verified under the strict, default and permissive policies: each check's verdicts, each policy's rates (grounded, contiguous, repaired, rejected) and the spread between them.

Holding the claims and sources fixed and varying only the matching policy shows how much of a
reported grounding rate is the policy's doing: the answer to "which policy should I use". The
claims come from a citations file against one source (any source kind ``ethos verify`` opens,
a PDF parsed on the way) or from ``ethos verify-jsonl`` records, each distinct source opened once.
Per policy every claim has exactly one outcome: grounded, repaired (not grounded, but ``ethos
repair``'s locate-and-substitute at the given threshold would accept it) or rejected. Rates are
integers in basis points so the output stays canonical JSON (integers only).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

from .calibration import Calibration, CalibrationError, load_calibration
from .errors import EthosError
from .repair_pipeline import SALVAGE

__all__ = ["PRESETS", "calibrated_preset", "sensitivity", "sensitivity_json"]

PRESETS = ("strict", "default", "permissive")
ARTIFACT_TYPE = "ethos.sensitivity.v1"
_BATCH = 256  # claims per request: the built-in config's max_checks
# Every elision mark (docs/matching.md: ..., …, . . ., [...], […], (...), (…)) starts and ends with
# one of these: a grounded quote that neither starts nor ends with one cannot have been truncated.
_MARK_FIRST = (".", "\u2026", "[", "(")
_MARK_LAST = (".", "\u2026", "]", ")")

SourceInput = Union[str, "os.PathLike[str]", Any]  # a path, or an open ethos_py.Document


@dataclass
class _Unit:
    """One open source and the claims verified against it: ``base`` is the request without its
    claims (the citations file's own pin), ``rows`` the output rows, one per claim, in order."""

    document: Any
    base: dict[str, Any]
    claims: list[dict[str, Any]]
    rows: list[dict[str, Any]] = field(default_factory=list)
    checks: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def _policy_bytes(explained: Mapping[str, Any], *, elision: bool) -> bytes:
    """The preset as a policy file; with ``elision`` False, the same policy that never reads an
    elision mark (no truncation, no stitching), to tell a quote grounded as written."""
    from ._json import dumps

    policy = json.loads(json.dumps(explained["policy"]))
    policy["elision"]["enabled"] = elision
    return dumps(policy)


def _verify(unit: _Unit, claims: list[dict[str, Any]], config: bytes | None, policy: Any) -> list[dict[str, Any] | None]:
    """Each claim's check against the unit's document (requests of up to 256 claims); a claim the
    core refuses on its own is ``None`` (a request it refuses as a whole is retried claim by claim)."""
    from ._json import dumps

    out: list[dict[str, Any] | None] = []
    for start in range(0, len(claims), _BATCH):
        chunk = claims[start:start + _BATCH]
        try:
            report = json.loads(unit.document.verify_json(dumps({**unit.base, "claims": chunk}), config, policy=policy))
            out.extend(report["checks"])
            continue
        except (ValueError, EthosError):  # EthosError is a ValueError too: kept explicit for the reader
            pass
        for claim in chunk:
            try:
                report = json.loads(unit.document.verify_json(dumps({**unit.base, "claims": [claim]}), config, policy=policy))
                out.append(report["checks"][0])
            except (ValueError, EthosError):
                out.append(None)
    return out


def _truncation_candidate(check: Mapping[str, Any]) -> bool:
    claim = check.get("claim") or {}
    text = claim.get("text")
    if claim.get("kind") != "quote" or not isinstance(text, str):
        return False
    text = text.strip(" \t\r\n")
    return text.startswith(_MARK_FIRST) or text.endswith(_MARK_LAST)


def _contiguous(unit: _Unit, checks: list[dict[str, Any]], config: bytes | None, no_elision: bytes) -> list[bool]:
    """Per grounded check: grounded as written (True), or only once the core read an elision mark
    at the quote's start or end as truncation (False). Decided by the core, not guessed here: the
    candidates are verified again under the same policy with elision off."""
    result = [check.get("status") == "grounded" for check in checks]
    candidates = [index for index, check in enumerate(checks) if result[index] and _truncation_candidate(check)]
    again = _verify(unit, [_claim_of(unit, index, checks[index]) for index in candidates], config, no_elision)
    for index, check in zip(candidates, again):
        result[index] = check is not None and check.get("status") == "grounded"
    return result


def _claim_of(unit: _Unit, index: int, check: Mapping[str, Any]) -> dict[str, Any]:
    """The claim as it was sent (the check's echo when the request held no claim list)."""
    if index < len(unit.claims) and isinstance(unit.claims[index], dict):
        return dict(unit.claims[index])
    return dict(check.get("claim") or {})


def _repaired(unit: _Unit, checks: list[dict[str, Any]], config: bytes | None, policy: str,
              threshold: float, salvage: str | None) -> list[dict[str, Any] | None]:
    """Per check not grounded: what ``ethos repair --mode substitute --threshold X [--salvage S]``
    does to it under this policy (its cascade, ethos_py.repair_pipeline, reused as is): the
    substituted text and score when it is accepted (the located span scores at least the
    threshold, no guard blocks, and the span grounds when verified), the kept fragment and what was
    dropped when salvage keeps one that grounds, else None."""
    from .repair_pipeline import _decide, _finish, _Pending

    pending: list[tuple[int, _Pending]] = []
    for index, check in enumerate(checks):
        if check.get("status") == "grounded":
            continue
        claim = check.get("claim") or {}
        item = _Pending(index, {"claim": claim.get("text")})
        item.claim = {"kind": claim.get("kind"), "text": claim.get("text")}
        _decide(item, check, {}, threshold=threshold, mode="substitute", salvage=salvage)
        if item.next_text is not None:
            pending.append((index, item))
    followups = [{**_claim_of(unit, index, checks[index]), "text": item.next_text} for index, item in pending]
    result: list[dict[str, Any] | None] = [None] * len(checks)
    for (index, item), after in zip(pending, _verify(unit, followups, config, policy)):
        if after is None:
            continue
        _finish(item, after, {}, "substitute")
        if item.result is None or not item.result.get("accepted"):
            continue
        if item.result.get("action") == "substituted":
            result[index] = {"score_bp": checks[index]["match"]["score"], "text": item.next_text}
        elif item.result.get("action") == "salvaged":
            result[index] = {"dropped": item.result["salvage"]["dropped"], "text": item.next_text}
    return result


def _entry(check: Mapping[str, Any]) -> dict[str, Any]:
    """A check's verdict as the side-by-side table shows it: status, reason, tier or near-miss score."""
    entry = {key: check[key] for key in ("status", "reason") if key in check}
    match = check.get("match") or {}
    if "tier" in match:
        entry["tier"] = match["tier"]
    if "score" in match:  # a near miss: its similarity instead of a tier
        entry["score"] = match["score"]
    return entry


def _rate(count: int, total: int) -> dict[str, int]:
    """A count and its share of ``total`` in basis points, rounded half up (exact integers)."""
    return {"count": count, "rate_bp": (2 * count * 10000 + total) // (2 * total) if total else 0}


def _min_score_bp(threshold: float) -> int:
    """The lowest near-miss score (basis points) repair accepts at ``threshold``: it compares
    score / 10000 with the threshold, so this is the smallest such integer (10001: none)."""
    score = max(0, math.ceil(threshold * 10000) - 1)
    while score <= 10000 and score / 10000 < threshold:
        score += 1
    return score


def _judge(units: list[_Unit], config: bytes | None, threshold: float | None, repair_presets: tuple[str, ...],
           salvage: str | None) -> dict[str, Any]:
    """Verifies every unit under each preset and fills the rows; returns policies, rates, spread.
    Repaired is computed under the presets of ``repair_presets`` only (those a calibration binds)."""
    from .document import explain_policy_json

    total = sum(len(unit.rows) for unit in units)
    policies: dict[str, str] = {}
    rates: dict[str, dict[str, Any]] = {}
    for preset in PRESETS:
        explained = json.loads(explain_policy_json(preset))
        policies[preset] = explained["policy_fingerprint"]
        no_elision = _policy_bytes(explained, elision=False)
        computed = threshold is not None and preset in repair_presets
        counts = {"grounded": 0, "contiguous": 0, "repaired": 0, "rejected": 0}
        tiers: dict[str, int] = {}
        for unit in units:
            checks = unit.checks[preset]
            contiguous = _contiguous(unit, checks, config, no_elision)
            repaired = _repaired(unit, checks, config, preset, threshold, salvage) \
                if threshold is not None and computed else [None] * len(checks)
            for row, check, whole, repair in zip(unit.rows, checks, contiguous, repaired):
                entry = _entry(check)
                if check.get("status") == "grounded":
                    entry.update(outcome="grounded", contiguous=whole)
                    counts["grounded"] += 1
                    counts["contiguous"] += whole
                    tier = (check.get("match") or {}).get("tier")
                    if isinstance(tier, str):
                        tiers[tier] = tiers.get(tier, 0) + 1
                elif repair is not None:
                    entry.update(outcome="repaired", repair=repair)
                    counts["repaired"] += 1
                else:
                    entry["outcome"] = "rejected"
                    counts["rejected"] += 1
                row[preset] = entry
        rates[preset] = {
            "accept_up_to": explained["policy"]["accept_up_to"],
            "claims": total,
            "contiguous": _rate(counts["contiguous"], total),
            "grounded": _rate(counts["grounded"], total),
            "grounded_by_tier": dict(sorted(tiers.items())),
            "policy_fingerprint": explained["policy_fingerprint"],
            "rejected": _rate(counts["rejected"], total),
            "repaired": _rate(counts["repaired"], total) if computed else None,
        }
    return {"policies": policies, "rates": rates}


def _spread(rows: Sequence[Mapping[str, Any]], rates: Mapping[str, Any], total: int) -> dict[str, Any]:
    """Max - min grounded rate over the presets (the first preset in PRESETS order names a tie)
    and every claim whose verdict (status or outcome) is not the same under all of them."""
    grounded = {preset: rates[preset]["grounded"]["count"] for preset in PRESETS}
    high = max(PRESETS, key=lambda preset: (grounded[preset], -PRESETS.index(preset)))
    low = min(PRESETS, key=lambda preset: (grounded[preset], PRESETS.index(preset)))
    changed = []
    for row in rows:
        verdicts = {preset: {"outcome": row[preset]["outcome"], "status": row[preset]["status"]} for preset in PRESETS}
        if len({(v["status"], v["outcome"]) for v in verdicts.values()}) > 1:
            where = {key: row[key] for key in ("id", "line", "source") if key in row}
            changed.append({**where, "text": (row.get("claim") or {}).get("text"), "verdicts": verdicts})
    return {
        "changed": changed,
        "changed_count": len(changed),
        "grounded_rate_bp": _rate(grounded[high] - grounded[low], total)["rate_bp"],
        "max": {"policy": high, "rate_bp": rates[high]["grounded"]["rate_bp"]},
        "min": {"policy": low, "rate_bp": rates[low]["grounded"]["rate_bp"]},
    }


def _citations_unit(source: SourceInput, citations: Any, grounding: str | None, config: bytes | None,
                    stack: Any) -> tuple[_Unit, dict[str, Any]]:
    """The one unit of a citations file against a source (a PDF parsed on the way)."""
    from ._json import dumps
    from .document import Document
    from .testing import open_source

    if isinstance(citations, (str, os.PathLike)):
        with open(citations, "rb") as handle:
            citations = handle.read()
    data = dumps(citations) if isinstance(citations, Mapping) else bytes(citations)
    document = source if isinstance(source, Document) else stack.enter_context(open_source(os.fspath(source), grounding))
    unit = _Unit(document, {}, [])
    for preset in PRESETS:
        unit.checks[preset] = json.loads(document.verify_json(data, config, policy=preset))["checks"]
    parsed = json.loads(data)  # the core parsed it above: it is a JSON object
    unit.base = {key: value for key, value in parsed.items() if key != "claims"}
    claims = parsed.get("claims")
    unit.claims = claims if isinstance(claims, list) and len(claims) == len(unit.checks["default"]) else []
    unit.rows = [{"claim": check["claim"], "id": check["id"]} for check in unit.checks["default"]]
    described = {"document_fingerprint": document.fingerprint}
    if isinstance(source, (str, os.PathLike)):
        # As given; a name that is no UTF-8 (argv arrives surrogate-escaped) keeps its bytes as \x escapes.
        described["source"] = os.fsencode(source).decode("utf-8", "backslashreplace")
    return unit, described


def _check_config(config: bytes) -> None:
    """Raises the core's own error for a config it refuses, before any record is verified: a
    refused request is otherwise read as a refused claim and named by its record's line."""
    from .document import Document

    with Document.from_bytes(b"probe", "text") as probe:
        request = {"document_fingerprint": probe.fingerprint,
                   "claims": [{"kind": "quote", "text": "probe", "citation": {"scope": "document"}}]}
        probe.verify_json(json.dumps(request).encode("utf-8"), config, policy="default")


def _jsonl_units(path: str, corpus: str | None, grounding: str | None, config: bytes | None,
                 stack: Any) -> tuple[list[_Unit], list[dict[str, Any]]]:
    """One unit per distinct source of ``ethos verify-jsonl`` records (each opened once); a bad
    record, a source that cannot be opened or a claim the core refuses raises ``JsonlError``."""
    from .jsonl_pipeline import _OPEN_FAILURES, JsonlError, _corpus, _read_record, _records, _Sources

    try:
        documents = _corpus(corpus)
    except (ValueError, UnicodeDecodeError) as error:  # not JSON: named like a bad record (JsonlError is one too)
        if isinstance(error, JsonlError):
            raise
        raise JsonlError(corpus or "", 1, f"not JSON: {error}") from None
    sources = _Sources(os.path.dirname(os.path.abspath(path)), documents, grounding)
    stack.callback(sources.close)
    planned: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    targets: dict[str, tuple[str, str]] = {}
    for number, line in _records(path):
        # An 'ethos' result the record already has (a verify-jsonl output) is read past, not refused.
        _record, claim, problem = _read_record(number, line, True)
        if claim is None:
            raise JsonlError(path, number, (problem or {})["error"]["reason"])
        try:
            key, kind, target = sources.key(_record)
        except ValueError as error:
            raise JsonlError(path, number, str(error)) from None
        targets.setdefault(key, (kind, target))
        planned.setdefault(key, []).append((number, claim))
    if config is not None:
        _check_config(config)
    units, described = [], []
    for key, claims in planned.items():
        try:
            document = sources.open(key, *targets[key])
        except _OPEN_FAILURES as error:
            raise JsonlError(path, claims[0][0], f"the source cannot be opened: {error}") from None
        unit = _Unit(document, {"document_fingerprint": document.fingerprint}, [claim for _, claim in claims])
        for preset in PRESETS:
            checks = _verify(unit, unit.claims, config, preset)
            for (number, _), check in zip(claims, checks):
                if check is None:
                    raise JsonlError(path, number, "the claim was refused by the verifier (check its citation)")
            unit.checks[preset] = [check for check in checks if check is not None]
        label = sources.described[key]["source"]
        unit.rows = [{"claim": check["claim"], "line": number, "source": label}
                     for (number, _), check in zip(claims, unit.checks["default"])]
        units.append(unit)
        described.append(dict(sources.described[key]))
    return units, described


def calibrated_preset(calibration: Calibration, grounding: str | None = None) -> str:
    """The preset an ``ethos calibrate`` calibration was made for, when it is one of those
    sensitivity compares and the loader, scorer and Ethos version are this run's too; else
    ``CalibrationError``, with ``ethos repair --calibration``'s reason for the binding's first
    difference (Calibration.check_binding).

        >>> from ethos_py.repair_pipeline import repair_binding
        >>> made = Calibration(threshold=0.9, target="risk", alpha=0.1, delta=0.1, n=40, binding=repair_binding("strict"))
        >>> calibrated_preset(made)
        'strict'
        >>> calibrated_preset(made, "text")
        Traceback (most recent call last):
        ...
        ethos_py.calibration.CalibrationError: the calibration was made for pipeline ...
    """
    from .document import explain_policy_json
    from .repair_pipeline import repair_binding

    wanted = calibration.binding.get("policy_fingerprint")
    for preset in PRESETS:
        if json.loads(explain_policy_json(preset))["policy_fingerprint"] == wanted:
            calibration.check_binding(repair_binding(preset, grounding))
            return preset
    raise CalibrationError(f"the calibration was made for policy_fingerprint {wanted!r}, which is none of the presets "
                           f"sensitivity compares ({', '.join(PRESETS)}): calibrate under one of them (--policy)")


def sensitivity(source: SourceInput | None = None, citations: Any = None, *, jsonl: str | None = None,
                corpus: str | None = None, grounding: str | None = None, config: bytes | Mapping[str, Any] | None = None,
                threshold: float | None = None, calibration: Mapping[str, Any] | None = None,
                salvage: str | None = None) -> dict[str, Any]:
    """The same claims verified under the strict, default and permissive policies: each check's
    verdict per policy, each policy's rates and the spread (docs/cli.md §3.3a).

    Give ``source`` and ``citations`` (a citations file's path, bytes or mapping; ``source`` a
    path, bytes or open ``Document``: a PDF is parsed on the way, other files open under
    ``grounding`` as ``ethos verify`` opens them) or ``jsonl``, the path of ``ethos verify-jsonl``
    records (``corpus`` resolves their ``document`` ids). ``config`` is a verification config
    (default: the built-in one); each preset overrides its matching policy. ``threshold`` (0..1)
    is ``ethos repair``'s acceptance threshold: without it ``repaired`` is not computed (None)
    and every claim not grounded counts as rejected, as ``ethos repair --mode off`` rejects it.
    ``calibration`` (an ``ethos calibrate`` document, instead of ``threshold``) gives the threshold
    as ``ethos repair --calibration`` takes it: repaired is computed under the preset the
    calibration was made for only (repair refuses it under the others, so their ``repaired`` is
    None), and a calibration made for none of them, another loader (``grounding``), scorer or Ethos
    version raises ``CalibrationError``. ``salvage`` (``longest_grounded``) counts as repaired, too,
    what ``ethos repair --salvage`` keeps of a stitched quotation. A bad JSONL record raises ``ethos_py.jsonl_pipeline.JsonlError``; the core's refusal of a
    citations file or a source raises ``EthosError``.

        >>> result = sensitivity("examples/quickstart/document.json", "examples/quickstart/citations.json",
        ...                      threshold=0.8)
        >>> result["claims"], [result["rates"][p]["grounded"]["rate_bp"] for p in PRESETS]
        (4, [7500, 7500, 7500])
        >>> result["spread"]["grounded_rate_bp"], result["spread"]["changed"]
        (0, [])
        >>> result["checks"][3]["strict"]
        {'status': 'mismatch', 'reason': 'text_mismatch', 'outcome': 'rejected'}
    """
    from contextlib import ExitStack

    from ._json import dumps

    if (jsonl is None) == (source is None):
        raise ValueError("give source and citations, or jsonl (not both)")
    if source is not None and citations is None:
        raise ValueError("citations are required with a source")
    if jsonl is None and corpus is not None:
        raise ValueError("corpus applies to jsonl records only")
    if threshold is not None and not 0.0 <= threshold <= 1.0:
        raise ValueError("threshold must be between 0 and 1")
    if threshold is not None and calibration is not None:
        raise ValueError("give threshold or calibration, not both")
    if salvage is not None and salvage not in SALVAGE:
        raise ValueError(f"salvage must be one of {', '.join(SALVAGE)}")
    if salvage is not None and threshold is None and calibration is None:
        raise ValueError("salvage needs a threshold or a calibration, as ethos repair does")
    repair_presets: tuple[str, ...] = PRESETS
    if calibration is not None:
        loaded = load_calibration(calibration)
        repair_presets = (calibrated_preset(loaded, grounding),)
        threshold = loaded.threshold
    config_bytes = dumps(config) if isinstance(config, Mapping) else config
    with ExitStack() as stack:
        if jsonl is not None:
            units, described = _jsonl_units(jsonl, corpus, grounding, config_bytes, stack)
        else:
            unit, one = _citations_unit(source, citations, grounding, config_bytes, stack)
            units, described = [unit], [one]
        judged = _judge(units, config_bytes, threshold, repair_presets, salvage)
    rows = [row for unit in units for row in unit.rows]
    if jsonl is not None:  # input order, whichever source each record names
        rows.sort(key=lambda row: int(row["line"]))
    total = len(rows)
    repair: dict[str, Any] = {"computed": threshold is not None, "mode": "substitute"}
    if threshold is None:
        repair["reason"] = "no threshold given (ethos repair has no default): claims not grounded count as rejected"
        repair["threshold"] = None
    else:
        repair["min_score_bp"] = _min_score_bp(threshold)
        repair["threshold"] = repr(float(threshold))
    if salvage is not None:
        repair["salvage"] = salvage
    if calibration is not None:
        from ._manifest import calibration_summary

        repair["calibration"] = {**calibration_summary(calibration), "policy": repair_presets[0]}
    return {
        "artifact_type": ARTIFACT_TYPE,
        "checks": rows,
        "claims": total,
        "input": "jsonl" if jsonl is not None else "citations",
        "policies": judged["policies"],
        "rates": judged["rates"],
        "repair": repair,
        "sources": described,
        "spread": _spread(rows, judged["rates"], total),
    }


def sensitivity_json(source: SourceInput | None = None, citations: Any = None, **options: Any) -> bytes:
    """``sensitivity(...)`` as canonical JSON bytes (no trailing newline): what ``ethos
    sensitivity`` prints with ``--format json``.

        >>> data = sensitivity_json("examples/quickstart/document.json", "examples/quickstart/citations.json")
        >>> data.startswith(b'{"artifact_type":"ethos.sensitivity.v1"')
        True
    """
    from ._json import dumps

    return dumps(sensitivity(source, citations, **options))

