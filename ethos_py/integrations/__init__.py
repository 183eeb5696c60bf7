"""integrations - LangChain and LlamaIndex adapters: chunk records as framework objects that carry the Ethos metadata contract.

Each adapter imports its framework on first use, so ``import ethos_py.integrations`` needs
neither; install ``ethos-verify[langchain]`` or ``ethos-verify[llamaindex]`` for the one you use. The
citation helpers themselves (``ethos_py.emit``) are duck typed and need no framework at all.
"""

from __future__ import annotations

__all__ = ["ETHOS_METADATA_KEYS", "chunk_metadata"]

from ._metadata import ETHOS_METADATA_KEYS, chunk_metadata
