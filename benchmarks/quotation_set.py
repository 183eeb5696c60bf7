#!/usr/bin/env python3
"""quotation_set.py - builds the labelled quotation set from real PDFs, using pdftotext (not our parser) as the extractor.

    python benchmarks/quotation_set.py CORPUS_DIR OUT.jsonl [--per-variant 40] [--seed 7]

Every record is {"pdf", "page", "page_end"?, "variant", "label", "quote", "source"} where label is
faithful (presentation-only change: must be grounded), altered (content change: must not be
grounded) or stitched (ellipsis-joined fragments: must be reported as stitched). Quotes come from
poppler's pdftotext, an extractor independent of ours, so a faithful quote that fails measures
the whole pipeline (parse + match), not only the matcher. The set is deterministic for a seed.
"""
from __future__ import annotations

import argparse
import html
import json
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

# Bumped whenever a change to this file draws different records (accuracy.py caches the set under it).
# 2: a record stays inside one of pdftotext's text blocks.
GENERATOR_VERSION = 2

SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"“(])")
NUMBER = re.compile(r"(?<![\w.])(\d+(?:[.,]\d+)?)(?![\w])")
NEGATIONS = re.compile(r"\b(not|never|no|cannot|n't)\b", re.IGNORECASE)
AUXILIARIES = re.compile(r"\b(is|are|was|were|can|will|should|must|does|do|has|have|may|could|would)\b")
WORD = re.compile(r"[A-Za-z]{5,}")


def pdftotext_pages(pdf: Path, *mode: str) -> list[str]:
    """Page texts; the default mode joins line-end hyphenation, ``-raw`` keeps it (and content order)."""
    out = subprocess.run(["pdftotext", *mode, "-enc", "UTF-8", str(pdf), "-"], check=True, capture_output=True).stdout
    return out.decode("utf-8", errors="replace").split("\f")


def body_lines(page: str) -> list[str]:
    """Page lines without the short lines at the top and bottom (running headers, footers, numbers)."""
    lines = [line for line in page.split("\n")]
    while lines and len(lines[0].split()) < 6:
        lines.pop(0)
    while lines and len(lines[-1].split()) < 6:
        lines.pop()
    return lines


def _furniture_key(line: str) -> str:
    return re.sub(r"\d+", "#", " ".join(line.split()))


def running_text_lines(pages: list[str], number: int) -> list[str]:
    """Page ``number``'s non-empty lines without its running furniture, as pdftotext gives it:
    lone page numbers ("12", "xii") and lines that (digits aside) open or close another page
    within four of it, at either end. Unlike body_lines, a short last line of real text stays, so
    a page that ends in a display, a code line or a footnote is seen to end there."""
    def ends(index: int) -> set[str]:
        lines = [line for line in pages[index - 1].split("\n") if line.strip()] if 1 <= index <= len(pages) else []
        return {_furniture_key(line) for line in lines[:3] + lines[-3:]}

    nearby = set().union(*(ends(other) for other in range(number - 4, number + 5) if other != number))
    lines = [line for line in pages[number - 1].split("\n") if line.strip()]

    def furniture(line: str) -> bool:
        bare = line.strip().lower()
        return bool(re.fullmatch(r"\d+|[ivxlc]+", bare)) or _furniture_key(line) in nearby

    for _ in range(3):
        if lines and furniture(lines[0]):
            lines.pop(0)
        if lines and furniture(lines[-1]):
            lines.pop()
    return lines


BBOX_TAG = re.compile(r"<(page|block)\b|<word\b[^>]*>([^<]*)</word>")


def pdftotext_blocks(pdf: Path) -> list[list[tuple[str, int]]]:
    """Per page, pdftotext's words in its reading order, each with the number of its text block."""
    out = subprocess.run(["pdftotext", "-bbox-layout", "-enc", "UTF-8", str(pdf), "-"], check=True, capture_output=True).stdout
    return blocks_of_bbox_layout(out.decode("utf-8", errors="replace"))


def blocks_of_bbox_layout(xhtml: str) -> list[list[tuple[str, int]]]:
    """Parse ``pdftotext -bbox-layout`` output: per <page>, its (word, block number) pairs."""
    pages: list[list[tuple[str, int]]] = []
    block = -1
    for match in BBOX_TAG.finditer(xhtml):
        if match.group(1) == "page":
            pages.append([])
        elif match.group(1) == "block":
            block += 1
        elif pages:
            pages[-1].append((html.unescape(match.group(2)), block))
    return pages


