#!/usr/bin/env python3
"""labelled_quotes.py - scores Ethos, a literal check and gtrex on an independent labelled quotation set (quotes-dev.jsonl's format).

    python benchmarks/labelled_quotes.py CORPUS_DIR SET.jsonl [--no-gtrex] [--failures OUT.jsonl]

(accuracy.py runs this after its own set when given --labelled SET.jsonl.)

A record of the set is {pdf, page, page_end, claim, label, variant, source_feature, lang, ...}:
label is `grounded` (a presentation-only change of text pdftotext read there: must be grounded),
`not_grounded` (a content change: must not be grounded) or `stitched` (ellipsis-joined fragments:
must be reported as stitched_quotation). Each claim is cited to its page or page range, the way
the set's own scorer cites it, and verified through the library in batches; the peers get the
same quote and the text of our parse's cited pages.

Printed: per label, per PDF, per source feature (multi-line, page break, table cell, heading,
hyphen break, ...) and per language, the share each tool got right, then the set's targets
(genuine quotes refused <= 1 % overall and <= 3 % on any one PDF, no altered quote grounded,
>= 99 % of stitched quotes reported as stitched).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

import ethos_py

BATCH = 200
LABELS = ("grounded", "not_grounded", "stitched")


def citation_for(record: dict) -> dict:
    """The citation the set's scorer gives a record: its page, its page range, or the whole document."""
    page, page_end = record.get("page"), record.get("page_end")
    if page is None:
        return {"scope": "document"}
    if page_end is not None and page_end != page:
        return {"page": f"p{page:04d}", "page_end": f"p{page_end:04d}"}
    return {"page": f"p{page:04d}"}


def cited_pages(record: dict, page_count: int) -> range:
    if record.get("page") is None:
        return range(1, page_count + 1)
    return range(record["page"], (record.get("page_end") or record["page"]) + 1)


def right(label: str, grounded: bool, stitched: bool) -> bool:
    """Whether a tool's outcome is the one the label asks for."""
    if label == "grounded":
        return grounded
    if label == "not_grounded":
        return not grounded
    return stitched and not grounded


def page_texts(document: dict) -> dict[int, str]:
    index_of = {page["id"]: page["index"] for page in document["payload"]["pages"]}
    texts: dict[int, list[str]] = defaultdict(list)
    for element in document["payload"]["elements"]:
        if "text" in element:
            texts[index_of[element["page"]]].append(element["text"])
    return {index: "\n".join(parts) for index, parts in texts.items()}


def ethos_checks(document: "ethos_py.Document", records: list[dict]) -> list[dict]:
    checks: list[dict] = []
    for start in range(0, len(records), BATCH):
        claims = [{"kind": "quote", "text": r["claim"], "citation": citation_for(r)} for r in records[start:start + BATCH]]
        report = document.verify({"document_fingerprint": document.fingerprint, "claims": claims})
        checks += report.get("predicate", report)["checks"]
    return checks


def literal_grounded(quote: str, text: str) -> bool:
    collapse = lambda s: re.sub(r"\s+", " ", s).strip()  # noqa: E731
    return collapse(quote) in collapse(text)


def gtrex_outcome(verifiers: dict, key: tuple, text: str, quote: str) -> tuple[bool, bool]:
    import gtrex

    if key not in verifiers:
        verifiers[key] = gtrex.Verifier(text, gtrex.Policy())
    certificate = verifiers[key].verify(quote)
    stitched = bool(getattr(certificate, "fragment_statuses", None)) or "stitch" in str(getattr(certificate, "reason", ""))
    return bool(certificate.grounded), stitched


