"""test_crops - crop descriptors and rendered crops (CONTRACTS §2.11) on every surface.

A real PDF is written with reportlab, parsed by ethos-core, verified with crops; the tests look at
the files written, recompute the refs of the contract, decode the PNGs and check their pixels:
the highlight lies on the cited characters and the crop is the evidence rectangle plus the margin
at the fixed DPI.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import Any

import pdf_fixtures as fx
import pytest
from conftest import schema_errors
from pdf_fixtures import parse_cache  # noqa: F401  (fixture)
from PIL import Image

import ethos_py
from ethos_py import EthosCli, EthosCommandError
from ethos_py.crops import crop_descriptors_json, crop_element_json

import harness

DPI = 144
MARGIN_Q = 600
QUOTE = "the committee approved the budget"
LINES = [
    "Minutes of the annual meeting of the board.",
    f"After a long debate {QUOTE} for the next year.",
    "The meeting closed at noon.",
]


def core_cli() -> EthosCli:
    """The subprocess wrapper over the ethos-core under test."""
    return EthosCli(harness.ethos_core_binary())


def c14n(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def crop_ref(check_id: str, document_fingerprint: str, page: str) -> str:
    identity = {
        "check_id": check_id,
        "document_fingerprint": document_fingerprint,
        "page": page,
        "version": "ethos.logical_crop_ref.v1",
    }
    return f"crop-{sha256_hex(c14n(identity))}.json"


def request_for(document: dict[str, Any], element_id: str, pdf_fingerprint: str | None = None) -> dict[str, Any]:
    rendering = "descriptor_only" if pdf_fingerprint is None else "rendered"
    identity: dict[str, Any] = {
        "document_fingerprint": document["fingerprint"],
        "element_id": element_id,
        "rendering": rendering,
        "version": "ethos.crop_element_request_ref.v1",
    }
    request: dict[str, Any] = {
        "artifact_type": "ethos.crop_element_request.v1",
        "schema_version": "1.0.0",
        "document_fingerprint": document["fingerprint"],
        "element_id": element_id,
        "rendering": rendering,
    }
    if pdf_fingerprint is not None:
        identity["source_pdf_fingerprint"] = pdf_fingerprint
        request["source_pdf_fingerprint"] = pdf_fingerprint
    request["request_ref"] = "request-" + sha256_hex(c14n(identity))
    return request


def pixel_rect(bbox: list[int], page_w: int, page_h: int) -> tuple[int, int, int, int]:
    """docs/pdf-parsing.md "Crops": bbox plus the margin, clamped to the page, outward-rounded."""
    x0, y0 = max(0, bbox[0] - MARGIN_Q), max(0, bbox[1] - MARGIN_Q)
    x1, y1 = min(page_w, bbox[2] + MARGIN_Q), min(page_h, bbox[3] + MARGIN_Q)
    return (x0 * DPI // 7200, y0 * DPI // 7200, -(-x1 * DPI // 7200), -(-y1 * DPI // 7200))


@pytest.fixture()
def workspace(tmp_path: Path, parse_cache: Path) -> dict[str, Any]:  # noqa: F811
    pdf = fx.write_pdf(tmp_path, "minutes.pdf", fx.text_pdf([LINES]))
    done = fx.run_program([*fx.programs()["ethos-core"], "doc", "parse", str(pdf), "--out", str(tmp_path / "doc.json")])
    assert done.returncode == 0, done.stderr
    document = json.loads((tmp_path / "doc.json").read_text(encoding="utf-8"))
    citations = {
        "document_fingerprint": document["fingerprint"],
        "claims": [
            {"kind": "quote", "text": QUOTE, "citation": {"page": "p0001"}},
            {"kind": "quote", "text": "The meeting closed at noon.", "citation": {"page": "p0001"}},
            {"kind": "quote", "text": "a sentence nobody wrote", "citation": {"page": "p0001"}},
        ],
    }
    citations_path = tmp_path / "citations.json"
    citations_path.write_text(json.dumps(citations), encoding="utf-8")
    return {"dir": tmp_path, "pdf": pdf, "doc": tmp_path / "doc.json", "document": document, "citations": citations_path}


def run_verify(program: str, ws: dict[str, Any], crop_dir: Path, *extra: str) -> Any:
    return fx.run_program(
        [*fx.programs()[program], "verify", str(ws["doc"]), "--citations", str(ws["citations"]), "--crop-dir", str(crop_dir), *extra]
    )


def files_of(directory: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(directory.iterdir())}


def highlighted(image: Image.Image) -> list[tuple[int, int]]:
    """Pixels tinted by the yellow highlight: red well above blue (the page is black on white)."""
    rgb = image.convert("RGB")
    width, height = rgb.size
    data = rgb.load()
    return [(x, y) for y in range(height) for x in range(width) if data[x, y][0] - data[x, y][2] > 60]


# ------------------------------------------------------------------------------- verify --crop-dir


def test_verify_crop_dir_writes_one_descriptor_per_check_with_evidence(workspace: dict[str, Any]) -> None:
    ws = workspace
    outputs = {}
    for program in ("ethos", "ethos-core"):
        crop_dir = ws["dir"] / f"crops-{program}"
        done = run_verify(program, ws, crop_dir)
        assert done.returncode == 0, done.stderr
        outputs[program] = (done.stdout, files_of(crop_dir))
    assert outputs["ethos"] == outputs["ethos-core"]

    report = json.loads(outputs["ethos"][0])
    files = outputs["ethos"][1]
    assert report["grounding"]["capabilities"]["crop_support"] is True
    fingerprint = ws["document"]["fingerprint"]
    expected = {}
    for check in report["checks"]:
        evidence = check.get("evidence")
        if evidence is None:
            continue
        ref = crop_ref(check["id"], fingerprint, evidence["page"])
        assert evidence["crop_ref"] == ref
        expected[ref] = check
    assert len(expected) == 3  # two grounded quotes and the page-scoped mismatch all have evidence
    assert set(files) == set(expected)
    for ref, data in files.items():
        assert data.endswith(b"\n") and data.count(b"\n") == 1
        descriptor = json.loads(data)
        assert data[:-1] == c14n(descriptor)
        assert schema_errors("crop-descriptor", descriptor) == []
        check = expected[ref]
        assert descriptor["crop_ref"] == ref
        assert descriptor["check_ids"] == [check["id"]]
        assert descriptor["rendering_status"] == "descriptor_only"
        assert descriptor["document_fingerprint"] == fingerprint
        assert descriptor["bbox"] == check["evidence"]["bbox"]
        if "text" in check["evidence"]:
            assert descriptor["text_sha256"] == sha256_hex(check["evidence"]["text"].encode())
        else:
            assert "text_sha256" not in descriptor


def test_in_process_descriptors_are_the_cli_files(workspace: dict[str, Any]) -> None:
    ws = workspace
    crop_dir = ws["dir"] / "crops"
    done = run_verify("ethos-core", ws, crop_dir)
    assert done.returncode == 0, done.stderr
    with ethos_py.Document.open(ws["doc"]) as document:
        report = document.verify_json(ws["citations"], crop_refs=True)
    assert report + b"\n" == done.stdout
    descriptors = json.loads(crop_descriptors_json(ws["doc"], report))
    assert {d["crop_ref"]: c14n(d) + b"\n" for d in descriptors} == files_of(crop_dir)


def test_verify_without_crop_dir_has_no_crop_refs(workspace: dict[str, Any]) -> None:
    ws = workspace
    done = fx.run_program([*fx.programs()["ethos-core"], "verify", str(ws["doc"]), "--citations", str(ws["citations"])])
    report = json.loads(done.stdout)
    assert report["grounding"]["capabilities"]["crop_support"] is False
    assert all("crop_ref" not in check.get("evidence", {}) for check in report["checks"])


def test_rendered_crops_highlight_the_cited_characters(workspace: dict[str, Any]) -> None:
    ws = workspace
    outputs = {}
    for program in ("ethos", "ethos-core"):
        crop_dir = ws["dir"] / f"rendered-{program}"
        done = run_verify(program, ws, crop_dir, "--crop-source-pdf", str(ws["pdf"]))
        assert done.returncode == 0, done.stderr
        outputs[program] = files_of(crop_dir)
    # One machine, one program: identical PNG bytes from both CLIs.
    assert outputs["ethos"] == outputs["ethos-core"]
    files = outputs["ethos"]
    report = json.loads(done.stdout)
    page = ws["document"]["payload"]["pages"][0]
    pdf_fingerprint = "sha256:" + sha256_hex(ws["pdf"].read_bytes())
    checks = {c["id"]: c for c in report["checks"]}
    descriptors = [json.loads(data) for name, data in files.items() if name.endswith(".json")]
    assert len(descriptors) == 3 and len(files) == 6
    for descriptor in descriptors:
        assert schema_errors("crop-descriptor", descriptor) == []
        assert descriptor["rendering_status"] == "rendered"
        assert descriptor["source_pdf_fingerprint"] == pdf_fingerprint
        png = files[descriptor["rendered_ref"]]
        assert descriptor["rendered_ref"] == descriptor["crop_ref"][:-5] + ".png"
        assert sha256_hex(png) == descriptor["rendered_sha256"]
        image = Image.open(io.BytesIO(png))
        assert image.format == "PNG"
        x0, y0, x1, y1 = pixel_rect(descriptor["bbox"], page["width"], page["height"])
        assert image.size == (x1 - x0, y1 - y0) == (descriptor["rendered_width_px"], descriptor["rendered_height_px"])

        check = checks[descriptor["check_ids"][0]]
        boxes = [box["bbox"] for box in check.get("match", {}).get("boxes", []) if check["status"] == "grounded"]
        tinted = highlighted(image)
        if not boxes:
            assert tinted == [], "a check without matched characters has nothing highlighted"
            continue
        inside = set()
        for bx0, by0, bx1, by1 in boxes:
            px0, py0 = bx0 * DPI // 7200 - x0, by0 * DPI // 7200 - y0
            px1, py1 = -(-bx1 * DPI // 7200) - x0, -(-by1 * DPI // 7200) - y0
            inside |= {(x, y) for x in range(px0, px1) for y in range(py0, py1)}
        assert tinted and set(tinted) <= inside
        # The whole box is tinted: every pixel of it, ink or paper, got the translucent fill.
        assert len(set(tinted)) == len(inside)
        # ... and the text underneath still shows through (dark tinted pixels exist).
        rgb = image.convert("RGB").load()
        assert any(sum(rgb[x, y]) < 300 for x, y in tinted)


def test_rendered_crops_are_deterministic(workspace: dict[str, Any]) -> None:
    ws = workspace
    runs = []
    for attempt in range(2):
        crop_dir = ws["dir"] / f"again-{attempt}"
        done = run_verify("ethos-core", ws, crop_dir, "--crop-source-pdf", str(ws["pdf"]))
        assert done.returncode == 0, done.stderr
        runs.append(files_of(crop_dir))
    assert runs[0] == runs[1]


def test_a_pdf_that_is_not_the_source_is_rejected_and_nothing_is_written(workspace: dict[str, Any]) -> None:
    ws = workspace
    other = fx.write_pdf(ws["dir"], "other.pdf", fx.text_pdf([["Something else entirely."]]))
    for program in ("ethos", "ethos-core"):
        crop_dir = ws["dir"] / f"mismatch-{program}"
        done = run_verify(program, ws, crop_dir, "--crop-source-pdf", str(other))
        assert done.returncode == 2
        assert done.stdout == b""
        assert json.loads(done.stderr) == {
            "error": {
                "code": "source_mismatch",
                "details": {"argument": "--crop-source-pdf", "input": "source_pdf_fingerprint"},
                "message": "the inputs do not belong to the same source: give the document, PDF and requests of one source",
            }
        }
        assert not crop_dir.exists() or list(crop_dir.iterdir()) == []


def test_crop_source_pdf_needs_a_crop_dir(workspace: dict[str, Any]) -> None:
    ws = workspace
    for program in ("ethos", "ethos-core"):
        done = fx.run_program(
            [*fx.programs()[program], "verify", str(ws["doc"]), "--citations", str(ws["citations"]), "--crop-source-pdf", str(ws["pdf"])]
        )
        assert done.returncode == 2
        assert fx.envelope_code(done.stderr) == "invalid_arguments"
        assert json.loads(done.stderr)["error"]["details"] == {"argument": "--crop-dir"}


def test_an_unwritable_crop_dir_is_host_io_and_leaves_nothing(workspace: dict[str, Any]) -> None:
    ws = workspace
    blocker = ws["dir"] / "a-file"
    blocker.write_text("not a directory", encoding="utf-8")
    for program in ("ethos", "ethos-core"):
        done = run_verify(program, ws, blocker)
        assert done.returncode == 2
        assert json.loads(done.stderr)["error"]["code"] == "host_io"
        assert blocker.read_text(encoding="utf-8") == "not a directory"


# ------------------------------------------------------------------------------------ crop_element


def first_text_element(document: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in document["payload"]["elements"] if e.get("text"))


def write_json(path: Path, value: Any) -> Path:
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


def rendered_request(ws: dict[str, Any]) -> tuple[dict[str, Any], Path]:
    """The first text element of the workspace's document and a written `rendered` crop_element
    request for it, bound to the workspace's PDF."""
    element = first_text_element(ws["document"])
    pdf_fingerprint = "sha256:" + sha256_hex(ws["pdf"].read_bytes())
    return element, write_json(ws["dir"] / "request.json", request_for(ws["document"], element["id"], pdf_fingerprint))


