"""test_hostile_crops - crops of a native document with hostile page geometry: a stable error before any bitmap, no files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pdf_fixtures as fx
import pytest
from pdf_fixtures import parse_cache  # noqa: F401  (fixture)
from test_crops import LINES, QUOTE, _rehashed, first_text_element, request_for, sha256_hex, write_json

MAX_SIDE_PX = 28800  # 14,400 pt at the crop resolution (144 dpi)
MAX_PIXELS = 64 << 20
# A page width whose crop is 2^32 + 100 pixels wide: cut to a 32-bit int it was 100 pixels, and
# the renderer wrote the rows of the real width past a 100-pixel bitmap.
HUGE_WIDTH_Q = 50 * ((1 << 32) + 100)


@pytest.fixture()
def bent(tmp_path: Path, parse_cache: Path) -> dict[str, Any]:  # noqa: F811
    """A parsed PDF, a grounded quote on page 1, and a maker of rehashed documents with another page 1."""
    pdf = fx.write_pdf(tmp_path, "minutes.pdf", fx.text_pdf([LINES]))
    done = fx.run_program([*fx.programs()["ethos-core"], "doc", "parse", str(pdf), "--out", str(tmp_path / "doc.json")])
    assert done.returncode == 0, done.stderr
    document = json.loads((tmp_path / "doc.json").read_text(encoding="utf-8"))
    return {"dir": tmp_path, "pdf": pdf, "document": document}


def with_page(ws: dict[str, Any], width: int, height: int, *, element_bbox: list[int] | None = None) -> tuple[dict[str, Any], Path]:
    """The workspace document with page 1 resized (and the first text element moved), rehashed as a
    producer would (an unkeyed hash anyone can recompute), written to disk."""
    document = json.loads(json.dumps(ws["document"]))
    page = document["payload"]["pages"][0]
    page["width"], page["height"] = width, height
    element = first_text_element(document)
    if element_bbox is not None:
        element["bbox"] = element_bbox
    document = _rehashed(document)
    return document, write_json(ws["dir"] / f"bent-{width}x{height}.json", document)


def refused_on_both_clis(argv_of: Any, crop_dir: Path, out: Path) -> dict[str, Any]:
    """Runs the command on both CLIs: exit 2, one identical envelope, no stdout, and no file left
    in the crop directory or at --out. Returns the error."""
    envelopes = []
    for program in ("ethos", "ethos-core"):
        done = fx.run_program([*fx.programs()[program], *argv_of(crop_dir / program), "--out", str(out)])
        assert done.returncode == 2, (program, done.returncode, done.stderr)
        assert done.stdout == b""
        assert fx.envelope_code(done.stderr) == "input_limit_exceeded", done.stderr
        envelopes.append(done.stderr)
        leftovers = list((crop_dir / program).iterdir()) if (crop_dir / program).exists() else []
        assert leftovers == [], leftovers
        assert not out.exists()
    assert envelopes[0] == envelopes[1]
    error: dict[str, Any] = json.loads(envelopes[0])["error"]
    return error


def crop_element_argv(ws: dict[str, Any], document: dict[str, Any], doc_path: Path) -> Any:
    element = first_text_element(document)
    pdf_fingerprint = "sha256:" + sha256_hex(ws["pdf"].read_bytes())
    request = write_json(ws["dir"] / "request.json", request_for(document, element["id"], pdf_fingerprint))
    return lambda crop_dir: ["crop_element", str(doc_path), "--request", str(request),
                             "--crop-source-pdf", str(ws["pdf"]), "--crop-dir", str(crop_dir)]


def test_a_page_wider_than_any_pdf_page_is_refused_before_rendering(bent: dict[str, Any]) -> None:
    ws = bent
    original = first_text_element(ws["document"])["bbox"]
    document, doc_path = with_page(ws, HUGE_WIDTH_Q, 79200, element_bbox=[original[0], original[1], HUGE_WIDTH_Q, original[3]])
    error = refused_on_both_clis(crop_element_argv(ws, document, doc_path), ws["dir"] / "crops", ws["dir"] / "out.json")
    assert error["details"] == {"input": "crop", "limit_side_px": MAX_SIDE_PX, "page_index": 1}
    assert "limit named in details" in error["message"]


def test_verify_crops_with_highlights_on_a_huge_page_are_refused(bent: dict[str, Any]) -> None:
    # verify --crop-dir highlights the cited characters: the path whose mask write overflowed.
    ws = bent
    original = first_text_element(ws["document"])["bbox"]
    document, doc_path = with_page(ws, HUGE_WIDTH_Q, HUGE_WIDTH_Q, element_bbox=[original[0], original[1], HUGE_WIDTH_Q, original[3]])
    citations = write_json(
        ws["dir"] / "citations.json",
        {"document_fingerprint": document["fingerprint"],
         "claims": [{"kind": "quote", "text": QUOTE, "citation": {"page": "p0001"}}]},
    )

    def argv(crop_dir: Path) -> list[str]:
        return ["verify", str(doc_path), "--citations", str(citations), "--crop-dir", str(crop_dir),
                "--crop-source-pdf", str(ws["pdf"])]

    error = refused_on_both_clis(argv, ws["dir"] / "crops", ws["dir"] / "report.json")
    assert error["details"] == {"input": "crop", "limit_side_px": MAX_SIDE_PX, "page_index": 1}


def test_a_crop_over_the_pixel_budget_is_refused(bent: dict[str, Any]) -> None:
    # Each side within a PDF page's limit, but 28,000 x 28,000 pixels in all.
    ws = bent
    side = 1400000
    document, doc_path = with_page(ws, side, side, element_bbox=[0, 0, side, side])
    error = refused_on_both_clis(crop_element_argv(ws, document, doc_path), ws["dir"] / "crops", ws["dir"] / "out.json")
    assert error["details"] == {
        "height_px": 28000, "input": "crop", "limit_pixels": MAX_PIXELS, "page_index": 1, "width_px": 28000,
    }


def test_a_crop_within_the_limits_still_renders(bent: dict[str, Any]) -> None:
    # A large page (A0-like, 2,384 x 3,370 pt) under the budget renders as before.
    ws = bent
    document, doc_path = with_page(ws, 238400, 337000)
    argv = crop_element_argv(ws, document, doc_path)(ws["dir"] / "ok")
    done = fx.run_program([*fx.programs()["ethos-core"], *argv])
    assert done.returncode == 0, done.stderr
    descriptor = json.loads(done.stdout)
    assert descriptor["rendering_status"] == "rendered"
    assert sorted(path.name for path in (ws["dir"] / "ok").iterdir()) == sorted(
        [descriptor["crop_ref"], descriptor["rendered_ref"]]
    )
