"""test_check_answer - check-answer: verbatim coverage, run locations, quotations, the gate, three surfaces."""

from __future__ import annotations

import json
import re
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import harness  # tests/golden, put on sys.path by conftest
import pytest
from conftest import REPO_DIR, schema_errors

import ethos_py
from ethos_py.errors import EthosError

QUICKSTART = REPO_DIR / "examples" / "quickstart" / "document.json"


def _words(result: dict[str, Any]) -> list[tuple[str, bool]]:
    return [(word["text"], word["verbatim"]) for word in result["words"]]


def _flags(result: dict[str, Any]) -> str:
    return "".join("1" if word["verbatim"] else "0" for word in result["words"])


# -- coverage ----------------------------------------------------------------------------------------


def test_runs_flags_share_and_longest() -> None:
    source = "A quick brown fox jumps over the lazy dog near the river."
    result = ethos_py.check("the quick brown fox sleeps near the river today", source_text=source)
    assert _flags(result) == "011101110"
    assert [(run["text"], run["words"]) for run in result["runs"]] == [("quick brown fox", 3), ("near the river", 3)]
    assert _words(result)[0] == ("the", False)  # "the quick" is not in the source: one word short of a run
    summary = result["summary"]
    assert summary["words"] == 9 and summary["verbatim_words"] == 6
    assert summary["verbatim_share_bp"] == 6666  # floor of 6/9 in basis points
    assert summary["runs"] == 2 and summary["longest_run_words"] == 3 and summary["longest_run"] == 0
    assert schema_errors("answer-check", result) == []


def test_two_word_phrases_are_not_runs_and_ngram_raises_the_bar() -> None:
    source = "alpha beta gamma delta epsilon"
    result = ethos_py.check("alpha beta and gamma delta", source_text=source)
    assert result["runs"] == [] and result["summary"]["verbatim_words"] == 0
    five = ethos_py.check("say alpha beta gamma delta epsilon now", source_text=source, ngram=5)
    assert [run["words"] for run in five["runs"]] == [5]
    six = ethos_py.check("say alpha beta gamma delta epsilon now", source_text=source, ngram=6)
    assert six["runs"] == []


def test_overlapping_maximal_runs_are_both_reported_and_flag_every_word() -> None:
    # "a b c d" and "c d e f" are in the source; "a b c d e f" is not: a greedy left-to-right
    # match would take the first run and leave "e f" unflagged.
    source = "one two three four. Elsewhere: three four five six."
    result = ethos_py.check("one two three four five six", source_text=source)
    assert [(run["first_word"], run["words"]) for run in result["runs"]] == [(0, 4), (2, 4)]
    assert _flags(result) == "111111"


def test_contained_phrases_are_not_runs_of_their_own() -> None:
    result = ethos_py.check("one two three four five", source_text="x one two three four five y")
    assert [(run["first_word"], run["words"]) for run in result["runs"]] == [(0, 5)]


def test_case_folding_follows_the_policy() -> None:
    source = "The Quick Brown Fox jumps."
    assert ethos_py.check("the quick brown fox", source_text=source)["summary"]["verbatim_words"] == 4
    strict = ethos_py.check_answer("the quick brown fox", source_text=source, policy="strict")
    assert strict["tier"] != "case" and strict["summary"]["verbatim_words"] == 0
    typography = ethos_py.check("it isn’t the quick brown", source_text="it isn't the quick brown")
    assert typography["summary"]["verbatim_words"] == 5  # a curly apostrophe is typography, folded


def test_runs_match_whole_words_only() -> None:
    result = ethos_py.check("the cat sat down", source_text="bathe cat sat downward")
    assert result["runs"] == []


def test_punctuation_between_words_is_part_of_the_phrase() -> None:
    assert ethos_py.check("red, green, blue", source_text="red, green, blue")["summary"]["runs"] == 1
    assert ethos_py.check("red green blue", source_text="red, green, blue")["summary"]["runs"] == 0


def test_unsegmented_scripts_are_measured_by_characters() -> None:
    chinese = ethos_py.check("他说东京都很大", source_text="我们知道东京都的人口很多。")
    assert [run["text"] for run in chinese["runs"]] == ["东京都"]
    assert len(chinese["words"]) == 7
    thai = ethos_py.check("ภาษาไทย", source_text="เขาพูดภาษาไทยได้")
    assert [run["text"] for run in thai["runs"]] == ["ภาษาไทย"]


