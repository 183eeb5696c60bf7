"""answer_coverage.py - check-answer's verbatim coverage against verbatimeter 0.1.3 on the same inputs.

Generates a seeded English-like source of about --source-bytes (default 1 MB, plain text in
paragraphs) and answers of --answer-words words (default 300) that lift runs of the source between
fresh words, then measures in one run:

- Ethos: ``ethos_py.check`` against an open text Document (the first call includes building the
  document's tier reading and gram index; the next ones are what each further answer costs);
- verbatimeter 0.1.3 (``pip install -e '.[bench]'``): ``verbatimeter.check`` does a word-level
  dynamic program over source x answer, so its time grows with their product. On a 1 MB source it
  runs for many minutes: unless ``--full-verbatimeter`` is given it is timed on a prefix of the
  source (--sample-bytes) and its time scaled by the ratio of source words, which the script says.

Both see lowercase words separated by single spaces with no punctuation, so their per-word verbatim
flags must agree (verbatimeter strips punctuation, Ethos keeps it at the policy's tier); the script
compares them on the sample and exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time


def make_source(rng: random.Random, target_bytes: int) -> list[list[str]]:
    """Paragraphs of words: a Zipf-like mix of common and rarer invented words."""
    vocabulary = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9))) for _ in range(6000)]
    common = ["the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "on"]
    paragraphs: list[list[str]] = []
    size = 0
    while size < target_bytes:
        words = [rng.choice(common) if rng.random() < 0.3 else rng.choice(vocabulary) for _ in range(rng.randint(40, 160))]
        paragraphs.append(words)
        size += sum(len(word) + 1 for word in words) + 2
    return paragraphs


def make_answer(rng: random.Random, paragraphs: list[list[str]], words: int) -> str:
    """Runs of 3-15 words lifted from one paragraph, between 1-8 invented or shuffled words."""
    out: list[str] = []
    while len(out) < words:
        paragraph = rng.choice(paragraphs)
        if rng.random() < 0.55 and len(paragraph) > 16:
            start = rng.randrange(len(paragraph) - 15)
            out += paragraph[start : start + rng.randint(3, 15)]
        else:
            out += [rng.choice(paragraph) for _ in range(rng.randint(1, 8))]
    return " ".join(out[:words])


def ethos_flags(answer: str, document: object) -> tuple[list[bool], float]:
    import ethos_py

    start = time.perf_counter()
    result = ethos_py.check(answer, document)
    return [word["verbatim"] for word in result["words"]], time.perf_counter() - start


def verbatimeter_flags(answer: str, source: str) -> tuple[list[bool], float]:
    from verbatimeter.align import clean_text, contiguous_alignment

    start = time.perf_counter()
    # The coverage step alone (no token counting, no ROUGE over the source segment): the part
    # comparable to what Ethos measures, and the cheapest way verbatimeter can do it.
    source_words = clean_text(source)
    answer_words = clean_text(answer)
    _, matched = contiguous_alignment(source_words, answer_words, 3)
    elapsed = time.perf_counter() - start
    chosen = set(matched)
    return [index in chosen for index in range(len(answer_words))], elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source-bytes", type=int, default=1_000_000)
    parser.add_argument("--answer-words", type=int, default=300)
    parser.add_argument("--answers", type=int, default=5, help="answers measured (median reported)")
    parser.add_argument("--sample-bytes", type=int, default=50_000, help="verbatimeter's source prefix")
    parser.add_argument("--full-verbatimeter", action="store_true", help="time verbatimeter on the whole source")
    parser.add_argument("--seed", type=int, default=25)
    options = parser.parse_args(argv)

    import ethos_py

    rng = random.Random(options.seed)
    paragraphs = make_source(rng, options.source_bytes)
    source = "\n\n".join(" ".join(words) for words in paragraphs)
    source_words = sum(len(words) for words in paragraphs)
    print(f"source: {len(source.encode()):,} bytes, {source_words:,} words, {len(paragraphs):,} paragraphs")

    # The sample verbatimeter is timed on (whole paragraphs), and the answers drawn from it, so
    # both tools see answers with runs in the text each is given.
    sample_paragraphs: list[list[str]] = []
    sample_size = 0
    for words in paragraphs:
        if sample_size >= options.sample_bytes and not options.full_verbatimeter:
            break
        sample_paragraphs.append(words)
        sample_size += sum(len(word) + 1 for word in words) + 2
    sample = "\n\n".join(" ".join(words) for words in sample_paragraphs)
    sample_words = sum(len(words) for words in sample_paragraphs)
    answers = [make_answer(rng, sample_paragraphs, options.answer_words) for _ in range(options.answers)]

    start = time.perf_counter()
    document = ethos_py.Document.from_bytes(source.encode(), "text")
    open_seconds = time.perf_counter() - start
    first_flags, first_seconds = ethos_flags(answers[0], document)
    ethos_times = [ethos_flags(answer, document)[1] for answer in answers]

    sample_document = ethos_py.Document.from_bytes(sample.encode(), "text")
    differences = 0
    verbatimeter_times = []
    for answer in answers:
        ours, _ = ethos_flags(answer, sample_document)
        theirs, seconds = verbatimeter_flags(answer, sample)
        verbatimeter_times.append(seconds)
        differences += sum(1 for a, b in zip(ours, theirs) if a != b) + abs(len(ours) - len(theirs))
        # Against the whole source too: ethos finds at least what it found in the prefix.
        whole, _ = ethos_flags(answer, document)
        assert all(w or not o for w, o in zip(whole, ours))
    # verbatimeter's public call also counts tokens and computes ROUGE-L over the source segment
    # the matches span (another source x answer table): timed once on the same sample.
    import verbatimeter

    start = time.perf_counter()
    verbatimeter.check(answers[0], sample)
    full_check_seconds = time.perf_counter() - start
    scale = source_words / sample_words
    verbatimeter_seconds = statistics.median(verbatimeter_times) * scale
    ethos_seconds = statistics.median(ethos_times)
    print(f"ethos: open {open_seconds * 1000:.1f} ms, first check {first_seconds * 1000:.1f} ms "
          f"(builds the index), then median {ethos_seconds * 1000:.2f} ms per {options.answer_words}-word answer")
    how = "measured" if options.full_verbatimeter else (
        f"measured on a {len(sample.encode()):,}-byte prefix ({sample_words:,} words) and scaled x{scale:.1f}"
    )
    print(f"verbatimeter 0.1.3 contiguous_alignment: {verbatimeter_seconds:.2f} s per answer ({how})")
    print(f"verbatimeter 0.1.3 check() (coverage, ROUGE-L, token counts): {full_check_seconds * scale:.2f} s per answer "
          f"(one answer, {how})")
    print(f"speed-up: {verbatimeter_seconds / ethos_seconds:,.0f}x warm, "
          f"{verbatimeter_seconds / (first_seconds + open_seconds):,.0f}x counting open and index build")
    print(f"speed-up against check(): {full_check_seconds * scale / ethos_seconds:,.0f}x warm")
    print(f"per-word flags on the sample: {differences} differences over {len(answers)} answers")
    return 0 if differences == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
