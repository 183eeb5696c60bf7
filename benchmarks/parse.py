#!/usr/bin/env python3
"""parse.py - PDF parsing benchmark: Ethos parse speed vs pypdfium2 text extraction, and text fidelity vs pdftotext.

    python benchmarks/parse.py CORPUS_DIR [--repeat 3] [--workers N] [--only NAME ...] [--missed N]

CORPUS_DIR holds real PDFs (see the team's corpus instructions: a fetch script pulls seventeen
born-digital PDFs from Debian packages). For every PDF, in one run and on the same bytes:

* pypdfium2  - the peer: one Python process that opens the PDF and calls the plain per-page
               ``get_text_range()`` on every page (whole-process wall time, and the in-process
               loop time it reports itself);
* ethos      - ``ethos-core doc parse --no-cache`` as a whole process: structure, spans, glyph
               geometry, tables, warnings, hashes, canonical JSON written to a file (peak RSS from
               wait4);
* fidelity   - poppler's ``pdftotext`` (Debian package poppler-utils), an extractor independent of
               ours: the share of its words, per page, found in our text of that page in the same
               order (longest common subsequence of the word sequences, NFKC-folded on both sides
               only for comparing), summed over the PDF. Chinese and Japanese are written without
               spaces between words, so whitespace cannot split them into words the same way on
               both sides: every Han, kana or CJK-punctuation character counts as one word of its
               own, on both sides alike (``--segmentation whitespace`` gives the plain split).
               A line-end hyphen our parser recorded as an artifact (``hyphen_breaks``) may join
               its two words where pdftotext's page holds the joined word, as the matcher may
               undo it (``--hyphenation as-printed`` compares every hyphen as printed).

``--missed N`` lists, per PDF, where the words the in-order comparison misses are: per page, how
many of them our page holds elsewhere (reading order) and how many it lacks (split, spelled or
placed differently), the N pages that miss most, and the N words most often lacking. A diagnostic
only: the figures above do not depend on it.

After the main table, a second one (a diagnostic, printed on every run) says where in *our* parse
the missed words are: pdftotext's word boxes (``pdftotext -bbox``, one run per PDF) give every
word of its text a place on the page, and each missed word is counted under the element of ours
whose box holds the word's centre - a table, heading, list item, caption, header or footer, or
running text (or none of ours). It also gives the in-order fidelity outside our tables: our
table elements' words left out of our sequence, and the pdftotext words whose box centre lies in
one of our tables' boxes left out of its. The target stays the first fidelity figure.

Targets (issue #3): ethos pages/s >= 0.5x pypdfium2's; fidelity >= 99 % of pdftotext's words.
"""
from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from pathlib import Path

from ethos_py import _locate, _pdfium

PYPDFIUM_SCRIPT = r"""
import sys, time, pypdfium2 as pdfium
start = time.perf_counter()
pdf = pdfium.PdfDocument(sys.argv[1])
chars = 0
for index in range(len(pdf)):
    page = pdf[index]
    textpage = page.get_textpage()
    chars += len(textpage.get_text_range())
    textpage.close()
    page.close()
print(len(pdf), chars, time.perf_counter() - start)
"""


def run_timed(command: list[str], env: dict[str, str] | None = None) -> tuple[float, int, bytes]:
    """Whole-process wall seconds, peak RSS in KiB and stdout of one run. The peak comes from GNU
    time: a child forked from this (large) Python process would report the parent's RSS instead."""
    start = time.perf_counter()
    completed = subprocess.run(["/usr/bin/time", "-f", "%M", *command], capture_output=True, env=env)
    elapsed = time.perf_counter() - start
    if completed.returncode != 0:
        raise RuntimeError(f"{command[0]} failed ({completed.returncode}): {completed.stderr.decode(errors='replace')[:400]}")
    peak_kib = int(completed.stderr.decode().strip().splitlines()[-1])
    return elapsed, peak_kib, completed.stdout


# Characters of scripts written without spaces between words: CJK punctuation, kana, Bopomofo,
# Han (unified, extension A, compatibility, supplementary planes). Hangul is not here: Korean
# separates words with spaces.
CJK_CHARACTER = re.compile(
    "([\u3000-\u303f\u3040-\u309f\u30a0-\u30ff\u3100-\u312f\u31a0-\u31bf\u31f0-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f])"
)
SEGMENTATION = "cjk-characters"


