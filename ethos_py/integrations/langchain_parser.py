"""langchain_parser - EthosCitationParser, a LangChain output parser that finds the cited answer in a model's reply.

    pip install 'ethos-verify[langchain]'

Models wrap their JSON in prose, fences and schema sketches; the parser takes the payload Ethos's
reply reader chooses (``ethos_py.extract_json_payload``: any fence, sketches skipped, the last
complete candidate) and checks it has an ``answer`` string and a ``claims`` list. A reply without
one raises ``OutputParserException`` with the reason, so LangChain's retry parsers can send it back.
"""

from __future__ import annotations

from typing import Any

from langchain_core.exceptions import OutputParserException
from langchain_core.output_parsers import BaseOutputParser

from ..reply_extract import extract_json_payload

__all__ = ["EthosCitationParser"]

FORMAT_INSTRUCTIONS = (
    'Reply with one JSON object: {"answer": "<your answer>", "claims": [{"kind": "quote", "text": "<the '
    'words exactly as the source has them>", "element_id": "<the id of the element they are from>"}]}. '
    "Quote only text shown in the context, and cite only ids shown there."
)


class EthosCitationParser(BaseOutputParser[dict[str, Any]]):
    """Parses a model's reply into ``{"answer", "claims", ...}`` (the payload's other members kept).

        >>> parser = EthosCitationParser()
        >>> reply = 'Sure! Here is the schema:\\n```json\\n{"answer": "string", "claims": []}\\n```\\n' \\
        ...         'And the answer:\\n```json\\n{"answer": "It fell 30%.", "claims": [{"kind": "quote", ' \\
        ...         '"text": "cut response time by 30%", "element_id": "e000002"}]}\\n```'
        >>> parser.parse(reply)["claims"][0]["element_id"]
        'e000002'
    """

    def parse(self, text: str) -> dict[str, Any]:
        """The cited answer in ``text``; ``OutputParserException`` when it has none."""
        extraction = extract_json_payload(text)
        if not extraction.found:
            raise OutputParserException(f"no JSON answer in the reply ({extraction.reason})", llm_output=text)
        payload = extraction.payload
        if not isinstance(payload, dict) or not isinstance(payload.get("answer"), str) or not isinstance(payload.get("claims"), list):
            raise OutputParserException("the reply's JSON needs a string 'answer' and a list 'claims'", llm_output=text)
        return payload

    def get_format_instructions(self) -> str:
        """What to tell the model so that its reply parses (put it in the prompt).

            >>> "element_id" in EthosCitationParser().get_format_instructions()
            True
        """
        return FORMAT_INSTRUCTIONS

    @property
    def _type(self) -> str:
        return "ethos_citation"
