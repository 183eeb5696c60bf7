"""test_matching_markers - a policy's marker_pattern (docs/matching.md "Parser markers"): markers a
parser wrote into the text (`[[HEADING_CANDIDATE]]`, `[[CELL]]`) that the model never saw read as
one space from the exact tier on, in element, page and document searches alike; the evidence is
the source's own characters, marker included; cells a marker separates never fuse into one figure;
a bad pattern is a usage error that says what to do; the pattern is part of the fingerprint; the
engine is RE2, so a pattern that backtracks elsewhere still runs in linear time."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import schema_errors
from harness import ethos_core_binary
from sources_support import envelope, verify_all

import ethos_py
from ethos_py.document import explain_policy_json

MARKERS = r"\[\[[A-Z_]+\]\]"

SOURCE = ("[[HEADING_CANDIDATE]]Introduction[[HEADING_CANDIDATE]]The study enrolled 120 patients "
          "over two years.\n\nDose[[CELL]]12[[CELL]]mg was the median.\n")


def _fingerprint(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _policy(pattern: str | None, name: str = "markers") -> dict[str, Any]:
    """The default preset under another name, with `pattern` as its marker_pattern (none: absent)."""
    policy: dict[str, Any] = json.loads(explain_policy_json("default"))["policy"]
    policy["name"] = name
    if pattern is not None:
        policy["marker_pattern"] = pattern
    return policy


def _write_policy(tmp_path: Path, pattern: str | None) -> Path:
    path = tmp_path / "policy.json"
    path.write_text(json.dumps(_policy(pattern)), encoding="utf-8")
    return path


def _checks(source: str, quotes: list[str], policy: str | Path, citation: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    data = source.encode()
    citations = {
        "document_fingerprint": _fingerprint(data),
        "claims": [{"kind": "quote", "text": quote, "citation": citation or {"scope": "document"}} for quote in quotes],
    }
    report = ethos_py.verify(data, citations, grounding="text", policy=policy)
    checks: list[dict[str, Any]] = report["checks"]
    return checks


def test_a_quote_across_markers_grounds_exactly_with_the_marker_in_its_evidence(tmp_path: Path) -> None:
    quote = "Introduction The study enrolled 120 patients"
    marked = _checks(SOURCE, [quote], _write_policy(tmp_path, MARKERS))[0]
    assert (marked["status"], marked["match"]["tier"]) == ("grounded", "exact"), marked
    assert marked["match"]["source_text"] == "Introduction[[HEADING_CANDIDATE]]The study enrolled 120 patients"
    # Without the pattern the marker is text the quote does not have.
    assert _checks(SOURCE, [quote], "default")[0]["status"] != "grounded"


@pytest.mark.parametrize("citation", [{"scope": "document"}, {"element_id": "e000001"}])
def test_every_search_reads_markers_the_same_way(tmp_path: Path, citation: dict[str, Any]) -> None:
    # Document scope goes through the document's index, an element through its own ladder: the
    # same verdict on each.
    policy = _write_policy(tmp_path, MARKERS)
    check = _checks(SOURCE, ["Introduction\nThe study enrolled"], policy, citation)[0]
    assert (check["status"], check["match"]["tier"]) == ("grounded", "whitespace"), check


def test_cells_a_marker_separates_never_fuse_into_one_figure(tmp_path: Path) -> None:
    policy = _write_policy(tmp_path, MARKERS)
    spaced, fused = _checks(SOURCE, ["Dose 12 mg was the median", "Dose12mg was the median"], policy)
    assert (spaced["status"], spaced["match"]["tier"]) == ("grounded", "exact"), spaced
    assert fused["status"] != "grounded", fused
    figures = _checks("Total 3[[CELL]]4 patients\n", ["Total 34 patients", "Total 3 5 patients", "Total 3 4 patients"], policy)
    assert [c["status"] for c in figures] == ["mismatch", "mismatch", "grounded"], figures


def test_a_changed_word_beside_a_marker_is_still_refused(tmp_path: Path) -> None:
    check = _checks(SOURCE, ["Introduction The study enrolled 120 children"], _write_policy(tmp_path, MARKERS))[0]
    assert check["status"] != "grounded", check


def test_markers_in_a_long_document_across_index_pieces(tmp_path: Path) -> None:
    # Many paragraphs (the index is built in pieces of 65,536 characters; no piece may cut a
    # marker or trim the space it reads as): every quote across a marker grounds, wherever it is.
    paragraphs = [f"Section {n} reports[[SECTION_BREAK]]finding number {n} in words." for n in range(6000)]
    source = "\n\n".join(paragraphs) + "\n"
    assert len(source) > 3 * 65536
    quotes = [f"Section {n} reports finding number {n} in words" for n in (0, 1234, 2999, 4321, 5999)]
    checks = _checks(source, quotes, _write_policy(tmp_path, MARKERS))
    assert [(c["status"], c["match"]["tier"]) for c in checks] == [("grounded", "exact")] * len(quotes), checks
    assert [c["match"]["source_text"] for c in checks] == [
        q.replace("reports finding", "reports[[SECTION_BREAK]]finding") for q in quotes]


def test_library_ethos_and_ethos_core_give_the_same_bytes(tmp_path: Path) -> None:
    source = tmp_path / "notes.txt"
    source.write_text(SOURCE, encoding="utf-8")
    citations = tmp_path / "citations.json"
    citations.write_text(json.dumps({
        "document_fingerprint": _fingerprint(source.read_bytes()),
        "claims": [{"kind": "quote", "text": "Introduction The study enrolled 120 patients", "citation": {"scope": "document"}},
                   {"kind": "quote", "text": "Dose12mg", "citation": {"scope": "document"}}],
    }), encoding="utf-8")
    policy = _write_policy(tmp_path, MARKERS)
    library = ethos_py.verify(source.read_bytes(), json.loads(citations.read_text()), grounding="text", policy=policy)
    args = ["verify", source.name, "--citations", str(citations), "--grounding", "text", "--policy", str(policy)]
    outputs = [subprocess.run(command, cwd=tmp_path, capture_output=True, check=True).stdout
               for command in ([sys.executable, "-m", "ethos_py.cli", *args], [ethos_core_binary(), *args])]
    assert outputs[0] == outputs[1]
    assert json.loads(outputs[0]) == library
    assert [c["status"] for c in library["checks"]] == ["grounded", "mismatch"]


def test_the_pattern_is_part_of_the_policy_fingerprint(tmp_path: Path) -> None:
    def fingerprint(pattern: str | None) -> str:
        path = tmp_path / f"p{abs(hash(pattern))}.json"
        path.write_text(json.dumps(_policy(pattern)), encoding="utf-8")
        return str(json.loads(explain_policy_json(path))["policy_fingerprint"])

    assert schema_errors("policy", _policy(MARKERS)) == []
    assert schema_errors("policy", _policy("")) != []
    plain, marked, other = fingerprint(None), fingerprint(MARKERS), fingerprint(r"<<[a-z]+>>")
    assert len({plain, marked, other}) == 3
    explained = json.loads(explain_policy_json(tmp_path / f"p{abs(hash(MARKERS))}.json"))
    assert any("marker_pattern" in line and MARKERS in line for line in explained["assumptions"]), explained


@pytest.mark.parametrize(("pattern", "says"), [
    (r"[[A-Z", "not a valid RE2 pattern"),     # RE2 refuses it
    (r"(?=x)x", "not a valid RE2 pattern"),    # lookahead: backtracking engines only
    (r"\s*", "matches empty text"),            # would put a space between every two characters
    ("", "must not be empty"),
    ("x" * 1025, "longer than 1024 bytes"),
])
def test_a_bad_pattern_is_a_usage_error_that_says_what_to_do(tmp_path: Path, pattern: str, says: str) -> None:
    source = tmp_path / "notes.txt"
    source.write_text(SOURCE, encoding="utf-8")
    citations = tmp_path / "citations.json"
    citations.write_text(json.dumps({
        "document_fingerprint": _fingerprint(source.read_bytes()),
        "claims": [{"kind": "quote", "text": "Introduction", "citation": {"scope": "document"}}],
    }), encoding="utf-8")
    policy = _write_policy(tmp_path, pattern)
    for command in ([sys.executable, "-m", "ethos_py.cli"], [ethos_core_binary()]):
        done = subprocess.run([*command, "verify", source.name, "--citations", str(citations), "--grounding", "text",
                               "--policy", str(policy)], cwd=tmp_path, capture_output=True, check=False)
        assert done.returncode == 2 and done.stdout == b"", done
        error = envelope(done.stderr)["error"]
        assert says in error["message"] and error["details"]["path"] == "$.marker_pattern", error


def test_a_backtracking_pattern_runs_in_linear_time(tmp_path: Path) -> None:
    # "(a+)+$" against a long run of "a" ending in "b" takes exponential time in a backtracking
    # engine; RE2 scans once. The verdict comes back (the process would hang otherwise).
    source = tmp_path / "long.txt"
    source.write_text("x " + "a" * 200_000 + " b end\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c",
         "import hashlib, json, pathlib, sys, ethos_py\n"
         "source, policy = open(sys.argv[1], 'rb').read(), pathlib.Path(sys.argv[2])\n"
         "citations = {'document_fingerprint': 'sha256:' + hashlib.sha256(source).hexdigest(),"
         " 'claims': [{'kind': 'quote', 'text': 'b end', 'citation': {'scope': 'document'}}]}\n"
         "print(ethos_py.verify(source, citations, grounding='text', policy=policy)['checks'][0]['status'])",
         str(source), str(_write_policy(tmp_path, r"(a+)+$"))],
        capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "grounded"


def test_the_same_verdicts_and_tiers_as_gtrex_separate_markers(tmp_path: Path) -> None:
    # gtrex 1.1 (the peer that pioneered marker_pattern) separates markers the same way: the same
    # quotes ground at the same tiers and the fused figure is refused by both.
    import gtrex

    quotes = ["Introduction The study enrolled 120 patients", "Dose 12 mg was the median",
              "Dose12mg was the median", "Introduction\nThe study enrolled", "[[CELL]]12 mg"]
    peer = gtrex.Policy(marker_pattern=MARKERS)
    theirs = [gtrex.verify(quote, SOURCE, policy=peer) for quote in quotes]
    ours = _checks(SOURCE, quotes, _write_policy(tmp_path, MARKERS))
    assert [c["status"] == "grounded" for c in ours] == [bool(t.grounded) for t in theirs] == [True, True, False, True, True]
    assert [c["match"]["tier"] for c in ours if c["status"] == "grounded"] == [
        str(t.tier) for t in theirs if t.grounded] == ["exact", "exact", "whitespace", "exact"]
