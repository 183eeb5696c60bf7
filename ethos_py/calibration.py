"""calibration - thresholds for the repair cascade with a stated guarantee (Learn-then-Test risk control, split-conformal coverage).

A repair substitutes the source span the core located for a claim that is not grounded, when the
span's similarity ``score`` is at least a threshold. This module picks that threshold from
labelled examples (``score``, ``faithful``, ``group``) and says what it guarantees:

- ``calibrate_risk``: Learn-then-Test with fixed-sequence testing. Candidate thresholds are tested
  from the strictest down, each against H0 "R(t) > alpha" where R(t) = P(score >= t and the repair
  is unfaithful), with the exact binomial tail (scipy) as p-value; testing stops at the first
  threshold that is not rejected. With probability at least 1 - delta over the calibration draw,
  the returned threshold has R(t) <= alpha.
- ``calibrate_coverage``: split conformal on the faithful examples, with the rank chosen so that
  with probability at least 1 - delta over the calibration draw, P(score >= t | faithful) >= 1 - alpha
  (the training-conditional form; the plain marginal form holds only on average over draws).

Both assume the groups (documents) are exchangeable with those the threshold will be used on, and
one example per group; repeated groups are refused unless ``allow_repeated_groups``, which marks
the result ``uncertified``. An example whose claim the core could not locate or whose substitution
a guard blocks has ``score`` ``None``: no threshold ever accepts it. scipy is imported lazily
(``pip install 'ethos-verify[calibrate]'``).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "CALIBRATION_TYPE",
    "Calibration",
    "CalibrationError",
    "Labelled",
    "calibrate_coverage",
    "calibrate_risk",
    "load_calibration",
]

CALIBRATION_TYPE = "ethos.calibration.v1"
STAGE = "substitute"  # the cascade stage whose accept decision the threshold makes
_TARGETS = {"risk": "joint_unfaithful_acceptance", "coverage": "faithful_acceptance"}
INSTALL_HINT = "pip install 'ethos-verify[calibrate]'"


class CalibrationError(ValueError):
    """The data cannot support the requested guarantee, or a calibration is used where it does not apply.

        >>> str(CalibrationError("no labelled examples"))
        'no labelled examples'
    """


@dataclass(frozen=True)
class Labelled:
    """One calibration example: the repair ``score`` (``None`` when nothing can be substituted),
    whether substituting the located span is ``faithful`` to the claim, and its ``group``.

        >>> Labelled(0.91, True, "doc-1").faithful
        True
    """

    score: float | None
    faithful: bool
    group: str

    def __post_init__(self) -> None:
        if self.score is not None and (isinstance(self.score, bool) or not isinstance(self.score, (int, float))
                                       or not math.isfinite(self.score)):
            raise CalibrationError(f"score must be a finite number or None, not {self.score!r}")
        if not isinstance(self.faithful, bool):
            raise CalibrationError(f"faithful must be true or false, not {self.faithful!r}")
        if not isinstance(self.group, str) or not self.group:
            raise CalibrationError(f"group must be a non-empty string, not {self.group!r}")


@dataclass(frozen=True)
class Calibration:
    """A threshold (accept when ``score >= threshold``, never rounded) with what it guarantees,
    under which assumptions, on which data (digest) and for which scorer, policy and pipeline.

        >>> c = Calibration(threshold=0.8, target="risk", alpha=0.1, delta=0.1, n=40)
        >>> c.as_dict()["acceptance_rule"]
        'score >= threshold'
    """

    threshold: float
    target: str
    alpha: float
    delta: float
    n: int
    certified: bool = True
    guarantee: str = ""
    assumptions: Mapping[str, Any] = field(default_factory=dict)
    empirical: Mapping[str, Any] = field(default_factory=dict)
    data_sha256: str = ""
    binding: Mapping[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """The calibration document (``ethos.calibration.v1``) as written by ``ethos calibrate``."""
        return {
            "artifact_type": CALIBRATION_TYPE,
            "target": self.target,
            "controlled_quantity": _TARGETS[self.target],
            "stage": STAGE,
            "threshold": self.threshold,
            "acceptance_rule": "score >= threshold",
            "alpha": self.alpha,
            "delta": self.delta,
            "n": self.n,
            "guarantee_status": "conditional" if self.certified else "uncertified",
            "guarantee": self.guarantee,
            "assumptions": dict(self.assumptions),
            "empirical": dict(self.empirical),
            "data_sha256": self.data_sha256,
            "binding": dict(self.binding),
            "notes": list(self.notes),
        }

    def check_binding(self, binding: Mapping[str, Any]) -> None:
        """Raises ``CalibrationError`` unless this calibration was made for exactly ``binding``
        (the scorer, policy and pipeline that will use its threshold).

            >>> c = Calibration(threshold=0.8, target="risk", alpha=0.1, delta=0.1, n=40, binding={"policy": "a"})
            >>> c.check_binding({"policy": "b"})
            Traceback (most recent call last):
            ...
            ethos_py.calibration.CalibrationError: the calibration was made for policy 'a', this run uses 'b'
        """
        for key in sorted(set(self.binding) | set(binding)):
            if self.binding.get(key) != binding.get(key):
                raise CalibrationError(f"the calibration was made for {key} {self.binding.get(key)!r}, "
                                       f"this run uses {binding.get(key)!r}")


def load_calibration(document: Mapping[str, Any]) -> Calibration:
    """A calibration read back from its document; ``CalibrationError`` when it is not one.

        >>> c = Calibration(threshold=7123, target="coverage", alpha=0.1, delta=0.05, n=99)
        >>> load_calibration(json.loads(json.dumps(c.as_dict()))) == c
        True
    """
    if not isinstance(document, Mapping) or document.get("artifact_type") != CALIBRATION_TYPE:
        raise CalibrationError(f"not a calibration (artifact_type must be {CALIBRATION_TYPE!r})")
    try:
        target = document["target"]
        threshold = document["threshold"]
        if target not in _TARGETS or document.get("stage") != STAGE:
            raise CalibrationError(f"unknown target {target!r} or stage {document.get('stage')!r}")
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not math.isfinite(threshold):
            raise CalibrationError("the threshold must be a finite number")
        return Calibration(
            threshold=threshold, target=target, alpha=float(document["alpha"]), delta=float(document["delta"]),
            n=int(document["n"]), certified=document["guarantee_status"] == "conditional",
            guarantee=str(document["guarantee"]), assumptions=dict(document["assumptions"]),
            empirical=dict(document["empirical"]), data_sha256=str(document["data_sha256"]),
            binding=dict(document["binding"]), notes=tuple(str(note) for note in document["notes"]),
        )
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, CalibrationError):
            raise
        raise CalibrationError(f"not a complete calibration: {error!r}") from None


def _binom() -> Any:
    try:
        from scipy.stats import binom  # optional: only calibration needs it
    except ImportError:
        raise CalibrationError(f"calibration needs scipy: {INSTALL_HINT}") from None
    return binom


def _level(value: float, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 < value < 1.0:
        raise CalibrationError(f"{name} must be a number strictly between 0 and 1, not {value!r}")
    return float(value)


def _examples(labelled: Sequence[Labelled], allow_repeated_groups: bool) -> tuple[list[Labelled], dict[str, Any], list[str]]:
    examples = list(labelled)
    if not examples:
        raise CalibrationError("no labelled examples")
    for example in examples:
        if not isinstance(example, Labelled):
            raise CalibrationError(f"examples must be Labelled, not {type(example).__name__}")
    counts: dict[str, int] = {}
    for example in examples:
        counts[example.group] = counts.get(example.group, 0) + 1
    repeated = sorted(group for group, count in counts.items() if count > 1)
    if repeated and not allow_repeated_groups:
        raise CalibrationError(
            f"{len(repeated)} groups have more than one example (first: {repeated[0]!r}); the guarantee needs one "
            "example per group (document). Keep one per group, or allow repeated groups and get an uncertified result")
    assumptions = {
        "exchangeable_groups": "assumed, not checked: the calibration groups are exchangeable with the groups "
                               "the threshold will be used on",
        "one_example_per_group": "checked" if not repeated else "overridden: repeated groups allowed",
        "groups": len(counts),
        "repeated_groups": len(repeated),
    }
    notes = []
    if repeated:
        notes.append("repeated groups were allowed: examples of one document are not independent, so the stated "
                      "bound was tested but is not certified")
    return examples, assumptions, notes


def _digest(examples: Sequence[Labelled]) -> str:
    """SHA-256 of the examples, independent of their order (full-precision scores)."""
    rows = sorted(json.dumps([e.group, e.score, e.faithful], allow_nan=False) for e in examples)
    return hashlib.sha256("\n".join(rows).encode("utf-8")).hexdigest()


def _accepts(score: float | None, threshold: float) -> bool:
    return score is not None and score >= threshold


def calibrate_risk(labelled: Sequence[Labelled], *, alpha: float, delta: float, allow_repeated_groups: bool = False,
                   binding: Mapping[str, Any] | None = None) -> Calibration:
    """The least strict threshold t, among the observed scores, certified by Learn-then-Test:
    with probability >= 1 - delta over the calibration draw, P(score >= t and unfaithful) <= alpha.
    Raises ``CalibrationError`` when no candidate is certified (too few examples for alpha and
    delta, or the scores do not separate faithful from unfaithful repairs).

        >>> data = [Labelled(0.95, True, f"g{i}") for i in range(60)] + [Labelled(0.5, False, f"h{i}") for i in range(20)]
        >>> calibrate_risk(data, alpha=0.1, delta=0.1).threshold
        0.95
    """
    alpha, delta = _level(alpha, "alpha"), _level(delta, "delta")
    examples, assumptions, notes = _examples(labelled, allow_repeated_groups)
    binom = _binom()
    n = len(examples)
    located = sorted(((e.score, e.faithful) for e in examples if e.score is not None), reverse=True)
    # Candidates from the strictest: each distinct observed score, with the losses (unfaithful and
    # accepted) counted at it. The loss only grows as t falls, so the first non-rejection ends the test.
    candidates: list[tuple[float, int, int]] = []  # threshold, accepted, violations
    violations = 0
    for index, (score, is_faithful) in enumerate(located):
        violations += 0 if is_faithful else 1
        if index + 1 == len(located) or located[index + 1][0] != score:
            candidates.append((score, index + 1, violations))
    if not candidates:
        raise CalibrationError("no example has a score: the core located none of the claims, nothing can be calibrated")
    p_values = binom.cdf([v for _, _, v in candidates], n, alpha)
    chosen, tested = None, 0
    for (threshold, accepted, violations), p_value in zip(candidates, p_values):
        tested += 1
        if p_value > delta:
            break
        chosen = (threshold, accepted, violations, float(p_value))
    if chosen is None:
        strictest = candidates[0]
        raise CalibrationError(
            f"no threshold is certified at alpha={alpha}, delta={delta} with n={n}: even the strictest score "
            f"({strictest[0]!r}) accepts {strictest[2]} unfaithful of {n} (p-value {float(p_values[0])!r} > delta). "
            "Add labelled groups, or raise alpha or delta")
    threshold, accepted, violations, p_value = chosen
    faithful = sum(1 for e in examples if e.faithful)
    empirical = {
        "accepted": accepted, "unfaithful_accepted": violations, "p_value": p_value,
        "joint_unfaithful_acceptance": violations / n, "acceptance_rate": accepted / n,
        "unfaithful_among_accepted": violations / accepted,
        "faithful_accepted_share": (accepted - violations) / faithful if faithful else 0.0,
        "candidates_tested": tested,
    }
    guarantee = (f"With probability at least {1 - delta!r} over the calibration draw, P(score >= threshold and the "
                 f"substitution is unfaithful) <= {alpha!r} for a claim that reaches the substitute stage, drawn "
                 "from groups exchangeable with the calibration groups. A joint rate, not P(unfaithful | accepted).")
    return Calibration(threshold=threshold, target="risk", alpha=alpha, delta=delta, n=n, certified=not notes,
                       guarantee=guarantee if not notes else "NOT CERTIFIED (repeated groups): " + guarantee,
                       assumptions=assumptions, empirical=empirical, data_sha256=_digest(examples),
                       binding=dict(binding or {}), notes=tuple(notes))


def calibrate_coverage(labelled: Sequence[Labelled], *, alpha: float, delta: float, allow_repeated_groups: bool = False,
                       binding: Mapping[str, Any] | None = None) -> Calibration:
    """The strictest threshold t that, with probability >= 1 - delta over the calibration draw,
    accepts at least 1 - alpha of faithful repairs: split conformal over the faithful examples,
    t the k-th highest score with k the least rank for which P(Binomial(m, 1 - alpha) >= k) <= delta
    (m faithful examples). Unfaithful examples are counted in the report, not used.

        >>> data = [Labelled(i / 100, True, f"g{i}") for i in range(1, 101)]
        >>> calibrate_coverage(data, alpha=0.2, delta=0.1).threshold
        0.15
    """
    alpha, delta = _level(alpha, "alpha"), _level(delta, "delta")
    examples, assumptions, notes = _examples(labelled, allow_repeated_groups)
    binom = _binom()
    # Highest first; a faithful claim with nothing to substitute sorts last (no threshold accepts it).
    scores = sorted((e.score for e in examples if e.faithful), key=lambda s: -math.inf if s is None else s,
                    reverse=True)
    m = len(scores)
    if m == 0:
        raise CalibrationError("no faithful example: coverage of faithful repairs cannot be calibrated")
    # The coverage of the k-th highest of m exchangeable scores is at least Beta(k, m + 1 - k), so
    # P(coverage < 1 - alpha) <= P(Binomial(m, 1 - alpha) >= k): take the least k with that <= delta.
    tails = binom.sf(range(m), m, 1 - alpha)  # tails[k - 1] = P(Binomial >= k)
    rank = next((k for k in range(1, m + 1) if tails[k - 1] <= delta), None)
    if rank is None:
        raise CalibrationError(f"{m} faithful examples are too few for alpha={alpha}, delta={delta}: add labelled groups")
    threshold = scores[rank - 1]
    if threshold is None:
        raise CalibrationError(
            f"coverage {1 - alpha!r} is out of reach: {sum(1 for s in scores if s is None)} of {m} faithful claims "
            "have no substitutable span (not located, or blocked by a guard), so no threshold accepts them")
    accepted_faithful = sum(1 for s in scores if _accepts(s, threshold))
    unfaithful = [e for e in examples if not e.faithful]
    unfaithful_accepted = sum(1 for e in unfaithful if _accepts(e.score, threshold))
    empirical = {
        "faithful": m, "rank": rank, "faithful_accepted": accepted_faithful,
        "faithful_acceptance": accepted_faithful / m, "unfaithful": len(unfaithful),
        "unfaithful_accepted": unfaithful_accepted,
        "joint_unfaithful_acceptance": unfaithful_accepted / len(examples),
    }
    guarantee = (f"With probability at least {1 - delta!r} over the calibration draw, P(score >= threshold) >= "
                 f"{1 - alpha!r} for a faithful substitution at the substitute stage, from groups exchangeable "
                 "with the calibration groups. Bounds lost faithful repairs, not unfaithful ones accepted.")
    return Calibration(threshold=threshold, target="coverage", alpha=alpha, delta=delta, n=len(examples),
                       certified=not notes,
                       guarantee=guarantee if not notes else "NOT CERTIFIED (repeated groups): " + guarantee,
                       assumptions=assumptions, empirical=empirical, data_sha256=_digest(examples),
                       binding=dict(binding or {}), notes=tuple(notes))
