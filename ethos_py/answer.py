"""answer - ``check`` and ``check_answer``: verbatim coverage of a free-form answer against sources.

The measurement is the core's (``ethos_check_answer``), so the result bytes are the ones
``ethos check-answer`` and ``ethos-core check-answer`` print; docs/answers.md explains them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from typing import Any, Union

from . import _ffi
from .document import Document

__all__ = [
    "PALETTES",
    "answer_summary_text",
    "check",
    "check_answer",
    "check_answer_json",
    "render_html",
    "render_result",
    "render_words",
    "tiktoken_counter",
    "token_counts",
]

#: A token counter: the number of tokens of a text.
TokenCounter = Callable[[str], int]

#: The palettes of ``render_result`` and ``check-answer --palette`` (docs/answers.md "Highlighting").
PALETTES = ("classic", "colorblind", "neon", "mono")

#: One source: an open ``Document`` (left open), a path, or the source's bytes (opened with
#: ``grounding``, then closed).
SourceLike = Union[Document, str, "os.PathLike[str]", bytes, bytearray, memoryview]

_SCOPES = ("all", "quotes")


def _is_pdf(item: SourceLike) -> bool:
    """The CLIs' rule (docs/cli.md §3.2): a .pdf name, or a %PDF- header in the first KiB."""
    if isinstance(item, Document):
        return False
    if isinstance(item, (bytes, bytearray, memoryview)):
        return b"%PDF-" in bytes(item[:1029])
    path = os.fspath(item)
    if path.lower().endswith(".pdf"):
        return True
    try:
        with open(path, "rb") as handle:
            return b"%PDF-" in handle.read(1029)
    except OSError:
        return False  # left to Document.open, which reports it


def _documents(stack: ExitStack, source: SourceLike | Sequence[SourceLike] | None, grounding: str | None,
               source_text: str | Sequence[str] | None,
               parse_options: Mapping[str, Any] | None = None) -> list[Document]:
    """Every source as an open Document, in order; the ones opened here close with the stack.
    A PDF is parsed by ethos-core (``ethos_py.pdf``: parse cache, workers, limits) on the way."""
    if source is None:
        given: list[SourceLike] = []
    elif isinstance(source, (Document, str, os.PathLike, bytes, bytearray, memoryview)):
        given = [source]
    else:
        given = list(source)
    documents: list[Document] = []
    for item in given:
        if isinstance(item, Document):
            documents.append(item)
        elif _is_pdf(item):
            from .pdf import parse_pdf_bytes

            parsed = parse_pdf_bytes(item if isinstance(item, (str, os.PathLike)) else bytes(item), **(parse_options or {}))
            documents.append(stack.enter_context(Document.from_bytes(parsed, "ethos-native")))
        else:
            documents.append(stack.enter_context(Document.open(item, grounding)))
    texts = [source_text] if isinstance(source_text, str) else list(source_text or ())
    for text in texts:
        # Literal text is its own argument (never a path), opened as the text loader does a file.
        documents.append(stack.enter_context(Document.from_bytes(text.encode("utf-8"), "text")))
    if not documents:
        raise ValueError("check_answer needs at least one source")
    return documents


def check_answer_json(
    answer: str,
    source: SourceLike | Sequence[SourceLike] | None = None,
    *,
    scope: str = "all",
    ngram: int = 3,
    policy: str | None = None,
    grounding: str | None = None,
    source_text: str | Sequence[str] | None = None,
    parse_options: Mapping[str, Any] | None = None,
    subsequence: bool = False,
) -> bytes:
    """The answer check result as canonical JSON bytes (no trailing newline).

    ``source`` is one source or a list (a RAG context of passages): ``Document`` objects, paths or
    bytes (opened with ``grounding``: a native document or Grounding JSON by default, ``"text"``
    or ``"markdown"`` for plain files, docs/sources.md); ``source_text`` adds literal texts. A PDF
    (a ``.pdf`` path or bytes with a ``%PDF-`` header) is parsed on the way by ethos-core, or read
    from the parse cache; ``parse_options`` are ``ethos_py.parse_pdf``'s keyword arguments.
    ``scope`` is ``"all"`` (every word) or ``"quotes"`` (the quotations only); ``ngram`` (3 to
    1000) is the shortest run counted as verbatim; ``subsequence`` adds ``summary.subsequence``,
    the order-only reading (longest common subsequence of words), and ``summary.window``, the
    smallest source window holding every verbatim word with ROUGE-L against it; ``policy`` a preset name
    (``"strict"``, ``"default"``, ``"permissive"``) whose accepted tier decides normalization.

        >>> data = check_answer_json("the quick brown fox", source_text="A quick brown fox.")
        >>> data.startswith(b'{"artifact_type":"ethos.answer_check.v1"')
        True
    """
    if not isinstance(answer, str):
        raise TypeError("answer must be a str")
    if scope not in _SCOPES:
        raise ValueError(f"scope must be one of {_SCOPES}")
    request: dict[str, Any] = {"answer": answer, "ngram": ngram, "scope": scope}
    if subsequence:
        request["subsequence"] = True
    if policy is not None:
        request["policy"] = policy
    request_bytes = json.dumps(request, ensure_ascii=False).encode("utf-8")
    with ExitStack() as stack:
        documents = _documents(stack, source, grounding, source_text, parse_options)
        handles = [stack.enter_context(document._borrowed_handle()) for document in documents]
        array = _ffi.ffi.new("ethos_document *[]", handles)
        return _ffi.call_string(_ffi.lib.ethos_check_answer, array, len(handles), request_bytes, len(request_bytes))


