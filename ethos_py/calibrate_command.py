"""calibrate_command - ``ethos calibrate``: a repair threshold from labelled JSON Lines, with its stated guarantee.

Python-only (no ethos-core counterpart). Each labelled record is a repair record (``claim`` and its
source, as in ``verify-jsonl``) with ``faithful`` and ``group``; its score is computed here with
the core against its own source (ethos_py.repair_pipeline), and ethos_py.calibration picks the
threshold. scipy (the ``calibrate`` extra) is needed and imported only when the command runs.
"""

from __future__ import annotations

from collections.abc import Iterable

import click

__all__ = ["add_calibrate_command", "missing_scipy"]


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
    @click.option("--corpus", metavar="FILE", default=None,
                  help='A manifest {"documents": {"<id>": "<path>"}} for records that name a "document".')
    @click.option("--grounding", type=click.Choice(_GROUNDINGS), default=None, help=_GROUNDING_HELP)
    @click.option("--policy", metavar="NAME|FILE", default=None, help=_POLICY_HELP)
    @click.pass_context
    def calibrate_command(ctx: click.Context, labelled: str, out: str, alpha: float, delta: float, target: str,
                          allow_repeated_groups: bool, scores: str | None, corpus: str | None, grounding: str | None,
                          policy: str | None) -> int:
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
        try:
            rows = list(labelled_scores(labelled, corpus=corpus, grounding=grounding, policy=policy_value))
            digest = hashlib.sha256()
            with open(labelled, "rb") as handle:
                for block in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(block)
            input_digest = digest.hexdigest()
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
        if scores is not None:
            lines = b"".join(dumps(row) + b"\n" for row in rows)
            try:
                write_file_atomic(scores, lines)
            except OSError as error:
                raise _host_error("host_io", _io_details("--scores", error, scores)) from error
        try:
            write_file_atomic(out, dumps(document) + b"\n")
        except OSError as error:
            raise _host_error("host_io", _io_details("--out", error, out)) from error
        status = document["guarantee_status"]
        click.echo(f"ethos calibrate: {target} threshold {calibration.threshold!r} ({status}) from "
                   f"{len(population)} of {len(rows)} records -> {out}", err=True)
        return 0


def _count(values: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return counts