def score(corpus: Path, set_path: Path, *, gtrex: bool, failures: Path | None) -> dict:
    """Verifies every record; returns {tool: [right per record]} plus the records and Ethos's checks."""
    records = [json.loads(line) for line in set_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    by_pdf: dict[str, list[int]] = defaultdict(list)
    for i, record in enumerate(records):
        by_pdf[record["pdf"]].append(i)
    tools = ["ethos", "literal"] + (["gtrex"] if gtrex else [])
    outcome: dict[str, dict[int, bool]] = {tool: {} for tool in tools}
    checks: dict[int, dict] = {}
    verifiers: dict = {}
    for name, indexes in sorted(by_pdf.items()):
        parsed = ethos_py.parse_pdf_json(corpus / name)
        texts = page_texts(parsed)
        with ethos_py.Document.from_bytes(json.dumps(parsed).encode()) as document:
            for i, check in zip(indexes, ethos_checks(document, [records[i] for i in indexes])):
                checks[i] = check
                outcome["ethos"][i] = right(records[i]["label"], check["status"] == "grounded",
                                            check.get("reason") == "stitched_quotation")
        page_count = len(parsed["payload"]["pages"])
        for i in indexes:
            record = records[i]
            pages = cited_pages(record, page_count)
            text = "\n".join(texts.get(p, "") for p in pages)
            outcome["literal"][i] = right(record["label"], literal_grounded(record["claim"], text), False)
            if gtrex:
                grounded, stitched = gtrex_outcome(verifiers, (name, pages.start, pages.stop), text, record["claim"])
                outcome["gtrex"][i] = right(record["label"], grounded, stitched)
        print(f"  {name}: {len(indexes)} claims", file=sys.stderr)
    if failures is not None:
        failures.write_text("".join(
            json.dumps({**records[i], "status": checks[i]["status"], "reason": checks[i].get("reason"),
                        "match": checks[i].get("match")}, ensure_ascii=False, sort_keys=True) + "\n"
            for i in sorted(checks) if not outcome["ethos"][i]), encoding="utf-8")
    return {"records": records, "tools": tools, "outcome": outcome, "checks": checks}


def print_table(title: str, groups: dict[str, list[int]], tools: list[str], outcome: dict) -> None:
    print(f"{title:34} {'n':>5} " + " ".join(f"{t + ' ok':>11}" for t in tools))
    for key, indexes in sorted(groups.items()):
        cells = " ".join(f"{sum(outcome[t][i] for i in indexes) / len(indexes):11.1%}" for t in tools)
        print(f"{key:34} {len(indexes):5d} {cells}")
    print()


def report(result: dict) -> bool:
    """Prints the tables; True when Ethos meets the set's targets."""
    records, tools, outcome = result["records"], result["tools"], result["outcome"]
    by_label: dict[str, list[int]] = defaultdict(list)
    genuine_by: dict[str, dict[str, list[int]]] = {"pdf": defaultdict(list), "source_feature": defaultdict(list), "lang": defaultdict(list)}
    for i, record in enumerate(records):
        by_label[record["label"]].append(i)
        if record["label"] == "grounded":
            for field, groups in genuine_by.items():
                groups[str(record.get(field))].append(i)
    print("ok = genuine grounded | altered not grounded | stitched reported as stitched")
    print_table("label", by_label, tools, outcome)
    print_table("genuine quotes, per PDF", genuine_by["pdf"], tools, outcome)
    print_table("genuine quotes, per source feature", genuine_by["source_feature"], tools, outcome)
    print_table("genuine quotes, per language", genuine_by["lang"], tools, outcome)

    def refused(indexes: list[int]) -> float:
        return 1 - sum(outcome["ethos"][i] for i in indexes) / max(1, len(indexes))

    overall = refused(by_label["grounded"])
    worst_pdf, worst = max(((pdf, refused(ix)) for pdf, ix in genuine_by["pdf"].items()), key=lambda p: p[1], default=("-", 0.0))
    altered = sum(not outcome["ethos"][i] for i in by_label["not_grounded"])
    stitched = 1 - refused(by_label["stitched"]) if by_label["stitched"] else 1.0
    print(f"Ethos: genuine refused {overall:.2%} (target <= 1 %), worst PDF {worst_pdf} {worst:.1%} (target <= 3 %), "
          f"altered grounded {altered} (target 0), stitched flagged {stitched:.1%} (target >= 99 %)")
    return overall <= 0.01 and worst <= 0.03 and altered == 0 and stitched >= 0.99


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", type=Path, help="the folder holding the set's PDFs")
    parser.add_argument("set", type=Path, help="the labelled set (JSON lines)")
    parser.add_argument("--no-gtrex", action="store_true")
    parser.add_argument("--failures", type=Path, default=None, help="write every record Ethos got wrong here (JSON lines)")
    args = parser.parse_args()
    result = score(args.corpus, args.set, gtrex=not args.no_gtrex, failures=args.failures)
    return 0 if report(result) else 1


if __name__ == "__main__":
    sys.exit(main())
