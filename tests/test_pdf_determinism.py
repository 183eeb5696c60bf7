"""test_pdf_determinism - same PDF and options, same bytes: run after run, for any worker count, on
every surface, from the cache; and a parsed PDF is a document that verifies its own quotes."""

from __future__ import annotations

import json
from pathlib import Path

import pdf_fixtures as fx
import pytest
from pdf_fixtures import parse_cache  # noqa: F401  (fixture)

import ethos_py
from ethos_py import EthosCli

pytestmark = pytest.mark.usefixtures("parse_cache")

# Twelve pages of distinct sentences: enough for several workers to get pages of their own.
PAGES = [[f"Section {page}.{line}: reading order is stable on page {page}." for line in range(1, 16)] for page in range(1, 13)]


@pytest.fixture()
def report_pdf(tmp_path: Path) -> Path:
    return fx.write_pdf(tmp_path, "report.pdf", fx.text_pdf(PAGES))


def test_parsing_twice_gives_identical_bytes(report_pdf: Path) -> None:
    first = ethos_py.parse_pdf_bytes(report_pdf, use_cache=False)
    second = ethos_py.parse_pdf_bytes(report_pdf, use_cache=False)
    assert first == second
    assert first.endswith(b"}\n") and first.count(b"\n") == 1


def test_worker_count_never_changes_the_output(report_pdf: Path) -> None:
    outputs = {workers: ethos_py.parse_pdf_bytes(report_pdf, workers=workers, use_cache=False) for workers in (1, 2, 3, 5)}
    assert len(set(outputs.values())) == 1


@pytest.mark.parametrize("output_format", ["json", "markdown", "text"])
def test_every_surface_prints_the_same_bytes(output_format: str, report_pdf: Path, tmp_path: Path) -> None:
    outputs = {
        "ethos_py.parse_pdf_bytes": ethos_py.parse_pdf_bytes(report_pdf, output_format=output_format),
        "EthosCli": EthosCli().parse_pdf_bytes(report_pdf, output_format=output_format),
    }
    for surface, program in fx.programs().items():
        result = fx.run_program([*program, "doc", "parse", "--format", output_format, str(report_pdf)])
        assert (result.returncode, result.stderr) == (0, b""), surface
        outputs[surface] = result.stdout
        out = tmp_path / f"{surface}.{output_format}"
        written = fx.run_program([*program, "doc", "parse", "--format", output_format, "--out", str(out), str(report_pdf)])
        assert (written.returncode, written.stdout, written.stderr) == (0, b"", b"")
        outputs[f"{surface} --out"] = out.read_bytes()
    assert len(set(outputs.values())) == 1, list(outputs)


def test_markdown_and_text_carry_the_document_text(report_pdf: Path) -> None:
    markdown = ethos_py.parse_pdf_markdown(report_pdf)
    text = ethos_py.parse_pdf_text(report_pdf)
    for sentence in (PAGES[0][0], PAGES[11][14]):
        assert sentence in markdown and sentence in text


def test_fingerprint_of_the_pdf_describes_the_parsed_document(report_pdf: Path, tmp_path: Path) -> None:
    document_bytes = ethos_py.parse_pdf_bytes(report_pdf)
    document_path = tmp_path / "report.json"
    document_path.write_bytes(document_bytes)
    fingerprint = json.loads(document_bytes)["fingerprint"]
    for surface, program in fx.programs().items():
        of_pdf = fx.run_program([*program, "fingerprint", str(report_pdf)])
        of_json = fx.run_program([*program, "fingerprint", str(document_path)])
        assert (of_pdf.returncode, of_pdf.stderr, of_json.returncode) == (0, b"", 0), surface
        described_pdf, described_json = json.loads(of_pdf.stdout), json.loads(of_json.stdout)
        # The representation is what was read (the PDF's document vs the JSON file); all else agrees.
        described_pdf.pop("representation_sha256")
        described_json.pop("representation_sha256")
        assert described_pdf == described_json, surface
        assert described_pdf["document_fingerprint"] == fingerprint
    assert EthosCli().fingerprint(report_pdf)["document_fingerprint"] == fingerprint


