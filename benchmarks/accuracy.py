#!/usr/bin/env python3
"""accuracy.py - quotation verification accuracy on real PDFs: Ethos vs a literal check vs gtrex, per variant.

    python benchmarks/accuracy.py CORPUS_DIR [--set FILE] [--per-variant 40] [--no-gtrex] [--failures OUT.jsonl]
    python benchmarks/accuracy.py CORPUS_DIR --table-columns
    python benchmarks/accuracy.py CORPUS_DIR --accents
    python benchmarks/accuracy.py CORPUS_DIR --labelled ../shared/corpus/quotes-dev.jsonl [--no-gtrex]

Builds (or reads) the labelled quotation set of quotation_set.py: quotes taken from poppler's
pdftotext text of real PDFs with presentation-only changes (faithful), content changes (altered)
and ellipsis stitching (stitched). Every PDF is parsed once by Ethos (the parse cache keeps it);
each quote is cited to its page (page + page_end for quotes across a page break) and verified
in batches through the library. On the same quotes and the same page text (our parse's element
texts of the cited pages), two peers are scored side by side:

* literal - whitespace-collapsed substring test, the check most pipelines start from;
* gtrex   - gtrex.Verifier(page_text, Policy()) from PyPI, a normalization-ladder verifier.

Accepted = grounded. Targets (issue #4): <= 1 % of faithful quotes rejected, <= 0.5 % of altered
quotes accepted, no number or negation variant accepted, >= 99 % of stitched quotes reported as
stitched (reason stitched_quotation; for gtrex: its stitched outcome).

--failures writes every record Ethos got wrong (with its reason and the cited pages' element
types and texts) as JSON lines, to look at why.

--table-columns measures instead how quotes taken from tables in column order (as pdftotext and
many loaders read a table) verify: for every table of our parse with at least two rows and two
columns, each pair of vertically adjacent non-empty cells becomes a faithful quote (the two cell
texts joined by a space), cited to the table's page; a quote with a digit is also altered (its
first digit + 1 mod 10) and kept as altered only when the altered text is nowhere in the table
read column by column (else the change made another true pair). At most 400 quotes per PDF.

--labelled SET.jsonl scores, after this set and beside it, an independent labelled set in
quotes-dev.jsonl's format (labelled_quotes.py): per label, per PDF, per source feature (multi-line,
page break, table cell, heading, hyphen break, ...) and per language, with the same peers. Its
targets: <= 1 % of genuine quotes refused overall and <= 3 % on any one PDF, no altered quote
grounded, >= 99 % of stitched quotes flagged.

--accents measures quotes of accented words (pdftotext's composed letters) on the pages where our
parse holds TeX's spacing accents (`Moir´e`), which the typography tier reads with their letter.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import labelled_quotes
import quotation_set

import ethos_py

BATCH = 200
GUARDED = {"number_x10", "digit_swap", "sign_change", "negation_added", "negation_dropped"}
REASONS: list[str] = []  # Ethos's reason per verified record, in verification order


# The page text and the peers are the labelled set's (one definition for both sets).
page_texts = labelled_quotes.page_texts
literal = labelled_quotes.literal_grounded
gtrex_outcome = labelled_quotes.gtrex_outcome


def page_elements(document: dict, pages: range) -> list[dict]:
    """[{page, type, text}] of the elements on the given page indexes, in reading order."""
    index_of = {page["id"]: page["index"] for page in document["payload"]["pages"]}
    return [{"page": index_of[e["page"]], "type": e["type"], "text": e.get("text", "")}
            for e in document["payload"]["elements"] if index_of[e["page"]] in pages]


def _ok(record: dict, outcome: tuple[bool, bool]) -> bool:
    grounded, stitched = outcome
    if record["label"] == "faithful":
        return grounded
    if record["label"] == "altered":
        return not grounded
    return stitched and not grounded


def claim(record: dict) -> dict:
    citation = {"page": f"p{record['page']:04d}"}
    if "page_end" in record:
        citation["page_end"] = f"p{record['page_end']:04d}"
    return {"kind": "quote", "text": record["quote"], "citation": citation}


def ethos_outcomes(document: "ethos_py.Document", records: list[dict]) -> list[tuple[bool, bool]]:
    """(grounded, reported as stitched) per record."""
    out = []
    for start in range(0, len(records), BATCH):
        batch = records[start:start + BATCH]
        citations = {"document_fingerprint": document.fingerprint, "claims": [claim(r) for r in batch]}
        report = document.verify(citations)
        body = report.get("predicate", report)
        out += [(c["status"] == "grounded", c.get("reason") == "stitched_quotation") for c in body["checks"]]
        REASONS.extend(c.get("reason", "grounded") for c in body["checks"])
    return out


def _collapse(text: str) -> str:
    return " ".join(text.split())


def table_column_quotes(parsed: dict) -> list[tuple[str, dict]]:
    """(label, claim) pairs of --table-columns for one parsed PDF, in table and cell order."""
    out: list[tuple[str, dict]] = []
    for table in parsed["payload"].get("tables", []):
        if table["n_rows"] < 2 or table["n_cols"] < 2:
            continue
        cells = {(c["row"], c["col"]): c["text"] for c in table["cells"] if c["text"].strip()}
        column_text = _collapse(" ".join(cells[key] for key in sorted(cells, key=lambda k: (k[1], k[0]))))
        citation = {"page": table["page_refs"][0]}
        for (row, col), text in sorted(cells.items()):
            below = cells.get((row + 1, col))
            quote = _collapse(text + " " + below) if below is not None else ""
            if len(quote) < 8:
                continue
            out.append(("faithful", {"kind": "quote", "text": quote, "citation": citation}))
            digit = re.search(r"\d", quote)
            if digit:
                altered = quote[:digit.start()] + str((int(digit.group()) + 1) % 10) + quote[digit.end():]
                if altered not in column_text:
                    out.append(("altered", {"kind": "quote", "text": altered, "citation": citation}))
    return out[:400]


def table_columns_main(corpus: Path) -> int:
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    reasons: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for pdf in sorted(corpus.glob("*.pdf")):
        parsed = ethos_py.parse_pdf_json(pdf)
        pairs = table_column_quotes(parsed)
        if not pairs:
            continue
        checks: list[dict] = []
        with ethos_py.Document.from_bytes(json.dumps(parsed).encode()) as document:
            for start in range(0, len(pairs), 50):
                claims = [claim for _, claim in pairs[start:start + 50]]
                report = json.loads(document.verify_json({"document_fingerprint": document.fingerprint, "claims": claims}))
                checks.extend(report["checks"])
        for (label, _), check in zip(pairs, checks):
            grounded = check["status"] == "grounded"
            totals[label][0] += grounded if label == "faithful" else not grounded
            totals[label][1] += 1
            reasons[label]["grounded" if grounded else check["reason"]] += 1
        print(f"  {pdf.name}: {len(pairs)} quotes", file=sys.stderr)
    for label, (good, n) in sorted(totals.items()):
        verdicts = ", ".join(f"{reason} {count}" for reason, count in sorted(reasons[label].items()))
        print(f"{label:9} {n:5d} ok {good / max(1, n):6.1%}   ({verdicts})")
    return 0


#: A TeX spacing accent beside a letter in our parse's text (docs/matching.md "TeX's spacing accents").
SPACING_ACCENT = re.compile("[\u00b4\u00a8\u02c6\u02dc\u00af\u02c9\u02d8\u02d9\u02da\u02dd\u02c7`][^\\W\\d_]"
                            "|[^\\W\\d_][\u00b8\u02db]|[\u00b8\u02db][^\\W\\d_]")
#: Combining marks of the accents TeX sets as spacing glyphs.
ACCENT_MARKS = set("\u0300\u0301\u0302\u0303\u0304\u0306\u0307\u0308\u030a\u030b\u030c\u0327\u0328")


def accents_main(corpus: Path) -> int:
    """--accents: on every page whose parse holds a spacing accent beside a letter, every word of
    pdftotext's page text with an accented letter (NFD holds one of the marks) becomes a quote of up
    to five words of its line (two either side), cited to the page: the text an LLM or a
    pdftotext-based pipeline quotes. All are faithful."""
    import subprocess
    import unicodedata

    total, grounded = 0, 0
    tiers: dict[str, int] = defaultdict(int)
    for pdf in sorted(corpus.glob("*.pdf")):
        parsed = ethos_py.parse_pdf_json(pdf)
        index_of = {page["id"]: page["index"] for page in parsed["payload"]["pages"]}
        pages = sorted({index_of[e["page"]] for e in parsed["payload"]["elements"] if SPACING_ACCENT.search(e.get("text", ""))})
        claims = []
        for number in pages:
            text = subprocess.run(["pdftotext", "-f", str(number), "-l", str(number), "-enc", "UTF-8", str(pdf), "-"],
                                  check=True, capture_output=True).stdout.decode("utf-8", errors="replace")
            for line in text.split("\n"):
                words = line.split()
                for i, word in enumerate(words):
                    if ACCENT_MARKS & set(unicodedata.normalize("NFD", word)):
                        claims.append({"kind": "quote", "text": " ".join(words[max(0, i - 2):i + 3]),
                                       "citation": {"page": f"p{number:04d}"}})
        if not claims:
            continue
        with ethos_py.Document.from_bytes(json.dumps(parsed).encode()) as document:
            report = json.loads(document.verify_json({"document_fingerprint": document.fingerprint, "claims": claims}))
        ok = [check["status"] == "grounded" for check in report["checks"]]
        for check in report["checks"]:
            tiers[check["match"]["tier"] if check["status"] == "grounded" else check["reason"]] += 1
        print(f"{pdf.name:28} pages {len(pages):3d}  quotes {len(claims):4d}  grounded {sum(ok):4d}")
        total, grounded = total + len(claims), grounded + sum(ok)
    print(f"all: {grounded} of {total} grounded   ({', '.join(f'{k} {v}' for k, v in sorted(tiers.items()))})")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", type=Path)
    # The cache is named after the generator's version, so a changed generator never reuses a stale set.
    parser.add_argument("--set", type=Path, default=HERE / ".cache" / f"quotation-set-v{quotation_set.GENERATOR_VERSION}.jsonl")
    parser.add_argument("--per-variant", type=int, default=40)
    parser.add_argument("--no-gtrex", action="store_true")
    parser.add_argument("--failures", type=Path, default=None, help="write the records Ethos got wrong here (JSON lines)")
    parser.add_argument("--table-columns", action="store_true", help="measure quotes read off tables column by column")
    parser.add_argument("--accents", action="store_true", help="measure quotes of accented words on pages with TeX spacing accents")
    parser.add_argument("--labelled", type=Path, default=None, metavar="SET.jsonl",
                        help="also score an independent labelled set in quotes-dev.jsonl's format (its PDFs in CORPUS)")
    parser.add_argument("--labelled-failures", type=Path, default=None, help="write the labelled set's records Ethos got wrong here")
    args = parser.parse_args()
    if args.table_columns:
        return table_columns_main(args.corpus)
    if args.accents:
        return accents_main(args.corpus)

    if not args.set.exists():
        args.set.parent.mkdir(parents=True, exist_ok=True)
        records = quotation_set.build(args.corpus, args.per_variant, seed=7)
        args.set.write_text("".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in records))
    records = [json.loads(line) for line in args.set.read_text().splitlines()]

    by_pdf: dict[str, list[int]] = defaultdict(list)
    for i, record in enumerate(records):
        by_pdf[record["pdf"]].append(i)
    results: dict[str, dict[int, tuple[bool, bool]]] = {"ethos": {}, "literal": {}, "gtrex": {}}
    verifiers: dict = {}
    reason_of: dict[int, str] = {}
    cited_pages: dict[int, list[dict]] = {}
    for name, indexes in sorted(by_pdf.items()):
        parsed = ethos_py.parse_pdf_json(args.corpus / name)
        texts = page_texts(parsed)
        with ethos_py.Document.from_bytes(json.dumps(parsed).encode()) as document:
            REASONS.clear()
            for i, outcome in zip(indexes, ethos_outcomes(document, [records[i] for i in indexes])):
                results["ethos"][i] = outcome
            reason_of.update(zip(indexes, REASONS))
        for i in indexes:
            r = records[i]
            pages = range(r["page"], r.get("page_end", r["page"]) + 1)
            text = "\n".join(texts.get(p, "") for p in pages)
            results["literal"][i] = (literal(r["quote"], text), False)
            if not args.no_gtrex:
                results["gtrex"][i] = gtrex_outcome(verifiers, (name, tuple(pages)), text, r["quote"])
            if args.failures is not None and not _ok(r, results["ethos"][i]):
                cited_pages[i] = page_elements(parsed, pages)
        print(f"  {name}: {len(indexes)} quotes", file=sys.stderr)

    if args.failures is not None:
        args.failures.write_text("".join(
            json.dumps({**records[i], "reason": reason_of[i], "elements": cited_pages[i]}, ensure_ascii=False, sort_keys=True) + "\n"
            for i in sorted(cited_pages)), encoding="utf-8")
    tools = ["ethos", "literal"] + ([] if args.no_gtrex else ["gtrex"])
    variants: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, record in enumerate(records):
        variants[(record["label"], record["variant"])].append(i)
    print(f"{'label':9} {'variant':28} {'n':>4} " + " ".join(f"{t + ' ok':>11}" for t in tools))
    totals: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for (label, variant), indexes in sorted(variants.items()):
        cells = []
        for tool in tools:
            if label == "faithful":
                good = sum(results[tool][i][0] for i in indexes)  # accepted
            elif label == "altered":
                good = sum(not results[tool][i][0] for i in indexes)  # rejected
            else:
                good = sum(results[tool][i][1] and not results[tool][i][0] for i in indexes)  # stitched, not grounded
            totals[(tool, label)][0] += good
            totals[(tool, label)][1] += len(indexes)
            cells.append(f"{good / len(indexes):11.1%}")
        print(f"{label:9} {variant:28} {len(indexes):4d} " + " ".join(cells))
    print()
    print("ok = faithful accepted | altered rejected | stitched reported as stitched")
    for label, target in (("faithful", "rejected <= 1%"), ("altered", "accepted <= 0.5%"), ("stitched", "stitched >= 99%")):
        row = " ".join(f"{t}: {totals[(t, label)][0] / max(1, totals[(t, label)][1]):.1%}" for t in tools)
        print(f"{label:9} {row}   (target {target})")
    guarded = [i for (label, variant), idx in variants.items() if variant in GUARDED for i in idx]
    print("number/negation variants accepted: " + " ".join(f"{t}: {sum(results[t][i][0] for i in guarded)}" for t in tools)
          + "   (target 0)")
    print()
    print("Ethos outcome per variant (grounded, or the mismatch reason):")
    for (label, variant), indexes in sorted(variants.items()):
        counts: dict[str, int] = defaultdict(int)
        for i in indexes:
            counts[reason_of[i]] += 1
        print(f"{label:9} {variant:28} " + ", ".join(f"{reason} {n}" for reason, n in sorted(counts.items())))
    if args.labelled is not None:
        print()
        print(f"Independent labelled set {args.labelled.name}:")
        labelled_quotes.report(labelled_quotes.score(args.corpus, args.labelled, gtrex=not args.no_gtrex,
                                                     failures=args.labelled_failures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
