"""_emission_rules - the error type and field checks shared by citation emission v1 and the evidence-handle v2 bridge."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from .errors import EthosError

__all__ = [
    "CLAIM_KINDS",
    "CitationEmissionError",
    "MAX_CLAIMS",
    "SOURCE_ID_MAX_CHARS",
    "copy_claims",
    "is_cell_coordinate",
    "is_fingerprint",
    "materialize_records",
    "require_nonblank",
    "require_source_id",
]

#: The claim kinds a model may emit (``region`` and ``other`` are verifier-side only).
CLAIM_KINDS = frozenset({"quote", "value", "presence", "table_cell"})
#: The most claims one emission may carry (docs/contracts.md#citation-emission-and-evidence-handles).
MAX_CLAIMS = 256
#: Source ids and evidence ids are opaque, but bounded so a model cannot smuggle prose in them.
SOURCE_ID_MAX_CHARS = 256

_FINGERPRINT = re.compile(r"sha256:[0-9a-f]{64}")


class CitationEmissionError(EthosError, ValueError):
    """A citation emission or hydration was rejected; the whole batch is refused, never repaired.

    ``code`` is stable and machine-readable (``invalid_claim``, ``out_of_vocabulary``, ...);
    ``claim_index`` (1-based, into the model's claims) or ``record_index`` (1-based, into the
    retrieval records) says where, so a structured-output retry can point the model at it::

        >>> error = CitationEmissionError("out_of_vocabulary", "page p0009 was not shown", claim_index=2)
        >>> (error.code, error.claim_index, str(error))
        ('out_of_vocabulary', 2, 'claim 2: out_of_vocabulary: page p0009 was not shown')

    It is a ``ValueError`` (as in the public ``ethos_pdf``) and an ``EthosError`` (so also an
    ``EthosPythonSurfaceError``).
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        claim_index: int | None = None,
        record_index: int | None = None,
    ) -> None:
        self.code = code
        self.error_code = code
        self.message = message
        self.claim_index = claim_index
        self.record_index = record_index
        # A claim position is the more useful pointer for a retry, so it wins when both are set.
        if claim_index is not None:
            where = f"claim {claim_index}: "
        elif record_index is not None:
            where = f"record {record_index}: "
        else:
            where = ""
        super().__init__(f"{where}{code}: {message}")


def is_fingerprint(value: object) -> bool:
    """True for the strict prefixed form ``sha256:`` + 64 lowercase hex digits."""
    return isinstance(value, str) and _FINGERPRINT.fullmatch(value) is not None


def is_cell_coordinate(value: object) -> bool:
    """True for a non-negative ``int`` that is not a ``bool`` (JSON has no such overlap)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def require_nonblank(
    value: object,
    field: str,
    *,
    code: str = "invalid_claim",
    claim_index: int | None = None,
    record_index: int | None = None,
) -> str:
    """Returns ``value`` when it is a string with a non-whitespace character, else raises ``code``."""
    if not isinstance(value, str) or not value.strip():
        raise CitationEmissionError(
            code, f"{field} must be a non-blank string", claim_index=claim_index, record_index=record_index
        )
    return value


def require_source_id(
    value: object,
    field: str,
    *,
    claim_index: int | None = None,
    record_index: int | None = None,
) -> str:
    """A non-blank id of at most ``SOURCE_ID_MAX_CHARS`` characters, else ``invalid_source_id``."""
    text = require_nonblank(
        value, field, code="invalid_source_id", claim_index=claim_index, record_index=record_index
    )
    if len(text) > SOURCE_ID_MAX_CHARS:
        raise CitationEmissionError(
            "invalid_source_id",
            f"{field} exceeds {SOURCE_ID_MAX_CHARS} characters",
            claim_index=claim_index,
            record_index=record_index,
        )
    return text


def materialize_records(records: Iterable[Any]) -> list[Any]:
    """The retrieval records as a non-empty list; a lone string or mapping is a caller mistake."""
    if isinstance(records, (str, bytes, Mapping)):
        raise CitationEmissionError("invalid_retrieval_results", "expected an iterable of records")
    try:
        materialized = list(records)
    except TypeError as error:
        raise CitationEmissionError("invalid_retrieval_results", "records must be iterable") from error
    if not materialized:
        raise CitationEmissionError("empty_retrieval_results", "at least one record is required")
    return materialized


def copy_claims(claims: Iterable[Any]) -> list[dict[str, Any]]:
    """Shallow copies of the caller's claims (and their ``cell``), so later edits cannot leak in."""
    if isinstance(claims, (str, bytes, Mapping)):
        raise CitationEmissionError("invalid_claims", "claims must be an iterable of mappings")
    try:
        materialized = list(claims)
    except TypeError as error:
        raise CitationEmissionError("invalid_claims", "claims must be iterable") from error
    copies: list[dict[str, Any]] = []
    for index, claim in enumerate(materialized, 1):
        if not isinstance(claim, Mapping):
            raise CitationEmissionError("invalid_claim", "expected a mapping", claim_index=index)
        copy = dict(claim)
        if isinstance(copy.get("cell"), Mapping):
            copy["cell"] = dict(copy["cell"])
        copies.append(copy)
    return copies
