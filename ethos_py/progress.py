"""progress - runs ethos-core for the ``ethos`` command, showing its progress with tqdm on a terminal.

ethos-core draws its own bar when its stderr is a terminal, but the ``ethos`` command captures that
stderr (to pass on exactly one envelope), so ethos-core would never see a terminal. Instead, when
our stderr is a terminal and ``--quiet`` is not given, ethos-core reports its steps as lines
``progress UNIT DONE TOTAL`` on a pipe named by ``$ETHOS_PROGRESS_FD`` and tqdm draws them here.
The bar is erased before anything else reaches stderr, so an error envelope stays one clean line.

Every ethos-core started here also gets ``$ETHOS_PARENT_PID``: it then dies with this process, so
killing ``ethos doc parse`` does not leave ethos-core and its parse workers running.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from typing import IO, Any

__all__ = ["run_core_process", "verify_batch_core_arguments", "wants_progress"]


def wants_progress(arguments: Sequence[str], stream: IO[Any] | None = None) -> bool:
    """True when a bar should be drawn: ``stream`` (stderr) is a terminal and the command line,
    before any ``--``, has no ``--quiet``."""
    stream = sys.stderr if stream is None else stream
    options = list(arguments)
    if "--" in options:
        options = options[: options.index("--")]
    if "--quiet" in options:
        return False
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def verify_batch_core_arguments(params: Mapping[str, Any]) -> list[str]:
    """The ethos-core command line of ``ethos verify-batch`` with these click parameters."""
    arguments = ["verify-batch", "--citations-ndjson", params["citations_ndjson"]]
    for flag in ("--merged", "--fail-on-ungrounded", "--statement", "--quiet"):
        if params.get(flag.lstrip("-").replace("-", "_")):
            arguments.append(flag)
    for flag in ("--grounding", "--config", "--policy", "--max-verify-ms", "--out"):
        value = params.get(flag.lstrip("-").replace("-", "_"))
        if value is not None:
            arguments += [flag, value]
    # "--" keeps a SOURCE that starts with "-" from being read as an option.
    return [*arguments, "--", params["source"]]


def _terminal_columns() -> int:
    try:
        return os.get_terminal_size(sys.stderr.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return 0


def _draw(read_fd: int, label: str) -> None:
    """Reads progress lines until ethos-core (and its workers) close the pipe; one tqdm bar."""
    from tqdm import tqdm

    bar: Any = None
    with os.fdopen(read_fd, "rb") as lines:
        for raw in lines:
            fields = raw.split()
            if len(fields) != 4 or fields[0] != b"progress" or not fields[2].isdigit() or not fields[3].isdigit():
                continue  # not ours to interpret: never let a display line fail the command
            done, total = int(fields[2]), int(fields[3])
            if bar is None:
                # A terminal that reports no size (0 columns) would get an empty bar: assume 80.
                sized = _terminal_columns() > 0
                bar = tqdm(total=total, desc=label, unit=" " + fields[1].decode("ascii", "replace"), leave=False,
                           file=sys.stderr, dynamic_ncols=sized, ncols=None if sized else 80)
            bar.total = total
            bar.update(done - bar.n)
    if bar is not None:
        bar.close()  # leave=False: the line is erased


def run_core_process(
    command: Sequence[str], environment: Mapping[str, str], stdin_data: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    """Runs ``command`` (ethos-core and its arguments) with stdout and stderr captured, as
    ``subprocess.run`` would, drawing its progress on our stderr when ``wants_progress``.
    ``stdin_data`` is the child's standard input (what we read from ours), else it reads nothing."""
    stdin = subprocess.DEVNULL if stdin_data is None else subprocess.PIPE
    env = dict(environment)
    env["ETHOS_PARENT_PID"] = str(os.getpid())
    env.pop("ETHOS_PROGRESS_FD", None)  # only a pipe opened here may be named
    arguments = list(command)
    if not wants_progress(arguments[1:]):
        if stdin_data is not None:
            return subprocess.run(arguments, input=stdin_data, capture_output=True, env=env, check=False)
        return subprocess.run(arguments, stdin=subprocess.DEVNULL, capture_output=True, env=env, check=False)
    read_fd, write_fd = os.pipe()
    env["ETHOS_PROGRESS_FD"] = str(write_fd)
    try:
        process = subprocess.Popen(
            arguments,
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            pass_fds=(write_fd,),
        )
    except BaseException:
        os.close(read_fd)
        raise
    finally:
        os.close(write_fd)  # the child holds its own copy; EOF comes when it (and its workers) end
    label = " ".join(arguments[1:3]) if arguments[1:2] == ["doc"] else (arguments[1] if len(arguments) > 1 else "ethos")
    drawer = threading.Thread(target=_draw, args=(read_fd, label), daemon=True)
    drawer.start()
    try:
        stdout, stderr = process.communicate(stdin_data)
    except BaseException:
        process.kill()
        process.wait()
        raise
    drawer.join()
    return subprocess.CompletedProcess(arguments, process.returncode, stdout, stderr)