def spans_blocks(text: str, words: list[tuple[str, int]]) -> bool:
    """True when ``text``'s words are found in a page's word sequence and run across two of
    pdftotext's text blocks: a paragraph joined to a footnote, a margin label or a stray figure
    mark - not a passage a reader would quote. Text not found word for word is not judged."""
    tokens = text.split()
    if not tokens:
        return False
    first = tokens[0]
    for start in range(len(words) - len(tokens) + 1):
        if words[start][0] != first:
            continue
        window = words[start:start + len(tokens)]
        if all(word == token for (word, _), token in zip(window, tokens)):
            return len({block for _, block in window}) > 1
    return False


def prose_like(text: str) -> bool:
    tokens = text.split()
    if not 8 <= len(tokens) <= 40:
        return False
    wordy = sum(1 for t in tokens if re.fullmatch(r"[A-Za-z][a-z'’-]*[,.;:]?", t))
    return wordy / len(tokens) >= 0.7 and not re.search(r"[{}<>\\|=_#@]", text)


def sentences(page: str) -> list[str]:
    """Sentences of a page's paragraphs, line breaks kept (they tell where line-end hyphens are)."""
    out = []
    for paragraph in re.split(r"\n\s*\n", "\n".join(body_lines(page))):
        for sentence in SENTENCE_END.split(paragraph.strip()):
            if prose_like(sentence):
                out.append(sentence)
    return out


def flat(text: str) -> str:
    return " ".join(text.split())


# ------------------------------------------------------------------ faithful: presentation-only changes


def joined_hyphens(sentence: str, vocabulary: set[str]) -> str | None:
    """Join "exam-\\nple" when the joined word is a word of the document (else keep the real hyphen)."""
    if not re.search(r"[a-z]-\n[a-z]", sentence):
        return None

    def join(match: re.Match[str]) -> str:
        whole = match.group(1) + match.group(2)
        return whole if whole.lower() in vocabulary else match.group(1) + "-" + match.group(2)

    return flat(re.sub(r"(\w+)-\n(\w+)", join, sentence))


def verbatim(s: str, _: random.Random) -> str | None:
    return None if "-\n" in s else flat(s)


