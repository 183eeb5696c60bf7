"""repair.py - ethos repair against gtrex 1.1's repair cascade on the same JSON Lines of claims and the same sources.

Generates --sources seeded English-like text files of about --source-bytes each (default 100 of
100 KB) and --records claims (default 100,000) spread over them: a quarter quoted exactly, a
quarter with a dropped word and a comma (near misses a repair substitutes), a quarter with a
changed figure (a guard's block), a quarter of invented words (rejected). Then measures in one run:

- Ethos: ``ethos repair CLAIMS.jsonl -o OUT --threshold T`` as a whole process (records streamed,
  each source opened once), with its peak resident memory; run again on a tenth of the records to
  show that memory follows the sources, not the record count;
- gtrex 1.1 (``pip install -e '.[bench]'``): one ``gtrex.Repairer`` per source (built once, as a
  pipeline would) and ``Repairer.repair`` per claim at the same threshold. Unless ``--full-gtrex``
  is given it runs on a sample of --gtrex-sample records and its time is scaled to all of them,
  which the script says.

It prints records per second side by side and the ratio, and the actions each tool took.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import warnings
from collections import Counter


def make_source(rng: random.Random, target_bytes: int, index: int) -> str:
    vocabulary = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9))) for _ in range(3000)]
    common = ["the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "on"]
    sentences, size = [], 0
    while size < target_bytes:
        words = [rng.choice(common) if rng.random() < 0.3 else rng.choice(vocabulary) for _ in range(rng.randint(12, 28))]
        words.insert(rng.randint(1, len(words) - 1), str(rng.randint(10, 9999)))
        sentence = f"Source {index}: " + " ".join(words).capitalize() + "."
        sentences.append(sentence)
        size += len(sentence) + 1
    return "\n".join(sentences) + "\n"


def make_claim(rng: random.Random, source: str) -> str:
    lines = source.splitlines()
    words = rng.choice(lines).rstrip(".").split(" ")[2:]
    start = rng.randint(0, max(0, len(words) - 12))
    quote = words[start:start + rng.randint(8, 12)]
    kind = rng.randrange(4)
    if kind == 1 and len(quote) > 4:  # a dropped word and an added comma: a near miss
        del quote[len(quote) // 2]
        quote[1] += ","
    elif kind == 2:  # a changed figure, or an added one
        numbers = [i for i, word in enumerate(quote) if word.isdigit()]
        if numbers:
            quote[numbers[0]] = str(int(quote[numbers[0]]) + 1)
        else:
            quote.insert(len(quote) // 2, "42")
    elif kind == 3:
        quote = ["".join(rng.choice("bcdfghjklmnpqrstvwxz") for _ in range(6)) for _ in quote]
    return " ".join(quote)


def peak_child_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def run_ethos(claims: str, out: str, threshold: float) -> tuple[float, float]:
    started = time.perf_counter()
    # A fresh process each time, so the child peak is this run's own (measured through a helper
    # that reports its own child's peak, since RUSAGE_CHILDREN is cumulative in this process).
    script = (
        "import resource, subprocess, sys\n"
        "done = subprocess.run(sys.argv[1:], capture_output=True)\n"
        "sys.stderr.write(done.stderr.decode())\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)\n"
        "sys.exit(done.returncode)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, sys.executable, "-m", "ethos_py.cli", "repair", claims,
                           "-o", out, "--threshold", str(threshold)], capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"ethos repair failed: {done.stderr}")
    return elapsed, float(done.stdout.strip())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--sources", type=int, default=100)
    parser.add_argument("--source-bytes", type=int, default=100_000)
    parser.add_argument("--threshold", type=float, default=0.8)
    parser.add_argument("--gtrex-sample", type=int, default=2000)
    parser.add_argument("--full-gtrex", action="store_true")
    parser.add_argument("--seed", type=int, default=27)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="ethos-repair-bench-")
    sources = []
    for index in range(args.sources):
        text = make_source(rng, args.source_bytes, index)
        name = f"source-{index:03d}.txt"
        with open(os.path.join(work, name), "w", encoding="utf-8") as handle:
            handle.write(text)
        sources.append((name, text))
    records = []
    for _ in range(args.records):
        name, text = rng.choice(sources)
        records.append({"claim": make_claim(rng, text), "source_path": name})
    claims = os.path.join(work, "claims.jsonl")
    with open(claims, "w", encoding="utf-8") as handle:
        handle.writelines(json.dumps(record) + "\n" for record in records)
    tenth = os.path.join(work, "claims-tenth.jsonl")
    with open(tenth, "w", encoding="utf-8") as handle:
        handle.writelines(json.dumps(record) + "\n" for record in records[: max(1, args.records // 10)])
    print(f"{args.records} records over {args.sources} sources of ~{args.source_bytes} bytes; threshold {args.threshold}")

    out = os.path.join(work, "repaired.jsonl")
    ethos_seconds, ethos_rss = run_ethos(claims, out, args.threshold)
    _, tenth_rss = run_ethos(tenth, os.path.join(work, "repaired-tenth.jsonl"), args.threshold)
    with open(out, encoding="utf-8") as handle:
        ethos_actions = Counter(json.loads(line)["ethos"]["action"] for line in handle)
    ethos_rate = args.records / ethos_seconds
    print(f"ethos repair     {ethos_seconds:9.2f} s  {ethos_rate:12,.0f} records/s  peak RSS {ethos_rss:.0f} MB "
          f"(a tenth of the records: {tenth_rss:.0f} MB)  {dict(sorted(ethos_actions.items()))}")

    try:
        import gtrex
    except ImportError:
        print("gtrex not installed (pip install -e '.[bench]'): no comparison")
        return 0
    sample = records if args.full_gtrex else rng.sample(records, min(args.gtrex_sample, len(records)))
    texts = dict(sources)
    policy = gtrex.Policy(repair_mode="substitute", repair_threshold=args.threshold)
    started = time.perf_counter()
    repairers: dict[str, object] = {}
    gtrex_actions: Counter[str] = Counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, _ in sources:  # built once per source, as in a pipeline (not counted per record)
            repairers[name] = gtrex.Repairer(texts[name], policy)
        build = time.perf_counter() - started
        started = time.perf_counter()
        for record in sample:
            result = repairers[record["source_path"]].repair(record["claim"])  # type: ignore[attr-defined]
            gtrex_actions[result.action] += 1
    per_record = (time.perf_counter() - started) / len(sample)
    gtrex_seconds = build + per_record * args.records
    scaled = "" if args.full_gtrex else f" (timed on {len(sample)} records, scaled)"
    gtrex_rate = args.records / gtrex_seconds
    print(f"gtrex 1.1 repair {gtrex_seconds:9.2f} s  {gtrex_rate:12,.0f} records/s{scaled}  "
          f"sources built in {build:.2f} s  {dict(sorted(gtrex_actions.items()))}")
    print(f"ratio: ethos is {ethos_rate / gtrex_rate:.1f}x gtrex 1.1 (target >= 20x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
