"""_manifest - the parts every manifest of the extraction pipeline records: file digests, the verifier's versions, the ladder profile and the calibration used.

``ethos verify-jsonl``, ``repair``, ``calibrate`` and ``sensitivity`` each write a manifest beside
their output so a rate can be reproduced: these are the members they share, built in one place so
the four cannot drift apart.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

TIERS = ("exact", "whitespace", "typography", "case", "skeleton")  # ladder order, tightest first


def file_sha256(path: str) -> str:
    """SHA-256 of a file's bytes, read in blocks (an input may be far larger than memory allows).

        >>> file_sha256("examples/quickstart/citations.json") == hashlib.sha256(open("examples/quickstart/citations.json", "rb").read()).hexdigest()
        True
    """
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verifier() -> dict[str, Any]:
    """The package, PDFium and Unicode versions of the verifier that ran.

        >>> sorted(verifier())
        ['name', 'pdfium', 'unicode_version', 'version']
    """
    from ._version_text import version_text

    versions = dict(line.split(" ", 1) for line in version_text().splitlines() if " " in line)
    return {"name": "ethos", "version": versions.get("ethos"), "pdfium": versions.get("pdfium"),
            "unicode_version": versions.get("unicode")}


def explained_policy(policy: Any = None) -> dict[str, Any]:
    """The policy in force as ``ethos explain --policy`` gives it: the policy, its fingerprint and
    its assumptions, among them each tier's soundness (accepted, or UNSOUND and never grounded)."""
    from .document import explain_policy_json

    explained: dict[str, Any] = json.loads(explain_policy_json(policy))
    return explained


def ladder_profile(tiers: Mapping[str, int], claims: int) -> list[dict[str, Any]]:
    """One row per tier in ladder order: the claims grounded at that tier, their share of all
    ``claims`` and the cumulative share grounded at that tier or a tighter one.

        >>> [(r["tier"], r["share"], r["cumulative_share"]) for r in ladder_profile({"exact": 1, "case": 1}, 4)][:4]
        [('exact', 0.25, 0.25), ('whitespace', 0.0, 0.25), ('typography', 0.0, 0.25), ('case', 0.25, 0.5)]
    """
    rows, cumulative = [], 0
    for tier in TIERS:
        grounded = tiers.get(tier, 0)
        cumulative += grounded
        rows.append({"tier": tier, "grounded": grounded, "share": grounded / claims if claims else 0.0,
                     "cumulative_share": cumulative / claims if claims else 0.0})
    return rows


def count_tier(tiers: dict[str, int], verdict: Mapping[str, Any] | None) -> None:
    """Counts a grounded verdict at its tier (a verdict that is not grounded counts nowhere)."""
    if verdict is None or verdict.get("status") != "grounded":
        return
    tier = (verdict.get("match") or {}).get("tier")
    if isinstance(tier, str):
        tiers[tier] = tiers.get(tier, 0) + 1


def calibration_summary(calibration: Mapping[str, Any]) -> dict[str, Any]:
    """What a manifest records of the calibration a threshold came from: its target, levels,
    guarantee, data digest and the SHA-256 of the calibration document itself.

        >>> summary = calibration_summary({"target": "risk", "alpha": 0.1, "binding": {}})
        >>> summary["target"], len(summary["sha256"])
        ('risk', 64)
    """
    summary = {key: calibration.get(key) for key in
               ("target", "alpha", "delta", "n", "guarantee_status", "guarantee", "data_sha256")}
    summary["sha256"] = hashlib.sha256(
        json.dumps(calibration, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()
    return summary


def write_manifest(path: str, document: Mapping[str, Any]) -> None:
    """Writes a manifest atomically; a failure is the ``host_io`` envelope naming ``--manifest``."""
    from ._host_io import write_file_atomic
    from ._json import dumps
    from .cli import _host_error, _io_details

    try:
        write_file_atomic(path, dumps(document) + b"\n")
    except OSError as error:
        raise _host_error("host_io", _io_details("--manifest", error, path)) from error
