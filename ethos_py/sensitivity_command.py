"""sensitivity_command - ``ethos sensitivity``: the same claims under the strict, default and permissive policies, with each policy's rates and the spread.

Python-only (no ethos-core counterpart): ethos_py.sensitivity over the in-process core. The claims
are a citations file against one SOURCE (any kind ``ethos verify`` opens; a PDF is parsed on the
way) or ``ethos verify-jsonl`` records (--jsonl). Argument errors come before any file is read;
the output is written atomically with --out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

__all__ = ["add_sensitivity_command", "sensitivity_manifest"]


def add_sensitivity_command(ethos: click.Group) -> None:
    """Adds ``sensitivity`` to the ``ethos`` command (called once by ethos_py.cli)."""
    from .cli import _COMMAND_CONTEXT, _GROUNDING_HELP, _GROUNDINGS, _reject_extra_args
    from .repair_pipeline import SALVAGE

    @ethos.command("sensitivity", context_settings=_COMMAND_CONTEXT,
                   short_help="Compare the strict, default and permissive policies on the same claims: rates and spread.")
    @click.argument("source", metavar="[SOURCE]", required=False)
    @click.option("--citations", metavar="FILE", default=None, help="Citations JSON (with SOURCE).")
    @click.option("--jsonl", metavar="CLAIMS.jsonl", default=None,
                  help="verify-jsonl records instead of SOURCE --citations (each source opened once).")
    @click.option("--corpus", metavar="FILE", default=None,
                  help='With --jsonl: a manifest {"documents": {"<id>": "<path>"}} for records that name a "document".')
    @click.option("--grounding", type=click.Choice(_GROUNDINGS), default=None, help=_GROUNDING_HELP)
    @click.option("--config", metavar="FILE", default=None, help="Verification config JSON (default: built-in default-v1).")
    @click.option("--threshold", metavar="X", type=float, default=None,
                  help="Count as repaired what ethos repair --threshold X would substitute (0..1); no default: "
                       "without it (or --calibration) repaired is not computed.")
    @click.option("--calibration", metavar="FILE", default=None,
                  help="Take the threshold from an 'ethos calibrate' file, as ethos repair --calibration does: repaired "
                       "under the preset it was made for only; refused when made for another policy, loader or scorer.")
    @click.option("--salvage", type=click.Choice(SALVAGE), default=None,
                  help="Count as repaired, too, the fragment ethos repair --salvage would keep of a stitched quotation.")
    @click.option("--format", "output_format", type=click.Choice(("json", "text")), default="json",
                  help="json (default): canonical JSON; text: the rates table and the spread line, for people.")
    @click.option("--out", metavar="FILE", default=None, help="Write the output atomically to FILE instead of stdout.")
    @click.option("--manifest", metavar="FILE", default=None, help="Also write the run's manifest (atomic).")
    @click.pass_context
    def sensitivity_command(ctx: click.Context, source: str | None, citations: str | None, jsonl: str | None,
                            corpus: str | None, grounding: str | None, config: str | None, threshold: float | None,
                            calibration: str | None, salvage: str | None, output_format: str, out: str | None,
                            manifest: str | None) -> int:
        """Verify the same claims under the strict, default and permissive
        policies and print each check's verdicts side by side, each
        policy's rates and the spread between them.

        \b
        The claims: SOURCE --citations FILE (SOURCE: a native document, a
        PDF parsed on the way, or what --grounding names: Grounding JSON,
        OpenDataLoader, Docling, text, Markdown), or --jsonl CLAIMS.jsonl
        (verify-jsonl records: "claim" and "source", "source_path" or
        "document"; each source opened once).

        \b
        Per policy: grounded, contiguous (grounded as written, not only
        once an elision mark at an end was read as truncation), repaired
        (not grounded, but ethos repair --threshold X would substitute the
        located span and it grounds, or with --salvage keep a fragment;
        not computed without --threshold or --calibration, and with
        --calibration only under the preset it was made for) and
        rejected, as counts and rates. The spread is the highest minus
        the lowest grounded rate, with every claim whose verdict differs
        between policies. Exit 0.
        """
        from .cli import _emit, _host_error, _io_details, _read
        from .jsonl_pipeline import JsonlError
        from .sensitivity import sensitivity
        from .sensitivity_text import render_sensitivity_text

        _reject_extra_args(ctx)
        # Argument-level checks finish before any file is touched (docs/cli.md §5.2).
        if source is not None and jsonl is not None:
            raise _host_error("invalid_arguments", {"argument": "--jsonl",
                                                    "reason": "give SOURCE --citations FILE or --jsonl CLAIMS.jsonl, not both"})
        if source is None and jsonl is None:
            raise _host_error("invalid_arguments", {"argument": "SOURCE",
                                                    "reason": "give SOURCE --citations FILE or --jsonl CLAIMS.jsonl"})
        if (source is not None) != (citations is not None):
            reason = "--citations needs SOURCE (with --jsonl the records are the claims)" if source is None \
                else "SOURCE needs --citations FILE"
            raise _host_error("invalid_arguments", {"argument": "--citations", "reason": reason})
        if corpus is not None and jsonl is None:
            raise _host_error("invalid_arguments", {"argument": "--corpus", "reason": "--corpus applies to --jsonl records"})
        if threshold is not None and not 0.0 <= threshold <= 1.0:
            raise _host_error("invalid_arguments", {"argument": "--threshold", "reason": "must be between 0 and 1"})
        if threshold is not None and calibration is not None:
            raise _host_error("invalid_arguments", {"argument": "--threshold", "reason": "give --threshold or --calibration, not both"})
        if salvage is not None and threshold is None and calibration is None:
            raise _host_error("invalid_arguments", {"argument": "--salvage",
                                                    "reason": "--salvage needs --threshold X or --calibration FILE, as ethos repair does"})
        config_bytes = None if config is None else _read(config, "--config")
        calibration_document = None
        if calibration is not None:
            from .repair_command import calibration_for_run
            from .repair_pipeline import repair_binding
            from .sensitivity import calibrated_preset

            _, calibration_document = calibration_for_run(
                _read(calibration, "--calibration"), calibration,
                lambda made: repair_binding(calibrated_preset(made, grounding), grounding), "sensitivity")
        try:
            if jsonl is not None:
                for path, argument in ((jsonl, "--jsonl"), (corpus, "--corpus")):
                    if path is not None:
                        try:  # a missing file names its argument before anything runs
                            with open(path, "rb"):
                                pass
                        except OSError as error:
                            raise _host_error("host_io", _io_details(argument, error, path)) from error
                result = sensitivity(jsonl=jsonl, corpus=corpus, grounding=grounding, config=config_bytes,
                                     threshold=threshold, calibration=calibration_document, salvage=salvage)
            else:
                assert source is not None and citations is not None
                citations_bytes = _read(citations, "--citations")
                try:
                    with open(source, "rb"):
                        pass
                except OSError as error:
                    raise _host_error("host_io", _io_details("SOURCE", error, source)) from error
                result = sensitivity(source, citations_bytes, grounding=grounding, config=config_bytes,
                                     threshold=threshold, calibration=calibration_document, salvage=salvage)
        except JsonlError as error:
            argument = "--corpus" if corpus is not None and error.path == corpus else "--jsonl"
            raise _host_error("invalid_input", {"argument": argument, "file": error.path, "line": error.line,
                                                "reason": error.reason}) from None
        if output_format == "text":
            data = render_sensitivity_text(result).encode("utf-8")
        else:
            from ._json import dumps

            data = dumps(result) + b"\n"
        _emit(data, out)
        if manifest is not None:
            from ._manifest import write_manifest

            inputs = {"jsonl": jsonl, "corpus": corpus} if jsonl is not None else {"source": source, "citations": citations}
            write_manifest(manifest, sensitivity_manifest(result, {**inputs, "config": config, "calibration": calibration},
                                                          output_path=out,
                                                          output_bytes=data, output_format=output_format))
        return 0


def sensitivity_manifest(result: Mapping[str, Any], inputs: Mapping[str, str | None], *, output_path: str | None,
                         output_bytes: bytes, output_format: str) -> dict[str, Any]:
    """The manifest that travels with a sensitivity result (``ethos.sensitivity_run.v1``): each
    input file and the output with their SHA-256 (``path`` null: standard output), the verifier
    with its PDFium and Unicode versions, each preset's policy with its fingerprint and each tier's
    soundness, each source, how repaired was counted, and each preset's ladder profile.

        >>> from ethos_py.sensitivity import sensitivity
        >>> result = sensitivity("examples/quickstart/document.json", "examples/quickstart/citations.json")
        >>> m = sensitivity_manifest(result, {"source": "examples/quickstart/document.json", "citations": None},
        ...                          output_path=None, output_bytes=b"", output_format="json")
        >>> sorted(m["inputs"]), m["ladder_profiles"]["default"][-1]["cumulative_share"]
        (['source'], 0.75)
    """
    import hashlib

    from ._manifest import explained_policy, file_sha256, ladder_profile, verifier
    from .sensitivity import PRESETS

    return {
        "artifact_type": "ethos.sensitivity_run.v1",
        "inputs": {name: {"path": path, "sha256": file_sha256(path)} for name, path in inputs.items() if path is not None},
        "output": {"path": output_path, "sha256": hashlib.sha256(output_bytes).hexdigest(), "format": output_format},
        "verifier": verifier(),
        "policies": {preset: explained_policy(preset) for preset in PRESETS},
        "sources": result["sources"],
        "claims": result["claims"],
        "repair": result["repair"],
        "ladder_profiles": {preset: ladder_profile(result["rates"][preset]["grounded_by_tier"], result["claims"])
                            for preset in PRESETS},
    }