def test_second_parse_is_a_cache_hit_that_never_loads_pdfium(report_pdf: Path, tmp_path: Path) -> None:
    from ethos_py._pdfium import bundled_pdfium_library

    cache = tmp_path / "own-cache"
    first = ethos_py.parse_pdf_bytes(report_pdf, cache_dir=cache)
    assert any(cache.rglob("*")), "the first parse wrote a cache entry"
    # A PDFium that cannot be loaded proves nothing was parsed the second time. It sits beside a
    # copy of pypdfium2's version.json, so it claims the same PDFium build (part of the cache key).
    real = bundled_pdfium_library()
    assert real is not None
    broken_dir = tmp_path / "broken-pdfium"
    broken_dir.mkdir()
    (broken_dir / "version.json").write_bytes((real.parent / "version.json").read_bytes())
    broken = broken_dir / real.name
    broken.write_bytes(b"not a shared library")
    assert ethos_py.parse_pdf_bytes(report_pdf, cache_dir=cache, pdfium_library=broken) == first
    with pytest.raises(ethos_py.PdfiumNotFoundError):
        ethos_py.parse_pdf_bytes(report_pdf, cache_dir=cache, pdfium_library=broken, use_cache=False)


def test_quotes_taken_from_the_pdf_ground_and_an_altered_one_does_not(report_pdf: Path) -> None:
    document_bytes = ethos_py.parse_pdf_bytes(report_pdf)
    document = json.loads(document_bytes)
    claims = [
        {"kind": "quote", "text": PAGES[0][3], "citation": {"page": "p0001"}},
        {"kind": "quote", "text": PAGES[6][10], "citation": {"page": "p0007"}},
        # Altered: that sentence says "page 7"; no line anywhere says "7.11 ... page 8".
        {"kind": "quote", "text": PAGES[6][10].replace("page 7", "page 8"), "citation": {"page": "p0007"}},
    ]
    citations = {"document_fingerprint": document["fingerprint"], "claims": claims}
    report = ethos_py.verify(document_bytes, citations)
    assert [check["status"] for check in report["checks"]] == ["grounded", "grounded", "mismatch"]
    assert [check["evidence"]["page"] for check in report["checks"][:2]] == ["p0001", "p0007"]


def test_diagnostics_add_runtime_facts_without_changing_the_fingerprint(report_pdf: Path) -> None:
    plain = ethos_py.parse_pdf_json(report_pdf, use_cache=False)
    with_diagnostics = ethos_py.parse_pdf_json(report_pdf, use_cache=False, diagnostics=True)
    assert "diagnostics" not in plain and isinstance(with_diagnostics["diagnostics"], dict)
    # CONTRACTS §2.2: diagnostics are runtime-only and excluded from every hash.
    diagnostics = with_diagnostics.pop("diagnostics")
    assert with_diagnostics == plain and diagnostics


def test_a_rebuilt_core_never_reads_an_older_builds_cache_entries(report_pdf: Path, tmp_path: Path) -> None:
    import os
    import shutil
    import subprocess

    from ethos_py._locate import find_core_binary
    from ethos_py._pdfium import parse_environment

    core = find_core_binary()
    assert core is not None
    # A copy is another file (new inode and modification time), as a rebuilt binary would be.
    rebuilt = tmp_path / "rebuilt" / "ethos-core"
    rebuilt.parent.mkdir()
    shutil.copy2(core, rebuilt)
    os.utime(rebuilt, ns=(0, 1_000_000_000))
    cache = tmp_path / "shared-cache"

    def cache_state(binary: Path) -> str:
        done = subprocess.run(
            [os.fspath(binary), "doc", "parse", os.fspath(report_pdf), "--cache-dir", os.fspath(cache), "--diagnostics"],
            capture_output=True, check=True, env=parse_environment(None),
        )
        return str(json.loads(done.stdout)["diagnostics"]["cache"])

    assert [cache_state(core), cache_state(core)] == ["miss", "hit"]
    assert [cache_state(rebuilt), cache_state(rebuilt)] == ["miss", "hit"]