def check_answer(
    answer: str,
    source: SourceLike | Sequence[SourceLike] | None = None,
    *,
    scope: str = "all",
    ngram: int = 3,
    policy: str | None = None,
    grounding: str | None = None,
    source_text: str | Sequence[str] | None = None,
    parse_options: Mapping[str, Any] | None = None,
    subsequence: bool = False,
    count_tokens: TokenCounter | None = None,
) -> dict[str, Any]:
    """``check_answer_json`` parsed: ``result["summary"]``, ``["words"]``, ``["runs"]``,
    ``["quotes"]`` and ``["gate"]`` (schemas/answer-check.schema.json). With ``count_tokens``
    (a callable, e.g. ``tiktoken_counter()``), ``result["tokens"]`` is ``token_counts``'s.

        >>> result = check_answer('It "cut average response time by 30%".', "examples/quickstart/document.json")
        >>> [(quote["status"], quote["check"]["match"]["tier"]) for quote in result["quotes"]]
        [('grounded', 'exact')]
        >>> result["runs"][0]["source"]["elements"][0]["element_id"], result["gate"]["passed"]
        ('e000002', True)
    """
    result: dict[str, Any] = json.loads(
        check_answer_json(
            answer, source, scope=scope, ngram=ngram, policy=policy, grounding=grounding, source_text=source_text,
            parse_options=parse_options, subsequence=subsequence,
        )
    )
    if count_tokens is not None:
        result["tokens"] = token_counts(result, answer, count_tokens)
    return result


def check(text: str, source: SourceLike | Sequence[SourceLike] | None = None, ngram: int = 3, **options: Any) -> dict[str, Any]:
    """Verbatim coverage of ``text`` against ``source``: ``check_answer`` with scope ``"all"``.

        >>> result = check("so the quick brown fox ran", source_text="The quick brown fox jumps.")
        >>> [run["text"] for run in result["runs"]], result["summary"]["verbatim_share_bp"]
        (['the quick brown fox'], 6666)
    """
    return check_answer(text, source, scope="all", ngram=ngram, **options)


def answer_summary_text(result: dict[str, Any] | bytes | str) -> str:
    """The ``--format text`` rendering of a result (the core's, byte for byte).

        >>> print(answer_summary_text(check("the quick brown fox", source_text="the quick brown fox")), end="")
        answer check (scope all, tier case, runs of at least 3 words)
        words: 4, verbatim 4 (100.00 %), runs 1, longest 4 words
        run 1: 4 words "the quick brown fox" in source 1, e000001
        quotes: 0, grounded 0, not grounded 0, too short 0
        gate: passed
    """
    if isinstance(result, dict):
        data = json.dumps(result, ensure_ascii=False).encode("utf-8")
    elif isinstance(result, str):
        data = result.encode("utf-8")
    else:
        data = bytes(result)
    return _ffi.call_string(_ffi.lib.ethos_answer_summary_text, data, len(data)).decode("utf-8")


def _result_bytes(result: dict[str, Any] | bytes | str) -> bytes:
    if isinstance(result, dict):
        return json.dumps(result, ensure_ascii=False).encode("utf-8")
    if isinstance(result, str):
        return result.encode("utf-8")
    return bytes(result)


def _render(result: dict[str, Any] | bytes | str, answer: str, palette: str, color: bool, part: str) -> str:
    if palette not in PALETTES:
        raise ValueError(f"palette must be one of {PALETTES}")
    data = _result_bytes(result)
    text = answer.encode("utf-8")
    options = json.dumps({"color": bool(color), "palette": palette, "part": part}).encode("utf-8")
    call = _ffi.lib.ethos_answer_render_text
    return _ffi.call_string(call, data, len(data), text, len(text), options, len(options)).decode("utf-8")


