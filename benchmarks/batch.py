#!/usr/bin/env python3
"""batch.py - verify-batch against single verify calls: N located checks, one document, through the library.

    python benchmarks/batch.py [--checks 100000] [--text-bytes 200000] [--repeat 3]

Builds the synthetic corpus of make_corpus.py (seeded; quotes of 6-16 words cited by element_id,
a tenth altered), turns every quote into its own citations request (one claim, pinned to the
document fingerprint), opens the document once, and measures in one run:

* single - ``Document.verify_json(request)`` once per request (N calls, N reports);
* batch  - ``Document.verify_batch_json(requests)``: ONE native call for all N requests.

It checks that the batch output is byte for byte the single reports, each followed by a newline,
and prints both times (wall clock and the process's CPU time) and their ratios (target >= 5x,
wall clock). On a busy machine the wall-clock figures mostly measure the wait for a core; the CPU
ratio is the stabler one.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import make_corpus

import ethos_py
from ethos_py._json import dumps


def timed(action) -> tuple[float, float, object]:
    """(wall seconds, CPU seconds of the process (all threads), result)."""
    start, cpu = time.perf_counter(), time.process_time()
    result = action()
    return time.perf_counter() - start, time.process_time() - cpu, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checks", type=int, default=100_000)
    parser.add_argument("--text-bytes", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each path; the median is reported")
    args = parser.parse_args()

    load_before = os.getloadavg()[0]
    document, citations = make_corpus.build(args.text_bytes, args.checks)
    fingerprint = citations["document_fingerprint"]
    requests = [dumps({"document_fingerprint": fingerprint, "claims": [claim]}) for claim in citations["claims"]]
    ndjson = b"".join(request + b"\n" for request in requests)

    with ethos_py.Document.from_bytes(dumps(document)) as doc:
        single_times, batch_times, single_cpu, batch_cpu = [], [], [], []
        single_output = batch_output = b""
        for _ in range(args.repeat):
            seconds, cpu, reports = timed(lambda: [doc.verify_json(request) for request in requests])
            single_times.append(seconds)
            single_cpu.append(cpu)
            single_output = b"".join(report + b"\n" for report in reports)  # type: ignore[attr-defined]
            seconds, cpu, batch_output = timed(lambda: doc.verify_batch_json(ndjson))
            batch_times.append(seconds)
            batch_cpu.append(cpu)
        if batch_output != single_output:
            print("FAIL: the batch reports differ from the single verify reports", file=sys.stderr)
            return 1

    single, batch = statistics.median(single_times), statistics.median(batch_times)
    single_c, batch_c = statistics.median(single_cpu), statistics.median(batch_cpu)
    grounded = single_output.count(b'"all_evidence_grounded":true')
    print(f"document: {len(document['payload']['elements'])} elements, {args.checks} requests of one located check "
          f"({grounded} grounded), {len(single_output) / 1e6:.1f} MB of reports, identical on both paths")
    print(f"single verify calls : {single:8.3f} s wall {single_c:8.3f} s CPU  {args.checks / single:10,.0f} checks/s")
    print(f"one verify-batch    : {batch:8.3f} s wall {batch_c:8.3f} s CPU  {args.checks / batch:10,.0f} checks/s")
    ratio = single / batch
    print(f"ratio (wall)        : {ratio:8.1f}x  (target >= 5x: {'met' if ratio >= 5 else 'NOT met'})")
    print(f"ratio (CPU)         : {single_c / batch_c:8.1f}x  (the batch's two threads counted together)")
    # Other processes' load decides how much of a core each thread gets: read the wall clock with it.
    print(f"load average        : {load_before:.2f} at the start, {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