def words(text: str) -> list[str]:
    """The comparison's words: NFKC-folded, split at whitespace, and (by default) every CJK
    character a word of its own - the same rule for pdftotext's text and ours."""
    folded = unicodedata.normalize("NFKC", text)
    if SEGMENTATION == "cjk-characters":
        folded = CJK_CHARACTER.sub(r" \1 ", folded)
    return folded.split()


# "rejoin-recorded" (the default) or "as-printed": see element_words().
HYPHENATION = "rejoin-recorded"


def element_words(element: dict, reference: Counter) -> list[str]:
    """The comparison's words of one of our elements. With HYPHENATION "rejoin-recorded", a
    line-end hyphen the parser recorded as an artifact (the element's ``hyphen_breaks``) is undone
    the way the matcher may undo it: the word before it and the word after it count as one word,
    without the hyphen (``jour- nals`` -> ``journals``) or with it (``well- known`` ->
    ``well-known``), whichever of the two pdftotext's words of the page hold (pdftotext rejoins
    line-end hyphens itself, so its side has none left to undo). A hyphen the parser did not
    record, or a join pdftotext's page does not hold, stays as printed - as every hyphen does
    with "as-printed"."""
    text = element["text"]
    breaks = sorted(element.get("hyphen_breaks", [])) if HYPHENATION == "rejoin-recorded" else []
    pieces, start = [], 0
    for offset in breaks:  # scalar offsets of the recorded hyphens: cut right after each
        pieces.append(text[start : offset + 1])
        start = offset + 1
    pieces.append(text[start:])
    out = words(pieces[0])
    for piece in pieces[1:]:
        following = words(piece)
        if out and following:
            joined_kept = out[-1] + following[0]
            joined_plain = out[-1][:-1] + following[0]
            for joined in (joined_plain, joined_kept):
                if reference[joined]:
                    out[-1] = joined
                    following = following[1:]
                    break
        out += following
    return out


def ethos_page_elements(document: dict) -> dict[int, list[dict]]:
    """Our elements with text, by page index, in reading order (array order)."""
    index_of = {page["id"]: page["index"] for page in document["payload"]["pages"]}
    elements: dict[int, list[dict]] = {}
    for element in document["payload"]["elements"]:
        if "text" in element:
            elements.setdefault(index_of[element["page"]], []).append(element)
    return elements


def ethos_page_words(elements: list[dict], reference_words: list[str]) -> list[str]:
    """Our words of one page, compared with pdftotext's ``reference_words`` of that page."""
    reference = Counter(reference_words)
    return [word for element in elements for word in element_words(element, reference)]


def pdftotext_pages(pdf: Path) -> list[str]:
    out = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], check=True, capture_output=True).stdout
    return out.decode("utf-8", errors="replace").split("\f")


def missed_words(reference_words: list[str], our_words: list[str]) -> tuple[list[str], list[str]]:
    """The reference words the in-order comparison misses on a page, split into (found elsewhere
    on our page, absent from it): a missed word counts as elsewhere as long as our page holds more
    copies of it than the in-order alignment used."""
    from rapidfuzz.distance import LCSseq

    missed = [op.src_pos for op in LCSseq.editops(reference_words, our_words) if op.tag in ("delete", "replace")]
    aligned = Counter(reference_words) - Counter(reference_words[i] for i in missed)
    spare = Counter(our_words) - aligned
    elsewhere, absent = [], []
    for i in missed:
        word = reference_words[i]
        if spare[word] > 0:
            spare[word] -= 1
            elsewhere.append(word)
        else:
            absent.append(word)
    return elsewhere, absent


def report_missed(pdf: Path, document: dict, limit: int) -> None:
    """Prints where the in-order comparison's missed words of one PDF are (see --missed)."""
    ours = ethos_page_elements(document)
    pages, lacking = [], Counter()
    for number, reference in enumerate(pdftotext_pages(pdf), start=1):
        reference_words = words(reference)
        if not reference_words:
            continue
        elsewhere, absent = missed_words(reference_words, ethos_page_words(ours.get(number, []), reference_words))
        pages.append((len(elsewhere) + len(absent), number, len(elsewhere), len(absent), len(reference_words)))
        lacking.update(absent)
    order = sum(page[2] for page in pages)
    absent_total = sum(page[3] for page in pages)
    print(f"  {pdf.name}: missed {order + absent_total} (on our page in another order {order}, absent {absent_total})")
    worst = sorted(pages, key=lambda page: (-page[0], page[1]))[:limit]
    print("    pages (page: missed = elsewhere + absent / words): "
          + ", ".join(f"{n}: {m} = {e} + {a} / {w}" for m, n, e, a, w in worst if m))
    print("    most often absent: " + ", ".join(f"{word!r} x{count}" for word, count in lacking.most_common(limit)))