def rendered_crop_on_both_clis(ws: dict[str, Any], request: Path, *extra: str) -> tuple[bytes, dict[str, bytes]]:
    """Run `crop_element --crop-source-pdf` on both CLIs (each into its own crop directory), assert
    they succeed with byte-identical stdout and files, and return that stdout and those files."""
    results = []
    for program in ("ethos", "ethos-core"):
        crop_dir = ws["dir"] / f"element-{program}"
        done = fx.run_program(
            [*fx.programs()[program], "crop_element", str(ws["doc"]), "--request", str(request),
             "--crop-source-pdf", str(ws["pdf"]), "--crop-dir", str(crop_dir), *extra]
        )
        assert done.returncode == 0, done.stderr
        results.append((done.stdout, files_of(crop_dir)))
    assert results[0] == results[1]
    return results[0]


def test_crop_element_descriptor_on_every_surface(workspace: dict[str, Any]) -> None:
    ws = workspace
    element = first_text_element(ws["document"])
    request = write_json(ws["dir"] / "request.json", request_for(ws["document"], element["id"]))
    assert schema_errors("crop-element-request", json.loads(request.read_text(encoding="utf-8"))) == []
    outputs = []
    for program in ("ethos", "ethos-core"):
        done = fx.run_program([*fx.programs()[program], "crop_element", str(ws["doc"]), "--request", str(request), "--check-id", "v0007"])
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    assert crop_element_json(ws["doc"], request, check_id="v0007") + b"\n" == outputs[0]
    descriptor = json.loads(outputs[0])
    assert schema_errors("crop-descriptor", descriptor) == []
    assert descriptor["crop_ref"] == crop_ref("v0007", ws["document"]["fingerprint"], element["page"])
    assert descriptor["bbox"] == element["bbox"]
    assert descriptor["check_ids"] == ["v0007"]
    assert descriptor["text_sha256"] == sha256_hex(element["text"].encode())
    # The module function and the subprocess wrapper (default check id v0001) agree.
    in_process = ethos_py.crop_element(ws["doc"], request)
    assert in_process == core_cli().crop_element(ws["doc"], request)
    assert in_process["check_ids"] == ["v0001"]


