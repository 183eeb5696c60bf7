"""test_calibration - the guarantees of ethos_py.calibration reproduced on seeded synthetic populations with known truth
(joint risk <= alpha, coverage >= 1 - alpha, each in >= 1 - delta of repeated draws, and the naive rules they replace
failing the same test), plus grouping, ties, refusals, the calibration document and the missing-scipy error."""

from __future__ import annotations

import json
import random
import sys
from typing import Any

import pytest
import scipy.stats as scipy_stats  # the calibrate and test extras install it

from ethos_py.calibration import (
    Calibration,
    CalibrationError,
    Labelled,
    calibrate_coverage,
    calibrate_risk,
    load_calibration,
)

# The population: a claim reaches the substitute stage; with P_LOCATED the core locates a span
# (else nothing can be substituted); the substitution is faithful with P_FAITHFUL; the score of a
# faithful span is Beta(9, 2), of an unfaithful one Beta(4, 3). Every true rate has a closed form.
P_LOCATED, P_FAITHFUL = 0.9, 0.75
FAITHFUL_BETA, UNFAITHFUL_BETA = (9, 2), (4, 3)
DRAWS = 1000  # enough to tell a failure rate of delta from one of 2 delta (see _allowed_failures)


def _population(rng: random.Random, n: int) -> list[Labelled]:
    examples = []
    for index in range(n):
        faithful = rng.random() < P_FAITHFUL
        located = rng.random() < P_LOCATED
        a, b = FAITHFUL_BETA if faithful else UNFAITHFUL_BETA
        examples.append(Labelled(rng.betavariate(a, b) if located else None, faithful, f"doc-{index}"))
    return examples


def _true_risk(threshold: float) -> float:
    """P(score >= threshold and unfaithful) in the population."""
    return float(P_LOCATED * (1 - P_FAITHFUL) * scipy_stats.beta.sf(threshold, *UNFAITHFUL_BETA))


def _true_coverage(threshold: float) -> float:
    """P(score >= threshold | faithful) in the population."""
    return float(P_LOCATED * scipy_stats.beta.sf(threshold, *FAITHFUL_BETA))


def _allowed_failures(delta: float) -> int:
    # A correct procedure fails in at most delta of the draws; this bound is exceeded by chance
    # with probability 0.001, and a procedure failing in 2 delta of them exceeds it almost surely.
    return int(scipy_stats.binom.ppf(0.999, DRAWS, delta))


def test_risk_guarantee_holds_in_repeated_draws_and_a_naive_threshold_breaks_it() -> None:
    alpha, delta, n = 0.05, 0.1, 300
    rng = random.Random(20261207)
    failures = naive_failures = 0
    accepted_faithful = []
    for _ in range(DRAWS):
        examples = _population(rng, n)
        calibration = calibrate_risk(examples, alpha=alpha, delta=delta)
        failures += _true_risk(calibration.threshold) > alpha
        accepted_faithful.append(_true_coverage(calibration.threshold))
        # The plug-in rule (lowest observed score whose empirical joint risk is <= alpha), no test.
        located = sorted((e for e in examples if e.score is not None), key=lambda e: -float(e.score or 0))
        naive, bad = located[0].score, 0
        for example in located:
            bad += not example.faithful
            if bad / n > alpha:
                break
            naive = example.score
        naive_failures += _true_risk(float(naive or 0)) > alpha
    assert failures <= _allowed_failures(delta), failures
    assert naive_failures > 3 * _allowed_failures(delta), naive_failures  # the test can tell a broken rule
    # Not vacuous: the certified threshold still accepts most faithful repairs.
    assert sum(accepted_faithful) / DRAWS > 0.6