def fidelity(pdf: Path, document: dict) -> tuple[int, int, int, list[tuple[int, float]]]:
    """(words found in order, words found in any order, pdftotext words, worst pages) over the
    whole PDF. "Any order" counts a word as often as both texts of the page hold it: the gap
    between the two figures is reading order, the rest is text one side splits or spells
    differently (or lacks)."""
    # The bench extra's aligner, imported here so that words() is usable (and tested) without it.
    from rapidfuzz.distance import LCSseq

    ours = ethos_page_elements(document)
    found = present = total = 0
    per_page = []
    for number, reference in enumerate(pdftotext_pages(pdf), start=1):
        reference_words = words(reference)
        if not reference_words:
            continue
        our_words = ethos_page_words(ours.get(number, []), reference_words)
        common = LCSseq.similarity(reference_words, our_words)
        found += common
        present += sum((Counter(reference_words) & Counter(our_words)).values())
        total += len(reference_words)
        per_page.append((number, common / len(reference_words)))
    per_page.sort(key=lambda item: item[1])
    return found, present, total, per_page[:3]


# --- Where the missed words are in our parse (the second table) --------------------------------

# Our element types, in the order a word inside several boxes is counted under (a table cell's
# text inside a text block's box counts as table), and the diagnostic's column for each.
REGION_OF_TYPE = {"table": "table", "heading": "heading", "caption": "caption", "list_item": "list",
                  "list": "list", "header": "header/footer", "footer": "header/footer", "text_block": "text"}
REGION_PRIORITY = ["table", "heading", "caption", "list_item", "list", "header", "footer", "text_block"]
REGIONS = ["table", "heading", "list", "caption", "header/footer", "text", "none"]
BBOX_WORD = re.compile(r'<word xMin="([-0-9.]+)" yMin="([-0-9.]+)" xMax="([-0-9.]+)" yMax="([-0-9.]+)">(.*?)</word>')


def pdftotext_word_boxes(pdf: Path) -> list[list[tuple[str, tuple[float, float]]]]:
    """pdftotext's words per page with the centres of their boxes (points, top-left origin, as
    our quanta / 100): one ``pdftotext -bbox`` run for the whole PDF. A box word is split into
    the comparison's words (words()), each piece with the box's centre."""
    out = subprocess.run(["pdftotext", "-bbox", "-enc", "UTF-8", str(pdf), "-"], check=True, capture_output=True).stdout
    pages = []
    for page in out.decode("utf-8", errors="replace").split("<page ")[1:]:
        boxed = []
        for x0, y0, x1, y1, text in BBOX_WORD.findall(page):
            centre = ((float(x0) + float(x1)) / 2, (float(y0) + float(y1)) / 2)
            boxed += [(word, centre) for word in words(html.unescape(text))]
        pages.append(boxed)
    return pages


def reference_centres(reference_words: list[str], boxed: list[tuple[str, tuple[float, float]]]) -> list[tuple[float, float] | None]:
    """A box centre for each word of pdftotext's text of a page: its box words aligned with the
    text's words (longest common subsequence; both come from one layout pass, so they differ only
    where the text output joins a line-end hyphen); a word left unaligned takes the centre of the
    nearest aligned word before it (after it at the page's start)."""
    from rapidfuzz.distance import LCSseq

    centres: list[tuple[float, float] | None] = [None] * len(reference_words)
    for op in LCSseq.opcodes(reference_words, [word for word, _ in boxed]):
        if op.tag == "equal":
            for k in range(op.src_end - op.src_start):
                centres[op.src_start + k] = boxed[op.dest_start + k][1]
    last = next((c for c in centres if c is not None), None)
    for i, centre in enumerate(centres):
        if centre is None:
            centres[i] = last
        else:
            last = centre
    return centres


