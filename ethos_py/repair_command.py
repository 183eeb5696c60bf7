"""repair_command - ``ethos repair``: the repair cascade over JSON Lines claims, streamed to an atomic output with a manifest.

Python-only (no ethos-core counterpart): ethos_py.repair_pipeline over the in-process core. The
threshold comes from ``--threshold`` or from an ``ethos calibrate`` file made for this scorer,
policy and pipeline (refused otherwise); there is no default. Output lines are streamed into a
temporary file beside ``-o`` and renamed over it only when the run succeeds.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, BinaryIO

import click

if TYPE_CHECKING:
    from .calibration import Calibration

__all__ = ["add_repair_command", "atomic_stream", "calibration_for_run"]


@contextmanager
def atomic_stream(path: str) -> Iterator[BinaryIO]:
    """A binary stream whose bytes replace ``path`` only when the block ends without an error
    (a temp file in the same directory, fsynced and renamed); on an error it is removed.

        >>> import tempfile
        >>> target = os.path.join(tempfile.mkdtemp(), "out.jsonl")
        >>> with atomic_stream(target) as stream:
        ...     _ = stream.write(b"{}\\n")
        >>> open(target, "rb").read()
        b'{}\\n'
    """
    from ._host_io import _default_mode, remove_stale_out_temps

    directory = os.path.dirname(path) or "."
    remove_stale_out_temps(directory)
    fd, temp = tempfile.mkstemp(prefix=f".ethos-out-{os.getpid()}-", dir=directory)
    try:
        os.fchmod(fd, _default_mode())
        with os.fdopen(fd, "wb") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


def calibration_for_run(data: bytes, path: str, binding_for: Callable[[Calibration], Mapping[str, Any]],
                        command: str) -> tuple[Calibration, dict[str, Any]]:
    """An ``ethos calibrate`` file's bytes read for a run, with its document: refused (the
    ``invalid_input`` envelope naming ``--calibration``) when it is no calibration or was made for
    another scorer, policy or pipeline than ``binding_for`` gives for it; an uncertified one is
    used with a warning on stderr. ``ethos repair`` and ``ethos sensitivity`` both read it so.

        >>> from ethos_py.calibration import Calibration
        >>> data = json.dumps(Calibration(threshold=0.9, target="risk", alpha=0.1, delta=0.1, n=40,
        ...                               binding={"policy_fingerprint": "a"}).as_dict()).encode()
        >>> calibration_for_run(data, "cal.json", lambda c: {"policy_fingerprint": "a"}, "repair")[0].threshold
        0.9
        >>> calibration_for_run(data, "cal.json", lambda c: {"policy_fingerprint": "b"}, "repair")
        Traceback (most recent call last):
        ...
        ethos_py.errors.EthosError: ...
    """
    from .calibration import CalibrationError, load_calibration
    from .cli import _host_error

    try:
        document = json.loads(data)
        loaded = load_calibration(document)
        loaded.check_binding(binding_for(loaded))
    except (ValueError, CalibrationError) as error:  # CalibrationError is a ValueError; so is bad JSON
        raise _host_error("invalid_input", {"argument": "--calibration", "file": path, "reason": str(error)}) from None
    if not loaded.certified:
        click.echo(f"ethos {command}: WARNING: {path} is uncertified; its threshold carries no guarantee", err=True)
    return loaded, document


def add_repair_command(ethos: click.Group) -> None:
    """Adds ``repair`` to the ``ethos`` command (called once by ethos_py.cli)."""
    from .cli import _COMMAND_CONTEXT, _GROUNDING_HELP, _GROUNDINGS, _POLICY_HELP, _reject_extra_args
    from .repair_pipeline import MODES, SALVAGE

    @ethos.command("repair", context_settings=_COMMAND_CONTEXT,
                   short_help="Repair claims held in JSON Lines: verify, salvage, substitute, reject.")
    @click.argument("claims", metavar="CLAIMS.jsonl")
    @click.option("-o", "--out", metavar="FILE", required=True, help="The repaired records (atomic).")
    @click.option("--calibration", metavar="FILE", default=None, help="An 'ethos calibrate' output: its threshold.")
    @click.option("--threshold", type=float, default=None, help="Substitute when score >= X (0..1); no default.")
    @click.option("--mode", type=click.Choice(MODES), default="substitute", show_default=True,
                  help="substitute: store the source's characters; annotate: keep the wording, attach the span; off: verify only.")
    @click.option("--salvage", type=click.Choice(SALVAGE), default=None,
                  help="Keep the longest grounded fragment of a quote stitched with elisions (records what it dropped).")
    @click.option("--drop-rejected", is_flag=True, help="Leave rejected records out of the output (counted in the manifest).")
    @click.option("--manifest", metavar="FILE", default=None, help="Also write the run's manifest (atomic).")
    @click.option("--corpus", metavar="FILE", default=None,
                  help='A manifest {"documents": {"<id>": "<path>"}} for records that name a "document".')
    @click.option("--grounding", type=click.Choice(_GROUNDINGS), default=None, help=_GROUNDING_HELP)
    @click.option("--policy", metavar="NAME|FILE", default=None, help=_POLICY_HELP)
    @click.option("--replace-existing", is_flag=True, help="Replace an 'ethos' result or 'claim_original' a record has.")
    @click.option("--keep-going", is_flag=True, help="Record a bad record's error in it and go on (else stop, writing nothing).")
    @click.pass_context
    def repair_command(ctx: click.Context, claims: str, out: str, calibration: str | None, threshold: float | None,
                       mode: str, salvage: str | None, drop_rejected: bool, manifest: str | None, corpus: str | None,
                       grounding: str | None, policy: str | None, replace_existing: bool, keep_going: bool) -> int:
        """Repair each record of CLAIMS.jsonl against its own source.

        \b
        Records as in verify-jsonl. The cascade: verify; with --salvage,
        keep the longest grounded fragment of a stitched quote; else
        substitute the span the core located when its score >= the
        threshold and no guard (numeric, polarity, boundary) blocks;
        else reject. substitute stores the source's characters in
        "claim" and the model's in "claim_original"; every result goes
        under "ethos" with the certificates before and after. A
        threshold (--threshold or --calibration) is required unless
        --mode off. Exit 0 (rejections are data, not failures).
        """
        from ._manifest import write_manifest
        from .cli import _host_error, _io_details, _policy_choice, _read
        from .jsonl_pipeline import JsonlError
        from .repair_pipeline import RepairRun, repair_binding, repair_jsonl, repair_manifest

        _reject_extra_args(ctx)
        if calibration is not None and threshold is not None:
            raise _host_error("invalid_arguments", {"argument": "--threshold", "reason": "give --threshold or --calibration, not both"})
        if threshold is None and calibration is None and mode != "off":
            raise _host_error("invalid_arguments", {"argument": "--threshold",
                                                    "reason": "a threshold is required: --threshold X or --calibration FILE (there is no default)"})
        if threshold is not None and not 0.0 <= threshold <= 1.0:
            raise _host_error("invalid_arguments", {"argument": "--threshold", "reason": "must be between 0 and 1"})
        policy_value = _policy_choice(policy)
        calibration_document = None
        threshold_source = "flag" if threshold is not None else "none"
        if calibration is not None:
            data = _read(calibration, "--calibration")  # a missing file is host_io, not a bad calibration
            binding = repair_binding(policy_value, grounding)  # a bad --policy fails here, as itself
            loaded, calibration_document = calibration_for_run(data, calibration, lambda _: binding, "repair")
            threshold, threshold_source = loaded.threshold, "calibration"
        try:  # a missing or unreadable input names CLAIMS before anything runs (it is streamed, never read whole)
            with open(claims, "rb"):
                pass
        except OSError as error:
            raise _host_error("host_io", _io_details("CLAIMS", error, claims)) from error
        run = RepairRun()
        digest = hashlib.sha256()
        try:
            with atomic_stream(out) as stream:
                for line in repair_jsonl(claims, threshold=threshold, mode=mode, salvage=salvage,
                                         drop_rejected=drop_rejected, corpus=corpus, grounding=grounding,
                                         policy=policy_value, replace_existing=replace_existing,
                                         keep_going=keep_going, run=run):
                    stream.write(line)
                    digest.update(line)
        except JsonlError as error:
            argument = "--corpus" if corpus is not None and error.path == corpus else "CLAIMS"
            raise _host_error("invalid_input", {"argument": argument, "file": error.path, "line": error.line,
                                                "reason": error.reason}) from None
        except OSError as error:  # CLAIMS was readable above, so this is the output
            raise _host_error("host_io", _io_details("--out", error, out)) from error
        if manifest is not None:
            document = repair_manifest(run, input_path=claims, output_path=out, output_sha256=digest.hexdigest(),
                                       mode=mode, threshold=threshold, threshold_source=threshold_source,
                                       salvage=salvage, drop_rejected=drop_rejected, policy=policy_value,
                                       grounding=grounding, calibration=calibration_document)
            write_manifest(manifest, document)
        counts = ", ".join(f"{action} {count}" for action, count in sorted(run.actions.items()))
        click.echo(f"ethos repair: {run.records} records ({counts or 'none'}), {run.written} written -> {out}", err=True)
        return 0