def test_runs_are_located_in_the_document_with_boxes() -> None:
    result = ethos_py.check("We saw the pilot cut average response time by 30% overall.", QUICKSTART)
    (run,) = result["runs"]
    assert run["text"] == "the pilot cut average response time by 30%"  # case-folded at the default tier
    (element,) = run["source"]["elements"]
    text = json.loads(QUICKSTART.read_text())["payload"]["elements"][1]["text"]
    assert element["element_id"] == "e000002" and element["page"] == "p0001" and element["start"] == 0
    assert text[element["start"] : element["end"]] == run["source"]["text"] == "The pilot cut average response time by 30%"
    assert element["boxes"] == [{"bbox": [7200, 9600, 38000, 11000], "page": "p0001"}]


def test_a_run_across_two_elements_names_both() -> None:
    result = ethos_py.check("across all regions. Customer satisfaction rose", QUICKSTART)
    (run,) = result["runs"]
    assert [part["element_id"] for part in run["source"]["elements"]] == ["e000002", "e000003"]


def test_several_sources_each_run_names_its_document() -> None:
    result = ethos_py.check(
        "alpha beta gamma and then delta epsilon zeta", source_text=["x alpha beta gamma y", "delta epsilon zeta"]
    )
    assert [(run["text"], run["source"]["document"]) for run in result["runs"]] == [
        ("alpha beta gamma", 0),
        ("delta epsilon zeta", 1),
    ]
    assert len(result["sources"]) == 2


def test_longest_run_takes_the_longer_document() -> None:
    result = ethos_py.check("one two three four", source_text=["one two three", "one two three four"])
    assert [(run["words"], run["source"]["document"]) for run in result["runs"]] == [(4, 1)]


def test_offsets_are_answer_scalars() -> None:
    answer = "Ünïcode → the quick brown fox"
    result = ethos_py.check(answer, source_text="the quick brown fox")
    (run,) = result["runs"]
    assert answer[run["start"] : run["end"]] == "the quick brown fox"
    for word in result["words"]:
        assert answer[word["start"] : word["end"]] == word["text"]


# -- quotations --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        'He said "the quick brown fox" there.',
        "He said “the quick brown fox” there.",
        "Er sagte „the quick brown fox“ dort.",
        "Il a dit « the quick brown fox » ici.",
        "Han sa »the quick brown fox« her.",
        "彼は「the quick brown fox」と言った。",
        "彼は『the quick brown fox』と言った。",
        "Er sagte ‚the quick brown fox‘ dort.",
        "He said 'the quick brown fox' there.",
        "He said ‘the quick brown fox’ there.",
    ],
)
def test_quotation_marks_are_recognized(answer: str) -> None:
    result = ethos_py.check_answer(answer, source_text="the quick brown fox", scope="quotes")
    assert [quote["text"] for quote in result["quotes"]] == ["the quick brown fox"]
    assert result["quotes"][0]["status"] == "grounded" and result["gate"]["passed"]


def test_apostrophes_are_not_quotations() -> None:
    result = ethos_py.check_answer("It's the dogs' bowl, isn't it? Don't.", source_text="x", scope="quotes")
    assert result["quotes"] == []


def test_short_quotations_are_too_short_not_fabricated() -> None:
    result = ethos_py.check_answer('They called it "nonsense" and "utter nonsense".', source_text="x y z")
    assert [(quote["text"], quote["status"], quote["words"]) for quote in result["quotes"]] == [
        ("nonsense", "too_short", 1),
        ("utter nonsense", "too_short", 2),
    ]
    assert "check" not in result["quotes"][0]
    assert result["gate"]["passed"]  # scope all: nothing fabricated


def test_quotation_checks_are_the_verify_checks_at_document_scope() -> None:
    answer = "The pilot “cut average response time by 30%”, and “satisfaction rose to 95% in the final month”."
    result = ethos_py.check_answer(answer, QUICKSTART, scope="quotes")
    texts = [quote["text"] for quote in result["quotes"]]
    with ethos_py.Document.open(QUICKSTART) as document:
        citations = {
            "document_fingerprint": document.fingerprint,
            "claims": [{"kind": "quote", "text": text, "citation": {"scope": "document"}} for text in texts],
        }
        report = document.verify(citations, claim_validation="report")
    assert [quote["check"] for quote in result["quotes"]] == report["checks"]
    assert [quote["status"] for quote in result["quotes"]] == ["grounded", "mismatch"]
    assert result["quotes"][1]["check"]["reason"] == "numeric_guard"
    assert result["gate"] == {"failures": [{"quote": 1, "reason": "quotation_not_grounded", "status": "mismatch"}], "passed": False}
    # scope quotes measures the quotations only: 6 + 8 words
    assert result["summary"]["words"] == 14


