"""normalization - ``normalize_text``: a text as the core's matcher reads a quote under a policy (``ethos_normalize_text``)."""

from __future__ import annotations

import json
import os

from . import _ffi
from ._json import dumps
from .document import policy_options

__all__ = ["TIERS", "normalize_text"]

#: The ladder's tiers, in order (docs/matching.md): each applies everything the ones before do.
TIERS = ("exact", "whitespace", "typography", "case", "skeleton")


def normalize_text(text: str, policy: str | bytes | os.PathLike[str] | None = "default", *, tier: str | None = None) -> str:
    """``text`` folded as the matcher folds a quote: the policy's tier ladder up to ``tier``
    (default: the last tier the policy accepts, ``case`` for ``default``), computed by the core,
    so two texts with the same result differ only in what the policy forgives.

        >>> normalize_text("  Fees are due\u00a0within thirty\u2014(30) DAYS ")
        'fees are due within thirty-(30) days'
        >>> normalize_text("The \u201cSupplier\u201d", "strict")
        'The \u201cSupplier\u201d'
        >>> normalize_text("The  Supplier", tier="whitespace")
        'The Supplier'
    """
    if not isinstance(text, str):
        raise TypeError("text must be a str")
    if tier is not None and tier not in TIERS:
        raise ValueError(f"tier must be one of {TIERS}")
    options = policy_options(policy)
    if tier is not None:
        options["tier"] = tier
    data = text.encode("utf-8")
    options_bytes = dumps(options)
    result = _ffi.call_string(_ffi.lib.ethos_normalize_text, data, len(data), options_bytes, len(options_bytes))
    normalized: str = json.loads(result)["text"]
    return normalized
