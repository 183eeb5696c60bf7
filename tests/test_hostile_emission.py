"""test_hostile_emission - model output read by ethos_py (a citation emission and the context it is checked against) ends in citations or in CitationEmissionError, whatever its shape (property-based, hypothesis)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ethos_py.emit import build_citation_emission, hydrate_citations
from ethos_py import CitationEmissionError

FINGERPRINT = "sha256:" + "a" * 64
CONTEXT = {"document_fingerprint": FINGERPRINT, "pages": ["p0001"], "elements": ["e000002"], "spans": ["s000001"],
           "table_cells": [{"table_id": "t0001", "row": 0, "col": 1}]}
VALID = build_citation_emission("Revenue grew.", [
    {"kind": "quote", "text": "Revenue grew", "element_id": "e000002"},
    {"kind": "table_cell", "text": "12", "table_id": "t0001", "cell": {"row": 0, "col": 1}},
])

# Any JSON value a model or a broken parser could hand over (with NaN, huge ints, odd strings).
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
    | st.sampled_from(["quote", "value", "table_cell", "e000002", "p0001", "t0001", "1.0.0", FINGERPRINT]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["kind", "text", "page", "element_id", "span_id", "table_id", "cell", "row", "col", "claims",
                         "answer", "schema_version", "x"]) | st.text(max_size=8), inner, max_size=5),
    max_leaves=20)


def hydrated_or_refused(emission: Any, context: Any = CONTEXT) -> None:
    try:
        result = hydrate_citations(emission, context)
    except CitationEmissionError as error:
        assert error.error_code  # a stable code, never an unrelated exception
        return
    assert result["document_fingerprint"] == FINGERPRINT
    assert all(set(claim) <= {"kind", "text", "citation"} for claim in result["claims"])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_any_value_as_the_emission(value: Any) -> None:
    hydrated_or_refused(value)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["answer", "schema_version", "claims"]), json_values)
def test_a_valid_emission_with_one_top_level_field_replaced(field: str, value: Any) -> None:
    hydrated_or_refused({**VALID, field: value})


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=1), st.sampled_from(["kind", "text", "element_id", "page", "span_id",
                                                                 "table_id", "cell", "extra"]), json_values)
def test_a_valid_claim_with_one_field_replaced(index: int, field: str, value: Any) -> None:
    claims = [dict(claim) for claim in VALID["claims"]]
    claims[index][field] = value
    hydrated_or_refused({**VALID, "claims": claims})


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["document_fingerprint", "pages", "elements", "spans", "table_cells"]), json_values)
def test_a_context_with_one_field_replaced(field: str, value: Any) -> None:
    hydrated_or_refused(VALID, {**CONTEXT, field: value})


def test_the_unaltered_emission_hydrates() -> None:
    # The properties above start from this emission: it must be one that succeeds.
    claims = hydrate_citations(VALID, CONTEXT)["claims"]
    assert [claim["citation"] for claim in claims] == [{"element_id": "e000002"},
                                                       {"table_id": "t0001", "cell": {"row": 0, "col": 1}}]
