"""ethos_cli_server - one long-lived child process that runs many `ethos` command lines (ethos_py.cli.run) and returns each one's exit code, stdout and stderr bytes.

Starting a Python interpreter for each of the hostile JSON matrix's hundreds of cases would cost
most of a CI minute in interpreter start-up alone; this child imports ethos_py once and runs each
command line through the same ``run`` the ``ethos`` console script calls, with sys.stdout and
sys.stderr replaced by byte buffers. It is still a separate process: a crash, a signal or a hang
of the native library kills it, not the test, which reports the case it was running.

Protocol (stdin -> stdout of the child): one JSON line ``{"argv": [...]}`` per command; one JSON
line ``{"code": N, "stdout": base64, "stderr": base64}`` per answer.
"""

from __future__ import annotations

import base64
import io
import json
import os
import select
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def serve() -> None:
    # The answers go to a private copy of fd 1: the ethos CLI may point fd 1 at /dev/null when its
    # stdout breaks, which must not cut the protocol.
    answers = os.fdopen(os.dup(1), "w", encoding="ascii")
    requests = sys.stdin
    from ethos_py.cli import run

    real = sys.stdout, sys.stderr
    for line in requests:
        argv = json.loads(line)["argv"]
        out, err = io.BytesIO(), io.BytesIO()
        sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
        sys.stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
        try:
            code = run(argv)
            sys.stdout.flush()
            sys.stderr.flush()
            stdout, stderr = out.getvalue(), err.getvalue()
        finally:
            sys.stdout, sys.stderr = real
        answers.write(json.dumps({"code": code, "stdout": base64.b64encode(stdout).decode(),
                                  "stderr": base64.b64encode(stderr).decode()}) + "\n")
        answers.flush()


def parse_env() -> dict[str, str]:
    """The environment of a CLI child that may parse PDFs, with this checkout importable."""
    sys.path.insert(0, str(REPO))
    from ethos_py._pdfium import parse_environment

    env = parse_environment()
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


#: Set to 1 by the sanitizer run: ethos-core processes (leak-clean, unlike CPython, which the
#: sanitizer run keeps at detect_leaks=0) are run with LeakSanitizer on.
CORE_LEAKS_ENV = "HOSTILE_CORE_DETECT_LEAKS"


def core_env() -> dict[str, str]:
    """parse_env() for an ethos-core process of its own: with leak detection when asked for."""
    env = parse_env()
    if env.get(CORE_LEAKS_ENV) == "1" and "detect_leaks=0" in env.get("ASAN_OPTIONS", ""):
        env["ASAN_OPTIONS"] = env["ASAN_OPTIONS"].replace("detect_leaks=0", "detect_leaks=1")
    return env


class EthosServer:
    """The parent side: ``run(argv)`` -> (exit code, stdout, stderr); RuntimeError names a dead child."""

    def __init__(self, env: dict[str, str] | None = None, timeout: float = 120) -> None:
        self.timeout = timeout
        self.process = subprocess.Popen([sys.executable, __file__], env=env or parse_env(), cwd=REPO, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def run(self, argv: Sequence[str]) -> tuple[int, bytes, bytes]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write((json.dumps({"argv": list(argv)}) + "\n").encode())
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], self.timeout)
        if not ready:
            self.process.kill()
            raise RuntimeError(f"the ethos child gave no answer within {self.timeout} s on {list(argv)}")
        line = self.process.stdout.readline()
        if not line:
            self.process.wait(timeout=30)
            stderr = self.process.stderr.read() if self.process.stderr else b""
            raise RuntimeError(f"the ethos child died with status {self.process.returncode} on {list(argv)}: {stderr[-2000:]!r}")
        answer = json.loads(line)
        return answer["code"], base64.b64decode(answer["stdout"]), base64.b64decode(answer["stderr"])

    def close(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.process.wait(timeout=60)


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    serve()
