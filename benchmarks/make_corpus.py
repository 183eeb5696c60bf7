#!/usr/bin/env python3
"""make_corpus.py - builds the synthetic benchmark inputs: a native document with ~1 MB of text and located quotes.

The text is drawn deterministically (seeded) from an English word list, elements of 4-6
sentences, 20 elements per page, one span per sentence with char offsets, so the document has the
shape of a parsed report. Quotes are 6-16 word substrings of their cited element, cited by
element_id; a tenth of them are altered (one word replaced) so mismatches are measured too.

    python benchmarks/make_corpus.py OUT_DIR [--text-bytes N] [--quotes N]
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import make_native_document

WORDS = ["the", "revenue", "margin", "growth", "quarter", "segment", "board", "policy", "dividend", "cash", "reserve", "market", "customer", "product", "service", "cloud", "device", "increase", "decrease", "report", "annual", "operating", "cost", "profit", "loss", "net", "gross", "total", "asset", "liability", "equity", "share", "price", "interest", "rate", "currency", "exchange", "risk", "capital", "investment", "return", "forecast", "outlook", "guidance", "strategy", "committee", "approved", "rejected", "employee", "engineer", "region", "europe", "america", "asia", "contract", "supplier", "inventory", "demand", "supply", "chain", "logistics", "software", "hardware", "platform", "subscription", "license", "revenue", "percent", "million", "billion", "thousand"]


def sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 20))]
    if rng.random() < 0.3:
        words.insert(rng.randint(0, len(words)), f"{rng.randint(1, 999)}.{rng.randint(0, 9)}%")
    return " ".join(words).capitalize() + "."


def build(text_bytes: int, quotes: int, seed: int = 7) -> tuple[dict, dict]:
    rng = random.Random(seed)
    pages, elements, spans = [], [], []
    total = 0
    while total < text_bytes:
        page_no = len(pages) + 1
        page_id = f"p{page_no:04d}"
        pages.append({"id": page_id, "index": page_no, "width": 61200, "height": 79200, "rotation": 0})
        for slot in range(20):
            if total >= text_bytes:
                break
            sentences = [sentence(rng) for _ in range(rng.randint(4, 6))]
            text = " ".join(sentences)
            element_id = f"e{len(elements) + 1:06d}"
            y = 4000 + slot * 3600
            span_refs, offset = [], 0
            for line, part in enumerate(sentences):
                span_id = f"s{len(spans) + 1:06d}"
                spans.append({"id": span_id, "page": page_id, "bbox": [7200, y + line * 600, 54000, y + line * 600 + 500],
                              "text": part, "char_start": offset, "char_end": offset + len(part)})
                span_refs.append(span_id)
                offset += len(part) + 1
            elements.append({"id": element_id, "type": "text_block", "page": page_id,
                             "bbox": [7200, y, 54000, y + 3400], "text": text, "span_refs": span_refs})
            total += len(text.encode())
    document = make_native_document.build_document({"payload": {"pages": pages, "elements": elements, "spans": spans}})
    claims = []
    for _ in range(quotes):
        element = rng.choice(elements)
        words = element["text"].split(" ")
        length = min(len(words), rng.randint(6, 16))
        start = rng.randint(0, len(words) - length)
        chosen = words[start:start + length]
        if rng.random() < 0.1:
            chosen[rng.randrange(len(chosen))] = "fabricated"
        claims.append({"kind": "quote", "text": " ".join(chosen), "citation": {"element_id": element["id"]}})
    citations = {"document_fingerprint": document["fingerprint"], "claims": claims}
    return document, citations


def config(max_checks: int) -> dict:
    return {"schema_version": "1.0.0", "config_version": "bench-v1",
            "claim_kinds": ["quote", "value", "presence", "table_cell"],
            "matching": {"text_normalization": "collapse_whitespace", "case_sensitive": True},
            "staleness": {"require_fingerprint_match": True}, "limits": {"max_checks": max_checks}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--text-bytes", type=int, default=1_000_000)
    parser.add_argument("--quotes", type=int, default=50_000)
    args = parser.parse_args()
    args.out_dir.mkdir(parents=True, exist_ok=True)
    document, citations = build(args.text_bytes, args.quotes)
    dump = lambda value: json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
    (args.out_dir / "document.json").write_bytes(dump(document))
    (args.out_dir / "citations.json").write_bytes(dump(citations))
    (args.out_dir / "config.json").write_bytes(dump(config(max(args.quotes, 1))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