def test_quotes_scope_without_quotations_fails_the_gate() -> None:
    result = ethos_py.check_answer("No quotation here at all.", source_text="No quotation here at all.", scope="quotes")
    assert result["gate"] == {"failures": [{"reason": "no_quotation"}], "passed": False}
    short = ethos_py.check_answer('Only "short one" here.', source_text="short one", scope="quotes")
    assert short["gate"] == {"failures": [{"reason": "no_checkable_quotation"}], "passed": False}
    whole = ethos_py.check_answer("No quotation here at all.", source_text="x", scope="all")
    assert whole["gate"]["passed"]


def test_bad_requests_are_errors() -> None:
    with pytest.raises(EthosError) as caught:
        ethos_py.check("a b c", source_text="a b c", ngram=2)
    assert caught.value.code == "invalid_input"
    with pytest.raises(ValueError):
        ethos_py.check_answer("a b c", scope="everything", source_text="x")
    with pytest.raises(ValueError):
        ethos_py.check_answer("a b c")


def test_summary_text_names_runs_quotes_and_the_gate() -> None:
    result = ethos_py.check_answer('He said "the quick brown fox" and "a cat".', source_text="the quick brown fox")
    text = ethos_py.answer_summary_text(result)
    assert "words: 9, verbatim 4 (44.44 %), runs 1, longest 4 words" in text
    assert 'quote 1: grounded "the quick brown fox"' in text
    assert 'quote 2: too_short "a cat" (2 words, fewer than 3: not checked)' in text
    assert text.endswith("gate: passed\n")


# -- three surfaces and exit codes ------------------------------------------------------------------


def _ethos(args: list[str], stdin: bytes | None = None) -> tuple[int, bytes, bytes]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_DIR), env.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "ethos_py.cli", *args], input=stdin, env=env, capture_output=True, timeout=120, check=False
    )
    return done.returncode, done.stdout, done.stderr


def _core(args: list[str], stdin: bytes | None = None) -> tuple[int, bytes, bytes]:
    done = subprocess.run(
        [harness.ethos_core_binary(), *args], input=stdin, capture_output=True, timeout=120, check=False
    )
    return done.returncode, done.stdout, done.stderr


ANSWER = 'The pilot “cut average response time by 30%”; satisfaction rose to 95% in the final month, "said nobody ever".'


@pytest.mark.parametrize(
    "extra",
    [
        [],
        ["--format", "text"],
        ["--scope", "quotes"],
        ["--scope", "quotes", "--fail"],
        ["--ngram", "4", "--policy", "strict"],
        ["--source-text", "said nobody ever, they said"],
    ],
)
def test_the_three_surfaces_print_the_same_bytes(tmp_path: Path, extra: list[str]) -> None:
    answer_file = tmp_path / "answer.txt"
    answer_file.write_text(ANSWER, encoding="utf-8")
    args = ["check-answer", str(QUICKSTART), "--answer-file", str(answer_file), *extra]
    core = _core(args)
    assert _ethos(args) == core
    assert core[0] == (1 if "--fail" in extra else 0) and core[2] == b""
    scope = extra[extra.index("--scope") + 1] if "--scope" in extra else "all"
    ngram = int(extra[extra.index("--ngram") + 1]) if "--ngram" in extra else 3
    policy = extra[extra.index("--policy") + 1] if "--policy" in extra else None
    texts = [extra[extra.index("--source-text") + 1]] if "--source-text" in extra else None
    library = ethos_py.check_answer_json(ANSWER, QUICKSTART, scope=scope, ngram=ngram, policy=policy, source_text=texts)
    if "--format" in extra:
        assert core[1] == ethos_py.answer_summary_text(library).encode("utf-8")
    else:
        assert core[1] == library + b"\n"
        assert schema_errors("answer-check", json.loads(library)) == []


def test_answer_from_stdin_and_literal_text_agree(tmp_path: Path) -> None:
    base = ["check-answer", str(QUICKSTART)]
    from_stdin = _core([*base, "--answer-file", "-"], ANSWER.encode())
    assert _ethos([*base, "--answer-file", "-"], ANSWER.encode()) == from_stdin
    assert _core([*base, "--answer", ANSWER]) == from_stdin
    assert _ethos([*base, "--answer", ANSWER]) == from_stdin


