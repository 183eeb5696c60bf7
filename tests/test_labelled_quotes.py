"""test_labelled_quotes - benchmarks/labelled_quotes.py scores each label of an independent quotation set the way its own scorer does, and reports the set's targets."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest
from conftest import script_module
from pdf_fixtures import parse_cache, text_pdf, write_pdf  # noqa: F401  (parse_cache is a fixture)

PAGES = [
    ["The committee approved a budget of 4.2 million euros for the year.", "Members voted on the new rules."],
    ["Nothing on this page was changed by the second reading."],
]


@pytest.fixture()
def labelled_quotes() -> ModuleType:
    module: ModuleType = script_module("benchmarks/labelled_quotes.py")
    return module


def record(claim: str, label: str, *, page: int = 1, feature: str = "single_line", lang: str = "en") -> dict:
    return {"pdf": "minutes.pdf", "page": page, "page_end": page, "claim": claim, "label": label,
            "variant": "test", "source_feature": feature, "lang": lang}


def write_set(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_each_label_is_right_only_with_the_verdict_it_asks_for(tmp_path: Path, parse_cache: Path, labelled_quotes: ModuleType,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    write_pdf(tmp_path, "minutes.pdf", text_pdf(PAGES))
    records = [
        record("approved a budget of 4.2 million euros", "grounded"),
        record("Members  voted on the new rules.", "grounded", feature="multi_line"),
        record("approved a budget of 4.3 million euros", "not_grounded"),
        record("The committee approved ... the new rules.", "stitched"),
        # genuine, but cited to the wrong page: a refusal the tables must count
        record("changed by the second reading", "grounded", page=1, feature="page_break", lang="de"),
    ]
    failures = tmp_path / "wrong.jsonl"
    result = labelled_quotes.score(tmp_path, write_set(tmp_path / "set.jsonl", records), gtrex=False, failures=failures)

    assert [result["outcome"]["ethos"][i] for i in range(len(records))] == [True, True, True, True, False]
    # the literal peer finds the verbatim quote only, and never flags a stitched one
    assert [result["outcome"]["literal"][i] for i in range(len(records))] == [True, True, True, False, False]
    wrong = [json.loads(line) for line in failures.read_text(encoding="utf-8").splitlines()]
    assert [w["claim"] for w in wrong] == ["changed by the second reading"]
    assert wrong[0]["status"] == "mismatch"

    assert labelled_quotes.report(result) is False  # 1 of 3 genuine refused
    out = capsys.readouterr().out
    assert "genuine refused 33.33%" in out
    assert "page_break" in out and "de " in out  # per source feature and per language rows


def test_the_targets_are_met_when_every_verdict_is_right(tmp_path: Path, parse_cache: Path, labelled_quotes: ModuleType) -> None:
    write_pdf(tmp_path, "minutes.pdf", text_pdf(PAGES))
    records = [record("approved a budget of 4.2 million euros", "grounded"),
               record("Nothing on this page was changed", "grounded", page=2),
               record("approved a budget of 4.2 billion euros", "not_grounded")]
    result = labelled_quotes.score(tmp_path, write_set(tmp_path / "set.jsonl", records), gtrex=False, failures=None)
    assert labelled_quotes.report(result) is True
