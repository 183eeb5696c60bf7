"""batch_command - ``ethos batch``: a corpus's claims verified on every core, crash-safe and resumable, with a summary.

Python-only (no ethos-core counterpart): it is ``ethos_py.batch`` over worker processes, or over
a Dask cluster with ``--engine dask`` (``ethos_py.distributed``). A job
that cannot start (a missing corpus, an unreadable CLAIMS, a --resume of another job) is one
envelope; records that cannot be verified are recorded in the output, never dropped.
"""

from __future__ import annotations

import errno
import os
import sys
from typing import Any

import click

__all__ = ["add_batch_command", "default_summary_path"]


def default_summary_path(out: str) -> str:
    """Where the summary goes when ``--summary`` is not given: beside the output.

        >>> default_summary_path("runs/results.jsonl")
        'runs/results.summary.json'
    """
    stem = out[: -len(".jsonl")] if out.endswith(".jsonl") else out
    return stem + ".summary.json"


class _Bar:
    """A tqdm bar on stderr (records/s and ETA), drawn only on a terminal and without --quiet."""

    def __init__(self, enabled: bool) -> None:
        self.enabled, self.bar = enabled, None

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc="ethos batch", unit=" records", leave=False, file=sys.stderr,
                            dynamic_ncols=True, smoothing=0.1)
        bar: Any = self.bar
        bar.update(done - bar.n)

    def close(self) -> None:
        if self.bar is not None:
            bar: Any = self.bar
            bar.close()