@pytest.mark.parametrize(
    ("answer", "scope", "fail", "code"),
    [
        ('Quoted: "cut average response time by 30%".', "quotes", True, 0),
        ('Quoted: "cut average response time by 50%".', "quotes", True, 1),
        ('Quoted: "cut average response time by 50%".', "quotes", False, 0),
        ("No quotation at all.", "quotes", True, 1),
        ("No quotation at all.", "quotes", False, 0),
        ("No quotation at all.", "all", True, 0),
        ('Quoted: "cut average response time by 50%".', "all", True, 1),
    ],
)
def test_gate_exit_codes(answer: str, scope: str, fail: bool, code: int, tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    args = ["check-answer", str(QUICKSTART), "--answer", answer, "--scope", scope, "--out", str(out)]
    if fail:
        args.append("--fail")
    for run in (_core, _ethos):
        out.unlink(missing_ok=True)
        assert run(args) == (code, b"", b"")
        result = json.loads(out.read_bytes())  # written even when the gate fails
        if fail:
            assert result["gate"]["passed"] == (code == 0)


@pytest.mark.parametrize(
    "args",
    [
        ["--answer", "x", "--answer-file", "y"],
        [],
        ["--answer", "x", "--ngram", "2"],
        ["--answer", "x", "--ngram", "1001"],
        ["--answer", "x", "--ngram", "3.5"],
        ["--answer", "x", "--scope", "some"],
        ["--answer-file", "/nonexistent/answer.txt"],
    ],
)
def test_errors_are_the_same_envelope_on_both_clis(args: list[str]) -> None:
    full = ["check-answer", str(QUICKSTART), *args]
    core = _core(full)
    assert core[0] == 2 and core[1] == b"" and core[2].startswith(b'{"error":')
    assert _ethos(full) == core


def test_an_answer_file_that_is_not_utf8_is_invalid_input(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"caf\xe9 au lait")
    args = ["check-answer", str(QUICKSTART), "--answer-file", str(bad)]
    core = _core(args)
    assert core[0] == 2 and json.loads(core[2])["error"]["code"] == "invalid_input"
    assert _ethos(args) == core


# -- differential: an independent reading of the definition -----------------------------------------


def _reference(answer: list[str], source: list[str], ngram: int) -> tuple[str, list[tuple[int, int]]]:
    """Flags and maximal runs straight from the definition, by brute force: the longest phrase
    from each answer word that occurs in the source's word sequence."""
    padded = " " + " ".join(source) + " "

    def occurs(phrase: list[str]) -> bool:
        return " " + " ".join(phrase) + " " in padded

    longest = []
    for i in range(len(answer)):
        length = 0
        while i + length < len(answer) and occurs(answer[i : i + length + 1]):
            length += 1
        longest.append(length if length >= ngram else 0)
    flags = ["0"] * len(answer)
    runs = []
    for i, length in enumerate(longest):
        for k in range(i, i + length):
            flags[k] = "1"
        if length and (i == 0 or longest[i - 1] <= length):
            runs.append((i, length))
    return "".join(flags), runs


@pytest.mark.parametrize("seed", range(40))
def test_coverage_agrees_with_a_brute_force_reading(seed: int) -> None:
    import random

    rng = random.Random(seed)
    vocabulary = ["a", "b", "c", "d", "e", "ab", "ba", "cd"][: rng.randint(3, 8)]
    source = [rng.choice(vocabulary) for _ in range(rng.randint(20, 200))]
    answer: list[str] = []
    while len(answer) < 40:
        if rng.random() < 0.5:
            start = rng.randrange(len(source))
            answer += source[start : start + rng.randint(1, 10)]
        else:
            answer.append(rng.choice(vocabulary))
    ngram = rng.choice([3, 3, 4, 6])
    result = ethos_py.check(" ".join(answer), source_text=" ".join(source), ngram=ngram)
    flags, runs = _reference(answer, source, ngram)
    assert _flags(result) == flags
    assert [(run["first_word"], run["words"]) for run in result["runs"]] == runs


# -- PDF and several SOURCE files ----------------------------------------------------------------------

PDF_PAGES = [
    ["The committee approved the budget for the coming year.", "Members asked for quarterly reports."],
    ["Water levels in the northern reservoir fell by twelve percent.", "Repairs begin in the spring."],
]
PDF_ANSWER = 'We read that "water levels in the northern reservoir fell by twelve percent" and members asked for quarterly reports.'


def _pdf(tmp_path: Path) -> Path:
    from pdf_fixtures import text_pdf

    path = tmp_path / "minutes.pdf"
    path.write_bytes(text_pdf(PDF_PAGES))
    return path


def test_a_pdf_source_is_parsed_on_the_way_and_runs_name_its_pages(tmp_path: Path) -> None:
    pdf = _pdf(tmp_path)
    cache = ["--cache-dir", str(tmp_path / "cache")]
    args = ["check-answer", str(pdf), "--answer", PDF_ANSWER, *cache]
    core = _core(args)
    assert core[0] == 0 and core[2] == b""
    assert _ethos(args) == core
    result = json.loads(core[1])
    assert schema_errors("answer-check", result) == []
    pages = {run["text"]: run["source"]["elements"][0].get("page") for run in result["runs"]}
    assert pages["water levels in the northern reservoir fell by twelve percent"] == "p0002"
    assert pages["members asked for quarterly reports"] == "p0001"
    assert [quote["status"] for quote in result["quotes"]] == ["grounded"]
    assert all(run["source"]["elements"][0]["boxes"] for run in result["runs"])  # a parsed PDF has geometry
    # The same bytes as the parsed document given as SOURCE: parsing is the only difference.
    document = tmp_path / "minutes.json"
    parsed = _core(["doc", "parse", str(pdf), "--out", str(document), *cache])
    assert parsed[0] == 0
    assert _core(["check-answer", str(document), "--answer", PDF_ANSWER]) == core
    # And the library parses it the same way (the parse cache is shared).
    library = ethos_py.check_answer_json(PDF_ANSWER, pdf, parse_options={"cache_dir": tmp_path / "cache"})
    assert library + b"\n" == core[1]
    assert ethos_py.check_answer_json(PDF_ANSWER, pdf.read_bytes(), parse_options={"use_cache": False}) == library


def test_several_source_files_are_one_context(tmp_path: Path) -> None:
    pdf = _pdf(tmp_path)
    passage = tmp_path / "passage.txt"
    passage.write_text("The pilot was said to cut average response time by a third.", encoding="utf-8")
    answer = "The pilot cut average response time; members asked for quarterly reports."
    # --grounding names the loader of the non-PDF files; a PDF is always its parsed native document.
    native_and_pdf = ["check-answer", str(QUICKSTART), str(pdf), "--answer", answer, "--no-cache"]
    core = _core(native_and_pdf)
    assert core[0] == 0 and _ethos(native_and_pdf) == core
    result = json.loads(core[1])
    assert len(result["sources"]) == 2
    documents = {run["text"]: run["source"]["document"] for run in result["runs"]}
    assert documents == {"The pilot cut average response time": 0, "members asked for quarterly reports": 1}
    text_and_pdf = ["check-answer", str(passage), str(pdf), "--grounding", "text", "--answer", answer, "--no-cache"]
    core = _core(text_and_pdf)
    assert core[0] == 0 and _ethos(text_and_pdf) == core
    assert [source["kind"] for source in json.loads(core[1])["sources"]][1] == result["sources"][1]["kind"]


def test_a_pdf_answer_from_stdin_reaches_ethos_core(tmp_path: Path) -> None:
    pdf = _pdf(tmp_path)
    args = ["check-answer", str(pdf), "--answer-file", "-", "--no-cache", "--format", "text"]
    core = _core(args, PDF_ANSWER.encode())
    assert core[0] == 0 and b"grounded" in core[1]
    assert _ethos(args, PDF_ANSWER.encode()) == core


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (lambda tmp: tmp / "missing.pdf", 2),  # unreadable: host_io
        (lambda tmp: (tmp / "fake.pdf").write_bytes(b"not a pdf at all") and tmp / "fake.pdf", 3),  # invalid_pdf
    ],
)
def test_pdf_failures_are_the_parse_envelopes(tmp_path: Path, make: Any, code: int) -> None:
    path = make(tmp_path)
    args = ["check-answer", str(path), "--answer", "one two three", "--no-cache"]
    core = _core(args)
    assert core[0] == code and core[1] == b"" and core[2].startswith(b'{"error":')
    assert _ethos(args) == core