def test_crop_element_rendered(workspace: dict[str, Any]) -> None:
    ws = workspace
    element, request = rendered_request(ws)
    stdout, files = rendered_crop_on_both_clis(ws, request)
    descriptor = json.loads(stdout)
    assert files[descriptor["crop_ref"]] == stdout
    page = ws["document"]["payload"]["pages"][0]
    image = Image.open(io.BytesIO(files[descriptor["rendered_ref"]]))
    x0, y0, x1, y1 = pixel_rect(element["bbox"], page["width"], page["height"])
    assert image.size == (x1 - x0, y1 - y0)
    # An element crop highlights nothing, but shows the element's ink inside the bbox.
    assert highlighted(image) == []
    rgb = image.convert("RGB").load()
    dark = [(x, y) for y in range(image.size[1]) for x in range(image.size[0]) if sum(rgb[x, y]) < 200]
    bx0 = element["bbox"][0] * DPI // 7200 - x0
    assert dark and min(x for x, _ in dark) >= bx0 - 2
    wrapped = core_cli().crop_element(
        ws["doc"], request, crop_source_pdf=ws["pdf"], crop_dir=ws["dir"] / "wrapped"
    )
    assert c14n(wrapped) + b"\n" == stdout


def _error(done: Any) -> dict[str, Any]:
    assert done.returncode == 2, done.stderr
    assert done.stdout == b""
    error: dict[str, Any] = json.loads(done.stderr)["error"]
    return error