def add_batch_command(ethos: click.Group) -> None:
    """Adds ``batch`` to the ``ethos`` command (called once by ethos_py.cli)."""
    from .cli import _COMMAND_CONTEXT, _GROUNDING_HELP, _GROUNDINGS, _POLICY_HELP, _reject_extra_args

    @ethos.command("batch", context_settings=_COMMAND_CONTEXT, short_help="Verify a corpus's claims on every core, resumably.")
    @click.argument("claims", metavar="CLAIMS.jsonl")
    @click.option("--corpus", metavar="DIR|MANIFEST", required=True,
                  help='The documents: a directory, or a manifest {"documents": {"<id>": "<path>"}}.')
    @click.option("-o", "--out", metavar="FILE", required=True, help="The records with their verdict under 'ethos', in input order (atomic).")
    @click.option("--summary", metavar="FILE", default=None,
                  help="The corpus-level summary JSON (default: OUT with .summary.json).")
    @click.option("--html", metavar="FILE", default=None,
                  help="Also write the summary's corpus view: one self-contained HTML page (atomic; as `ethos report html SUMMARY`).")
    @click.option("--stats", metavar="FILE", default=None,
                  help="Also write the run's facts: speed, parse cache hits, memory per worker (never deterministic).")
    @click.option("--workers", metavar="N", type=click.IntRange(min=0), default=0, show_default=True,
                  help="Worker processes (0: one per core). Never changes the output.")
    @click.option("--engine", type=click.Choice(("local", "dask")), default="local", show_default=True,
                  help="Where tasks run: local worker processes, or a Dask cluster (pip install 'ethos-verify[distributed]'). "
                       "Never changes the output.")
    @click.option("--address", metavar="ADDR", default=None,
                  help="With --engine dask: the scheduler to connect to (tcp://host:8786); without it a local "
                       "cluster of --workers processes is started and stopped.")
    @click.option("--connect-timeout", metavar="SECONDS", type=click.FloatRange(min=0, min_open=True), default=10.0,
                  show_default=True, help="With --address: how long to wait for the scheduler and a worker.")
    @click.option("--resume", is_flag=True, help="Keep what an interrupted run of the same job committed and do the rest.")
    @click.option("--grounding", type=click.Choice(_GROUNDINGS), default=None, help=_GROUNDING_HELP)
    @click.option("--policy", metavar="NAME|FILE", default=None, help=_POLICY_HELP)
    @click.option("--replace-existing", is_flag=True, help="Replace an 'ethos' result a record already has (else an error in it).")
    @click.option("--max-open-documents", metavar="N", type=click.IntRange(min=1), default=64, show_default=True,
                  help="Indexed documents each worker keeps open.")
    @click.option("--chunk-records", metavar="N", type=click.IntRange(min=1), default=1000, show_default=True,
                  help="Records per committed chunk (what a crash can cost).")
    @click.option("--quiet", is_flag=True, help="No progress bar.")
    @click.pass_context
    def batch_command(ctx: click.Context, claims: str, corpus: str, out: str, summary: str | None, html: str | None, stats: str | None,
                      workers: int, engine: str, address: str | None, connect_timeout: float, resume: bool, grounding: str | None, policy: str | None, replace_existing: bool,
                      max_open_documents: int, chunk_records: int, quiet: bool) -> int:
        """Verify every record of CLAIMS.jsonl against the corpus document it names.

        \b
        A record: "claim" (string), "document" (a path under the corpus,
        an id of the corpus manifest, or a document fingerprint sha256:...),
        optional "kind" (quote, value, presence, table_cell) and "citation"
        (a locator; default the whole document). Each PDF is parsed once
        (parse cache); each worker keeps its documents open. Results are in
        input order; a record that cannot be verified carries its error.
        Kill it at any point: --resume finishes the same output. With
        --engine dask the tasks run on a Dask cluster (--address, or a
        local one); workers open the documents from the same corpus path.
        --html writes the summary as a page (grounded rates per document,
        kind, reason and tier; the claims that fail most often). Exit 0.
        """
        from ._host_io import write_file_atomic
        from ._json import dumps
        from .batch import BatchError, run_batch
        from .cli import _host_error, _io_details, _policy_choice
        from .progress import wants_progress

        _reject_extra_args(ctx)
        policy_value = _policy_choice(policy)
        try:  # an unreadable CLAIMS is the host_io every command reports for its input file
            with open(claims, "rb"):
                pass
        except OSError as error:
            raise _host_error("host_io", _io_details("CLAIMS", error, claims)) from error
        summary_path = summary if summary is not None else default_summary_path(out)
        if html is not None and not os.path.isdir(os.path.dirname(os.path.abspath(html))):
            # Before the run, never after it: a typo in --html must not cost the whole job.
            missing = FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), html)
            raise _host_error("host_io", _io_details("--html", missing, html))
        bar = _Bar(wants_progress([] if not quiet else ["--quiet"]))
        try:
            facts = run_batch(claims, corpus, out, workers=workers, resume=resume, policy=policy_value,
                              grounding=grounding, replace_existing=replace_existing, chunk_records=chunk_records,
                              open_documents=max_open_documents, summary=summary_path, progress=bar,
                              engine=engine, address=address, connect_timeout=connect_timeout, html=html)
        except BatchError as error:
            raise _host_error("invalid_input", {"argument": error.argument, "reason": error.reason, **error.details}) from None
        except OSError as error:
            path = error.filename if isinstance(error.filename, str) else out
            argument = "--html" if path == html else "--out"
            raise _host_error("host_io", _io_details(argument, error, path)) from error
        finally:
            bar.close()
        if stats is not None:
            try:
                write_file_atomic(stats, dumps(facts.as_json()) + b"\n")
            except OSError as error:
                raise _host_error("host_io", _io_details("--stats", error, stats)) from error
        counts = ", ".join(f"{status} {count}" for status, count in facts.counts.items())
        resumed = f", {facts.resumed} kept from the interrupted run" if facts.resumed else ""
        click.echo(f"ethos batch: {facts.records} records ({counts or 'none'}{resumed}) in {facts.seconds:.1f} s, "
                   f"{facts.records_per_second:.0f} records/s on {facts.workers} worker{'s' if facts.workers != 1 else ''} -> {out}", err=True)
        return 0