def region_of(centre: tuple[float, float] | None, boxes: list[tuple[str, list[int]]]) -> str:
    """The diagnostic's region of a point: the first of our element types (REGION_PRIORITY) with a
    box holding it, "none" where no element of ours does."""
    if centre is None:
        return "none"
    x, y = centre[0] * 100, centre[1] * 100
    holding = {kind for kind, (x0, y0, x1, y1) in boxes if x0 <= x <= x1 and y0 <= y <= y1}
    for kind in REGION_PRIORITY:
        if kind in holding:
            return REGION_OF_TYPE[kind]
    return "none"


def where_missed(pdf: Path, document: dict) -> dict:
    """Per PDF: words found in order and in all outside our tables, and the missed words (of the
    target's in-order comparison) by the region of ours that holds them."""
    from rapidfuzz.distance import LCSseq

    ours = ethos_page_elements(document)
    boxes_of = pdftotext_word_boxes(pdf)
    result = {"outside_found": 0, "outside_words": 0, "in_tables": 0, "missed": Counter()}
    for number, reference in enumerate(pdftotext_pages(pdf), start=1):
        reference_words = words(reference)
        if not reference_words:
            continue
        elements = ours.get(number, [])
        boxes = [(element["type"], element["bbox"]) for element in elements if "bbox" in element]
        centres = reference_centres(reference_words, boxes_of[number - 1] if number <= len(boxes_of) else [])
        regions = [region_of(centre, boxes) for centre in centres]
        our_words = ethos_page_words(elements, reference_words)
        for op in LCSseq.editops(reference_words, our_words):
            if op.tag in ("delete", "replace"):
                result["missed"][regions[op.src_pos]] += 1
        outside_reference = [word for word, region in zip(reference_words, regions) if region != "table"]
        outside_ours = ethos_page_words([e for e in elements if e["type"] != "table"], outside_reference)
        result["in_tables"] += len(reference_words) - len(outside_reference)
        result["outside_words"] += len(outside_reference)
        result["outside_found"] += LCSseq.similarity(outside_reference, outside_ours) if outside_reference else 0
    return result


