"""test_complexity - every kind of untrusted input costs about linear work in its size: each input is
run at sizes n, 2n and 4n through `ethos-core` under valgrind's callgrind, which counts the
instructions executed (a count, not a time: the same on a loaded machine), and the growth from 2n to
4n must stay near the growth from n to 2n (a linear path doubles, a quadratic one quadruples; the
fixed start-up cost cancels out of both differences). docs/reliability.md "Complexity"."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import TOOLS_DIR

sys.path.insert(0, str(TOOLS_DIR))
import make_native_document as tool  # noqa: E402

import ethos_py

#: The largest ratio (4n - 2n) / (2n - n) of instruction counts accepted: linear work gives 2.0,
#: n log n a little more, a quadratic path 4.0.
MAX_GROWTH = 2.8

PAGE = {"height": 79200, "id": "p0001", "index": 1, "rotation": 0, "width": 61200}


def _core() -> str:
    import harness

    return str(harness.ethos_core_binary())


def _instructions(argv: list[str], cwd: Path) -> int:
    """Instructions executed by one run of `argv` (callgrind's total), which must succeed."""
    valgrind = shutil.which("valgrind")
    assert valgrind is not None, "valgrind is a test tool: sh tools/install-build-deps.sh --with-test-tools"
    from ethos_py._pdfium import parse_environment

    done = subprocess.run([valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv], cwd=cwd,
                          capture_output=True, text=True, env=parse_environment(), timeout=600, check=False)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    found = re.search(r"Collected : (\d+)", done.stderr)
    assert found is not None, done.stderr[-2000:]
    return int(found.group(1))


def _document(texts: list[str]) -> bytes:
    elements = [{"bbox": [7200, 6000 + 10 * (n % 6000), 54000, 7000 + 10 * (n % 6000)], "id": f"e{n + 1:06d}",
                 "page": "p0001", "text": text, "type": "text_block"} for n, text in enumerate(texts)]
    rendered: bytes = tool.render(tool.build_document({"pages": [PAGE], "elements": elements}))
    return rendered


def _fingerprint(document: bytes) -> str:
    with ethos_py.Document.from_bytes(document) as opened:
        return str(opened.fingerprint)


def _citations(fingerprint: str, claims: list[dict[str, Any]]) -> str:
    return json.dumps({"document_fingerprint": fingerprint, "claims": claims})


def _sentence(n: int) -> str:
    return f"Paragraph {n} says that the committee reviewed proposal {n * 7 % 1000} in detail."


# Each case: (name, base size, writes the inputs for size n into a directory and returns the argv).
def case_document(directory: Path, n: int) -> list[str]:
    """A native document of n elements: the strict JSON reader (duplicate keys), the integrity
    hash and the index build."""
    (directory / "doc.json").write_bytes(_document([_sentence(k) for k in range(n)]))
    return [_core(), "fingerprint", "doc.json"]


def case_claims(directory: Path, n: int) -> list[str]:
    """A citations request of n quotes, each cited to its element."""
    document = _document([_sentence(k) for k in range(64)])
    (directory / "doc.json").write_bytes(document)
    claims = [{"kind": "quote", "text": f"the committee reviewed proposal {k % 64 * 7 % 1000}",
               "citation": {"element_id": f"e{k % 64 + 1:06d}"}} for k in range(n)]
    (directory / "claims.json").write_text(_citations(_fingerprint(document), claims))
    return [_core(), "verify", "doc.json", "--citations", "claims.json"]


def case_batch_lines(directory: Path, n: int) -> list[str]:
    """n lines of verify-batch, each a request of two claims (one a near miss)."""
    document = _document([_sentence(k) for k in range(64)])
    (directory / "doc.json").write_bytes(document)
    fingerprint = _fingerprint(document)
    lines = []
    for k in range(n):
        claims = [{"kind": "quote", "text": _sentence(k % 64), "citation": {"page": "p0001"}},
                  {"kind": "quote", "text": _sentence(k % 64).replace("reviewed", "rejected"), "citation": {"page": "p0001"}}]
        lines.append(_citations(fingerprint, claims))
    (directory / "lines.ndjson").write_text("\n".join(lines) + "\n")
    return [_core(), "verify-batch", "doc.json", "--citations-ndjson", "lines.ndjson"]


def case_repetition(directory: Path, n: int) -> list[str]:
    """The adversarial repetition of issue 24: an element of n repeated tokens, a quote of n/8 of
    them ending in a token the element lacks, cited to the page (every search and the near miss)."""
    document = _document([" ".join(["a"] * n)])
    (directory / "doc.json").write_bytes(document)
    quote = " ".join(["a"] * (n // 8) + ["b"])
    (directory / "claims.json").write_text(_citations(_fingerprint(document), [
        {"kind": "quote", "text": quote, "citation": {"page": "p0001"}},
        {"kind": "quote", "text": quote, "citation": {"scope": "document"}}]))
    return [_core(), "verify", "doc.json", "--citations", "claims.json"]


def case_document_scope(directory: Path, n: int) -> list[str]:
    """Document-scope quotes (running text, gram index, near miss) over a document of n elements."""
    document = _document([_sentence(k) for k in range(n)])
    (directory / "doc.json").write_bytes(document)
    claims = [{"kind": "quote", "text": "the committee reviewed proposal 999 in great detail", "citation": {"scope": "document"}},
              {"kind": "quote", "text": _sentence(n // 2), "citation": {"scope": "document"}}]
    (directory / "claims.json").write_text(_citations(_fingerprint(document), claims))
    return [_core(), "verify", "doc.json", "--citations", "claims.json"]


def case_answer(directory: Path, n: int) -> list[str]:
    """check-answer: an answer of n words against a fixed source."""
    document = _document([_sentence(k) for k in range(256)])
    (directory / "doc.json").write_bytes(document)
    words = " ".join(_sentence(k * 13 % 256) if k % 3 else "an unrelated remark follows here." for k in range(n // 12 + 1))
    (directory / "answer.txt").write_text(words)
    return [_core(), "check-answer", "doc.json", "--answer-file", "answer.txt"]


def case_markdown_source(directory: Path, n: int) -> list[str]:
    """A Markdown source of n paragraphs (the text loader, its line-end hyphens), a document-scope quote."""
    (directory / "source.md").write_text("\n\n".join(f"## Part {k}\n\n{_sentence(k)} It was re-\nviewed." for k in range(n)))
    claims = [{"kind": "quote", "text": "It was reviewed.", "citation": {"scope": "document"}}]
    (directory / "claims.json").write_text(json.dumps({"claims": claims}))
    return [_core(), "verify", "source.md", "--grounding", "markdown", "--citations", "claims.json"]


CASES: list[tuple[str, int, Callable[[Path, int], list[str]]]] = [
    ("markdown-source", 400, case_markdown_source),
    ("document", 400, case_document),
    ("claims", 60, case_claims),  # (at most 256 claims a request)
    ("batch-lines", 100, case_batch_lines),
    ("repetition", 4000, case_repetition),
    ("document-scope", 400, case_document_scope),
    ("answer", 1200, case_answer),
]


@pytest.mark.parametrize(("name", "base", "write"), CASES, ids=[name for name, _, _ in CASES])
def test_work_grows_about_linearly_with_the_input(name: str, base: int, write: Callable[[Path, int], list[str]],
                                                   tmp_path: Path) -> None:
    counts = []
    for factor in (1, 2, 4):
        directory = tmp_path / f"{name}-{factor}"
        directory.mkdir()
        counts.append(_instructions(write(directory, base * factor), directory))
    first, second = counts[1] - counts[0], counts[2] - counts[1]
    assert first > 0, counts
    growth = second / first
    print(f"{name}: instructions {counts}, growth {growth:.2f}")
    assert growth <= MAX_GROWTH, f"{name}: instructions {counts}, growth {growth:.2f} (linear 2.0, quadratic 4.0)"
