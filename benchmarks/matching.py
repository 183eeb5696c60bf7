#!/usr/bin/env python3
"""matching.py - quote verification speed on real text: Ethos vs gtrex side by side, whole process and once indexed.

    python benchmarks/matching.py CORPUS_DIR [--text-bytes 1000000] [--quotes 1000] [--scope document|page]
                                  [--repeat 3] [--keep DIR]

Takes real text (poppler's pdftotext of the corpus PDFs, page by page) until --text-bytes of
UTF-8, builds a correctly hashed native document from it (one element per paragraph, one page per
PDF page), samples --quotes sentences from it (a tenth altered: one word changed), and measures
in one run on the same inputs:

* end to end, whole process - ``ethos-core verify`` (load + index + verify + report) and a Python
  process running gtrex (read text + Verifier + verify every quote);
* once indexed - per-quote time of a second verify call on an open Document (the index is built
  on first use) and of gtrex's Verifier.verify after its index is built;
* scaling - the per-quote time when the source grows 4x (target <= 1.5x), also timed with both
  documents open in one process and verify calls alternating between them (the figure to trust on
  a shared machine: the ratio is taken pair by pair);
* memory - ethos-core peak RSS of verify minus that of opening alone, per source character
  (target <= 20 bytes per character).

Targets (issue #4): >= 20x gtrex end to end, >= 100x per quote once both have indexed.

--keep DIR keeps the generated inputs (DIR/base and DIR/big: document.json, citations.json,
config.json, text.txt, quotes.json) and the gtrex script (DIR/gtrex_run.py TEXT QUOTES), so the
two whole-process commands can be timed again, paired, with a harness of one's choice.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tools"))
import make_native_document

import ethos_py
from ethos_py import _locate

GTREX_SCRIPT = r"""
import json, sys, time
import gtrex
text = open(sys.argv[1], encoding="utf-8").read()
quotes = json.load(open(sys.argv[2], encoding="utf-8"))
verifier = gtrex.Verifier(text, gtrex.Policy())
start = time.perf_counter()
verifier.verify(quotes[0])  # builds the index
indexed = time.perf_counter()
grounded = sum(1 for q in quotes[1:] if verifier.verify(q).grounded)
done = time.perf_counter()
print(json.dumps({"index_s": indexed - start, "per_quote_s": (done - indexed) / max(1, len(quotes) - 1), "grounded": grounded}))
"""


def real_pages(corpus: Path, text_bytes: int) -> list[list[str]]:
    """Pages of paragraphs of real text, up to text_bytes of UTF-8."""
    pages, size = [], 0
    for pdf in sorted(corpus.glob("*.pdf")):
        out = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], check=True, capture_output=True).stdout
        for page in out.decode("utf-8", errors="replace").split("\f"):
            paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", page) if p.strip()]
            if not paragraphs:
                continue
            pages.append(paragraphs)
            size += sum(len(p.encode()) for p in paragraphs)
            if size >= text_bytes:
                return pages
    return pages


def build_document(pages: list[list[str]]) -> dict:
    payload = {"pages": [], "elements": []}
    for number, paragraphs in enumerate(pages, start=1):
        page_id = f"p{number:04d}"
        payload["pages"].append({"id": page_id, "index": number, "width": 61200, "height": 79200, "rotation": 0})
        for i, text in enumerate(paragraphs):
            payload["elements"].append({"id": f"e{len(payload['elements']) + 1:06d}", "type": "text_block", "page": page_id,
                                        "bbox": [7200, 7200 + 300 * i, 54000, 7400 + 300 * i], "text": text})
    return make_native_document.build_document(payload)


def sample_quotes(pages: list[list[str]], count: int, scope: str, rng: random.Random) -> list[dict]:
    candidates = []
    for number, paragraphs in enumerate(pages, start=1):
        for paragraph in paragraphs:
            for sentence in re.split(r"(?<=[.!?])\s+", paragraph):
                if 6 <= len(sentence.split()) <= 30:
                    candidates.append((number, sentence))
    claims = []
    for number, sentence in rng.sample(candidates, min(count, len(candidates))):
        if rng.random() < 0.1:
            words = sentence.split()
            words[len(words) // 2] = "zebra"
            sentence = " ".join(words)
        citation = {"scope": "document"} if scope == "document" else {"page": f"p{number:04d}"}
        claims.append({"kind": "quote", "text": sentence, "citation": citation})
    return claims


def run(command: list[str]) -> tuple[float, int, bytes]:
    """Wall seconds, peak RSS in bytes (GNU time: a child forked from this large Python process
    would report the parent's RSS) and stdout of one whole-process run."""
    start = time.perf_counter()
    completed = subprocess.run(["/usr/bin/time", "-f", "%M", *command], capture_output=True)
    if completed.returncode not in (0, 1):
        raise RuntimeError(f"{command[0]}: {completed.stderr.decode(errors='replace')[:400]}")
    peak_kib = int(completed.stderr.decode().strip().splitlines()[-1])
    return time.perf_counter() - start, peak_kib * 1024, completed.stdout


def measure(corpus: Path, text_bytes: int, quotes: int, scope: str, repeat: int, scratch: Path) -> dict:
    rng = random.Random(11)
    pages = real_pages(corpus, text_bytes)
    document = build_document(pages)
    text = "\n".join(p for paragraphs in pages for p in paragraphs)
    claims = sample_quotes(pages, quotes, scope, rng)
    config = {"schema_version": "1.0.0", "config_version": "bench", "claim_kinds": ["quote"],
              # The ladder under the `default` policy (the config only lifts max_checks above 256).
              "matching": {"text_normalization": "collapse_whitespace", "case_sensitive": True, "policy": "default"},
              "staleness": {"require_fingerprint_match": True}, "limits": {"max_checks": len(claims)}}
    files = {name: scratch / f"{name}.json" for name in ("document", "citations", "quotes", "config")}
    files["document"].write_text(json.dumps(document))
    files["citations"].write_text(json.dumps({"document_fingerprint": document["fingerprint"], "claims": claims}))
    files["quotes"].write_text(json.dumps([c["text"] for c in claims]))
    files["config"].write_text(json.dumps(config))
    (scratch / "text.txt").write_text(text, encoding="utf-8")
    core = os.environ.get("ETHOS_CORE") or str(_locate.find_bundled("ethos-core"))  # a dev build when named

    ethos_wall, ethos_rss, gtrex_wall = [], 0, []
    open_rss = run([core, "fingerprint", str(files["document"])])[1]
    for _ in range(repeat):
        wall, rss, _ = run([core, "verify", str(files["document"]), "--citations", str(files["citations"]),
                            "--config", str(files["config"]), "--out", str(scratch / "report.json")])
        ethos_wall.append(wall)
        ethos_rss = max(ethos_rss, rss)
        wall, _, stdout = run([sys.executable, "-c", GTREX_SCRIPT, str(scratch / "text.txt"), str(files["quotes"])])
        gtrex_wall.append(wall)
        gtrex_stats = json.loads(stdout)

    citations = files["citations"].read_bytes()
    with ethos_py.Document.open(files["document"]) as doc:
        doc.verify_json(citations, config=files["config"])  # first call builds the index
        per_quote = []
        for _ in range(repeat):
            start = time.perf_counter()
            doc.verify_json(citations, config=files["config"])
            per_quote.append((time.perf_counter() - start) / len(claims))
    return {
        "chars": len(text), "quotes": len(claims),
        "ethos_wall": statistics.median(ethos_wall), "gtrex_wall": statistics.median(gtrex_wall),
        "ethos_per_quote": statistics.median(per_quote), "gtrex_per_quote": gtrex_stats["per_quote_s"],
        "gtrex_index": gtrex_stats["index_s"], "index_bytes_per_char": max(0, ethos_rss - open_rss) / len(text),
    }


def paired_growth(base: Path, big: Path, pairs: int) -> float:
    """Per-quote growth at 4x source, timed in one process: both documents open (and indexed),
    verify calls alternating between them, the median of the pairs' ratios (big / base). Timing the
    two minutes apart, as measure() does, lets a shared machine's changing load decide the ratio."""
    opened = []
    for scratch in (base, big):
        doc = ethos_py.Document.open(scratch / "document.json")
        citations = (scratch / "citations.json").read_bytes()
        doc.verify_json(citations, config=scratch / "config.json")  # builds the index
        opened.append((doc, citations, scratch / "config.json", len(json.loads(citations)["claims"])))
    ratios = []
    try:
        for _ in range(pairs):
            per_quote = []
            for doc, citations, config, count in opened:
                start = time.perf_counter()
                doc.verify_json(citations, config=config)
                per_quote.append((time.perf_counter() - start) / count)
            ratios.append(per_quote[1] / per_quote[0])
    finally:
        for doc, *_ in opened:
            doc.close()
    return statistics.median(ratios)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--text-bytes", type=int, default=1_000_000)
    parser.add_argument("--quotes", type=int, default=1000)
    parser.add_argument("--scope", choices=["document", "page"], default="document")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", type=Path, default=None,
                        help="write the inputs (document, citations, config, text, quotes) under this directory "
                             "(base/ and big/) and keep them, to time the two whole-process commands with another tool")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = args.keep or Path(scratch)
        (root / "base").mkdir(parents=True, exist_ok=True)
        (root / "big").mkdir(parents=True, exist_ok=True)
        base = measure(args.corpus, args.text_bytes, args.quotes, args.scope, args.repeat, root / "base")
        big = measure(args.corpus, 4 * args.text_bytes, args.quotes, args.scope, args.repeat, root / "big")
        growth = paired_growth(root / "base", root / "big", max(5, args.repeat))
    if args.keep:
        (args.keep / "gtrex_run.py").write_text(GTREX_SCRIPT)
    print(f"source {base['chars']:,} chars, {base['quotes']} quotes, scope {args.scope}")
    print(f"end to end (whole process): ethos-core {base['ethos_wall'] * 1000:.0f} ms, gtrex {base['gtrex_wall'] * 1000:.0f} ms"
          f"  -> {base['gtrex_wall'] / base['ethos_wall']:.1f}x (target >= 20x)")
    print(f"per quote once indexed: ethos {base['ethos_per_quote'] * 1e6:.1f} us, gtrex {base['gtrex_per_quote'] * 1e6:.1f} us"
          f"  -> {base['gtrex_per_quote'] / base['ethos_per_quote']:.1f}x (target >= 100x)")
    print(f"4x source ({big['chars']:,} chars): ethos per quote {big['ethos_per_quote'] * 1e6:.1f} us"
          f"  -> growth {big['ethos_per_quote'] / base['ethos_per_quote']:.2f}x; paired in one process {growth:.2f}x"
          " (target <= 1.5x)")
    print(f"index memory: {base['index_bytes_per_char']:.1f} bytes per source char (verify RSS - open RSS; target <= 20)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