def test_coverage_guarantee_holds_in_repeated_draws_and_the_marginal_rank_breaks_it() -> None:
    alpha, delta, n = 0.25, 0.1, 200
    rng = random.Random(7)
    failures = marginal_failures = 0
    for _ in range(DRAWS):
        examples = _population(rng, n)
        calibration = calibrate_coverage(examples, alpha=alpha, delta=delta)
        failures += _true_coverage(calibration.threshold) < 1 - alpha
        # The marginal split-conformal rank holds on average over draws, not in 1 - delta of them.
        scores = sorted((-1.0 if e.score is None else e.score for e in examples if e.faithful), reverse=True)
        rank = int(-(-(len(scores) + 1) * (1 - alpha) // 1))
        marginal_failures += _true_coverage(scores[rank - 1]) < 1 - alpha
    assert failures <= _allowed_failures(delta), failures
    assert marginal_failures > 2 * _allowed_failures(delta), marginal_failures
    assert calibration.empirical["faithful_acceptance"] >= 1 - alpha


def test_ties_are_accepted_by_the_deployment_rule_and_scores_stay_unrounded() -> None:
    third = 1 / 3
    examples = [Labelled(third, True, f"f{i}") for i in range(80)] + [Labelled(0.2, False, f"u{i}") for i in range(20)]
    calibration = calibrate_risk(examples, alpha=0.1, delta=0.1)
    assert calibration.threshold == third and calibration.empirical["accepted"] == 80
    document = json.loads(json.dumps(calibration.as_dict()))
    assert document["threshold"] == third  # exported at full precision
    assert load_calibration(document) == calibration


def test_integer_scores_give_an_integer_threshold() -> None:
    examples = [Labelled(9000 + i, True, f"f{i}") for i in range(50)] + [Labelled(6500, False, f"u{i}") for i in range(9)]
    calibration = calibrate_risk(examples, alpha=0.1, delta=0.2)
    assert calibration.threshold == 9000 and isinstance(calibration.threshold, int)


def test_strictest_threshold_that_carries_risk_is_refused() -> None:
    # Unfaithful repairs score highest: every candidate accepts them, no threshold can be certified.
    examples = [Labelled(0.99, False, f"u{i}") for i in range(10)] + [Labelled(0.9, True, f"f{i}") for i in range(30)]
    with pytest.raises(CalibrationError, match="no threshold is certified"):
        calibrate_risk(examples, alpha=0.05, delta=0.05)


def test_too_few_examples_are_refused_for_both_targets() -> None:
    tiny = [Labelled(0.9, True, "a"), Labelled(0.8, True, "b")]
    with pytest.raises(CalibrationError, match="too few"):
        calibrate_coverage(tiny, alpha=0.1, delta=0.1)
    with pytest.raises(CalibrationError, match="no labelled examples"):
        calibrate_risk([], alpha=0.1, delta=0.1)
    with pytest.raises(CalibrationError, match="no example has a score"):
        calibrate_risk([Labelled(None, False, "a")], alpha=0.1, delta=0.1)


def test_unreachable_coverage_is_refused() -> None:
    # Half of the faithful claims have nothing to substitute: no threshold accepts 90% of them.
    examples = [Labelled(None if i % 2 else 0.9, True, f"g{i}") for i in range(200)]
    with pytest.raises(CalibrationError, match="out of reach"):
        calibrate_coverage(examples, alpha=0.1, delta=0.1)


def test_repeated_groups_are_refused_unless_allowed_and_then_uncertified() -> None:
    examples = [Labelled(0.95, True, f"d{i % 30}") for i in range(90)] + [Labelled(0.4, False, f"u{i}") for i in range(10)]
    with pytest.raises(CalibrationError, match="30 groups have more than one example"):
        calibrate_risk(examples, alpha=0.1, delta=0.1)
    with pytest.raises(CalibrationError, match="one example per group"):
        calibrate_coverage(examples, alpha=0.1, delta=0.1)
    calibration = calibrate_risk(examples, alpha=0.1, delta=0.1, allow_repeated_groups=True)
    document = calibration.as_dict()
    assert document["guarantee_status"] == "uncertified" and document["guarantee"].startswith("NOT CERTIFIED")
    assert document["assumptions"]["one_example_per_group"].startswith("overridden")
    assert load_calibration(document).certified is False


def test_document_states_target_stage_assumptions_digest_and_binding() -> None:
    rng = random.Random(3)
    examples = _population(rng, 150)
    binding = {"scorer": "ethos near_miss 1", "policy_fingerprint": "sha256:ab", "pipeline": {"grounding": None}}
    document = calibrate_risk(examples, alpha=0.1, delta=0.05, binding=binding).as_dict()
    assert document["artifact_type"] == "ethos.calibration.v1"
    assert (document["target"], document["stage"], document["guarantee_status"]) == ("risk", "substitute", "conditional")
    assert document["controlled_quantity"] == "joint_unfaithful_acceptance"
    assert "exchangeable" in document["assumptions"]["exchangeable_groups"]
    assert document["binding"] == binding
    # The digest names the data, not its order.
    shuffled = list(examples)
    rng.shuffle(shuffled)
    again = calibrate_risk(shuffled, alpha=0.1, delta=0.05, binding=binding).as_dict()
    assert again == document
    changed = [Labelled(0.5, not examples[0].faithful, examples[0].group), *examples[1:]]
    assert calibrate_risk(changed, alpha=0.1, delta=0.05).data_sha256 != document["data_sha256"]


def test_binding_mismatch_is_refused() -> None:
    calibration = Calibration(threshold=0.8, target="risk", alpha=0.1, delta=0.1, n=10,
                              binding={"policy_fingerprint": "sha256:aa", "scorer": "s"})
    calibration.check_binding({"policy_fingerprint": "sha256:aa", "scorer": "s"})
    with pytest.raises(CalibrationError, match="policy_fingerprint"):
        calibration.check_binding({"policy_fingerprint": "sha256:bb", "scorer": "s"})
    with pytest.raises(CalibrationError, match="scorer"):
        calibration.check_binding({"policy_fingerprint": "sha256:aa"})


@pytest.mark.parametrize("document", [{}, {"artifact_type": "ethos.jsonl_run.v1"},
                                      {"artifact_type": "ethos.calibration.v1", "target": "risk"},
                                      {"artifact_type": "ethos.calibration.v1", "target": "risk", "stage": "substitute",
                                       "threshold": float("nan")}])
def test_load_refuses_what_is_not_a_calibration(document: dict[str, Any]) -> None:
    with pytest.raises(CalibrationError):
        load_calibration(document)


@pytest.mark.parametrize("bad", [0, 1, 1.5, -0.1, True, "0.1"])
def test_levels_must_be_strictly_between_zero_and_one(bad: Any) -> None:
    with pytest.raises(CalibrationError, match="alpha"):
        calibrate_risk([Labelled(0.9, True, "a")], alpha=bad, delta=0.1)


@pytest.mark.parametrize("score, faithful, group", [(float("inf"), True, "g"), (True, True, "g"), ("0.9", True, "g"),
                                                    (0.9, 1, "g"), (0.9, True, ""), (0.9, True, None)])
def test_malformed_examples_are_refused(score: Any, faithful: Any, group: Any) -> None:
    with pytest.raises(CalibrationError):
        Labelled(score, faithful, group)


def test_missing_scipy_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "scipy", None)  # what an environment without scipy looks like to import
    monkeypatch.setitem(sys.modules, "scipy.stats", None)
    with pytest.raises(CalibrationError, match=r"pip install 'ethos-verify\[calibrate\]'"):
        calibrate_risk([Labelled(0.9, True, "a")], alpha=0.1, delta=0.1)
