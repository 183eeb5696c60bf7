"""test_repair_gtrex - differential tests of ethos calibrate against gtrex 1.1 (the peer that pioneered verify, calibrate,
repair) on the same labelled file: the same Learn-then-Test decision on the same scores, and the documented reasons the
thresholds differ (gtrex's accept-nothing endpoint, marginal vs training-conditional coverage, guard-blocked repairs
counted as risk by gtrex and outside our population); docs/repair.md "Compared with gtrex 1.1"."""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path
from typing import Any

import gtrex  # the test extra pins the 1.1 series: the differential is with that version
import pytest

from ethos_py.calibration import CalibrationError, Labelled, calibrate_coverage, calibrate_risk
from ethos_py.repair_pipeline import labelled_scores


def _source(index: int) -> str:
    return (f"Plant {index} produced 400 tonnes of steel for the northern rail project in 2023 and shipped it by "
            "barge, according to the operator's annual report.")


def _labelled(tmp_path: Path) -> tuple[Path, list[dict[str, Any]]]:
    """One record per document: faithful near misses (a comma and three words dropped), unfaithful ones that
    swap content words, and unfaithful ones that change only a figure (which our numeric guard blocks)."""
    records = []
    for index in range(80):
        kind = "faithful" if index % 8 < 5 else ("swap" if index % 8 < 7 else "figure")
        claim = {
            "faithful": f"Plant {index} produced 400 tonnes of steel for the rail project in 2023 and shipped "
                        "it by barge according to the operator's report",
            "swap": f"Plant {index} produced copper for the southern road project and shipped it by truck",
            "figure": f"Plant {index} produced 450 tonnes of steel for the northern rail project in 2023 and shipped "
                      "it by barge, according to the operator's annual report",
        }[kind]
        records.append({"claim": claim, "source": _source(index), "faithful": kind == "faithful",
                        "group": f"report-{index}", "kind_of_edit": kind})
    path = tmp_path / "labelled.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path, records


def _gtrex_score(record: dict[str, Any]) -> float:
    alignment = gtrex.SourceIndex(record["source"]).best_span(record["claim"])
    return 0.0 if alignment is None else float(alignment.score)


def test_same_scores_same_learn_then_test_threshold(tmp_path: Path) -> None:
    path, _ = _labelled(tmp_path)
    rows = list(labelled_scores(str(path)))
    ours = [Labelled(r["score"], r["faithful"], r["group"]) for r in rows]
    # gtrex has no "nothing to substitute": such a claim is given score 0, which only the threshold 0 accepts.
    theirs = [gtrex.LabelledRepair(score=r["score"] or 0.0, faithful=r["faithful"], group=r["group"]) for r in rows]
    for alpha, delta in ((0.1, 0.1), (0.05, 0.1), (0.2, 0.05)):
        mine = calibrate_risk(ours, alpha=alpha, delta=delta)
        peer = gtrex.calibrate_risk(theirs, alpha=alpha, delta=delta)
        assert mine.threshold == peer.threshold, (alpha, delta)
        assert mine.empirical["p_value"] == pytest.approx(peer.empirical["p_value"], rel=1e-9)


def test_where_no_observed_score_is_certified_gtrex_returns_its_accept_nothing_endpoint() -> None:
    # Unfaithful repairs score highest: gtrex certifies its endpoint 1.0 (accept nothing); we refuse.
    examples = [(0.99, False)] * 5 + [(0.9, True)] * 40
    peer = gtrex.calibrate_risk([gtrex.LabelledRepair(s, f, f"g{i}") for i, (s, f) in enumerate(examples)],
                                alpha=0.05, delta=0.1)
    assert peer.threshold == 1.0 and peer.empirical["accepted"] == 0
    with pytest.raises(CalibrationError, match="no threshold is certified"):
        calibrate_risk([Labelled(s, f, f"g{i}") for i, (s, f) in enumerate(examples)], alpha=0.05, delta=0.1)


def test_coverage_ours_is_training_conditional_so_never_stricter_than_gtrex_marginal(tmp_path: Path) -> None:
    path, _ = _labelled(tmp_path)
    rows = list(labelled_scores(str(path)))
    faithful = [r["score"] for r in rows if r["faithful"]]
    assert all(s is not None for s in faithful)
    for alpha in (0.1, 0.2):
        peer = gtrex.calibrate_coverage(faithful, alpha=alpha)
        mine = calibrate_coverage([Labelled(r["score"], r["faithful"], r["group"]) for r in rows], alpha=alpha,
                                  delta=0.1)
        # A higher rank is a lower threshold: ours accepts at least what gtrex's marginal rank accepts.
        assert mine.threshold <= peer.threshold
        assert mine.empirical["rank"] >= math.ceil((len(faithful) + 1) * (1 - alpha))


def test_own_scorers_guard_blocked_repairs_make_gtrex_stricter(tmp_path: Path) -> None:
    path, records = _labelled(tmp_path)
    rows = list(labelled_scores(str(path)))
    figure_rows = [r for r, given in zip(rows, records) if given["kind_of_edit"] == "figure"]
    # Our core blocks a changed figure: nothing to substitute, outside every candidate threshold.
    assert figure_rows and all(r["score"] is None and r["reason"] == "numeric_guard" for r in figure_rows)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        peer_scores = [_gtrex_score(r) for r in records]
    # gtrex's aligner scores the same claims above every faithful repair (its guards run at repair
    # time, after calibration) ...
    faithful_top = max(s for s, r in zip(peer_scores, records) if r["faithful"])
    assert all(s > faithful_top for s, r in zip(peer_scores, records) if r["kind_of_edit"] == "figure")
    peer = gtrex.calibrate_risk([gtrex.LabelledRepair(s, r["faithful"], r["group"]) for s, r in zip(peer_scores, records)],
                                alpha=0.1, delta=0.1)
    mine = calibrate_risk([Labelled(r["score"], r["faithful"], r["group"]) for r in rows], alpha=0.1, delta=0.1)
    # ... so they count as risk there and push its threshold above every faithful repair, while ours
    # accepts the faithful repairs. Same data, same alpha and delta; the difference is the population.
    assert peer.threshold > faithful_top and peer.empirical["accepted"] == 0
    assert mine.empirical["faithful_accepted_share"] == 1.0 and mine.empirical["unfaithful_accepted"] == 0