def test_parse_options_are_checked_before_any_file(tmp_path: Path) -> None:
    args = ["check-answer", str(QUICKSTART), "--answer", "one two three", "--workers", "0"]
    core = _core(args)
    assert core[0] == 2 and json.loads(core[2])["error"]["details"]["argument"] == "--workers"
    assert _ethos(args) == core


# -- highlighting ------------------------------------------------------------------------------------

HIGHLIGHT_ANSWER = 'The pilot "cut average response time by 30%", “satisfaction rose to 95% in the final month”, "ok" and more.'
SGR = re.compile(r"\x1b\[([0-9;]*)m")


def _styles(text: str) -> dict[str, str]:
    """Each highlighted word of the first line and the SGR parameters it is printed with."""
    return {word: sgr for sgr, word in re.findall(r"\x1b\[([0-9;]+)m([^\x1b]*)\x1b\[0m", text.splitlines()[0])}


@pytest.mark.parametrize("palette", ["classic", "colorblind", "neon", "mono"])
def test_each_word_is_styled_by_its_verdict_the_same_on_every_surface(palette: str) -> None:
    args = ["check-answer", str(QUICKSTART), "--answer", HIGHLIGHT_ANSWER, "--format", "text", "--color", "always",
            "--palette", palette]
    core = _core(args)
    assert core[0] == 0 and core[2] == b"" and _ethos(args) == core
    result = ethos_py.check_answer(HIGHLIGHT_ANSWER, QUICKSTART)
    text = core[1].decode("utf-8")
    assert text == ethos_py.render_result(result, HIGHLIGHT_ANSWER, palette=palette)
    styles = _styles(text)
    grounded, failed, short = styles["cut"], styles["satisfaction"], styles["ok"]
    assert styles["30%"] == grounded and styles["month"] == failed
    assert len({grounded, failed, short}) == 3  # three quotation verdicts, three styles
    assert "more" not in styles and "pilot" not in styles  # words in no run keep the terminal's style
    # Every figure is still printed as text after the highlighted answer and its key.
    summary = ethos_py.answer_summary_text(result)
    assert text.endswith("\n\n" + summary) and SGR.search(summary) is None
    assert f"(palette {palette})" in text.splitlines()[1]
    if palette == "mono":
        # No colour at all: bold, underline and inverse video only.
        assert {part for sgr in SGR.findall(text) for part in sgr.split(";")} <= {"0", "1", "4", "7"}
        assert failed == "7"