def test_crop_element_failures_are_fixed_exit_2_diagnostics(workspace: dict[str, Any]) -> None:
    ws = workspace
    document = ws["document"]
    element = first_text_element(document)
    good = request_for(document, element["id"])
    other_pdf = "sha256:" + "0" * 64

    drifted = dict(good, request_ref="request-" + "1" * 64)
    foreign = request_for(dict(document, fingerprint="sha256:" + "2" * 64), element["id"])
    unknown = request_for(document, "e999999")
    wrong_pdf = request_for(document, element["id"], other_pdf)
    extra_field = dict(good, note="x")
    cases = {
        "drift": (drifted, [], {"code": "invalid_input", "details": {"path": "$.request_ref"}}),
        "foreign": (foreign, [], {"code": "source_mismatch", "details": {"input": "document_fingerprint"}}),
        "unknown element": (unknown, [], {"code": "invalid_input", "details": {"path": "$.element_id"}}),
        "wrong pdf": (wrong_pdf, [], {"code": "source_mismatch"}),
        "unknown field": (extra_field, [], {"code": "invalid_input"}),
        "bad check id": (good, ["--check-id", "check-1"], {"code": "invalid_arguments", "details": {"argument": "--check-id"}}),
        "zero check id": (good, ["--check-id", "v0000"], {"code": "invalid_arguments", "details": {"argument": "--check-id"}}),
    }
    for name, (request, extra, expected) in cases.items():
        path = write_json(ws["dir"] / "bad.json", request)
        envelopes = []
        for program in ("ethos", "ethos-core"):
            done = fx.run_program([*fx.programs()[program], "crop_element", str(ws["doc"]), "--request", str(path), *extra])
            error = _error(done)
            assert error["code"] == expected["code"], (name, error)
            for key, value in expected.get("details", {}).items():
                assert error["details"][key] == value, (name, error)
            envelopes.append(done.stderr)
        assert envelopes[0] == envelopes[1], name
        with pytest.raises(EthosCommandError) as raised:
            core_cli().crop_element(ws["doc"], path, check_id=extra[1] if extra else "v0001")
        assert raised.value.error_code == expected["code"]


