"""test_summary_ladder_profile - `verify --format summary` ends, for a report verified under a policy,
with the ladder profile: per tier the checks grounded there, their share of all checks and the
cumulative share (docs/cli.md, verify). The same bytes on ethos, ethos-core and ethos_py.summary_text;
nothing of it under an explicit public config, whose checks carry no tier."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pdf_fixtures as fx

import ethos_py

TEXT = "The pilot cut the support backlog by 40% in Q3.\nThe “new” process ﬁnished early.\n"
CLAIMS = [
    "The pilot cut the support backlog by 40% in Q3.",  # exact
    "the support  backlog by 40%",  # whitespace
    'The "new" process finished early.',  # typography
    "THE PILOT CUT THE SUPPORT BACKLOG",  # case
    "The pilot cut the backlog by 60%",  # refused
]
TIERS = ["exact", "whitespace", "typography", "case", "skeleton"]


def _write(tmp_path: Path) -> tuple[Path, Path]:
    source = tmp_path / "notes.txt"
    source.write_bytes(TEXT.encode())
    citations = tmp_path / "citations.json"
    fingerprint = "sha256:" + hashlib.sha256(TEXT.encode()).hexdigest()
    citations.write_text(json.dumps({"document_fingerprint": fingerprint,
                                     "claims": [{"kind": "quote", "text": t, "citation": {"scope": "document"}} for t in CLAIMS]}))
    return source, citations


def test_the_profile_counts_the_reports_tiers_on_every_surface(tmp_path: Path) -> None:
    source, citations = _write(tmp_path)
    code, text, _ = fx.run_on_both_clis(["verify", str(source), "--grounding", "text", "--citations", str(citations),
                                         "--format", "summary"])
    assert code == 0
    report = ethos_py.verify(source.read_bytes(), json.loads(citations.read_text()), grounding="text")
    assert ethos_py.summary_text(json.dumps(report).encode()).encode() == text
    tiers = [c["match"]["tier"] if c["status"] == "grounded" else None for c in report["checks"]]
    assert tiers == ["exact", "whitespace", "typography", "case", None], report["checks"]
    lines = text.decode().splitlines()
    profile = lines[lines.index("ladder_profile:") + 1:]
    assert profile == [
        "- exact grounded=1 share=20.0% cumulative=20.0%",
        "- whitespace grounded=1 share=20.0% cumulative=40.0%",
        "- typography grounded=1 share=20.0% cumulative=60.0%",
        "- case grounded=1 share=20.0% cumulative=80.0%",
        "- skeleton grounded=0 share=0.0% cumulative=80.0%",
    ]
    # After every line the contract orders: the non-grounded checks come before it.
    assert lines.index("non_grounded_checks:") < lines.index("ladder_profile:")


def test_shares_are_rounded_half_up_in_tenths_of_a_percent(tmp_path: Path) -> None:
    source, citations = _write(tmp_path)
    data = json.loads(citations.read_text())
    data["claims"] = data["claims"][:3]  # 1 of 3 at each of three tiers: 33.3%, cumulative 66.7% and 100.0%
    report = ethos_py.verify(source.read_bytes(), data, grounding="text")
    text = ethos_py.summary_text(json.dumps(report).encode())
    assert re.findall(r"- (\w+) grounded=(\d+) share=([\d.]+%) cumulative=([\d.]+%)", text) == [
        ("exact", "1", "33.3%", "33.3%"), ("whitespace", "1", "33.3%", "66.7%"), ("typography", "1", "33.3%", "100.0%"),
        ("case", "0", "0.0%", "100.0%"), ("skeleton", "0", "0.0%", "100.0%"),
    ]


def test_no_profile_under_an_explicit_public_config(tmp_path: Path) -> None:
    source, citations = _write(tmp_path)
    config = tmp_path / "config.json"
    config.write_text(json.dumps(_default_config()))
    code, text, _ = fx.run_on_both_clis(["verify", str(source), "--grounding", "text", "--citations", str(citations),
                                         "--config", str(config), "--format", "summary"])
    assert code == 0 and b"non_grounded_checks:" in text
    assert b"ladder_profile:" not in text


def _default_config() -> dict[str, object]:
    """The built-in public config, as `ethos explain` prints it."""
    done = subprocess.run([sys.executable, "-m", "ethos_py.cli", "explain"], capture_output=True, check=True)
    config: dict[str, object] = json.loads(done.stdout)
    return config
