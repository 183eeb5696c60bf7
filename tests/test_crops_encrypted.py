"""test_crops_encrypted - crops rendered from an encrypted PDF: the password reaches the render
workers (--password, --password-file, $ETHOS_PDF_PASSWORD; the Python wrappers' ``password=``), a
missing or wrong one is ``password_protected`` with nothing written, and a password without a PDF
to render is refused.

The PDF is encrypted with pikepdf (AES-256) and parsed by ethos-core with its password; the PNGs
are decoded and must show the highlighted quote, identical from both CLIs.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pdf_fixtures as fx
import pytest
from PIL import Image
from test_crops import core_cli, files_of, highlighted, rendered_crop_on_both_clis, rendered_request, sha256_hex

import ethos_py
from ethos_py.errors import PasswordProtectedError

PASSWORD = "s3cret"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    directory = tmp_path_factory.mktemp("encrypted-crops")
    pdf = fx.write_pdf(directory, "encrypted.pdf", fx.encrypted_pdf(PASSWORD))
    secret = directory / "password.txt"
    secret.write_text(PASSWORD + "\n", encoding="utf-8")
    doc = directory / "doc.json"
    done = fx.run_program([*fx.programs()["ethos-core"], "doc", "parse", "--no-cache", "--password-file", str(secret),
                           str(pdf), "--out", str(doc)])
    assert done.returncode == 0, done.stderr
    document = json.loads(doc.read_text(encoding="utf-8"))
    words = fx.VISIBLE_SENTENCE.split()
    quote = " ".join(words[1:5])
    citations = directory / "citations.json"
    citations.write_text(json.dumps({
        "document_fingerprint": document["fingerprint"],
        "claims": [{"kind": "quote", "text": quote, "citation": {"page": "p0001"}}],
    }), encoding="utf-8")
    return {"dir": directory, "pdf": pdf, "secret": secret, "doc": doc, "document": document, "citations": citations}


def verify_with_crops(ws: dict[str, Any], program: str, crop_dir: Path, *extra: str) -> Any:
    return fx.run_program([*fx.programs()[program], "verify", str(ws["doc"]), "--citations", str(ws["citations"]),
                           "--crop-dir", str(crop_dir), "--crop-source-pdf", str(ws["pdf"]), *extra])


def test_verify_renders_crops_of_an_encrypted_pdf_with_its_password(workspace: dict[str, Any]) -> None:
    ws = workspace
    runs = {}
    for program, extra in (("ethos-core", ("--password-file", str(ws["secret"]))),
                           ("ethos", ("--password-file", str(ws["secret"]))),
                           ("ethos", ("--password", PASSWORD))):  # handed to ethos-core in its environment
        crop_dir = ws["dir"] / f"verify-{program}-{extra[0]}"
        done = verify_with_crops(ws, program, crop_dir, *extra)
        assert done.returncode == 0, done.stderr
        runs[(program, extra[0])] = (done.stdout, files_of(crop_dir))
    assert len(set(json.dumps([stdout.decode(), sorted(files.items())], default=bytes.hex) for stdout, files in runs.values())) == 1
    report, files = runs[("ethos-core", "--password-file")]
    check = json.loads(report)["checks"][0]
    assert check["status"] == "grounded"
    descriptor = json.loads(files[check["evidence"]["crop_ref"]])
    assert descriptor["rendering_status"] == "rendered"
    assert descriptor["source_pdf_fingerprint"] == "sha256:" + sha256_hex(ws["pdf"].read_bytes())
    png = files[descriptor["rendered_ref"]]
    assert sha256_hex(png) == descriptor["rendered_sha256"]
    assert highlighted(Image.open(io.BytesIO(png))), "the quote is highlighted on the decrypted page"


def test_the_password_may_come_from_the_environment(workspace: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    ws = workspace
    monkeypatch.setenv("ETHOS_PDF_PASSWORD", PASSWORD)
    crop_dir = ws["dir"] / "verify-environment"
    done = verify_with_crops(ws, "ethos-core", crop_dir)
    assert done.returncode == 0, done.stderr
    assert any(name.endswith(".png") for name in files_of(crop_dir))


@pytest.mark.parametrize("extra", [(), ("--password", "guess")], ids=["missing", "wrong"])
def test_a_missing_or_wrong_password_is_password_protected_and_writes_nothing(
    workspace: dict[str, Any], extra: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = workspace
    monkeypatch.delenv("ETHOS_PDF_PASSWORD", raising=False)
    envelopes = []
    for program in ("ethos", "ethos-core"):
        crop_dir = ws["dir"] / f"refused-{program}-{len(extra)}"
        done = verify_with_crops(ws, program, crop_dir, *extra)
        assert done.returncode == 5
        assert done.stdout == b""
        assert fx.envelope_code(done.stderr) == "password_protected"
        assert not crop_dir.exists() or list(crop_dir.iterdir()) == []
        envelopes.append(done.stderr)
    assert envelopes[0] == envelopes[1]


@pytest.mark.parametrize("flag", ["--password", "--password-file"])
def test_a_password_without_a_pdf_to_render_is_refused(workspace: dict[str, Any], flag: str) -> None:
    ws = workspace
    value = PASSWORD if flag == "--password" else str(ws["secret"])
    for program in ("ethos", "ethos-core"):
        done = fx.run_program([*fx.programs()[program], "verify", str(ws["doc"]), "--citations", str(ws["citations"]),
                               "--crop-dir", str(ws["dir"] / "unused"), flag, value])
        assert done.returncode == 2
        assert json.loads(done.stderr)["error"]["details"] == {"argument": flag}
        assert fx.envelope_code(done.stderr) == "invalid_arguments"
        assert not (ws["dir"] / "unused").exists()


def test_crop_element_renders_from_an_encrypted_pdf(workspace: dict[str, Any]) -> None:
    ws = workspace
    _, request = rendered_request(ws)
    stdout, files = rendered_crop_on_both_clis(ws, request, "--password-file", str(ws["secret"]))
    descriptor = json.loads(stdout)
    image = Image.open(io.BytesIO(files[descriptor["rendered_ref"]]))
    rgb = image.convert("RGB").load()
    assert any(sum(rgb[x, y]) < 200 for y in range(image.size[1]) for x in range(image.size[0])), "the element's ink shows"
    # The Python wrappers take the password as an argument (it travels in ethos-core's environment).
    wrapped = core_cli().crop_element(ws["doc"], request, crop_source_pdf=ws["pdf"], crop_dir=ws["dir"] / "wrapped",
                                      password=PASSWORD)
    assert wrapped == descriptor
    assert ethos_py.crop_element(ws["doc"], request, crop_source_pdf=ws["pdf"], crop_dir=ws["dir"] / "module",
                                 password=PASSWORD) == descriptor
    with pytest.raises(PasswordProtectedError):
        core_cli().crop_element(ws["doc"], request, crop_source_pdf=ws["pdf"], crop_dir=ws["dir"] / "no-password")
    with pytest.raises(ValueError, match="password needs crop_source_pdf"):
        core_cli().crop_element(ws["doc"], request, password=PASSWORD)
