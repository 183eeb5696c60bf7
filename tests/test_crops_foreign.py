"""test_crops_foreign - crops of foreign sources rendered from the original PDF (docs/sources.md "Crops").

One reportlab PDF with two pages of different sizes; a Grounding JSON, a DoclingDocument (built with
the real docling-core, bottom-left boxes) and the real OpenDataLoader output describe it. Each is
verified with `--crop-dir --crop-source-pdf`; the PNGs are decoded and the highlight must cover
exactly the evidence box mapped onto the PDF page, with the text's ink underneath (a box mapped
to the wrong place would tint blank paper).
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pdf_fixtures as fx
import pytest
from conftest import schema_errors
from pdf_fixtures import parse_cache  # noqa: F401  (fixture)
from PIL import Image
from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth

import ethos_py
from ethos_py.crops import crop_descriptors_json
from ethos_py.errors import EthosError

DPI = 144
MARGIN_Q = 600
LETTER = (612.0, 792.0)
SECOND = (500.0, 700.0)  # page 2: another size, so each page's own size must be used
FONT, SIZE = "Helvetica", 12.0

#: (page number, baseline y in points from the bottom, text), drawn at x = 72.
LINES = [
    (1, 700.0, "Quarterly Report"),
    (1, 660.0, "Revenue grew 12 percent year over year."),
    (1, 620.0, "Costs fell in every region this quarter."),
    (2, 600.0, "Second page results were strong."),
]
QUOTE = "12 percent year over year"
RENDERED_FIELDS = {"source_pdf_fingerprint", "rendered_ref", "rendered_format", "rendered_sha256",
                   "rendered_width_px", "rendered_height_px"}


def c14n(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def crop_ref(check_id: str, document_fingerprint: str, page: str) -> str:
    identity = {"check_id": check_id, "document_fingerprint": document_fingerprint, "page": page,
                "version": "ethos.logical_crop_ref.v1"}
    return f"crop-{sha256_hex(c14n(identity))}.json"


def write_pdf(path: Path) -> Path:
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=LETTER, invariant=1, pageCompression=0)
    for page in (1, 2):
        canvas.setPageSize(LETTER if page == 1 else SECOND)
        canvas.setFont(FONT, SIZE)
        for number, baseline, text in LINES:
            if number == page:
                canvas.drawString(72, baseline, text)
        canvas.showPage()
    canvas.save()
    path.write_bytes(buffer.getvalue())
    return path


def user_box(baseline: float, text: str) -> tuple[float, float, float, float]:
    """The line's box in PDF points, bottom-left origin: (left, bottom, right, top)."""
    ascent, descent = getAscentDescent(FONT, SIZE)
    return 72.0, baseline + descent, 72.0 + stringWidth(text, FONT, SIZE), baseline + ascent


def page_height(page: int) -> float:
    return (LETTER if page == 1 else SECOND)[1]


def display_quanta(page: int, box: tuple[float, float, float, float]) -> list[int]:
    """A bottom-left point box as top-left quanta of its page (outward-rounded)."""
    left, bottom, right, top = box
    h = page_height(page)
    return [math.floor(left * 100), math.floor((h - top) * 100), math.ceil(right * 100), math.ceil((h - bottom) * 100)]


def grounding_json(pdf: Path) -> dict[str, Any]:
    """A Grounding JSON v1 producer's view of the PDF: one element per line, no spans."""
    pages = [{"id": f"pg{n}", "index": n, "width": int(size[0] * 100), "height": int(size[1] * 100), "rotation": 0}
             for n, size in ((1, LETTER), (2, SECOND))]
    elements = [{"id": f"e{k}", "page": f"pg{page}", "bbox": display_quanta(page, user_box(baseline, text)),
                 "kind": "paragraph", "text": text}
                for k, (page, baseline, text) in enumerate(LINES, start=1)]
    return {"artifact_type": "ethos.grounding.v1", "schema_version": "1.0.0",
            "source": {"media_type": "application/pdf", "sha256": "sha256:" + sha256_hex(pdf.read_bytes())},
            "producer": {"name": "test-producer", "version": "1.0.0"},
            "capabilities": {"spans": False, "char_offsets": False, "tables": False},
            "coordinate_system": {"unit": "centipoint", "origin": "top-left"},
            "pages": pages, "elements": elements}


