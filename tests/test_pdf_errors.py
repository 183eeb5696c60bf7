"""test_pdf_errors - every parse failure code, provoked by a real PDF or a limit, on every surface.

Each case runs ``ethos_py.parse_pdf_json`` (typed exception), ``ethos doc parse`` and
``ethos-core doc parse`` (exit code + one envelope on stderr, nothing on stdout); the two CLIs
must print the same envelope bytes. Expected codes come from CONTRACTS.md §1.4.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pdf_fixtures as fx
import pytest
from pdf_fixtures import parse_cache  # noqa: F401  (fixture)

import ethos_py
from ethos_py import errors

pytestmark = pytest.mark.usefixtures("parse_cache")


# PDFium alone needs about 50 MiB more than an idle process to extract this page's 400,000 glyphs
# (measured with pypdfium2), before Ethos keeps a record per glyph; a one-line page stays far below
# the limit (test_the_memory_limit_lets_a_light_page_through).
HEAVY_GLYPHS = 400_000
MEMORY_LIMIT_MIB = 40


@dataclass
class Case:
    name: str
    make: Callable[[], bytes]
    code: str
    exit_code: int
    error_class: type[errors.EthosCommandError]
    options: dict[str, object] = field(default_factory=dict)

    def flags(self) -> list[str]:
        return ethos_py.pdf.ParseOptions(**self.options).arguments(include_format=False)  # type: ignore[arg-type]


CASES = [
    Case("not-a-pdf", fx.not_a_pdf, "invalid_pdf", 3, errors.InvalidPdfError),
    Case("garbled", fx.corrupt_pdf, "corrupt_pdf", 4, errors.CorruptPdfError),
    Case("truncated", fx.truncated_pdf, "corrupt_pdf", 4, errors.CorruptPdfError),
    Case("no-password", lambda: fx.encrypted_pdf("s3cret"), "password_protected", 5, errors.PasswordProtectedError),
    Case(
        "wrong-password",
        lambda: fx.encrypted_pdf("s3cret"),
        "password_protected",
        5,
        errors.PasswordProtectedError,
        {"password": "guess"},
    ),
    Case(
        "too-many-pages",
        lambda: fx.text_pdf([["one"], ["two"], ["three"]]),
        "page_limit_exceeded",
        6,
        errors.PageLimitExceededError,
        {"max_pages": 2},
    ),
    Case(
        "too-large",
        lambda: fx.text_pdf([[fx.VISIBLE_SENTENCE]]),
        "file_too_large",
        7,
        errors.FileTooLargeError,
        {"max_file_bytes": 100},
    ),
    Case("image-only", fx.image_only_pdf, "ocr_required", 8, errors.OcrRequiredError),
    Case(
        "unknown-security-handler",
        fx.unknown_security_handler_pdf,
        "unsupported_pdf_feature",
        9,
        errors.UnsupportedPdfFeatureError,
    ),
    Case(
        "timeout",
        lambda: fx.many_pages_pdf(200),
        "parse_timeout",
        10,
        errors.ParseTimeoutError,
        {"max_parse_ms": 1, "use_cache": False},
    ),
    Case(
        "memory",
        lambda: fx.heavy_page_pdf(HEAVY_GLYPHS),
        "memory_limit_exceeded",
        11,
        errors.MemoryLimitExceededError,
        {"max_memory_mib": MEMORY_LIMIT_MIB, "use_cache": False},
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_python_api_raises_the_typed_error(case: Case, tmp_path: Path) -> None:
    pdf = fx.write_pdf(tmp_path, f"{case.name}.pdf", case.make())
    with pytest.raises(case.error_class) as raised:
        ethos_py.parse_pdf_json(pdf, **case.options)  # type: ignore[arg-type]
    assert raised.value.error_code == case.code
    assert raised.value.returncode == case.exit_code
    assert raised.value.stdout == ""


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_both_clis_exit_with_the_code_and_the_same_envelope(case: Case, tmp_path: Path) -> None:
    pdf = fx.write_pdf(tmp_path, f"{case.name}.pdf", case.make())
    envelopes = {}
    for surface, program in fx.programs().items():
        result = fx.run_program([*program, "doc", "parse", *case.flags(), str(pdf)])
        assert (result.returncode, result.stdout) == (case.exit_code, b""), (surface, result.stderr)
        assert fx.envelope_code(result.stderr) == case.code, surface
        envelopes[surface] = result.stderr
    assert envelopes["ethos"] == envelopes["ethos-core"]


def test_the_right_password_opens_the_encrypted_pdf(tmp_path: Path) -> None:
    pdf = fx.write_pdf(tmp_path, "encrypted.pdf", fx.encrypted_pdf("s3cret"))
    document = ethos_py.parse_pdf_json(pdf, password="s3cret")
    assert fx.VISIBLE_SENTENCE in fx.all_text(document)


def test_the_password_comes_from_a_file_or_the_environment_not_argv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pdf = fx.write_pdf(tmp_path, "encrypted.pdf", fx.encrypted_pdf("s3cret"))
    secret = tmp_path / "password.txt"
    secret.write_text("s3cret\n", encoding="utf-8")
    core = fx.programs()["ethos-core"]
    outputs = []
    for program in ("ethos", "ethos-core"):
        done = fx.run_program([*fx.programs()[program], "doc", "parse", "--no-cache", "--password-file", str(secret), str(pdf)])
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    # The ethos command hands --password to ethos-core in its environment; the bytes are the same.
    done = fx.run_program([*fx.programs()["ethos"], "doc", "parse", "--no-cache", "--password", "s3cret", str(pdf)])
    assert done.returncode == 0, done.stderr
    outputs.append(done.stdout)
    monkeypatch.setenv("ETHOS_PDF_PASSWORD", "s3cret")
    done = fx.run_program([*core, "doc", "parse", "--no-cache", str(pdf)])
    assert done.returncode == 0, done.stderr
    outputs.append(done.stdout)
    assert len(set(outputs)) == 1 and fx.VISIBLE_SENTENCE.encode() in outputs[0]
    # --password still wins over the environment; a wrong one is refused.
    done = fx.run_program([*core, "doc", "parse", "--no-cache", "--password", "guess", str(pdf)])
    assert fx.envelope_code(done.stderr) == "password_protected"
    # Both --password and --password-file: ambiguous, an argument error on both CLIs.
    for program in ("ethos", "ethos-core"):
        done = fx.run_program([*fx.programs()[program], "doc", "parse", "--password", "x", "--password-file", str(secret), str(pdf)])
        assert done.returncode == 2
        assert json.loads(done.stderr)["error"]["details"] == {"argument": "--password-file"}
    missing = fx.run_program([*core, "doc", "parse", "--password-file", str(tmp_path / "nope"), str(pdf)])
    assert json.loads(missing.stderr)["error"] == {
        "code": "host_io",
        "details": {"argument": "--password-file", "path": str(tmp_path / "nope"), "reason": "not_found"},
        "message": json.loads(missing.stderr)["error"]["message"],
    }


def test_limits_at_the_boundary_are_accepted(tmp_path: Path) -> None:
    data = fx.text_pdf([["one"], ["two"], ["three"]])
    pdf = fx.write_pdf(tmp_path, "three.pdf", data)
    document = ethos_py.parse_pdf_json(pdf, max_pages=3, max_file_bytes=len(data))
    assert [page["index"] for page in document["payload"]["pages"]] == [1, 2, 3]
    with pytest.raises(errors.FileTooLargeError):
        ethos_py.parse_pdf_json(pdf, max_file_bytes=len(data) - 1)


def test_the_memory_limit_lets_a_light_page_through(tmp_path: Path) -> None:
    pdf = fx.write_pdf(tmp_path, "light.pdf", fx.text_pdf([[fx.VISIBLE_SENTENCE]]))
    document = ethos_py.parse_pdf_json(pdf, max_memory_mib=MEMORY_LIMIT_MIB, use_cache=False)
    assert fx.VISIBLE_SENTENCE in fx.all_text(document)


def test_the_memory_limit_is_on_all_workers_together(tmp_path: Path) -> None:
    # A parse worker with PDFium loaded holds about 12 MiB here: one stays under 18 MiB, two
    # parsing side by side do not. Before the limit was total, each worker was held to it alone.
    pdf = fx.write_pdf(tmp_path, "long.pdf", fx.many_pages_pdf(600))
    one = ethos_py.parse_pdf_json(pdf, max_memory_mib=18, workers=1, use_cache=False)
    assert len(one["payload"]["pages"]) == 600
    for surface, program in fx.programs().items():
        result = fx.run_program([*program, "doc", "parse", "--no-cache", "--workers", "2", "--max-memory-mib", "18", str(pdf)])
        assert (result.returncode, result.stdout) == (11, b""), (surface, result.stderr)
        message = json.loads(result.stderr)["error"]["message"]
        assert message.startswith("the parse workers together needed more than 18 MiB"), surface


def test_ocr_required_looks_only_at_the_selected_pages(tmp_path: Path) -> None:
    pdf = fx.write_pdf(tmp_path, "mixed.pdf", fx.text_then_image_page_pdf())
    with pytest.raises(errors.OcrRequiredError):
        ethos_py.parse_pdf_json(pdf, pages="2")
    document = ethos_py.parse_pdf_json(pdf, pages="1")
    assert [page["id"] for page in document["payload"]["pages"]] == ["p0001"]


def test_a_missing_pdfium_is_pdfium_not_found(tmp_path: Path) -> None:
    pdf = fx.write_pdf(tmp_path, "a.pdf", fx.text_pdf([[fx.VISIBLE_SENTENCE]]))
    with pytest.raises(errors.PdfiumNotFoundError) as raised:
        ethos_py.parse_pdf_json(pdf, pdfium_library=tmp_path / "no-such-libpdfium.so", use_cache=False)
    assert raised.value.error_code == "internal_error"
    assert raised.value.returncode == 12


def test_an_unreadable_path_is_file_not_found_before_spawning(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        ethos_py.parse_pdf_json(tmp_path / "missing.pdf")
