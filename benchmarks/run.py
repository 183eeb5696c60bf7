#!/usr/bin/env python3
"""run.py - the one benchmark command: document open and located-quote verification, Ethos vs a baseline.

    python benchmarks/run.py [--text-bytes 1000000] [--quotes 50000] [--repeat 5]

Builds the synthetic corpus (benchmarks/make_corpus.py) into benchmarks/.cache/, then measures,
in one run and on the same inputs:

* library   - ethos_py in process: Document.open(bytes) and Document.verify_json(...) once open;
* ethos-core - the compiled CLI as a whole process (start, open, verify, write the report);
* baseline  - a plain-Python checker (json.loads + whitespace-collapsed substring test per cited
              element), the literal check most pipelines start from.

It prints medians (of --repeat runs) and the ratios, and the targets of issue #2:
>= 50,000 located quote checks/s once open, and document open >= 100 MB/s of document JSON.
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import make_corpus

import ethos_py
from ethos_py import _locate


def median_seconds(action, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def baseline_verify(document_bytes: bytes, citations_bytes: bytes) -> int:
    """Literal check: collapse ASCII whitespace, then substring test in the cited element."""
    document = json.loads(document_bytes)
    texts = {e["id"]: re.sub(r"[ \t\n\r\f]+", " ", e.get("text", "")).strip() for e in document["payload"]["elements"]}
    grounded = 0
    for claim in json.loads(citations_bytes)["claims"]:
        quote = re.sub(r"[ \t\n\r\f]+", " ", claim["text"]).strip()
        grounded += quote in texts.get(claim["citation"]["element_id"], "")
    return grounded


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--text-bytes", type=int, default=1_000_000)
    parser.add_argument("--quotes", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    cache = HERE / ".cache" / f"t{args.text_bytes}-q{args.quotes}"
    cache.mkdir(parents=True, exist_ok=True)
    document, citations = make_corpus.build(args.text_bytes, args.quotes)
    dump = lambda value: json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
    paths = {"document": cache / "document.json", "citations": cache / "citations.json", "config": cache / "config.json"}
    paths["document"].write_bytes(dump(document))
    paths["citations"].write_bytes(dump(citations))
    paths["config"].write_bytes(dump(make_corpus.config(args.quotes)))
    document_bytes = paths["document"].read_bytes()
    citations_bytes = paths["citations"].read_bytes()
    config_bytes = paths["config"].read_bytes()
    megabytes = len(document_bytes) / 1e6
    text_bytes = sum(len(e["text"].encode()) for e in document["payload"]["elements"])
    print(f"corpus: {megabytes:.2f} MB document JSON, {text_bytes / 1e6:.2f} MB element text, "
          f"{len(document['payload']['elements'])} elements, {args.quotes} located quotes")

    # Library (in process).
    open_samples = []
    for _ in range(args.repeat):  # time the open only; releasing the document is not part of it
        start = time.perf_counter()
        opened = ethos_py.Document.from_bytes(document_bytes)
        open_samples.append(time.perf_counter() - start)
        opened.close()
    open_s = statistics.median(open_samples)
    with ethos_py.Document.from_bytes(document_bytes) as doc:
        report = doc.verify_json(citations_bytes, config_bytes)
        verify_s = median_seconds(lambda: doc.verify_json(citations_bytes, config_bytes), args.repeat)
    checks = json.loads(report)["checks"]
    grounded = sum(c["status"] == "grounded" for c in checks)

    # ethos-core as a whole process.
    core = _locate.find_bundled("ethos-core")
    command = [str(core), "verify", str(paths["document"]), "--citations", str(paths["citations"]),
               "--config", str(paths["config"]), "--out", str(cache / "report.json")]
    core_s = median_seconds(lambda: subprocess.run(command, check=True), args.repeat)
    core_open_s = median_seconds(lambda: subprocess.run([str(core), "fingerprint", str(paths["document"])],
                                                        check=True, capture_output=True), args.repeat)
    same = (cache / "report.json").read_bytes() == report + b"\n"

    # Baseline.
    baseline_s = median_seconds(lambda: baseline_verify(document_bytes, citations_bytes), args.repeat)
    baseline_grounded = baseline_verify(document_bytes, citations_bytes)

    rate = args.quotes / verify_s
    print(f"{'measure':48} {'median':>10} {'rate':>18}")
    print(f"{'library: open document':48} {open_s * 1e3:8.1f}ms {megabytes / open_s:12.1f} MB/s")
    print(f"{'library: verify once open':48} {verify_s * 1e3:8.1f}ms {rate:12,.0f} checks/s")
    print(f"{'ethos-core: fingerprint (process: open only)':48} {core_open_s * 1e3:8.1f}ms {megabytes / core_open_s:12.1f} MB/s")
    print(f"{'ethos-core: verify (process: open+verify+write)':48} {core_s * 1e3:8.1f}ms {args.quotes / core_s:12,.0f} checks/s")
    print(f"{'baseline: python json+substring (load+verify)':48} {baseline_s * 1e3:8.1f}ms {args.quotes / baseline_s:12,.0f} checks/s")
    print(f"ratio baseline/ethos-core (whole job): {baseline_s / core_s:.2f}x; "
          f"baseline/library (open+verify): {baseline_s / (open_s + verify_s):.2f}x")
    print(f"grounded: ethos {grounded}, baseline {baseline_grounded}; ethos-core report identical to library: {same}")
    print(f"targets: verify >= 50,000 checks/s: {'met' if rate >= 50_000 else 'NOT met'}; "
          f"open >= 100 MB/s: {'met' if megabytes / open_s >= 100 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