def docling_json(page_sizes: dict[int, tuple[float, float]] | None = None) -> dict[str, Any]:
    """The same lines as a DoclingDocument (real docling-core), boxes with a bottom-left origin."""
    docling = pytest.importorskip("docling_core.types.doc", reason="the test extra installs docling-core")
    sizes = page_sizes or {1: LETTER, 2: SECOND}
    doc = docling.DoclingDocument(name="quarterly")
    for number, (width, height) in sorted(sizes.items()):
        doc.add_page(page_no=number, size=docling.Size(width=width, height=height))
    for page, baseline, text in LINES:
        left, bottom, right, top = user_box(baseline, text)
        box = docling.BoundingBox(l=left, t=top, r=right, b=bottom, coord_origin=docling.CoordOrigin.BOTTOMLEFT)
        doc.add_text(label=docling.DocItemLabel.TEXT, text=text,
                     prov=docling.ProvenanceItem(page_no=page, bbox=box, charspan=(0, len(text))))
    result: dict[str, Any] = doc.export_to_dict()
    return result


def write_json(path: Path, value: Any) -> Path:
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


def run(program: str, *args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return fx.run_program([*fx.programs()[program], *map(str, args)], cwd=cwd)


def files_of(directory: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(directory.iterdir())}


def pixel_rect(bbox: list[int], page_w: int, page_h: int) -> tuple[int, int, int, int]:
    x0, y0 = max(0, bbox[0] - MARGIN_Q), max(0, bbox[1] - MARGIN_Q)
    x1, y1 = min(page_w, bbox[2] + MARGIN_Q), min(page_h, bbox[3] + MARGIN_Q)
    return (x0 * DPI // 7200, y0 * DPI // 7200, -(-x1 * DPI // 7200), -(-y1 * DPI // 7200))


def tinted(image: Image.Image) -> set[tuple[int, int]]:
    """Pixels under the yellow highlight: red well above blue (the page is black on white)."""
    rgb = image.convert("RGB")
    data = rgb.load()
    return {(x, y) for y in range(rgb.size[1]) for x in range(rgb.size[0]) if data[x, y][0] - data[x, y][2] > 60}


def check_rendered_crop(descriptor: dict[str, Any], png: bytes, display_box: list[int], page: int,
                        highlighted: bool) -> None:
    """The PNG is display_box (top-left quanta of the PDF page) plus the margin at 144 DPI; the
    highlight, if any, tints exactly that box and the text shows through it."""
    width, height = (LETTER if page == 1 else SECOND)
    x0, y0, x1, y1 = pixel_rect(display_box, int(width * 100), int(height * 100))
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    assert image.size == (x1 - x0, y1 - y0) == (descriptor["rendered_width_px"], descriptor["rendered_height_px"])
    # Every evidence box of these tests holds a drawn line: a crop cut from the wrong place is blank.
    rgb = image.convert("RGB")
    pixels = rgb.load()
    assert any(sum(pixels[x, y]) < 300 for y in range(rgb.size[1]) for x in range(rgb.size[0])), "the crop must show ink"
    tint = tinted(image)
    if not highlighted:
        assert tint == set()
        return
    bx0, by0 = display_box[0] * DPI // 7200 - x0, display_box[1] * DPI // 7200 - y0
    bx1, by1 = -(-display_box[2] * DPI // 7200) - x0, -(-display_box[3] * DPI // 7200) - y0
    assert tint == {(x, y) for x in range(bx0, bx1) for y in range(by0, by1)}
    assert any(sum(pixels[x, y]) < 300 for x, y in tint), "the highlight must lie on the line's ink"


@pytest.fixture()
def pdf(tmp_path: Path, parse_cache: Path) -> Path:  # noqa: F811
    return write_pdf(tmp_path / "quarterly.pdf")


def verify_cli(program: str, source: Path, citations: Path, crop_dir: Path, *extra: str | Path,
               grounding: str | None = None) -> subprocess.CompletedProcess[bytes]:
    args: list[str | Path] = ["verify", source, "--citations", citations, "--crop-dir", crop_dir, *extra]
    if grounding is not None:
        args += ["--grounding", grounding]
    return run(program, *args)


def rendered_on_both_clis(tmp_path: Path, source: Path, citations: Path, pdf: Path,
                          grounding: str | None) -> tuple[dict[str, Any], dict[str, bytes]]:
    """verify --crop-dir --crop-source-pdf through `ethos` and `ethos-core`: the same report and files."""
    outputs = {}
    for program in ("ethos", "ethos-core"):
        crop_dir = tmp_path / f"crops-{program}"
        done = verify_cli(program, source, citations, crop_dir, "--crop-source-pdf", pdf, grounding=grounding)
        assert done.returncode == 0, done.stderr
        outputs[program] = (done.stdout, files_of(crop_dir))
    assert outputs["ethos"] == outputs["ethos-core"]
    stdout, files = outputs["ethos"]
    return json.loads(stdout), files


def descriptors_by_check(files: dict[str, bytes]) -> dict[str, dict[str, Any]]:
    out = {}
    for name, data in files.items():
        if name.endswith(".json"):
            assert data.endswith(b"\n") and data[:-1] == c14n(json.loads(data))
            descriptor = json.loads(data)
            assert schema_errors("crop-descriptor", descriptor) == []
            assert descriptor["crop_ref"] == name
            out[descriptor["check_ids"][0]] = descriptor
    return out


def in_process(source: Path, citations: Path, grounding: str | None, pdf: Path | None) -> tuple[bytes, bytes]:
    """The library's report and descriptors (descriptor_only: rendering is ethos-core's)."""
    with ethos_py.Document.open(source, grounding) as document:
        report = document.verify_json(citations, crop_refs=True, crop_source_pdf=pdf)
        return report, crop_descriptors_json(document, report, crop_source_pdf=pdf)


def assert_library_matches(files: dict[str, bytes], report: bytes, descriptors: bytes, cli_report: dict[str, Any]) -> None:
    """The library's descriptors are the CLI's files without the rendering fields."""
    assert json.loads(report) == cli_report
    rendered = descriptors_by_check(files)
    library = json.loads(descriptors)
    assert len(library) == len(rendered)
    for descriptor in library:
        assert schema_errors("crop-descriptor", descriptor) == []
        cli = dict(rendered[descriptor["check_ids"][0]])
        assert cli["rendering_status"] == "rendered" and descriptor["rendering_status"] == "descriptor_only"
        for field in RENDERED_FIELDS:
            del cli[field]
        cli["rendering_status"] = "descriptor_only"
        assert c14n(descriptor) == c14n(cli)


# ------------------------------------------------------------------------------------ Grounding JSON


def test_grounding_json_crops_render_from_its_pdf(tmp_path: Path, pdf: Path) -> None:
    artifact = grounding_json(pdf)
    source = write_json(tmp_path / "grounding.json", artifact)
    fingerprint = "sha256:" + sha256_hex(source.read_bytes())
    citations = write_json(tmp_path / "citations.json", {"document_fingerprint": fingerprint, "claims": [
        {"kind": "quote", "text": QUOTE, "citation": {"element_id": "e2"}},
        {"kind": "value", "text": "Second page results were strong.", "citation": {"element_id": "e4", "page": "pg2"}},
        {"kind": "quote", "text": "a sentence nobody wrote", "citation": {"element_id": "e3"}},
    ]})
    report, files = rendered_on_both_clis(tmp_path, source, citations, pdf, None)
    assert schema_errors("verification-report", report) == []
    assert [c["status"] for c in report["checks"]] == ["grounded", "grounded", "mismatch"]
    assert report["grounding"]["capabilities"]["crop_support"] is True
    descriptors = descriptors_by_check(files)
    assert len(files) == 6 and set(descriptors) == {"v0001", "v0002", "v0003"}
    pdf_fingerprint = "sha256:" + sha256_hex(pdf.read_bytes())
    for check, (element, highlighted) in zip(report["checks"], [(1, True), (3, True), (2, False)]):
        descriptor = descriptors[check["id"]]
        page, baseline, text = LINES[element]
        assert descriptor["document_fingerprint"] == fingerprint  # the artifact's own identity
        assert descriptor["crop_ref"] == check["evidence"]["crop_ref"] == crop_ref(check["id"], fingerprint, f"pg{page}")
        assert descriptor["source_pdf_fingerprint"] == pdf_fingerprint
        assert descriptor["bbox"] == artifact["elements"][element]["bbox"]
        check_rendered_crop(descriptor, files[descriptor["rendered_ref"]], descriptor["bbox"], page, highlighted)
    assert_library_matches(files, *in_process(source, citations, None, pdf), report)


def test_grounding_json_needs_the_pdf_it_names(tmp_path: Path, pdf: Path) -> None:
    artifact = grounding_json(pdf)
    artifact["source"]["sha256"] = "sha256:" + "0" * 64
    source = write_json(tmp_path / "grounding.json", artifact)
    citations = write_json(tmp_path / "citations.json", {"claims": [{"kind": "quote", "text": QUOTE, "citation": {"element_id": "e2"}}]})
    for program in ("ethos", "ethos-core"):
        crop_dir = tmp_path / f"crops-{program}"
        done = verify_cli(program, source, citations, crop_dir, "--crop-source-pdf", pdf)
        assert done.returncode == 2 and done.stdout == b""
        assert json.loads(done.stderr)["error"]["details"] == {"argument": "--crop-source-pdf", "input": "source_pdf_fingerprint"}
        assert not crop_dir.exists()
    with pytest.raises(EthosError) as raised, ethos_py.Document.open(source) as document:
        document.verify_json(citations, crop_refs=True, crop_source_pdf=pdf)
    assert raised.value.code == "source_mismatch"


# ---------------------------------------------------------------------------------------------- Docling


def docling_claims(source: Path) -> Path:
    fingerprint = "sha256:" + sha256_hex(source.read_bytes())
    return write_json(source.parent / "citations.json", {"document_fingerprint": fingerprint, "claims": [
        {"kind": "quote", "text": QUOTE, "citation": {"span_id": "#/texts/1/prov/0"}},
        {"kind": "value", "text": "Second page results were strong.", "citation": {"element_id": "#/texts/3"}},
        {"kind": "quote", "text": "a sentence nobody wrote", "citation": {"element_id": "#/texts/2"}},
    ]})


def test_docling_crops_render_from_its_pdf(tmp_path: Path, pdf: Path) -> None:
    source = write_json(tmp_path / "quarterly.docling.json", docling_json())
    citations = docling_claims(source)
    report, files = rendered_on_both_clis(tmp_path, source, citations, pdf, "docling-json")
    assert schema_errors("verification-report", report) == []
    assert [(c["status"], c["evidence_tier"]) for c in report["checks"]] == [
        ("grounded", "exact_span"), ("grounded", "element_scoped"), ("mismatch", "element_scoped")]
    descriptors = descriptors_by_check(files)
    fingerprint = report["document_fingerprint"]
    for check, (element, highlighted) in zip(report["checks"], [(1, True), (3, True), (2, False)]):
        descriptor = descriptors[check["id"]]
        page, baseline, text = LINES[element]
        assert descriptor["crop_ref"] == crop_ref(check["id"], fingerprint, f"page-{page}")
        # Docling's bottom-left boxes are flipped by the adapter; the PDF page has Docling's size.
        expected = display_quanta(page, user_box(baseline, text))
        assert all(abs(a - b) <= 1 for a, b in zip(descriptor["bbox"], expected)), (descriptor["bbox"], expected)
        check_rendered_crop(descriptor, files[descriptor["rendered_ref"]], descriptor["bbox"], page, highlighted)
    assert_library_matches(files, *in_process(source, citations, "docling-json", pdf), report)


def test_docling_page_of_another_shape_or_beyond_the_pdf_is_source_mismatch(tmp_path: Path, pdf: Path) -> None:
    cases = {
        "page_size": {1: (792.0, 792.0), 2: SECOND},        # page 1 square: not this PDF's page
        "page_count": {1: LETTER, 2: SECOND, 3: LETTER},     # cites a third page the PDF lacks
    }
    for reason, sizes in cases.items():
        document = docling_json(sizes)
        if reason == "page_count":
            document["texts"][3]["prov"][0]["page_no"] = 3
        source = write_json(tmp_path / f"{reason}.docling.json", document)
        citations = docling_claims(source)
        for program in ("ethos", "ethos-core"):
            crop_dir = tmp_path / f"{reason}-{program}"
            done = verify_cli(program, source, citations, crop_dir, "--crop-source-pdf", pdf, grounding="docling-json")
            assert done.returncode == 2 and done.stdout == b"", done.stderr
            assert json.loads(done.stderr) == {"error": {
                "code": "source_mismatch", "message": "the inputs do not belong to the same source: give the document, PDF and requests of one source",
                "details": {"argument": "--crop-source-pdf", "input": reason}}}
            assert not crop_dir.exists() or list(crop_dir.iterdir()) == []


# ------------------------------------------------------------------------------------ OpenDataLoader


@pytest.fixture()
def odl_output(tmp_path: Path, pdf: Path) -> Path:
    """What the real OpenDataLoader (its Java CLI) writes for the PDF."""
    opendataloader_pdf = pytest.importorskip("opendataloader_pdf", reason="the test extra installs opendataloader-pdf")
    opendataloader_pdf.convert(input_path=[str(pdf)], output_dir=str(tmp_path / "odl"), format="json", quiet=True)
    return tmp_path / "odl" / "quarterly.json"


def odl_nodes(node: Any) -> list[dict[str, Any]]:
    out = []
    if isinstance(node, dict):
        if "bounding box" in node:
            out.append(node)
        for value in node.values():
            out += odl_nodes(value)
    elif isinstance(node, list):
        for value in node:
            out += odl_nodes(value)
    return out


def test_odl_crops_are_named_after_the_pdf_and_flipped_onto_its_pages(tmp_path: Path, pdf: Path, odl_output: Path) -> None:
    nodes = {node.get("content"): node for node in odl_nodes(json.loads(odl_output.read_text(encoding="utf-8")))}
    revenue, second, costs = (nodes[LINES[k][2]] for k in (1, 3, 2))
    citations = write_json(tmp_path / "citations.json", {"claims": [
        {"kind": "quote", "text": QUOTE, "citation": {"element_id": f"odl-{revenue['id']}"}},
        {"kind": "value", "text": LINES[3][2], "citation": {"element_id": f"odl-{second['id']}", "page": "page-2"}},
        {"kind": "quote", "text": "a sentence nobody wrote", "citation": {"element_id": f"odl-{costs['id']}"}},
    ]})
    report, files = rendered_on_both_clis(tmp_path, odl_output, citations, pdf, "opendataloader-json")
    assert schema_errors("verification-report", report) == []
    assert "document_fingerprint" not in report  # ODL writes none; the crops take the PDF's
    assert [c["status"] for c in report["checks"]] == ["grounded", "grounded", "mismatch"]
    pdf_fingerprint = "sha256:" + sha256_hex(pdf.read_bytes())
    descriptors = descriptors_by_check(files)
    for check, node, highlighted in zip(report["checks"], (revenue, second, costs), (True, True, False)):
        descriptor = descriptors[check["id"]]
        page = node["page number"]
        assert descriptor["document_fingerprint"] == pdf_fingerprint
        assert descriptor["crop_ref"] == check["evidence"]["crop_ref"] == crop_ref(check["id"], pdf_fingerprint, f"page-{page}")
        # The descriptor keeps the source's box (ODL's bottom-left points); the PNG shows it
        # flipped onto the PDF page's top-left display space.
        assert descriptor["bbox"] == check["evidence"]["bbox"]
        x0, bottom, x1, top = descriptor["bbox"]
        h = round(page_height(page) * 100)
        display = [x0, h - top, x1, h - bottom]
        check_rendered_crop(descriptor, files[descriptor["rendered_ref"]], display, page, highlighted)
        # ... where reportlab drew the line (the mirror image would miss it).
        line = next(line for line in LINES if line[2] == node["content"])
        drawn = display_quanta(page, user_box(line[1], line[2]))
        assert display[1] < drawn[3] and display[3] > drawn[1], (display, drawn)
    assert_library_matches(files, *in_process(odl_output, citations, "opendataloader-json", pdf), report)


def test_odl_without_the_pdf_has_no_crop_identity(tmp_path: Path, odl_output: Path) -> None:
    citations = write_json(tmp_path / "citations.json", {"claims": [{"kind": "presence", "citation": {"page": "page-1"}}]})
    expected = {"error": {"code": "internal_error", "message": "internal error",
                          "details": {"reason": "descriptor_without_fingerprint"}}}
    for program in ("ethos", "ethos-core"):
        done = verify_cli(program, odl_output, citations, tmp_path / f"crops-{program}", grounding="opendataloader-json")
        assert done.returncode == 12 and done.stdout == b""
        assert json.loads(done.stderr)["error"]["details"] == expected["error"]["details"]
    with ethos_py.Document.open(odl_output, "opendataloader-json") as document, pytest.raises(EthosError) as raised:
        document.verify_json(citations, crop_refs=True)
    assert raised.value.code == "internal_error"


# ------------------------------------------------------------------------------------- page-less


@pytest.mark.parametrize("grounding", ["text", "markdown"])
def test_pageless_sources_have_nothing_to_crop(tmp_path: Path, pdf: Path, grounding: str) -> None:
    source = tmp_path / "notes.txt"
    source.write_text("Revenue grew 12 percent year over year.\n", encoding="utf-8")
    citations = write_json(tmp_path / "citations.json", {"claims": [{"kind": "quote", "text": "12 percent", "citation": {"element_id": "e000001"}}]})
    expected = {"argument": "--crop-dir", "reason": "source_without_pages"}
    for extra in ([], ["--crop-source-pdf", str(pdf)]):
        for program in ("ethos", "ethos-core"):
            crop_dir = tmp_path / f"crops-{program}"
            done = verify_cli(program, source, citations, crop_dir, *extra, grounding=grounding)
            assert done.returncode == 2 and done.stdout == b"", done.stderr
            error = json.loads(done.stderr)["error"]
            assert (error["code"], error["details"]) == ("invalid_arguments", expected)
            assert not crop_dir.exists() or list(crop_dir.iterdir()) == []
    with ethos_py.Document.open(source, grounding) as document, pytest.raises(EthosError) as raised:
        document.verify_json(citations, crop_refs=True)
    assert (raised.value.code, json.loads(raised.value.envelope)["error"]["details"]) == ("invalid_arguments", expected)


def test_crop_source_pdf_option_needs_crop_refs_in_process(tmp_path: Path, pdf: Path) -> None:
    source = write_json(tmp_path / "grounding.json", grounding_json(pdf))
    citations = write_json(tmp_path / "citations.json", {"claims": [{"kind": "quote", "text": QUOTE, "citation": {"element_id": "e2"}}]})
    with ethos_py.Document.open(source) as document, pytest.raises(EthosError) as raised:
        document.verify_json(citations, crop_source_pdf=pdf)
    assert raised.value.code == "invalid_input"
    assert json.loads(raised.value.envelope)["error"]["details"]["path"] == "$.crop_source_pdf_fingerprint"


def test_descriptors_of_a_report_made_with_another_pdf_are_refused(tmp_path: Path, pdf: Path, odl_output: Path) -> None:
    other = fx.write_pdf(tmp_path, "other.pdf", fx.text_pdf([["Something else entirely."]]))
    citations = write_json(tmp_path / "citations.json", {"claims": [{"kind": "presence", "citation": {"page": "page-1"}}]})
    with ethos_py.Document.open(odl_output, "opendataloader-json") as document:
        report = document.verify_json(citations, crop_refs=True, crop_source_pdf=pdf)
        assert len(json.loads(crop_descriptors_json(document, report, crop_source_pdf=pdf))) == 1
        with pytest.raises(EthosError) as raised:
            crop_descriptors_json(document, report, crop_source_pdf=other)
    assert raised.value.code == "source_mismatch"
    assert json.loads(raised.value.envelope)["error"]["details"] == {"input": "crop_ref"}


def test_both_clis_document_the_foreign_source_rule() -> None:
    import harness

    rule = b"one without a fingerprint names its crops after the PDF"
    for command in ([sys.executable, "-m", "ethos_py.cli"], [harness.ethos_core_binary()]):
        done = subprocess.run([*command, "verify", "--help"], capture_output=True, check=False)
        assert done.returncode == 0 and rule in b" ".join(done.stdout.split()), command


def test_crop_element_renders_a_grounding_json_element_from_its_pdf(tmp_path: Path, pdf: Path) -> None:
    artifact = grounding_json(pdf)
    source = write_json(tmp_path / "grounding.json", artifact)
    fingerprint = "sha256:" + sha256_hex(source.read_bytes())
    pdf_fingerprint = "sha256:" + sha256_hex(pdf.read_bytes())
    identity = {"document_fingerprint": fingerprint, "element_id": "e4", "rendering": "rendered",
                "source_pdf_fingerprint": pdf_fingerprint, "version": "ethos.crop_element_request_ref.v1"}
    request = write_json(tmp_path / "request.json", {
        "artifact_type": "ethos.crop_element_request.v1", "schema_version": "1.0.0",
        "request_ref": "request-" + sha256_hex(c14n(identity)), "document_fingerprint": fingerprint,
        "element_id": "e4", "rendering": "rendered", "source_pdf_fingerprint": pdf_fingerprint})
    outputs = {}
    for program in ("ethos", "ethos-core"):
        crop_dir = tmp_path / f"element-{program}"
        done = run(program, "crop_element", source, "--request", request, "--crop-source-pdf", pdf, "--crop-dir", crop_dir)
        assert done.returncode == 0, done.stderr
        outputs[program] = (done.stdout, files_of(crop_dir))
    assert outputs["ethos"] == outputs["ethos-core"]
    stdout, files = outputs["ethos"]
    descriptor = json.loads(stdout)
    assert schema_errors("crop-descriptor", descriptor) == []
    assert descriptor["bbox"] == artifact["elements"][3]["bbox"] and descriptor["page"] == "pg2"
    assert descriptor["crop_ref"] == crop_ref("v0001", fingerprint, "pg2")
    # Page 2 is 500 x 700 pt: the crop is cut from that page, nothing highlighted.
    check_rendered_crop(descriptor, files[descriptor["rendered_ref"]], descriptor["bbox"], 2, False)
