#!/usr/bin/env python3
"""seed_fuzz_corpus.py - fills native/fuzz/corpus/<target>/ with seed inputs taken from the golden cases and the schema examples.

    python tools/seed_fuzz_corpus.py [--check]

Each input is stored under the SHA-1 of its bytes (libFuzzer's own naming, so a later
`-merge=1` into the same directory never duplicates a seed). Existing inputs are kept: the
directories also hold what fuzzing found and minimized, and every fixed crash. --check exits 1
when a seed is missing (tests/test_fuzz_corpus.py runs it).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
EXAMPLES = ROOT / "schemas" / "examples"
CORPUS = ROOT / "native" / "fuzz" / "corpus"

#: document_open's first byte picks the loader (native/fuzz/document_open.cpp kLoaders).
LOADER_BYTE = {"detect": 0, "ethos-native": 1, "ethos-grounding-json": 2, "opendataloader-json": 3,
               "docling-json": 4, "text": 5, "markdown": 6}


def loader_of(path: Path) -> str:
    name = path.name
    if name.endswith(".md"):
        return "markdown"
    if name.endswith(".txt"):
        return "text"
    if name.startswith("odl-"):
        return "opendataloader-json"
    if name.startswith("docling-"):
        return "docling-json"
    if name.startswith("grounding"):
        return "ethos-grounding-json"
    return "ethos-native"


def minified(path: Path) -> bytes:
    """A JSON file on one line (a batch line); its own bytes when it is not valid JSON."""
    raw = path.read_bytes()
    try:
        return json.dumps(json.loads(raw), separators=(",", ":"), ensure_ascii=False).encode()
    except ValueError:
        return raw


#: pdf_layout's palette indexes (native/fuzz/pdf_layout.cpp kPalette) of the characters the seeds set.
PALETTE = {"a": 0, "e": 1, "n": 2, "t": 3, "o": 4, "i": 5, "r": 6, "s": 7, "E": 8, "T": 9, "0": 10, "1": 11,
           "9": 12, " ": 13, ".": 14, ",": 15, "-": 16, "\u00a8": 20, "*": 26, "\u00b9": 28, "\u4e2d": 31,
           "\u3002": 34}


def layout_recipe(lines: list[str], *, corrupt: bool = False, pages: int = 1, late_accent: bool = False) -> bytes:
    """A pdf_layout input that sets ``lines`` as text on each of ``pages`` A4-like pages; with
    ``late_accent`` a diaeresis is drawn back over the line after it is set (op 11 steps back)."""
    page = bytes([119, 168, 0, 0, 0])  # width, height, rotation 0, one font, Helvetica not embedded
    for line in lines:
        for char in line:
            page += bytes([0, PALETTE[char], 2, 4])  # a glyph, its advance step, no jitter
        if late_accent:
            page += bytes([11, PALETTE["\u00a8"], 2, 4])
        page += bytes([12, 0, 0])  # next line
    recipe = bytes([1 if corrupt else 0, pages - 1]) + page * pages
    return recipe + (bytes(range(7, 64)) if corrupt else b"")


def seeds() -> dict[str, list[bytes]]:
    cases = sorted(p for p in (GOLDEN / "cases").iterdir() if p.is_dir())
    sources = sorted(p for p in (GOLDEN / "sources").iterdir() if p.is_file() and not p.name.endswith(".payload.json"))
    out: dict[str, list[bytes]] = {}
    out["document_open"] = [bytes([LOADER_BYTE[loader_of(p)]]) + p.read_bytes() for p in sources]
    out["document_open"] += [bytes([LOADER_BYTE["detect"]]) + (EXAMPLES / name).read_bytes()
                             for name in ("document.example.json", "grounding.example.json", "grounding-office.example.json")]
    out["verify_citations"] = [c / "citations.json" for c in cases if (c / "citations.json").exists()]
    out["verify_citations"] += [EXAMPLES / "citations.example.json", EXAMPLES / "citations-array.example.json"]
    out["verify_config"] = [c / "config.json" for c in cases if (c / "config.json").exists()]
    out["verify_config"] += [EXAMPLES / "verification-config.example.json", EXAMPLES / "verification-config.hardened.example.json"]
    out["policy_explain"] = [EXAMPLES / "policy.example.json"]
    out["anchor_request"] = [EXAMPLES / "evidence-anchor-request.example.json"]
    # A batch: the citations requests of the first cases, one per line.
    lines = [minified(c / "citations.json") for c in cases[:12] if (c / "citations.json").exists()]
    out["batch_lines"] = [b"\n".join(lines) + b"\n", minified(EXAMPLES / "citations.example.json") + b"\n"]
    out["report_readers"] = [c / "expected.json" for c in cases if (c / "expected.json").exists()]
    out["report_readers"] += [EXAMPLES / "verification-report.example.json", EXAMPLES / "proof-statement.example.json",
                              EXAMPLES / "verification-report.hardened.example.json"]
    out["document_readers"] = [p for p in sources if p.suffix == ".json"] + [EXAMPLES / "document.example.json"]
    out["crop_request"] = [EXAMPLES / "crop-element-request.example.json"]
    text = ["Tea is not sent.", "one rat, ten rats.", "91 - 10, 19.", "stone\u00b9 tints*"]
    out["pdf_layout"] = [layout_recipe(text), layout_recipe(text, pages=3), layout_recipe(text, late_accent=True),
                         layout_recipe(["\u4e2d\u4e2d\u3002\u4e2d"] * 3), layout_recipe(text, corrupt=True),
                         layout_recipe(text, pages=2, corrupt=True)]
    return {target: [item if isinstance(item, bytes) else item.read_bytes() for item in items] for target, items in out.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="exit 1 when a seed is missing; write nothing")
    args = parser.parse_args()
    missing = 0
    for target, inputs in sorted(seeds().items()):
        directory = CORPUS / target
        for data in inputs:
            path = directory / hashlib.sha1(data).hexdigest()
            if path.exists():
                continue
            missing += 1
            if not args.check:
                directory.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
    if args.check and missing:
        print(f"{missing} seed inputs missing: run python tools/seed_fuzz_corpus.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
