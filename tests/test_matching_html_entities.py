"""test_matching_html_entities - the typography tier reads HTML character references ("&amp;",
"&rsquo;", "&#8217;", "&#x2019;") as the characters they stand for, on both sides (docs/matching.md
"HTML character references"): a model that escaped its quote, or a source extracted from HTML that
kept them, grounds at the typography tier with the evidence on the source's own characters; a
changed word or figure beside a reference is still refused; a bare "&" or an unknown name stays text."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import ethos_py
from sources_support import text_quote_checks

REPO = Path(__file__).resolve().parent.parent

PLAIN = "AT&T’s “Q3 revenue” rose 4% — from $1.2 bn to $1.25 bn — in Müller’s report <b>final</b>.\n"
ESCAPED = ("AT&amp;T&rsquo;s &ldquo;Q3 revenue&rdquo; rose 4% &mdash; from $1.2&nbsp;bn to $1.25 bn &#8212; "
           "in M&uuml;ller&#x2019;s report &lt;b&gt;final&lt;/b&gt;.\n")


def _checks(source: str, claims: list[str]) -> list[dict[str, Any]]:
    return text_quote_checks(source.encode(), claims, {"element_id": "e000001"})


def test_an_escaped_quote_grounds_on_the_plain_source_at_the_typography_tier() -> None:
    checks = _checks(PLAIN, [
        "AT&amp;T&rsquo;s &ldquo;Q3 revenue&rdquo; rose 4%",
        "from $1.2&nbsp;bn to $1.25 bn &#8212; in M&uuml;ller&#x2019;s report",
        "report &lt;b&gt;final&lt;/b&gt;.",
    ])
    assert [(c["status"], c["match"]["tier"]) for c in checks] == [("grounded", "typography")] * 3, checks
    assert checks[0]["match"]["source_text"] == "AT&T’s “Q3 revenue” rose 4%"


def test_a_plain_quote_grounds_on_an_escaped_source_with_the_sources_characters() -> None:
    checks = _checks(ESCAPED, ["AT&T's \"Q3 revenue\" rose 4% - from $1.2 bn to $1.25 bn",
                               "in Müller’s report <b>final</b>."])
    assert [(c["status"], c["match"]["tier"]) for c in checks] == [("grounded", "typography")] * 2, checks
    # The evidence is the source's characters, references and all: offsets cover whole references.
    assert checks[0]["match"]["source_text"] == "AT&amp;T&rsquo;s &ldquo;Q3 revenue&rdquo; rose 4% &mdash; from $1.2&nbsp;bn to $1.25 bn"
    assert checks[1]["match"]["source_text"] == "in M&uuml;ller&#x2019;s report &lt;b&gt;final&lt;/b&gt;."


def test_changes_beside_a_reference_are_refused() -> None:
    checks = _checks(ESCAPED, [
        "AT&T's \"Q4 revenue\" rose 4%",  # a figure
        "from $1.2 bn to $1.35 bn",  # a figure
        "in Müller’s report <b>draft</b>.",  # a word
    ])
    assert [c["status"] for c in checks] == ["mismatch"] * 3, [(c["status"], c.get("reason")) for c in checks]
    assert checks[0]["reason"] == "numeric_guard" and checks[1]["reason"] == "numeric_guard", checks


def test_what_is_not_a_reference_stays_text() -> None:
    # A bare "&", a name without its semicolon, an unknown name, a surrogate and U+0000 are text:
    # the quote that decodes them does not ground, the one that copies them does (exactly).
    source = "R&D costs &amp rose; see &bogus; and &#xD800; or &#0; here.\n"
    copied = _checks(source, ["R&D costs &amp rose; see &bogus; and &#xD800; or &#0; here."])
    assert (copied[0]["status"], copied[0]["match"]["tier"]) == ("grounded", "exact"), copied
    decoded = _checks(source, ["R&D costs & rose; see"])
    assert decoded[0]["status"] != "grounded", decoded


def test_a_long_text_cut_into_pieces_reads_every_reference_whole() -> None:
    # The document index builds a long running text's tiers in pieces of 65,536 scalars, cut
    # between two letters: never inside "&ldquo;" ("&ld|quo;" would read as text), so a reference
    # across that boundary still reads as one character.
    filler = ("lorem ipsum dolor sit amet consectetur adipiscing elit " * 1200)[:65533]
    source = filler + "&ldquo;quarterly&rdquo; figure &amp; its note\n"
    assert source.index("&ldquo;") == 65533
    data = source.encode()
    citations = {
        "document_fingerprint": "sha256:" + hashlib.sha256(data).hexdigest(),
        "claims": [{"kind": "quote", "text": "“quarterly” figure & its note", "citation": {"scope": "document"}}],
    }
    check = ethos_py.verify(data, citations, grounding="text")["checks"][0]
    assert (check["status"], check["match"]["tier"]) == ("grounded", "typography"), check


def test_the_generated_table_is_fresh() -> None:
    result = subprocess.run([sys.executable, str(REPO / "tools" / "gen_html_entities.py"), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_explain_states_the_rule() -> None:
    from ethos_py.document import explain_policy_json

    assumptions = json.loads(explain_policy_json("default"))["assumptions"]
    assert any(line.startswith("typography: HTML character references") for line in assumptions), assumptions
