"""_json - the one JSON serializer ethos_py uses for inputs it builds (docs/contracts.md#conventions form)."""

from __future__ import annotations

import json
from typing import Any


def dumps(value: Any) -> bytes:
    """Canonical-form JSON bytes: sorted keys, no whitespace, raw UTF-8 (no trailing newline).

    Equal to the core's c14n for the values the contracts allow (no floats); the core still
    validates whatever it receives, so a float here is rejected there with a JSON path.
    """
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode("utf-8")
