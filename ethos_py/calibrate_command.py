"""calibrate_command - ``ethos calibrate``: a repair threshold from labelled JSON Lines, with its stated guarantee.

Python-only (no ethos-core counterpart). Each labelled record is a repair record (``claim`` and its
source, as in ``verify-jsonl``) with ``faithful`` and ``group``; its score is computed here with
the core against its own source (ethos_py.repair_pipeline), and ethos_py.calibration picks the
threshold. scipy (the ``calibrate`` extra) is needed and imported only when the command runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import click

__all__ = ["add_calibrate_command", "calibrate_manifest", "missing_scipy"]


def missing_scipy() -> Exception | None:
    """The error envelope to raise when scipy cannot be imported, else ``None``.

        >>> missing_scipy() is None  # the test extra installs scipy
        True
    """
    try:
        import scipy.stats  # noqa: F401  (optional: only calibration needs it)
    except ImportError as error:
        from .calibration import INSTALL_HINT
        from .errors import EthosError

        return EthosError("internal_error", f"ethos calibrate needs scipy, which is not installed: {INSTALL_HINT}",
                          {"reason": "missing_dependency", "dependency": "scipy", "install": INSTALL_HINT,
                           "detail": str(error)}, 12)
    return None


def add_calibrate_command(ethos: click.Group) -> None:
    """Adds ``calibrate`` to the ``ethos`` command (called once by ethos_py.cli)."""
    from .cli import _COMMAND_CONTEXT, _GROUNDING_HELP, _GROUNDINGS, _POLICY_HELP, _reject_extra_args

    @ethos.command("calibrate", context_settings=_COMMAND_CONTEXT,
                   short_help="Calibrate the repair threshold on labelled JSON Lines.")
    @click.argument("labelled", metavar="LABELLED.jsonl")
    @click.option("-o", "--out", metavar="FILE", required=True, help="The calibration JSON (atomic).")
    @click.option("--alpha", type=float, required=True, help="The rate to control (risk: joint unfaithful acceptance; coverage: faithful repairs lost).")
    @click.option("--delta", type=float, required=True, help="The probability, over the calibration draw, that the bound fails.")
    @click.option("--target", type=click.Choice(("risk", "coverage")), default="risk", show_default=True,
                  help="risk: P(score >= t and unfaithful) <= alpha; coverage: P(score >= t | faithful) >= 1 - alpha.")
    @click.option("--allow-repeated-groups", is_flag=True,
                  help="Accept several examples per group; the calibration is then recorded as uncertified.")
    @click.option("--scores", metavar="FILE", default=None, help="Also write each record's score, unrounded, as JSON Lines (atomic).")
    @click.option("--manifest", metavar="FILE", default=None, help="Also write the run's manifest (atomic).")
    @click.option("--corpus", metavar="FILE", default=None,
                  help='A manifest {"documents": {"<id>": "<path>"}} for records that name a "document".')
    @click.option("--grounding", type=click.Choice(_GROUNDINGS), default=None, help=_GROUNDING_HELP)
    @click.option("--policy", metavar="NAME|FILE", default=None, help=_POLICY_HELP)
    @click.pass_context
    def calibrate_command(ctx: click.Context, labelled: str, out: str, alpha: float, delta: float, target: str,
                          allow_repeated_groups: bool, scores: str | None, manifest: str | None, corpus: str | None,
                          grounding: str | None, policy: str | None) -> int:
        """Calibrate the repair threshold on LABELLED.jsonl.

        \b
        A record: "claim" and its source as in verify-jsonl, "faithful"
        (true when substituting the located source span keeps the claim)
        and "group" (the unit of independent sampling, e.g. the document
        id; one record per group unless --allow-repeated-groups). Claims
        grounded as given are not part of the population and are counted
        apart. Learn-then-Test (risk) or split conformal (coverage), each
        holding with probability 1 - delta under exchangeable groups.
        """
        import hashlib

        from ._host_io import write_file_atomic
        from ._manifest import file_sha256, write_manifest
        from ._json import dumps
        from .calibration import CalibrationError, Labelled, calibrate_coverage, calibrate_risk
        from .cli import _host_error, _io_details, _policy_choice
        from .jsonl_pipeline import JsonlError
        from .repair_pipeline import labelled_scores, repair_binding

        _reject_extra_args(ctx)
        problem = missing_scipy()
        if problem is not None:
            raise problem
        for name, value in (("--alpha", alpha), ("--delta", delta)):
            if not 0.0 < value < 1.0:
                raise _host_error("invalid_arguments", {"argument": name, "reason": "must be strictly between 0 and 1"})
        policy_value = _policy_choice(policy)
        opened: list[dict[str, object]] = []
        try:
            rows = list(labelled_scores(labelled, corpus=corpus, grounding=grounding, policy=policy_value, opened=opened))
            input_digest = file_sha256(labelled)
        except JsonlError as error:
            argument = "--corpus" if corpus is not None and error.path == corpus else "LABELLED"
            raise _host_error("invalid_input", {"argument": argument, "file": error.path, "line": error.line,
                                                "reason": error.reason}) from None
        except OSError as error:
            raise _host_error("host_io", _io_details("LABELLED", error, labelled)) from error
        population = [row for row in rows if row["status"] != "grounded"]
        examples = [Labelled(row["score"], row["faithful"], row["group"]) for row in population]
        binding = repair_binding(policy_value, grounding)
        calibrate = calibrate_risk if target == "risk" else calibrate_coverage
        try:
            calibration = calibrate(examples, alpha=alpha, delta=delta, allow_repeated_groups=allow_repeated_groups,
                                    binding=binding)
        except CalibrationError as error:
            raise _host_error("invalid_input", {"argument": "LABELLED", "file": labelled,
                                                "reason": str(error)}) from None
        document = calibration.as_dict()
        document["input"] = {
            "path": labelled, "sha256": input_digest, "records": len(rows),
            "grounded_as_given": len(rows) - len(population), "population": len(population),
            "located": sum(1 for row in population if row["score"] is not None),
            "not_substitutable": dict(sorted(_count(str(row["reason"]) for row in population if row["score"] is None).items())),
        }
        lines = b"".join(dumps(row) + b"\n" for row in rows)
        if scores is not None:
            try:
                write_file_atomic(scores, lines)
            except OSError as error:
                raise _host_error("host_io", _io_details("--scores", error, scores)) from error
        data = dumps(document) + b"\n"
        try:
            write_file_atomic(out, data)
        except OSError as error:
            raise _host_error("host_io", _io_details("--out", error, out)) from error
        if manifest is not None:
            write_manifest(manifest, calibrate_manifest(
                document, rows, opened, output_path=out, output_sha256=hashlib.sha256(data).hexdigest(),
                scores_path=scores, scores_sha256=hashlib.sha256(lines).hexdigest(), policy=policy_value))
        status = document["guarantee_status"]
        click.echo(f"ethos calibrate: {target} threshold {calibration.threshold!r} ({status}) from "
                   f"{len(population)} of {len(rows)} records -> {out}", err=True)
        return 0


def calibrate_manifest(calibration: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], sources: list[dict[str, Any]],
                       *, output_path: str, output_sha256: str, scores_path: str | None, scores_sha256: str,
                       policy: Any = None) -> dict[str, Any]:
    """The manifest that travels with a calibration (``ethos.calibrate_run.v1``): the labelled file
    and the calibration written (with digests), the verifier with its PDFium and Unicode versions,
    the policy with its fingerprint and each tier's soundness, each source, the calibration (target,
    threshold, guarantee, digests and binding) and the ladder profile of the labelled claims as
    given (the claims grounded as given are outside the calibrated population).

        >>> rows = [{"status": "grounded", "tier": "exact"}, {"status": "mismatch", "tier": None}]
        >>> m = calibrate_manifest({"threshold": 0.9, "binding": {}, "input": {"path": "l.jsonl", "sha256": "0" * 64,
        ...                          "records": 2}}, rows, [], output_path="cal.json", output_sha256="1" * 64,
        ...                        scores_path=None, scores_sha256="2" * 64)
        >>> m["artifact_type"], m["ladder_profile"][0]["share"], "scores" in m
        ('ethos.calibrate_run.v1', 0.5, False)
    """
    from ._manifest import calibration_summary, explained_policy, ladder_profile, verifier

    tiers: dict[str, int] = {}
    for row in rows:
        if row.get("status") == "grounded" and isinstance(row.get("tier"), str):
            tiers[row["tier"]] = tiers.get(row["tier"], 0) + 1
    given = calibration["input"]
    document: dict[str, Any] = {
        "artifact_type": "ethos.calibrate_run.v1",
        "input": {"path": given["path"], "sha256": given["sha256"], "records": given["records"]},
        "output": {"path": output_path, "sha256": output_sha256},
        "verifier": verifier(),
        "policy": explained_policy(policy),
        "sources": sources,
        "calibration": {**calibration_summary(calibration),
                        "threshold": calibration["threshold"], "binding": calibration["binding"]},
        "ladder_profile": ladder_profile(tiers, len(rows)),
    }
    if scores_path is not None:
        document["scores"] = {"path": scores_path, "sha256": scores_sha256, "records": len(rows)}
    return document


def _count(values: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return counts