def curly_quotes(s: str, _: random.Random) -> str | None:
    text = flat(s)
    if "'" in text or '"' in text:
        text = re.sub(r'"([^"]*)"', "\u201c\\1\u201d", text).replace("'", "\u2019")
    elif any(c in text for c in "\u2018\u2019\u201c\u201d"):
        text = text.translate(str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'}))
    else:
        return None
    return None if "-\n" in s else text


def dashes(s: str, _: random.Random) -> str | None:
    text = flat(s)
    if "-\n" in s:
        return None
    if re.search(r"\d-\d", text):
        return re.sub(r"(\d)-(\d)", "\\1\u2013\\2", text)
    if " - " in text or " -- " in text:
        return text.replace(" -- ", " \u2014 ").replace(" - ", " \u2013 ")
    if "\u2013" in text or "\u2014" in text:
        return text.replace("\u2013", "-").replace("\u2014", "--")
    return None


def ligatures(s: str, _: random.Random) -> str | None:
    text = flat(s)
    if "-\n" in s or not re.search(r"fi|fl|ff", text):
        return None
    return text.replace("ffi", "\ufb03").replace("ffl", "\ufb04").replace("ff", "\ufb00").replace("fi", "\ufb01").replace("fl", "\ufb02")


def whitespace(s: str, rng: random.Random) -> str | None:
    if "-\n" in s:
        return None
    words = s.split()
    cut = rng.randrange(2, len(words) - 2)
    return " ".join(words[:cut]) + "\n  " + "  ".join(words[cut:])


def soft_hyphen_removed(s: str, _: random.Random) -> str | None:
    return flat(s.replace("\u00ad", "")) if "\u00ad" in s and "-\n" not in s else None


def first_letter_case(s: str, _: random.Random) -> str | None:
    text = flat(s)
    if "-\n" in s or not text[0].isupper() or (len(text) > 1 and text[1].isupper()):
        return None
    return text[0].lower() + text[1:]


def trailing_period_dropped(s: str, _: random.Random) -> str | None:
    text = flat(s)
    return text[:-1] if text.endswith(".") and "-\n" not in s else None


# ------------------------------------------------------------------ altered: content changes


def number_x10(s: str, _: random.Random) -> str | None:
    text = flat(s)
    match = NUMBER.search(text)
    if not match or "-\n" in s:
        return None
    number = match.group(1)
    bigger = number.replace(".", "", 1) if "." in number and not number.endswith(".") else number + "0"
    if "." in number:
        whole, fraction = number.split(".", 1)
        bigger = whole + fraction[:1] + ("." + fraction[1:] if fraction[1:] else "")
    return text[: match.start(1)] + bigger + text[match.end(1):]


def digit_swap(s: str, _: random.Random) -> str | None:
    text = flat(s)
    for match in NUMBER.finditer(text):
        digits = match.group(1)
        for i in range(len(digits) - 1):
            if digits[i].isdigit() and digits[i + 1].isdigit() and digits[i] != digits[i + 1]:
                swapped = digits[:i] + digits[i + 1] + digits[i] + digits[i + 2:]
                return None if "-\n" in s else text[: match.start(1)] + swapped + text[match.end(1):]
    return None


def sign_change(s: str, _: random.Random) -> str | None:
    text = flat(s)
    match = NUMBER.search(text)
    if not match or "-\n" in s:
        return None
    start = match.start(1)
    if start > 0 and text[start - 1] in "-\u2212":
        return text[: start - 1] + text[start:]
    return text[:start] + "-" + text[start:]


def negation_added(s: str, _: random.Random) -> str | None:
    text = flat(s)
    if NEGATIONS.search(text) or "-\n" in s:
        return None
    match = AUXILIARIES.search(text)
    if not match:
        return None
    word = match.group(1)
    replacement = "cannot" if word == "can" else word + " not"
    return text[: match.start(1)] + replacement + text[match.end(1):]


def negation_dropped(s: str, _: random.Random) -> str | None:
    text = flat(s)
    match = NEGATIONS.search(text)
    if not match or "-\n" in s:
        return None
    word = match.group(1).lower()
    if word == "cannot":
        return text[: match.start(1)] + "can" + text[match.end(1):]
    if word == "n't":
        return text[: match.start(1)] + text[match.end(1):]
    return flat(text[: match.start(1)] + text[match.end(1):])


def word_substitution(s: str, rng: random.Random, vocabulary: list[str]) -> str | None:
    text = flat(s)
    candidates = [m for m in WORD.finditer(text) if m.start() > 0]
    if not candidates or "-\n" in s:
        return None
    target = rng.choice(candidates)
    same_length = [w for w in vocabulary if abs(len(w) - len(target.group())) <= 1 and w.lower() != target.group().lower()]
    if not same_length:
        return None
    return text[: target.start()] + rng.choice(same_length) + text[target.end():]


def clause_swap(s: str, _: random.Random) -> str | None:
    text = flat(s).rstrip(".")
    if "-\n" in s or ", " not in text:
        return None
    first, second = text.split(", ", 1)
    if len(first.split()) < 4 or len(second.split()) < 4:
        return None
    return second[0].upper() + second[1:] + ", " + first[0].lower() + first[1:] + "."


def fabricated(_: str, rng: random.Random, vocabulary: list[str]) -> str:
    words = [rng.choice(vocabulary) for _ in range(rng.randrange(9, 16))]
    return "The " + " ".join(w.lower() for w in words) + "."


# ------------------------------------------------------------------ stitched


def stitched(s: str, rng: random.Random) -> str | None:
    words = flat(s).split()
    if len(words) < 16 or "-\n" in s:
        return None
    marker = rng.choice(["...", "\u2026", "[...]", "(...)"])
    return " ".join(words[:6]) + f" {marker} " + " ".join(words[-6:])


FAITHFUL: dict[str, Callable[..., str | None]] = {
    "verbatim": verbatim, "curly_quotes": curly_quotes, "dashes": dashes, "ligatures": ligatures,
    "whitespace_line_breaks": whitespace, "soft_hyphen_removed": soft_hyphen_removed,
    "first_letter_case": first_letter_case, "trailing_period_dropped": trailing_period_dropped,
}
ALTERED: dict[str, Callable[..., str | None]] = {
    "number_x10": number_x10, "digit_swap": digit_swap, "sign_change": sign_change,
    "negation_added": negation_added, "negation_dropped": negation_dropped, "clause_swap": clause_swap,
}


def build(corpus: Path, per_variant: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    pdfs = sorted(p for p in corpus.glob("*.pdf"))
    pages = {pdf.name: pdftotext_pages(pdf) for pdf in pdfs}
    pool = []  # (pdf, page number, sentence)
    hyphenated_pool = []  # sentences of -raw text with a line-end hyphen
    vocabulary: dict[str, set[str]] = {}
    for name, texts in pages.items():
        vocabulary[name] = {w.lower() for t in texts for w in re.findall(r"[A-Za-z]+", t)}
        for number, text in enumerate(texts, start=1):
            pool.extend((name, number, s) for s in sentences(text))
        for number, text in enumerate(pdftotext_pages(corpus / name, "-raw"), start=1):
            hyphenated_pool.extend((name, number, s) for s in sentences(text) if re.search(r"[a-z]-\n[a-z]", s))
    rng.shuffle(pool)
    rng.shuffle(hyphenated_pool)
    # A record is one passage of the page as pdftotext lays it out: a sentence its plain text runs
    # on from one text block into another (a paragraph into the footnote below it, a line into a
    # stray mark from elsewhere) is dropped. Filtered after the shuffle, so every other record is
    # drawn as before.
    blocks = {pdf.name: pdftotext_blocks(pdf) for pdf in pdfs}

    def one_block(name: str, number: int, text: str) -> bool:
        page_words = blocks[name][number - 1] if number <= len(blocks[name]) else []
        return not spans_blocks(text, page_words)

    pool = [(n, number, s) for n, number, s in pool if one_block(n, number, flat(s))]
    hyphenated_pool = [(n, number, s) for n, number, s in hyphenated_pool if one_block(n, number, flat(s))]
    word_lists = {name: sorted(w for w in words if len(w) >= 5) for name, words in vocabulary.items()}
    records: list[dict] = []

    def take(variant: str, label: str, make: Callable[[str, str], str | None], sentences_of: list | None = None) -> None:
        count = 0
        for name, number, sentence in pool if sentences_of is None else sentences_of:
            if count >= per_variant:
                break
            quote = make(name, sentence)
            if quote is None or len(quote.split()) < 4:
                continue
            records.append({"pdf": name, "page": number, "variant": variant, "label": label, "quote": quote,
                            "source": flat(sentence)})
            count += 1

    for variant, function in FAITHFUL.items():
        take(variant, "faithful", lambda _n, s, f=function: f(s, rng))
    take("hyphenated_line_end_joined", "faithful", lambda n, s: joined_hyphens(s, vocabulary[n]), hyphenated_pool)
    for variant, function in ALTERED.items():
        take(variant, "altered", lambda _n, s, f=function: f(s, rng))
    take("word_substitution", "altered", lambda n, s: word_substitution(s, rng, word_lists[n]))
    take("fabricated_sentence", "altered", lambda n, s: fabricated(s, rng, word_lists[n]))
    # A real sentence of one PDF cited against a text-bearing page of another.
    names = sorted(pages)
    count = 0
    for name, number, sentence in pool:
        if count >= per_variant:
            break
        other = names[(names.index(name) + 1 + count % (len(names) - 1)) % len(names)]
        target_pages = [i for i, t in enumerate(pages[other], start=1) if len(t.split()) > 50]
        if other == name or not target_pages or "-\n" in sentence:
            continue
        records.append({"pdf": other, "page": rng.choice(target_pages), "variant": "other_document",
                        "label": "altered", "quote": flat(sentence), "source": flat(sentence)})
        count += 1
    take("stitched_ellipsis", "stitched", lambda _n, s: stitched(s, rng))

    # Quotes that run across a page break: the tail of page N's body and the head of page N+1's.
    count = 0
    for name in names:
        texts = pages[name]
        for number in range(1, len(texts) - 1):
            if count >= per_variant * (names.index(name) + 1) // len(names):
                break
            # The page's own last and the next page's own first line of text, furniture left out;
            # both must be prose lines (a short line is a display, a code line or a heading).
            tail, head = running_text_lines(texts, number), running_text_lines(texts, number + 1)
            if not tail or not head or tail[-1].rstrip().endswith((".", ":", "!", "?")):
                continue
            if len(tail[-1].split()) < 6 or len(head[0].split()) < 6:
                continue
            end, start = " ".join(tail[-2:]).split(), " ".join(head[:2]).split()
            if len(end) < 8 or len(start) < 8 or "-" in end[-1]:
                continue
            # Only a sentence that really continues: the next page's body must open mid-sentence
            # (lowercase), not with a heading, a new paragraph or a figure caption.
            if not start[0][:1].islower():
                continue
            if not one_block(name, number, " ".join(end[-7:])) or not one_block(name, number + 1, " ".join(start[:7])):
                continue
            quote = " ".join(end[-7:] + start[:7])
            if not prose_like(quote):
                continue
            records.append({"pdf": name, "page": number, "page_end": number + 1, "variant": "across_page_break",
                            "label": "faithful", "quote": quote, "source": quote})
            count += 1
    return records


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--per-variant", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    records = build(args.corpus, args.per_variant, args.seed)
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in records), encoding="utf-8")
    counts: dict[str, int] = {}
    for r in records:
        counts[r["variant"]] = counts.get(r["variant"], 0) + 1
    print(json.dumps(counts, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
