"""stream_latency.py - how soon a streamed word's verdict is printed, Ethos's verify_answer against verbatimeter's verify.

Generates answer_coverage.py's seeded source of about --source-bytes (default 1 MB) and an answer
of --answer-words words (default 300) lifting runs of it, then streams the answer in chunks of
--chunk-chars characters (default 12, about three tokens) through each decorator:

- Ethos: ``@ethos_py.verify_answer(source=document)`` on an open text Document whose index is
  built before the stream starts (the first check of a document builds it once; that time is
  printed on its own), once on the answer as it is and once with a quotation at its start (the
  printer then checks the whole answer after each chunk, quotations and all);
- verbatimeter 0.1.3 (``pip install -e '.[bench]'``): ``@verbatimeter.verify(source=text)``, with a
  whitespace token counter so that only its coverage is timed. Each of its checks is a dynamic
  program over source x answer: unless --full-verbatimeter is given, it streams against a prefix
  of the source (--sample-bytes) and its delays are scaled by the ratio of source words, which the
  script says.

The delay of a word is the time from the arrival of the chunk after which its verdict is printed
(the model's generator yields it) to the write of the verdict to the decorator's output. The
caller takes each chunk and asks for the next one at once, as a chat UI relaying tokens does, so
the delay is the decorator's own work. Target: at most 5 ms for a 1 MB source.
"""

from __future__ import annotations

import argparse
import io
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from answer_coverage import make_answer, make_source  # noqa: E402  (the same generated inputs)

import random  # noqa: E402

WORD = re.compile(r"\w+")


class TimedOutput(io.TextIOBase):
    """A decorator's output file that notes when each piece of text is written."""

    def __init__(self) -> None:
        self.writes: list[tuple[float, str]] = []

    def write(self, text: str) -> int:
        self.writes.append((time.perf_counter(), text))
        return len(text)

    def isatty(self) -> bool:
        return False


def stream(answer: str, size: int, arrivals: list[float]) -> Iterator[str]:
    """The answer in chunks of `size` characters, each arrival time noted as it is yielded; the
    time the model is done is noted last."""
    for start in range(0, len(answer), size):
        arrivals.append(time.perf_counter())
        yield answer[start : start + size]
    arrivals.append(time.perf_counter())


def delays(arrivals: list[float], writes: list[tuple[float, str]]) -> list[float]:
    """Per printed word, seconds from the latest chunk arrival before its write to the write.
    Writes after the model is done (the last words and the summary) are left out: no chunk
    decides them, the end of the answer does."""
    out: list[float] = []
    chunk = 0
    end = arrivals.pop()
    for when, text in writes:
        if when >= end:
            break
        while chunk + 1 < len(arrivals) and arrivals[chunk + 1] <= when:
            chunk += 1
        out += [when - arrivals[chunk]] * len(WORD.findall(text))
    return out


def run(decorate: Callable[[Callable[[], Iterator[str]]], Callable[[], Any]], answer: str, size: int,
        output: TimedOutput) -> list[float]:
    arrivals: list[float] = []

    @decorate
    def model() -> Iterator[str]:
        return stream(answer, size, arrivals)

    # The caller comes back at once for the next chunk.
    received = list(model())
    assert "".join(received) == answer  # chunks pass through unchanged
    return delays(arrivals, output.writes)


def figures(values: list[float], scale: float = 1.0) -> str:
    ordered = sorted(value * scale * 1000 for value in values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(ordered):.2f} ms, 95th percentile {p95:.2f} ms, max {ordered[-1]:.2f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source-bytes", type=int, default=1_000_000)
    parser.add_argument("--answer-words", type=int, default=300)
    parser.add_argument("--chunk-chars", type=int, default=12)
    parser.add_argument("--sample-bytes", type=int, default=20_000, help="verbatimeter's source prefix")
    parser.add_argument("--full-verbatimeter", action="store_true", help="stream verbatimeter on the whole source")
    parser.add_argument("--no-verbatimeter", action="store_true", help="measure Ethos alone")
    parser.add_argument("--seed", type=int, default=25)
    options = parser.parse_args(argv)

    import ethos_py

    rng = random.Random(options.seed)
    paragraphs = make_source(rng, options.source_bytes)
    source = "\n\n".join(" ".join(words) for words in paragraphs)
    source_words = sum(len(words) for words in paragraphs)
    sample_paragraphs: list[list[str]] = []
    sample_size = 0
    for words in paragraphs:
        if sample_size >= options.sample_bytes and not options.full_verbatimeter:
            break
        sample_paragraphs.append(words)
        sample_size += sum(len(word) + 1 for word in words) + 2
    sample = "\n\n".join(" ".join(words) for words in sample_paragraphs)
    sample_words = sum(len(words) for words in sample_paragraphs)
    # Drawn from the sample, so the answer has runs in the text each tool is given.
    answer = make_answer(rng, sample_paragraphs, options.answer_words)
    chunks = -(-len(answer) // options.chunk_chars)
    print(f"source: {len(source.encode()):,} bytes, {source_words:,} words; answer: {options.answer_words} words "
          f"in {chunks} chunks of {options.chunk_chars} characters")

    document = ethos_py.Document.from_bytes(source.encode(), "text")
    start = time.perf_counter()
    ethos_py.check_answer("index warm up", document)
    build_seconds = time.perf_counter() - start
    ours = TimedOutput()
    ethos_delays = run(ethos_py.verify_answer(source=document, print_stats=False, color=False, file=ours),
                       answer, options.chunk_chars, ours)
    print(f"ethos verify_answer: {figures(ethos_delays)} over {len(ethos_delays)} words "
          f"(the document's index built once before: {build_seconds * 1000:.0f} ms)")
    # The same answer with its first lifted words quoted: from the opening mark on, each chunk
    # checks the whole answer again (quotations included), the slower path.
    first_words = answer.split()
    quoted = '"' + " ".join(first_words[:6]) + '" ' + " ".join(first_words[6:])
    ours_quoted = TimedOutput()
    quoted_delays = run(ethos_py.verify_answer(source=document, print_stats=False, color=False, file=ours_quoted),
                        quoted, options.chunk_chars, ours_quoted)
    print(f"ethos verify_answer, a quotation in the answer: {figures(quoted_delays)} over {len(quoted_delays)} words")
    met = max(ethos_delays) <= 0.005 and max(quoted_delays) <= 0.005
    print(f"target: every word's verdict within 5 ms of its chunk: {'met' if met else 'NOT met'}")
    if options.no_verbatimeter:
        return 0 if met else 1

    import verbatimeter

    theirs = TimedOutput()
    theirs_delays = run(
        verbatimeter.verify(source=sample if not options.full_verbatimeter else source, print_stats=True,
                            use_color=False, file=theirs, count_tokens=lambda text: len(text.split())),
        answer, options.chunk_chars, theirs)
    scale = 1.0 if options.full_verbatimeter else source_words / sample_words
    how = "measured" if options.full_verbatimeter else (
        f"streamed against a {len(sample.encode()):,}-byte prefix ({sample_words:,} words), delays scaled x{scale:.1f}"
    )
    print(f"verbatimeter 0.1.3 verify: {figures(theirs_delays, scale)} over {len(theirs_delays)} words ({how})")
    print(f"ratio of medians: {statistics.median(theirs_delays) * scale / statistics.median(ethos_delays):,.0f}x")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