def test_a_verbatim_word_outside_quotations_is_styled_as_verbatim() -> None:
    answer = "So the quick brown fox ran off."
    result = ethos_py.check(answer, source_text="the quick brown fox")
    styles = _styles(ethos_py.render_result(result, answer, palette="classic"))
    assert styles == {"the": "32", "quick": "32", "brown": "32", "fox": "32"}


@pytest.mark.parametrize(
    "extra",
    [[], ["--no-color"], ["--color", "never"], ["--color", "auto"], ["--color", "always", "--no-color"]],
)
def test_no_escapes_unless_asked_when_stdout_is_not_a_terminal(extra: list[str]) -> None:
    args = ["check-answer", str(QUICKSTART), "--answer", HIGHLIGHT_ANSWER, "--format", "text", *extra]
    core = _core(args)
    assert core[0] == 0 and _ethos(args) == core
    result = ethos_py.check_answer(HIGHLIGHT_ANSWER, QUICKSTART)
    assert core[1].decode("utf-8") == ethos_py.answer_summary_text(result)
    assert ethos_py.render_result(result, HIGHLIGHT_ANSWER, color=False) == ethos_py.answer_summary_text(result)


def _on_terminal(command: list[str], environment: dict[str, str]) -> bytes:
    """stdout of ``command`` run with a pseudo-terminal as its stdout."""
    import pty

    master, slave = pty.openpty()
    try:
        process = subprocess.Popen(command, stdout=slave, stderr=subprocess.PIPE, env=environment)
        os.close(slave)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert process.wait(timeout=120) == 0
    finally:
        os.close(master)
    return b"".join(chunks).replace(b"\r\n", b"\n")  # the terminal's own newline translation


@pytest.mark.parametrize(
    ("no_color", "extra", "highlighted"),
    [(None, [], True), ("1", [], False), ("", [], True), ("1", ["--color", "always"], True), (None, ["--no-color"], False)],
)
def test_a_terminal_gets_highlighting_unless_no_color(no_color: str | None, extra: list[str], highlighted: bool) -> None:
    environment = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "TERM")}
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_DIR), environment.get("PYTHONPATH")]))
    if no_color is not None:
        environment["NO_COLOR"] = no_color
    args = ["check-answer", str(QUICKSTART), "--answer", HIGHLIGHT_ANSWER, "--format", "text", *extra]
    core = _on_terminal([harness.ethos_core_binary(), *args], environment)
    assert _on_terminal([sys.executable, "-m", "ethos_py.cli", *args], environment) == core
    assert (SGR.search(core.decode("utf-8")) is not None) == highlighted


def test_a_pdf_run_highlights_as_ethos_decides(tmp_path: Path) -> None:
    pdf = _pdf(tmp_path)
    for extra in (["--color", "always", "--palette", "neon"], []):
        args = ["check-answer", str(pdf), "--answer", PDF_ANSWER, "--format", "text", "--no-cache", *extra]
        core = _core(args)
        assert core[0] == 0 and _ethos(args) == core
        assert (SGR.search(core[1].decode("utf-8")) is not None) == bool(extra)