def test_crop_element_rendering_must_match_the_request(workspace: dict[str, Any]) -> None:
    ws = workspace
    element = first_text_element(ws["document"])
    descriptor_only = write_json(ws["dir"] / "plain.json", request_for(ws["document"], element["id"]))
    pdf_fingerprint = "sha256:" + sha256_hex(ws["pdf"].read_bytes())
    rendered = write_json(ws["dir"] / "rendered.json", request_for(ws["document"], element["id"], pdf_fingerprint))
    base = [*fx.programs()["ethos-core"], "crop_element", str(ws["doc"])]
    error = _error(fx.run_program([*base, "--request", str(rendered)]))
    assert error["code"] == "invalid_arguments" and error["details"] == {"argument": "--crop-source-pdf"}
    error = _error(fx.run_program([*base, "--request", str(descriptor_only), "--crop-source-pdf", str(ws["pdf"]), "--crop-dir", str(ws["dir"] / "x")]))
    assert error["code"] == "invalid_arguments"
    assert not (ws["dir"] / "x").exists()
    other = fx.write_pdf(ws["dir"], "other.pdf", fx.text_pdf([["Something else entirely."]]))
    error = _error(fx.run_program([*base, "--request", str(rendered), "--crop-source-pdf", str(other), "--crop-dir", str(ws["dir"] / "y")]))
    assert error["code"] == "source_mismatch"
    with pytest.raises(ethos_py.EthosError):
        crop_element_json(ws["doc"], rendered)


