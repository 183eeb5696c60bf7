"""test_matching_guards - stitched quotations, near misses and the numeric and polarity guards through
the library and both CLIs: verdicts, match detail (fragments, score, diff, guards) and the schema."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import harness
import pytest
from conftest import SCHEMAS_DIR, TOOLS_DIR, schema_errors

sys.path.insert(0, str(TOOLS_DIR))
import make_native_document as tool

REPO = SCHEMAS_DIR.parent

# One page per list; every text is one element (e000001 ... in order over the pages).
PAGES = [
    [
        "Operating income rose 12.5% to EUR 3.4 billion in 2024, driven by strong demand in Europe.",
        "The board approved the new dividend policy on Monday. It did not approve the share buyback.",
        "Net debt fell to (120) million, and the margin was 8 percent.",
        "Die Kosten sind nicht gestiegen.",
    ],
    [
        "Le conseil n'a pas approuvé le budget.",
        "El comité nunca aprobó el plan.",
        "Only three of the twelve plants met the target before the deadline.",
        "Revenue was 1,234.5 thousand dollars on 2024-03-31.",
        "The buyer said we don\u2019t accept the offer made in March.",
        "The lenders can't accept the terms of the new loan.",
    ],
]


def _document() -> bytes:
    elements, pages = [], []
    number = 0
    for p, texts in enumerate(PAGES, start=1):
        pages.append({"height": 79200, "id": f"p{p:04d}", "index": p, "rotation": 0, "width": 61200})
        for i, text in enumerate(texts):
            number += 1
            elements.append({"bbox": [7200, 6000 + 2000 * i, 54000, 7400 + 2000 * i], "id": f"e{number:06d}",
                             "page": f"p{p:04d}", "text": text, "type": "text_block"})
    return tool.render(tool.build_document({"pages": pages, "elements": elements}))


def _element(n: int) -> dict[str, str]:
    return {"element_id": f"e{n:06d}"}


# (quote, citation, expected reason or "grounded")
CLAIMS: list[tuple[str, dict[str, Any], str]] = [
    # 0-5 stitched quotations
    ("Operating income rose ... driven by strong demand", _element(1), "stitched_quotation"),
    ("The board approved the new dividend policy \u2026 the share buyback.", _element(2), "stitched_quotation"),
    ("The board approved [...] on Monday.", {"page": "p0001"}, "stitched_quotation"),
    ("approve the share buyback (...) Die Kosten", {"page": "p0001"}, "stitched_quotation"),
    ("the share buyback ... The board approved", _element(2), "stitched_quotation"),
    ("Unrelated words ... nowhere to be seen", _element(2), "stitched_quotation"),
    # 6-16 near misses
    ("Operating income rose 1.25% to EUR 3.4 billion in 2024, driven by strong demand in Europe.", _element(1), "numeric_guard"),
    ("Operating income rose 12.5% to USD 3.4 billion in 2024, driven by strong demand in Europe.", _element(1), "numeric_guard"),
    ("Net debt fell to 120 million, and the margin was 8 percent.", _element(3), "numeric_guard"),
    ("Net debt fell to (120) million, and the margin was 8 points.", _element(3), "numeric_guard"),
    ("Only three of the eleven plants met the target before the deadline.", {"page": "p0002"}, "numeric_guard"),
    ("Revenue was 1,234.5 thousand dollars on 2024-03-30.", _element(8), "numeric_guard"),
    ("Operating income fell 12.5% to EUR 3.4 billion in 2024, driven by strong demand in Europe.", _element(1), "polarity_guard"),
    ("The board approved the new dividend policy on Monday. It did approve the share buyback.", _element(2), "polarity_guard"),
    ("Die Kosten sind gestiegen.", _element(4), "polarity_guard"),
    ("Le conseil a approuvé le budget.", {"page": "p0002"}, "polarity_guard"),
    ("Operating income rose 12.5% to EUR 3.4 billion in 2024, driven by weak demand in Europe.", _element(1), "near_miss"),
    # 17-19 what the guards must leave alone (17: found at the skeleton tier, which default does not accept)
    ("Revenue was 1.234,5 thousand dollars on 2024-03-31.", _element(8), "text_mismatch"),
    ("El comité nunca aprobó el presupuesto.", _element(6), "near_miss"),
    ("Operating income rose 12.5% to EUR 3.4 billion in 2024", {"page": "p0001"}, "grounded"),
    # 20 nothing similar: plain text_mismatch, no detail
    ("Completely unrelated words about gardening and the weather in spring.", _element(1), "text_mismatch"),
    # 21-22 a quote cut right after a negation is refused; the same words after a sentence end ground
    ("approve the share buyback.", _element(2), "polarity_guard"),
    ("It did not approve the share buyback.", _element(2), "grounded"),
    # 23-24 the negation before the cut is a contraction, typographic and straight apostrophe
    ("accept the offer made in March.", _element(9), "polarity_guard"),
    ("accept the terms of the new loan.", _element(10), "polarity_guard"),
]
# Claims whose words are in the text as quoted; only the guard refuses them (cut after a negation).
CUT_AFTER_NEGATION = {21, 23, 24}


@pytest.fixture(scope="module")
def document_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("guards") / "guards.json"
    path.write_bytes(_document())
    return path


@pytest.fixture(scope="module")
def citations_path(document_path: Path) -> Path:
    import ethos_py

    with ethos_py.Document.open(document_path) as document:
        fingerprint = document.fingerprint
    claims = [{"kind": "quote", "text": text, "citation": citation} for text, citation, _ in CLAIMS]
    path = document_path.parent / "citations.json"
    path.write_text(json.dumps({"document_fingerprint": fingerprint, "claims": claims}, ensure_ascii=False))
    return path


@pytest.fixture(scope="module")
def report_bytes(document_path: Path, citations_path: Path) -> bytes:
    import ethos_py

    with ethos_py.Document.open(document_path) as document:
        return document.verify_json(citations_path.read_bytes())


@pytest.fixture(scope="module")
def checks(report_bytes: bytes) -> list[dict[str, Any]]:
    return json.loads(report_bytes)["checks"]


def test_report_follows_the_schema(report_bytes: bytes) -> None:
    assert schema_errors("verification-report", json.loads(report_bytes)) == []


@pytest.mark.parametrize("index", range(len(CLAIMS)), ids=lambda i: f"{i}-{CLAIMS[i][2]}")
def test_verdict_and_reason(index: int, checks: list[dict[str, Any]]) -> None:
    expected = CLAIMS[index][2]
    check = checks[index]
    if expected == "grounded":
        assert check["status"] == "grounded"
    else:
        assert (check["status"], check["reason"]) == ("mismatch", expected)


def _guards(check: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {g["name"]: (g["verdict"], g["detail"]) for g in check["match"]["guards"]}


def test_all_fragments_found_is_still_a_mismatch_with_fragment_locations(checks: list[dict[str, Any]]) -> None:
    check = checks[0]
    text = PAGES[0][0]
    match = check["match"]
    assert [f["quote"] for f in match["fragments"]] == ["Operating income rose", "driven by strong demand"]
    assert all(f["found"] and f["tier"] == "exact" and f["sound"] for f in match["fragments"])
    first, second = match["fragments"]
    assert (first["start"], first["end"]) == (0, len("Operating income rose"))
    assert second["source_text"] == text[second["start"]:second["end"]] == "driven by strong demand"
    assert second["elided"] == "12.5% to EUR 3.4 billion in 2024,"
    assert (match["start"], match["end"], match["tier"]) == (0, second["end"], "exact")
    assert match["source_text"] == text[: second["end"]]
    guards = _guards(check)
    assert guards["numeric"][0] == "block" and "12.5%" in guards["numeric"][1] and "eur 3.4 billion" in guards["numeric"][1]
    assert guards["polarity"][0] == "pass"


def test_an_elided_negation_is_flagged(checks: list[dict[str, Any]]) -> None:
    match = checks[1]["match"]
    assert match["fragments"][1]["elided"] == "on Monday. It did not approve"
    assert _guards(checks[1])["polarity"][0] == "block"
    assert 'negation "not"' in _guards(checks[1])["polarity"][1]


def test_page_citations_stitch_across_elements(checks: list[dict[str, Any]]) -> None:
    within = checks[2]
    assert within["evidence_tier"] == "element_scoped" and within["resolved_element_ids"] == ["e000002"] if "resolved_element_ids" in within else True
    assert within["match"]["fragments"][1]["elided"] == "the new dividend policy"
    assert _guards(within)["numeric"][0] == "pass" and _guards(within)["polarity"][0] == "pass"
    across = checks[3]
    assert across["evidence_tier"] == "page_scoped"
    assert [f["found"] for f in across["match"]["fragments"]] == [True, True]
    # Offsets are into the running text of the two elements, joined by a line break.
    running = PAGES[0][1] + "\n" + PAGES[0][2] + "\n" + PAGES[0][3]
    second = across["match"]["fragments"][1]
    assert running[second["start"]:second["end"]] == "Die Kosten"
    assert _guards(across)["numeric"][0] == "block"  # the elided sentence states (120) million and 8 percent


def test_out_of_order_and_missing_fragments(checks: list[dict[str, Any]]) -> None:
    swapped = checks[4]["match"]["fragments"]
    assert [f["found"] for f in swapped] == [True, False]
    assert set(swapped[1]) == {"quote", "found"}
    assert "match" not in checks[5]  # nothing found: reason only


@pytest.mark.parametrize(
    ("index", "guard", "needle"),
    [
        (6, "numeric", "decimal shift"),
        (7, "numeric", "currency changed"),
        (8, "numeric", "sign changed"),
        (9, "numeric", "unit changed (percent vs points)"),
        (10, "numeric", "figure changed"),
        (11, "numeric", "2024-03-31"),
        (12, "polarity", 'direction reversed: "rose" -> "fell"'),
        (13, "polarity", 'negation dropped: "not"'),
        (14, "polarity", 'negation dropped: "nicht"'),
        (15, "polarity", 'negation dropped: "n\'a"'),
    ],
)
def test_guard_blocks_name_the_change(index: int, guard: str, needle: str, checks: list[dict[str, Any]]) -> None:
    verdict, detail = _guards(checks[index])[guard]
    assert verdict == "block"
    assert needle in detail


def test_near_miss_detail(checks: list[dict[str, Any]]) -> None:
    check = checks[16]
    match = check["match"]
    assert {"tier", "sound", "occurrences", "fragments"}.isdisjoint(match)
    assert match["source_text"] == PAGES[0][0] and (match["start"], match["end"]) == (0, len(PAGES[0][0]))
    assert 8000 < match["score"] < 10000
    assert match["diff"] == [
        {"op": "equal", "quote": "Operating income rose 12.5% to EUR 3.4 billion in 2024, driven by",
         "source": "Operating income rose 12.5% to EUR 3.4 billion in 2024, driven by"},
        {"op": "replace", "quote": "weak", "source": "strong"},
        {"op": "equal", "quote": "demand in Europe.", "source": "demand in Europe."},
    ]
    assert _guards(check) == {"numeric": ("pass", "same figures"),
                              "polarity": ("pass", "same negations, no direction word reversed")}


def test_page_near_miss_points_at_the_element(checks: list[dict[str, Any]]) -> None:
    check = checks[10]
    assert check["evidence_tier"] == "element_scoped"
    assert check["match"]["source_text"] == PAGES[1][2]


def test_same_figures_in_european_grouping_and_same_negation_pass(checks: list[dict[str, Any]]) -> None:
    assert checks[17]["match"]["tier"] == "skeleton"  # the tier result stays; the guards only add their verdicts
    assert _guards(checks[17])["numeric"] == ("pass", "same figures")
    assert _guards(checks[18])["polarity"][0] == "pass"


def test_no_detail_below_the_score_threshold(checks: list[dict[str, Any]]) -> None:
    assert "match" not in checks[20]


def test_a_quote_cut_after_a_negation_keeps_its_match_and_is_refused(checks: list[dict[str, Any]]) -> None:
    check = checks[21]
    assert check["match"]["tier"] == "exact" and check["match"]["source_text"] == "approve the share buyback."
    assert _guards(check) == {"polarity": ("block", 'the quote starts right after the negation "not" in the source, '
                                                    "which it leaves out")}


@pytest.mark.parametrize(("index", "negation"), [(23, "don\u2019t"), (24, "can't")])
def test_a_quote_cut_after_a_contracted_negation_is_refused(checks: list[dict[str, Any]], index: int, negation: str) -> None:
    check = checks[index]
    assert check["match"]["tier"] == "exact"
    assert _guards(check) == {"polarity": ("block", f'the quote starts right after the negation "{negation}" in the source, '
                                                    "which it leaves out")}


def test_three_surfaces_print_the_same_bytes(document_path: Path, citations_path: Path, report_bytes: bytes) -> None:
    for command in ([sys.executable, "-m", "ethos_py.cli"], [harness.ethos_core_binary()]):
        done = subprocess.run([*command, "verify", str(document_path), "--citations", str(citations_path)],
                              capture_output=True, timeout=harness.SUBPROCESS_TIMEOUT, check=False)
        assert done.returncode == 0, done.stderr
        assert done.stdout == report_bytes + b"\n"


def test_a_policy_without_guards_reports_plain_mismatches(document_path: Path, citations_path: Path, tmp_path: Path) -> None:
    import ethos_py
    from ethos_py.document import explain_policy_json

    policy = json.loads(explain_policy_json("default"))["policy"]
    policy["elision"]["enabled"] = False
    policy["near_miss"]["enabled"] = False
    policy["guards"] = {"numeric": False, "polarity": False}
    policy["name"] = "no-guards"
    (tmp_path / "p.json").write_text(json.dumps(policy))
    with ethos_py.Document.open(document_path) as document:
        report = json.loads(document.verify_json(citations_path.read_bytes(), policy=tmp_path / "p.json"))
    assert schema_errors("verification-report", report) == []
    for index, ((_, _, expected), check) in enumerate(zip(CLAIMS, report["checks"])):
        if expected == "grounded" or index in CUT_AFTER_NEGATION:
            assert check["status"] == "grounded"
        else:
            assert check["reason"] == "text_mismatch"
            assert {"fragments", "score", "diff", "guards"}.isdisjoint(check.get("match", {}))


def test_explain_lists_the_guard_assumptions() -> None:
    from ethos_py.document import explain_policy_json

    explained = json.loads(explain_policy_json("default"))
    text = " ".join(explained["assumptions"])
    for phrase in ("stitched quotation", "near miss", "Numeric guard", "Polarity guard", "400 characters",
                   "starts right after a negation"):
        assert phrase in text
    assert explained["policy"]["near_miss"] == {"enabled": True, "max_candidates": 8, "max_quote_tokens": 256,
                                                "min_score_bp": 6000}


def test_guard_word_table_is_generated_from_the_data_file() -> None:
    done = subprocess.run([sys.executable, str(REPO / "tools" / "gen_guard_words.py"), "--check"], capture_output=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("citation", [{"element_id": "e000001"}, {"page": "p0001"}, {"scope": "document"}],
                         ids=["element", "page", "document"])
def test_a_near_miss_aligns_through_a_recorded_line_end_hyphen(citation: dict[str, Any]) -> None:
    """`homoge-⏎neous` (a recorded line-end hyphen) is the word "homogeneous", not a difference: the
    near miss's diff names only the word that changed, and its score counts the joined word equal."""
    import ethos_py

    first = "The samples were mixed until the solution became homoge-"
    text = first + "\nneous and clear, which took about twelve minutes in all."
    payload = {"pages": [{"height": 79200, "id": "p0001", "index": 1, "rotation": 0, "width": 61200}],
               "elements": [{"bbox": [7200, 6000, 54000, 9400], "id": "e000001", "page": "p0001", "text": text,
                             "hyphen_breaks": [len(first) - 1], "line_breaks": [len(first)], "type": "text_block"}]}
    quote = "the solution became homogeneous and cloudy, which took about twelve minutes"
    with ethos_py.Document.from_bytes(tool.render(tool.build_document(payload))) as document:
        claims = [{"kind": "quote", "text": quote, "citation": citation}]
        report = json.loads(document.verify_json({"document_fingerprint": document.fingerprint, "claims": claims}))
    (check,) = report["checks"]
    assert (check["status"], check["reason"]) == ("mismatch", "near_miss"), check
    changed = [entry for entry in check["match"]["diff"] if entry["op"] != "equal"]
    assert changed == [{"op": "replace", "quote": "cloudy", "source": "clear"}]
    assert check["match"]["diff"][0]["source"] == "the solution became homoge-\nneous and"