def test_control_characters_of_the_answer_never_reach_the_terminal() -> None:
    answer = 'It said "cut average response time by 30%\x1b[2J" \x1b]0;title\x07 and \x9b31m so.'
    result = ethos_py.check_answer(answer, QUICKSTART)
    for text in (ethos_py.render_result(result, answer), ethos_py.render_words(result, answer, color=False),
                 ethos_py.answer_summary_text(result)):
        assert "\x07" not in text and "\x9b" not in text
        assert all(match.group(1) is not None for match in re.finditer(r"\x1b(\[[0-9;]*m)?", text))
    assert "\ufffd[2J" in ethos_py.render_words(result, answer, color=False)


def test_rendering_refuses_a_bad_palette_or_another_answer() -> None:
    result = ethos_py.check("the quick brown fox", source_text="the quick brown fox")
    with pytest.raises(ValueError):
        ethos_py.render_result(result, "the quick brown fox", palette="sepia")
    with pytest.raises(EthosError):
        ethos_py.render_result(result, "the quick", palette="mono")
    args = ["check-answer", str(QUICKSTART), "--answer", "x y z", "--format", "text", "--palette", "sepia"]
    core = _core(args)
    assert core[0] == 2 and json.loads(core[2])["error"]["details"]["argument"] == "--palette"
    assert _ethos(args) == core


# -- the order-only reading and token counts ----------------------------------------------------------


def _lcs(a: list[str], b: list[str]) -> int:
    """The textbook dynamic program (the S x C table the core avoids), as the oracle."""
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b):
            current.append(previous[j] + 1 if x == y else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


@pytest.mark.parametrize("seed", range(25))
def test_subsequence_is_the_longest_common_subsequence_of_words(seed: int) -> None:
    import random

    rng = random.Random(seed)
    vocabulary = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "rho"][: rng.randint(2, 7)]
    source = [rng.choice(vocabulary) for _ in range(rng.randint(0, 60))]
    other = [rng.choice(vocabulary) for _ in range(rng.randint(0, 30))]
    answer = [rng.choice(vocabulary) for _ in range(rng.randint(1, 25))]
    result = ethos_py.check_answer(" ".join(answer), source_text=[" ".join(source) or "x", " ".join(other) or "x"],
                                   subsequence=True)
    best = max(_lcs(answer, source), _lcs(answer, other))
    subsequence = result["summary"]["subsequence"]
    assert subsequence["words"] == best
    assert subsequence["document"] == (0 if _lcs(answer, source) == best else 1)
    assert subsequence["share_bp"] == best * 10000 // len(answer)
    assert schema_errors("answer-check", result) == []


def test_subsequence_reads_a_paraphrase_in_order_and_only_when_asked() -> None:
    source = "The committee approved the budget for the coming year after a long debate."
    answer = "After long debate, the committee approved a budget for next year."
    plain = ethos_py.check_answer(answer, source_text=source)
    assert "subsequence" not in plain["summary"]
    result = ethos_py.check_answer(answer, source_text=source, subsequence=True)
    # the committee approved ... budget for ... year: in order, gaps allowed; "after long debate"
    # comes too late and "a budget" is "the budget" there. No run of 3 words holds "budget".
    assert result["summary"]["subsequence"] == {"document": 0, "share_bp": 5454, "words": 6}
    assert "in order: 6 words (54.54 %) in source 1 as a subsequence" in ethos_py.answer_summary_text(result)
    args = ["check-answer", str(QUICKSTART), "--answer", answer, "--source-text", source, "--subsequence"]
    core = _core(args)
    assert core[0] == 0 and _ethos(args) == core
    assert json.loads(core[1])["summary"]["subsequence"]["document"] == 1


def test_token_counts_split_the_answer_by_verbatim_stretches() -> None:
    answer = "Indeed the quick brown fox, as they say, jumps over the lazy dog today."
    result = ethos_py.check_answer(answer, source_text="the quick brown fox jumps over the lazy dog")
    assert ethos_py.token_counts(result, answer) == {"differing": 5, "total": 14}  # "Indeed", "as they say,", "today."
    seen: list[str] = []

    def characters(text: str) -> int:
        seen.append(text)
        return len(text)

    counted = ethos_py.check_answer(answer, source_text="the quick brown fox jumps over the lazy dog", count_tokens=characters)
    assert counted["tokens"] == {"differing": len("Indeed") + len("as they say") + len("today"), "total": len(answer)}
    assert seen == ["Indeed", "as they say", "today", answer]
    assert schema_errors("answer-check", counted) == []


def test_tiktoken_is_never_imported_unless_asked() -> None:
    code = "import sys, ethos_py; ethos_py.check('a b c', source_text='a b c'); ethos_py.token_counts; print('tiktoken' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "False"


# -- the smallest source window and ROUGE-L -----------------------------------------------------------


