"""test_release.py - the app answer release decision: policy, validation, and agreement with the public oracle."""
from __future__ import annotations

import itertools
import json
from typing import Any

import ethos_pdf  # the public pure-Python helpers, an oracle only
import pytest

import ethos_py
from ethos_py.release import (
    CLAIM_SUPPORT,
    CLAIM_TYPES,
    RELEVANCE,
    app_answer_release_decision,
)

PROOF = {
    "proof_status": "partially_verified",
    "request_certified": False,
    "reusable_grounded_check_ids": ["v0001", "v0003"],
    "needs_review_check_ids": ["v0002"],
    "proof_limitations": ["non_grounded_checks"],
}

# How a claim is tied to the proof: reusable ids, a non-reusable id, or an app-supplied flag.
GROUNDINGS: dict[str, dict[str, Any]] = {
    "reusable-ids": {"check_ids": ["v0001", "v0003"]},
    "single-check-id": {"check_id": "v0001"},
    "needs-review-id": {"check_ids": ["v0001", "v0002"]},
    "supplied-true": {"citation_grounded": True},
    "supplied-false": {"citation_grounded": False},
}


def _claim(claim_id: str, grounding: str, relevance: str, claim_type: str, support: str | None) -> dict[str, Any]:
    claim: dict[str, Any] = {"id": claim_id, "text": f"claim {claim_id}", **GROUNDINGS[grounding],
                             "question_relevance": relevance, "claim_type": claim_type}
    if support is not None:
        claim["claim_support"] = support
    return claim


def _both(claims: list[dict[str, Any]], **kwargs: Any) -> tuple[Any, Any]:
    """(ours, oracle): each a decision dict, or the exception type name when it raised."""
    results = []
    for decide in (app_answer_release_decision, ethos_pdf.app_answer_release_decision):
        try:
            results.append(decide("What happened?", PROOF, claims, **kwargs))
        except ValueError:
            results.append("ValueError")
    return results[0], results[1]


SINGLE_CLAIMS = list(itertools.product(GROUNDINGS, RELEVANCE, CLAIM_TYPES, (None, *CLAIM_SUPPORT)))


@pytest.mark.parametrize(("grounding", "relevance", "claim_type", "support"), SINGLE_CLAIMS)
def test_single_claim_agrees_with_oracle(grounding: str, relevance: str, claim_type: str, support: str | None) -> None:
    ours, oracle = _both([_claim("c1", grounding, relevance, claim_type, support)])
    assert ours == oracle


def test_app_status_over_claim_pairs_agrees_with_oracle() -> None:
    kinds = [("reusable-ids", "direct_answer", "source_fact", "supported"),
             ("reusable-ids", "supports_answer", "synthesis", "supported"),
             ("reusable-ids", "background_only", "source_fact", "supported"),
             ("reusable-ids", "direct_answer", "source_fact", None),
             ("reusable-ids", "direct_answer", "source_fact", "contradicted"),
             ("supplied-false", "direct_answer", "source_fact", "supported")]
    statuses = set()
    for first, second in itertools.product(kinds, repeat=2):
        ours, oracle = _both([_claim("a", *first), _claim("b", *second)])
        assert ours == oracle
        statuses.add(ours["app_status"])
    assert statuses == {"certified", "partial_certified", "claim_support_needs_review",
                        "supported_synthesis_needs_review", "claim_support_rejected",
                        "grounded_but_irrelevant", "cannot_answer_from_sources"}


@pytest.mark.parametrize(
    ("claims", "kwargs"),
    [
        pytest.param([], {"notes": ["reviewed by the app"]}, id="no-claims-with-notes"),
        pytest.param([{"id": "c1", "text": "t", "check_ids": ["v9999"], "question_relevance": "direct_answer",
                       "claim_type": "source_fact"}], {}, id="unknown-check-id"),
        pytest.param([{"id": "c1", "text": "t", "check_ids": ["v0002"], "citation_grounded": True,
                       "question_relevance": "direct_answer", "claim_type": "source_fact"}], {}, id="disagreeing-flag"),
        pytest.param([{"id": "c1", "text": "t", "question_relevance": "direct_answer",
                       "claim_type": "source_fact"}], {}, id="no-ids-no-flag"),
        pytest.param([{"id": "c1", "text": "t", "check_id": "v0001", "check_ids": ["v0001"],
                       "question_relevance": "direct_answer", "claim_type": "source_fact"}], {}, id="both-id-forms"),
        pytest.param([{"id": "c1", "text": "t", "check_ids": ["v0001", "v0001"],
                       "question_relevance": "direct_answer", "claim_type": "source_fact"}], {}, id="duplicate-check-id"),
        pytest.param([{"id": "c1", "text": "t", "check_ids": [], "question_relevance": "direct_answer",
                       "claim_type": "source_fact"}], {}, id="empty-check-ids"),
        pytest.param([_claim("c1", "reusable-ids", "direct_answer", "source_fact", "supported"),
                      _claim("c1", "reusable-ids", "direct_answer", "source_fact", "supported")], {}, id="duplicate-claim-id"),
        pytest.param([_claim("c1", "reusable-ids", "somewhat", "source_fact", "supported")], {}, id="unknown-relevance"),
        pytest.param([_claim("c1", "reusable-ids", "direct_answer", "opinion", "supported")], {}, id="unknown-claim-type"),
        pytest.param([_claim("c1", "reusable-ids", "direct_answer", "source_fact", "likely")], {}, id="unknown-support"),
        pytest.param([{"id": "", "text": "t", "citation_grounded": True, "question_relevance": "direct_answer",
                       "claim_type": "source_fact"}], {}, id="empty-claim-id"),
        pytest.param([_claim("c1", "reusable-ids", "direct_answer", "source_fact", "supported")],
                     {"notes": [""]}, id="empty-note"),
        pytest.param([_claim("c1", "reusable-ids", "direct_answer", "source_fact", "supported")],
                     {"verification_report_ref": ""}, id="empty-report-ref"),
    ],
)
def test_edge_cases_agree_with_oracle(claims: list[dict[str, Any]], kwargs: dict[str, Any]) -> None:
    ours, oracle = _both(claims, **kwargs)
    assert ours == oracle


def test_blank_question_is_rejected() -> None:
    with pytest.raises(ValueError, match="question"):
        app_answer_release_decision("  ", PROOF, [])


def test_a_report_is_summarized_by_the_native_core(small_document: dict[str, Any]) -> None:
    """A raw report (and its Statement) gives the same decision as its proof summary."""
    citations = {"document_fingerprint": small_document["fingerprint"],
                 "claims": [{"kind": "quote", "text": "Revenue grew to $12.4M", "citation": {"element_id": "e000002"}}]}
    with ethos_py.Document.from_bytes(json.dumps(small_document).encode()) as document:
        report = document.verify(citations)
        statement = document.verify(citations, statement=True)
    claim = {"id": "c1", "text": "Revenue grew to $12.4M", "check_id": "v0001",
             "question_relevance": "direct_answer", "claim_type": "source_fact", "claim_support": "supported"}
    from_report = app_answer_release_decision("Revenue?", report, [claim])
    from_statement = app_answer_release_decision("Revenue?", statement, [claim])
    from_summary = app_answer_release_decision("Revenue?", ethos_py.proof_summary(report), [claim])
    assert from_report == from_statement == from_summary
    assert from_report["app_status"] == "certified"
    assert from_report["final_answer_claim_ids"] == ["c1"]