def _rehashed(document: dict[str, Any]) -> dict[str, Any]:
    """The document with its payload hash and fingerprint recomputed (CONTRACTS §2.2)."""

    def strip(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: strip(v) for k, v in node.items() if k not in ("bbox", "bboxes")}
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node

    out = json.loads(json.dumps(document))
    out["payload_sha256"] = sha256_hex(c14n(strip(out["payload"])))
    identity = {
        "config_sha256": out["config_sha256"],
        "payload_sha256": out["payload_sha256"],
        "profile_id": out["profile"]["id"],
        "profile_sha256": out["profile"]["sha256"],
        "schema_version": out["schema_version"],
        "source_fingerprint": out["source"]["fingerprint"],
    }
    out["fingerprint"] = "sha256:" + sha256_hex(c14n(identity))
    return out


@pytest.mark.parametrize(
    ("bbox", "label"),
    [([100, 100, 100, 500], "bbox is not positive"), ([100, 100, 99999999, 500], "outside its page")],
)
def test_crop_element_rejects_degenerate_and_off_page_bboxes(workspace: dict[str, Any], bbox: list[int], label: str) -> None:
    ws = workspace
    document = json.loads(json.dumps(ws["document"]))
    element = first_text_element(document)
    element["bbox"] = bbox
    document = _rehashed(document)
    doc_path = write_json(ws["dir"] / "bent.json", document)
    request = write_json(ws["dir"] / "bent-request.json", request_for(document, element["id"]))
    envelopes = []
    for program in ("ethos", "ethos-core"):
        error = _error(fx.run_program([*fx.programs()[program], "crop_element", str(doc_path), "--request", str(request)]))
        assert error["code"] == "invalid_input" and error["details"]["path"] == "$.element_id"
        assert label in error["message"]
        envelopes.append(error)
    assert envelopes[0] == envelopes[1]


def test_colliding_crop_refs_with_different_content_are_an_internal_error(workspace: dict[str, Any]) -> None:
    ws = workspace
    with ethos_py.Document.open(ws["doc"]) as document:
        report = json.loads(document.verify_json(ws["citations"], crop_refs=True))
    first = report["checks"][0]
    # The same check twice is the same logical ref with the same content: one descriptor.
    twice = dict(report, checks=[first, first])
    assert len(json.loads(crop_descriptors_json(ws["doc"], twice))) == 1
    # The same ref for different rectangles breaks the invariant the ref stands for.
    moved = json.loads(json.dumps(first))
    moved["evidence"]["bbox"] = [0, 0, 100, 100]
    with pytest.raises(ethos_py.EthosError) as raised:
        crop_descriptors_json(ws["doc"], dict(report, checks=[first, moved]))
    assert raised.value.code == "internal_error"
    assert raised.value.details == {"reason": "crop_ref_collision"}
    # A report of another document is refused.
    with pytest.raises(ethos_py.EthosError) as mismatch:
        crop_descriptors_json(ws["doc"], dict(report, document_fingerprint="sha256:" + "3" * 64))
    assert mismatch.value.code == "source_mismatch"


def test_module_crop_element_renders_through_ethos_core(workspace: dict[str, Any]) -> None:
    ws = workspace
    element = first_text_element(ws["document"])
    pdf_fingerprint = "sha256:" + sha256_hex(ws["pdf"].read_bytes())
    request = write_json(ws["dir"] / "request.json", request_for(ws["document"], element["id"], pdf_fingerprint))
    crop_dir = ws["dir"] / "module"
    descriptor = ethos_py.crop_element(ws["doc"], request, crop_source_pdf=ws["pdf"], crop_dir=crop_dir)
    assert descriptor["rendering_status"] == "rendered"
    assert sorted(files_of(crop_dir)) == sorted([descriptor["crop_ref"], descriptor["rendered_ref"]])
    via_program = ethos_py.crop_element(
        ws["doc"], request, ethos_bin=harness.ethos_core_binary(), crop_source_pdf=ws["pdf"], crop_dir=crop_dir
    )
    assert via_program == descriptor
