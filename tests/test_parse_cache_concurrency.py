"""test_parse_cache_concurrency - the parse cache under concurrent writers (what ethos batch's workers do): many
processes parsing the same and different PDFs into one empty cache all print the same document bytes, leave one
complete entry per PDF and no temporary file, agree on one cache key, and every later parse is a hit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import harness
from pdf_fixtures import text_pdf

ETHOS = [sys.executable, "-m", "ethos_py.cli"]


def test_concurrent_writers_leave_one_complete_entry_per_pdf(tmp_path: Path) -> None:
    pdfs = []
    for index in range(3):
        path = tmp_path / f"r{index}.pdf"
        path.write_bytes(text_pdf([[f"Report {index}: revenue grew {index + 2}% in 2024."]]))
        pdfs.append(path)
    cache = tmp_path / "cache"
    env = {**os.environ, "ETHOS_CACHE_DIR": str(cache)}
    # Twelve parses at once, four of each PDF, into a cache that does not exist yet (so the cache
    # directory and its key are created concurrently too).
    processes = [(pdf, subprocess.Popen([*ETHOS, "doc", "parse", str(pdf), "--quiet"], env=env, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE)) for _ in range(4) for pdf in pdfs]
    outputs: dict[Path, set[bytes]] = {}
    for pdf, process in processes:
        stdout, stderr = process.communicate(timeout=harness.SUBPROCESS_TIMEOUT)
        assert process.returncode == 0, stderr
        outputs.setdefault(pdf, set()).add(stdout)
    assert all(len(found) == 1 for found in outputs.values())
    names = sorted(os.listdir(cache))
    assert len([name for name in names if name.endswith(".entry")]) == 3
    assert [name for name in names if not name.endswith(".entry")] == [".ethos-cache-key"]  # no temporary file left
    info = json.loads(subprocess.run([*ETHOS, "cache", "info"], env=env, capture_output=True, check=True).stdout)
    assert info["entries"] == 3
    # Every entry is complete and authenticated: each PDF is now read from the cache, same bytes.
    for pdf in pdfs:
        again = subprocess.run([*ETHOS, "doc", "parse", str(pdf), "--diagnostics", "--quiet"], env=env,
                               capture_output=True, check=True, timeout=harness.SUBPROCESS_TIMEOUT).stdout
        document = json.loads(again)
        assert document.pop("diagnostics")["cache"] == "hit"
        assert json.loads(next(iter(outputs[pdf]))) == document