def render_result(result: dict[str, Any] | bytes | str, answer: str, *, palette: str = "classic", color: bool = True) -> str:
    r"""The ``check-answer --format text`` output of ``result`` for ``answer`` (the text checked),
    the core's bytes: with ``color``, the answer with each word in its verdict's style (``palette``
    one of ``PALETTES``), a key line, then the summary; without, ``answer_summary_text(result)``.

        >>> result = check("the quick brown fox ran", source_text="the quick brown fox")
        >>> render_result(result, "the quick brown fox ran", palette="mono").splitlines()[0]
        '\x1b[1mthe\x1b[0m \x1b[1mquick\x1b[0m \x1b[1mbrown\x1b[0m \x1b[1mfox\x1b[0m ran'
    """
    return _render(result, answer, palette, color, "all")


def render_words(result: dict[str, Any] | bytes | str, answer: str, *, palette: str = "classic", color: bool = True) -> str:
    r"""Only the highlighted answer of ``render_result`` (ends with a newline); without ``color``
    the answer itself, its control characters shown as U+FFFD.

        >>> render_words(check("the quick brown fox ran", source_text="the quick brown fox"), "the quick brown fox ran", color=False)
        'the quick brown fox ran\n'
    """
    return _render(result, answer, palette, color, "words")


def render_html(
    result: dict[str, Any] | bytes | str,
    answer: str,
    *,
    palette: str = "classic",
    pdf_links: Sequence[str | None] | None = None,
) -> str:
    """The ``check-answer --format html`` page of ``result`` for ``answer`` (the text checked), the
    core's bytes: one self-contained page (no script, nothing fetched, every text escaped) with the
    answer highlighted in ``palette``, and every run and quotation listed with its source, element,
    page and boxes. ``pdf_links`` gives, per source in the result's order, the location of its PDF
    (or ``None``): each located element then links to ``location#page=N``.

        >>> result = check("the quick brown fox ran", source_text="the quick brown fox")
        >>> page = render_html(result, "the quick brown fox ran")
        >>> page.startswith("<!DOCTYPE html>"), '<a class="verbatim" href="#run-1"' in page
        (True, True)
    """
    if palette not in PALETTES:
        raise ValueError(f"palette must be one of {PALETTES}")
    data = _result_bytes(result)
    text = answer.encode("utf-8")
    options_value: dict[str, Any] = {"palette": palette}
    if pdf_links is not None:
        options_value["links"] = [None if link is None else os.fspath(link) for link in pdf_links]
    options = json.dumps(options_value, ensure_ascii=False).encode("utf-8")
    call = _ffi.lib.ethos_answer_render_html
    return _ffi.call_string(call, data, len(data), text, len(text), options, len(options)).decode("utf-8")


def _whitespace_tokens(text: str) -> int:
    return len(text.split())


def token_counts(result: dict[str, Any], answer: str, count_tokens: TokenCounter | None = None) -> dict[str, int]:
    """``{"differing": d, "total": t}``: ``t`` tokens in ``answer``, ``d`` of them in its stretches
    of words that are not verbatim (each maximal stretch, from its first word's start to its last
    word's end, counted on its own). ``count_tokens`` counts one text: whitespace-separated pieces
    by default; ``tiktoken_counter()`` counts a model's tokens.

        >>> answer = "so the quick brown fox ran off"
        >>> token_counts(check(answer, source_text="The quick brown fox jumps."), answer)
        {'differing': 3, 'total': 7}
    """
    counter = count_tokens or _whitespace_tokens
    words = result["words"]
    differing = 0
    stretch: tuple[int, int] | None = None
    for word in [*words, None]:
        if word is not None and not word["verbatim"]:
            stretch = (word["start"] if stretch is None else stretch[0], word["end"])
            continue
        if stretch is not None:
            differing += counter(answer[stretch[0]:stretch[1]])
            stretch = None
    return {"differing": differing, "total": counter(answer)}


def tiktoken_counter(encoding: str = "cl100k_base") -> TokenCounter:
    """A ``count_tokens`` for ``token_counts`` that counts ``encoding``'s tokens with tiktoken
    (``pip install 'ethos-verify[tiktoken]'``; imported here, never by ``import ethos_py``).

        >>> answer = "so the quick brown fox ran"
        >>> result = check(answer, source_text="the quick brown fox")
        >>> token_counts(result, answer, tiktoken_counter())  # doctest: +SKIP
        {'differing': 2, 'total': 6}
    """
    import tiktoken  # optional: only who asks for model tokens needs it

    codec = tiktoken.get_encoding(encoding)
    return lambda text: len(codec.encode(text, disallowed_special=()))