def _smallest_window(wanted: set[str], source: list[str]) -> tuple[int, int] | None:
    """Every stretch of source words, shortest first then earliest: the first holding every wanted word."""
    for size in range(1, len(source) + 1):
        for first in range(len(source) - size + 1):
            if wanted <= set(source[first : first + size]):
                return first, first + size - 1
    return None


@pytest.mark.parametrize("seed", range(25))
def test_window_is_the_smallest_source_stretch_holding_every_verbatim_word(seed: int) -> None:
    import random

    rng = random.Random(1000 + seed)
    vocabulary = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "rho", "tau"][: rng.randint(3, 8)]
    source = [rng.choice(vocabulary) for _ in range(rng.randint(5, 80))]
    # Lift two stretches of the source, so the answer has runs, around words of its own.
    answer: list[str] = []
    for _ in range(2):
        start = rng.randrange(len(source))
        answer += [rng.choice(vocabulary) for _ in range(rng.randint(0, 3))] + source[start : start + rng.randint(3, 6)]
    result = ethos_py.check_answer(" ".join(answer), source_text=" ".join(source), subsequence=True)
    wanted = {word["text"] for word in result["words"] if word["verbatim"]}
    window = result["summary"].get("window")
    if not wanted:
        assert window is None
        return
    expected = _smallest_window(wanted, source)
    assert expected is not None and window is not None
    first, last = expected
    assert window["words"] == last - first + 1 and window["document"] == 0
    assert window["text"] == " ".join(source[first : last + 1])
    lcs = _lcs(answer, source[first : last + 1])
    assert window["lcs_words"] == lcs
    # ROUGE-L F1 = 2PR / (P + R), P = lcs / answer words, R = lcs / window words, in basis points floored.
    precision, recall = lcs / len(answer), lcs / window["words"]
    f1 = 2 * precision * recall / (precision + recall) if lcs else 0.0
    assert window["rouge_l_bp"] == int(f1 * 10000 + 1e-9)
    assert schema_errors("answer-check", result) == []


def test_window_is_located_in_the_document_and_printed_on_every_surface() -> None:
    answer = "We read that the pilot cut average response time by 30% and satisfaction rose to 92%."
    result = ethos_py.check_answer(answer, QUICKSTART, subsequence=True)
    window = result["summary"]["window"]
    document = json.loads(QUICKSTART.read_text())["payload"]
    pages = {page["id"]: page["index"] for page in document["pages"]}
    assert [element["element_id"] for element in window["elements"]] == ["e000002", "e000003"]
    for element in window["elements"]:
        assert element["page_index"] == pages[element["page"]]
    assert window["elements"][0]["boxes"]  # a located element has its highlight boxes, as a run's
    # The window runs from the first verbatim word's place to the last one's, in source order.
    assert window["text"].startswith("The pilot cut average response time by 30%")
    assert window["text"].endswith("satisfaction rose to 92%")
    line = f"window: {window['words']} words in source 1, e000002, page p0001 (+1 more), ROUGE-L "
    assert line in ethos_py.answer_summary_text(result)
    args = ["check-answer", str(QUICKSTART), "--answer", answer, "--subsequence"]
    for extra in ([], ["--format", "text"]):
        core = _core([*args, *extra])
        assert core[0] == 0 and _ethos([*args, *extra]) == core
    assert _core(args)[1] == ethos_py.check_answer_json(answer, QUICKSTART, subsequence=True) + b"\n"


def test_window_takes_the_document_most_verbatim_words_are_in() -> None:
    answer = "alpha beta gamma then delta epsilon zeta eta theta"
    result = ethos_py.check_answer(
        answer, source_text=["x alpha beta gamma y", "delta epsilon zeta eta theta"], subsequence=True
    )
    window = result["summary"]["window"]
    assert window["document"] == 1 and window["text"] == "delta epsilon zeta eta theta"
    assert "window" not in ethos_py.check_answer(answer, source_text="x alpha beta gamma y")["summary"]
    assert "window" not in ethos_py.check_answer("nothing here at all", source_text="x y z", subsequence=True)["summary"]


def test_a_window_over_the_cap_has_no_rouge_l() -> None:
    # Two runs 100,000 filler words apart: the window holds them all, too long for ROUGE-L.
    source = "alpha beta gamma " + "x " * 100_000 + "delta epsilon zeta"
    result = ethos_py.check_answer("alpha beta gamma delta epsilon zeta", source_text=source, subsequence=True)
    window = result["summary"]["window"]
    assert window["words"] == 100_006
    assert "rouge_l_bp" not in window and "lcs_words" not in window
    assert "ROUGE-L not computed (window over 100000 words)" in ethos_py.answer_summary_text(result)
    assert schema_errors("answer-check", result) == []