def print_where_missed(rows: list[tuple[str, int, int, dict]]) -> None:
    """The second table: per PDF and overall, the target figure, the in-order figure outside our
    tables, and where the missed words are."""
    header = (f"{'pdf':28} {'fidelity':>9} {'outside tables':>14} {'in tables':>9} {'missed':>7} "
              + " ".join(f"{region:>13}" for region in REGIONS))
    print()
    print("Where the missed words are in our parse (a diagnostic; the target is the first figure, fidelity in order):")
    print(header)
    print("-" * len(header))
    total = {"found": 0, "words": 0, "outside_found": 0, "outside_words": 0, "in_tables": 0, "missed": Counter()}
    for name, found, words_n, where in rows + [("all", -1, -1, None)]:
        if where is None:
            name, found, words_n, where = "all", total["found"], total["words"], total
        else:
            total["found"] += found
            total["words"] += words_n
            for key in ("outside_found", "outside_words", "in_tables"):
                total[key] += where[key]
            total["missed"].update(where["missed"])
        if name == "all":
            print("-" * len(header))
        outside = where["outside_found"] / where["outside_words"] if where["outside_words"] else 1.0
        print(f"{name:28} {found / words_n if words_n else 1.0:9.2%} {outside:14.2%} {where['in_tables']:9d} "
              f"{sum(where['missed'].values()):7d} " + " ".join(f"{where['missed'][region]:13d}" for region in REGIONS))
    print("fidelity = the target (in order, all words); outside tables = in order, pdftotext's words whose box centre")
    print("lies in one of our tables and our tables' words left out; missed words counted under our element holding")
    print("the word's box centre (none: no element of ours there)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, default=None, help="ethos parse workers (default: the parser's choice)")
    parser.add_argument("--only", nargs="*", default=None, help="PDF file names to include")
    parser.add_argument("--missed", type=int, default=0, metavar="N",
                        help="after each PDF, where its missed words are: the N worst pages and the N words most often absent")
    parser.add_argument("--segmentation", choices=["cjk-characters", "whitespace"], default="cjk-characters",
                        help="how both texts are split into words: whitespace, with every CJK character a word "
                             "of its own (default), or whitespace only (the figures before 2026-11-30)")
    parser.add_argument("--hyphenation", choices=["rejoin-recorded", "as-printed"], default="rejoin-recorded",
                        help="our line-end hyphens: a hyphen the parser recorded in hyphen_breaks joins its two "
                             "words when pdftotext's page holds the joined word (default), or every hyphen as "
                             "printed (the figures before 2026-11-30, second pass)")
    args = parser.parse_args()
    global SEGMENTATION, HYPHENATION
    SEGMENTATION = args.segmentation
    HYPHENATION = args.hyphenation
    if shutil.which("pdftotext") is None:
        print("pdftotext not found: apt-get install poppler-utils", file=sys.stderr)
        return 2

    # The ethos-core beside ETHOS_LIBRARY for a dev build, else the installed one.
    found = _locate.find_core_binary()
    if found is None:
        print("ethos-core not found: install ethos-verify or set ETHOS_LIBRARY to a dev build", file=sys.stderr)
        return 2
    core = str(found)
    env = _pdfium.parse_environment()  # ETHOS_PDFIUM_LIBRARY_PATH = pypdfium2's libpdfium
    pdfs = sorted(p for p in args.corpus.glob("*.pdf") if args.only is None or p.name in args.only)
    header = f"{'pdf':28} {'pages':>5} {'pypdfium2 p/s':>13} {'(loop)':>8} {'ethos p/s':>10} {'ratio':>6} {'RSS MiB':>8} {'fidelity':>9} {'any order':>9}"
    print(header)
    print("-" * len(header))
    totals = {"pages": 0, "peer": 0.0, "ethos": 0.0, "found": 0, "present": 0, "words": 0}
    where_rows = []
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "document.json"
        for pdf in pdfs:
            peer_runs, loop_runs, ethos_runs, peak = [], [], [], 0
            for _ in range(args.repeat):
                wall, _, stdout = run_timed([sys.executable, "-c", PYPDFIUM_SCRIPT, str(pdf)])
                pages, _, loop = stdout.split()
                peer_runs.append(wall)
                loop_runs.append(float(loop))
                command = [core, "doc", "parse", str(pdf), "--no-cache", "--out", str(out)]
                if args.workers:
                    command += ["--workers", str(args.workers)]
                wall, rss, _ = run_timed(command, env)
                ethos_runs.append(wall)
                peak = max(peak, rss)
            pages_n = int(pages)
            peer, loop_s, ours = statistics.median(peer_runs), statistics.median(loop_runs), statistics.median(ethos_runs)
            found, present, total, worst = fidelity(pdf, json.loads(out.read_bytes()))
            share = found / total if total else 1.0
            print(f"{pdf.name:28} {pages_n:5d} {pages_n / peer:13.1f} {pages_n / loop_s:8.1f} {pages_n / ours:10.1f} "
                  f"{peer / ours:6.2f} {peak / 1024:8.1f} {share:9.2%} {present / total if total else 1.0:9.2%}"
                  + ("" if share >= 0.99 else "  worst pages: " + ", ".join(f"{n}:{s:.0%}" for n, s in worst)))
            if args.missed:
                report_missed(pdf, json.loads(out.read_bytes()), args.missed)
            where_rows.append((pdf.stem, found, total, where_missed(pdf, json.loads(out.read_bytes()))))
            totals["pages"] += pages_n
            totals["peer"] += peer
            totals["ethos"] += ours
            totals["found"] += found
            totals["present"] += present
            totals["words"] += total
    print("-" * len(header))
    share = totals["found"] / totals["words"] if totals["words"] else 1.0
    present = totals["present"] / totals["words"] if totals["words"] else 1.0
    print(f"{'all':28} {totals['pages']:5d} {totals['pages'] / totals['peer']:13.1f} {'':>8} "
          f"{totals['pages'] / totals['ethos']:10.1f} {totals['peer'] / totals['ethos']:6.2f} {'':>8} {share:9.2%} {present:9.2%}")
    print("ratio = ethos pages/s / pypdfium2 pages/s (whole processes; target >= 0.5); fidelity (in order) target >= 99 %;")
    print("any order = pdftotext's words found on the page at all (a diagnostic, not the target)")
    print_where_missed(where_rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
