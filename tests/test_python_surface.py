"""test_python_surface - the ethos_py API: Document lifecycle, the ABI check, errors, and EthosCli.

Runs against the real core: the library from $ETHOS_LIBRARY or the installed package, and
ethos-core from $ETHOS_CORE, next to $ETHOS_LIBRARY, or the installed package. Where EthosCli's
own behaviour is tested (exit codes, bad output, timeouts), small Python programs stand in for the
binary it runs; the wrapper itself is never replaced.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path
from typing import Any

import harness  # tests/golden, put on sys.path by conftest
import pytest

import ethos_py
from ethos_py import (
    CorruptPdfError,
    Document,
    EthosCli,
    EthosCommandError,
    EthosError,
    EthosNotFoundError,
    EthosOutputError,
    EthosPythonSurfaceError,
    EthosTimeoutError,
    InvalidPdfError,
    ParseTimeoutError,
    PdfiumNotFoundError,
    _ffi,
)

REPO = Path(__file__).resolve().parents[1]
MAX_INPUT_BYTES = 256 * 1024 * 1024

# CONTRACTS.md §1.4: the stable codes and their exit statuses.
EXIT_CODES = {
    "invalid_arguments": 2,
    "invalid_input": 2,
    "host_io": 2,
    "input_limit_exceeded": 2,
    "invalid_pdf": 3,
    "corrupt_pdf": 4,
    "password_protected": 5,
    "page_limit_exceeded": 6,
    "file_too_large": 7,
    "ocr_required": 8,
    "unsupported_pdf_feature": 9,
    "parse_timeout": 10,
    "memory_limit_exceeded": 11,
    "internal_error": 12,
}


# -- fixtures -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def document_json(small_document: dict[str, Any]) -> dict[str, Any]:
    return small_document


@pytest.fixture(scope="module")
def document_bytes(document_json: dict[str, Any], document_tool: Any) -> bytes:
    data: bytes = document_tool.render(document_json)
    return data


def _citations(document_json: dict[str, Any], text: str) -> dict[str, Any]:
    claim = {"kind": "quote", "text": text, "citation": {"element_id": "e000002"}}
    return {"document_fingerprint": document_json["fingerprint"], "claims": [claim]}


@pytest.fixture
def grounded(document_json: dict[str, Any]) -> dict[str, Any]:
    return _citations(document_json, "Revenue grew to $12.4M")


@pytest.fixture
def ungrounded(document_json: dict[str, Any]) -> dict[str, Any]:
    return _citations(document_json, "Revenue fell to $10.1M")


@pytest.fixture
def paths(
    tmp_path: Path, document_bytes: bytes, grounded: dict[str, Any], ungrounded: dict[str, Any]
) -> dict[str, Path]:
    source = tmp_path / "doc.json"
    source.write_bytes(document_bytes)
    grounded_path = tmp_path / "grounded.json"
    grounded_path.write_text(json.dumps(grounded))
    ungrounded_path = tmp_path / "ungrounded.json"
    ungrounded_path.write_text(json.dumps(ungrounded))
    return {"source": source, "grounded": grounded_path, "ungrounded": ungrounded_path}


@pytest.fixture
def cli() -> EthosCli:
    return EthosCli(harness.ethos_core_binary())


def _fake_binary(script: str) -> list[str]:
    """A command prefix running `script` in Python, standing in for a misbehaving ethos binary."""
    return [sys.executable, "-c", script]


# -- Document lifecycle ---------------------------------------------------------------------------


def test_open_path_bytes_and_pathlike_agree(
    paths: dict[str, Path], document_bytes: bytes, document_json: dict[str, Any]
) -> None:
    for source in (
        paths["source"],
        str(paths["source"]),
        document_bytes,
        bytearray(document_bytes),
        memoryview(document_bytes),
    ):
        with Document.open(source) as document:
            assert document.fingerprint == document_json["fingerprint"]
    with Document.from_bytes(document_bytes) as document:
        assert document.name is None
        described = document.describe()
        assert described["document_fingerprint"] == document_json["fingerprint"]
        described["document_fingerprint"] = "changed"  # a copy: the cached description is intact
        assert document.fingerprint == document_json["fingerprint"]
        assert json.loads(document.describe_json()) == document.describe()
    with Document.open(paths["source"]) as document:
        assert document.name == "doc.json"


def test_close_is_idempotent_and_closed_documents_refuse_work(document_bytes: bytes, grounded: dict[str, Any]) -> None:
    document = Document.from_bytes(document_bytes)
    assert not document.closed
    document.close()
    document.close()
    assert document.closed
    for call in (document.describe, document.describe_json, lambda: document.verify(grounded)):
        with pytest.raises(ValueError, match="closed"):
            call()
    assert "closed" in repr(document)


def test_context_manager_closes_on_error(document_bytes: bytes) -> None:
    with pytest.raises(RuntimeError), Document.from_bytes(document_bytes) as document:
        raise RuntimeError("boom")
    assert document.closed


def test_finalizer_releases_a_dropped_document(document_bytes: bytes) -> None:
    document = Document.from_bytes(document_bytes)
    finalizer = document._finalizer
    reference = weakref.ref(document)
    del document
    gc.collect()
    assert reference() is None
    assert not finalizer.alive  # ethos_document_free ran exactly once, from the finalizer


def test_threads_share_one_document(document_bytes: bytes, grounded: dict[str, Any]) -> None:
    with Document.from_bytes(document_bytes) as document:
        expected = document.verify_json(grounded)
        results: list[bytes] = []

        def work() -> None:
            for _ in range(20):
                results.append(document.verify_json(grounded))

        threads = [threading.Thread(target=work) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert len(results) == 80 and set(results) == {expected}


# -- verification in process ----------------------------------------------------------------------


def test_citation_inputs_give_the_same_bytes(paths: dict[str, Path], grounded: dict[str, Any]) -> None:
    text = json.dumps(grounded)
    with Document.open(paths["source"]) as document:
        variants = {
            document.verify_json(grounded),
            document.verify_json(text),
            document.verify_json(text.encode()),
            document.verify_json(paths["grounded"]),
        }
    assert len(variants) == 1
    report = json.loads(variants.pop())
    assert report["all_evidence_grounded"] is True


def test_a_str_is_json_text_when_it_starts_like_json_and_a_path_otherwise(
    paths: dict[str, Path], grounded: dict[str, Any], cli: EthosCli
) -> None:
    text = json.dumps(grounded)
    with Document.open(paths["source"]) as document:
        expected = document.verify_json(paths["grounded"])
        # A path as a str reads the file, as EthosCli and the CLIs do; JSON text (leading JSON
        # whitespace allowed) is parsed as it is.
        assert document.verify_json(str(paths["grounded"])) == expected
        assert document.verify_json(" \n\t" + text) == expected
        # A str that does not start with { or [ is a path, even when it is broken JSON.
        with pytest.raises(FileNotFoundError):
            document.verify_json('"claims": []')
        # A str that starts like JSON is JSON, and the core judges it.
        with pytest.raises(EthosError) as raised:
            document.verify_json("[")
        assert raised.value.code == "invalid_input"
    # The module function reads both strings as paths: the call people type.
    report = ethos_py.verify(str(paths["source"]), str(paths["grounded"]))
    assert report == json.loads(expected)
    assert report == cli.verify(str(paths["source"]), str(paths["grounded"]))
    # EthosCli takes JSON text and Python values too (written to a temporary file for the call).
    assert cli.verify(paths["source"], text) == report == cli.verify(paths["source"], grounded)


def test_config_input_and_default(paths: dict[str, Path], grounded: dict[str, Any]) -> None:
    # No config = default-v1 with the default matching policy (CONTRACTS §4, docs/matching.md).
    default_config = json.loads(_ffi.call_string(_ffi.lib.ethos_config_default))
    with Document.open(paths["source"]) as document:
        assert document.verify_json(grounded) == document.verify_json(grounded, default_config, policy="default")


def test_verify_matches_ethos_core_bytes(paths: dict[str, Path], cli: EthosCli) -> None:
    for statement in (False, True):
        in_process = ethos_py.verify(paths["source"], paths["grounded"], statement=statement)
        with Document.open(paths["source"]) as document:
            raw = document.verify_json(paths["grounded"], statement=statement)
        assert json.loads(raw) == in_process
        assert cli.verify_bytes(paths["source"], paths["grounded"], statement=statement) == raw + b"\n"


def test_statement_subject_name(paths: dict[str, Path], document_bytes: bytes, grounded: dict[str, Any]) -> None:
    statement = ethos_py.verify(paths["source"], grounded, statement=True)
    assert statement["subject"][0]["name"] == "doc.json"
    with Document.from_bytes(document_bytes) as document:
        named = document.verify(grounded, statement=True, subject_name="memo.json")
    assert named["subject"][0]["name"] == "memo.json"
    assert named["predicate"] == statement["predicate"]


def test_proof_summary_and_summary_text(paths: dict[str, Path], cli: EthosCli) -> None:
    report = ethos_py.verify(paths["source"], paths["grounded"])
    raw = json.dumps(report)
    summaries = [ethos_py.proof_summary(report), ethos_py.proof_summary(raw), ethos_py.proof_summary(raw.encode())]
    assert summaries[0] == summaries[1] == summaries[2]
    assert summaries[0]["proof_status"] == "verified" and summaries[0]["request_certified"] is True
    statement = ethos_py.verify(paths["source"], paths["grounded"], statement=True)
    assert ethos_py.proof_summary(statement) == summaries[0]
    text = ethos_py.summary_text(report)
    assert text.startswith("ethos verify summary\n") and text.endswith("\n")
    assert cli.verify(paths["source"], paths["grounded"], output_format="summary") == text


# -- errors in process ------------------------------------------------------------------------------


def test_core_errors_become_ethos_error(paths: dict[str, Path], cli: EthosCli) -> None:
    with Document.open(paths["source"]) as document, pytest.raises(EthosError) as raised:
        document.verify_json(b"[]")
    error = raised.value
    assert isinstance(error, EthosPythonSurfaceError)
    assert error.code == error.error_code == "invalid_input" and error.exit_code == 2
    assert error.message and isinstance(error.details, dict)
    # The in-process envelope is the one ethos-core prints for the same input.
    bad = paths["grounded"].with_name("bad.json")
    bad.write_bytes(b"[]")
    with pytest.raises(EthosCommandError) as command_failure:
        cli.verify(paths["source"], bad)
    assert command_failure.value.stderr.encode() == error.envelope + b"\n"
    assert command_failure.value.error_code == error.error_code


def test_invalid_document_raises(document_json: dict[str, Any]) -> None:
    tampered = json.loads(json.dumps(document_json))
    tampered["payload"]["elements"][1]["text"] = "Revenue fell."
    with pytest.raises(EthosError) as raised:
        Document.from_bytes(json.dumps(tampered).encode())
    assert raised.value.exit_code == 2
    with pytest.raises(EthosError):
        Document.from_bytes(b"not json")


def test_unknown_grounding_is_rejected_by_the_core(document_bytes: bytes) -> None:
    with pytest.raises(EthosError) as raised:
        Document.from_bytes(document_bytes, grounding="no-such-loader")
    assert raised.value.exit_code == 2


def test_input_files(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        Document.open(tmp_path / "missing.json")
    with pytest.raises(IsADirectoryError):
        Document.open(tmp_path)
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:
        handle.truncate(MAX_INPUT_BYTES + 1)
    with pytest.raises(EthosError) as raised:
        Document.open(big)
    assert raised.value.code == "file_too_large" and raised.value.exit_code == 7
    assert raised.value.details == {"max_bytes": MAX_INPUT_BYTES}


@pytest.mark.parametrize(("code", "exit_code"), sorted(EXIT_CODES.items()))
def test_error_envelope_table(code: str, exit_code: int) -> None:
    envelope, status = _ffi.error_envelope(code, {"argument": "--x"})
    assert status == exit_code
    parsed = json.loads(envelope)
    assert parsed["error"]["code"] == code and parsed["error"]["details"] == {"argument": "--x"}
    error = _ffi.host_error(code)
    assert error.exit_code == exit_code and error.envelope == _ffi.error_envelope(code)[0]
    assert "details" not in json.loads(error.envelope)["error"]


def test_unknown_error_code_is_refused() -> None:
    with pytest.raises(EthosError):
        _ffi.error_envelope("no_such_code")


# -- the binding ----------------------------------------------------------------------------------


def test_abi_and_version() -> None:
    assert _ffi.abi_version() == int(_ffi.lib.ETHOS_ABI_VERSION)
    assert _ffi.version()
    assert "ethos_verify" in _ffi._read_cdef(_ffi.header_path)


def test_abi_mismatch_is_a_clear_import_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    header = _ffi.header_path.read_text()
    current = f"#define ETHOS_ABI_VERSION {_ffi.abi_version()}"
    assert current in header
    skewed = tmp_path / "ethos.h"
    skewed.write_text(header.replace(current, f"#define ETHOS_ABI_VERSION {_ffi.abi_version() + 1}"))
    monkeypatch.setattr(_ffi, "find_header", lambda: skewed)
    monkeypatch.setenv(_ffi.LIBRARY_ENV, str(_ffi.library_path))
    with pytest.raises(ImportError, match="C ABI version"):
        _ffi._load()


def test_missing_library_is_a_clear_import_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_ffi.LIBRARY_ENV, str(tmp_path / "libethos.so"))
    with pytest.raises(ImportError, match="cannot load"):
        _ffi._load()


def test_header_without_cdef_markers(tmp_path: Path) -> None:
    header = tmp_path / "ethos.h"
    header.write_text("int ethos_abi_version(void);\n")
    with pytest.raises(ImportError, match="BEGIN CDEF"):
        _ffi._read_cdef(header)


def test_package_imports_without_the_library(tmp_path: Path) -> None:
    env = dict(os.environ, ETHOS_LIBRARY=str(tmp_path / "missing.so"))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    script = (
        "import ethos_py\n"
        "assert ethos_py.EthosCli and ethos_py.EthosCommandError\n"
        "try:\n    ethos_py.Document\nexcept ImportError as e:\n    print('ImportError', e)\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script], check=False, env=env, capture_output=True, text=True, timeout=60
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.startswith("ImportError ethos_py: cannot load")


# -- one base class for both paths ----------------------------------------------------------------


def test_one_base_class_catches_both_paths(paths: dict[str, Path], cli: EthosCli) -> None:
    bad = paths["grounded"].with_name("bad.json")
    bad.write_text("{")
    codes = []
    for attempt in (lambda: ethos_py.verify(paths["source"], bad), lambda: cli.verify(paths["source"], bad)):
        try:
            attempt()
        except EthosPythonSurfaceError as error:
            codes.append(error.error_code)
    assert codes == ["invalid_input", "invalid_input"]


# -- EthosCli ---------------------------------------------------------------------------------------


def test_cli_verify_json_and_summary(paths: dict[str, Path], cli: EthosCli) -> None:
    report = cli.verify(paths["source"], citations=paths["grounded"])
    assert report == ethos_py.verify(paths["source"], paths["grounded"])
    statement = cli.verify(paths["source"], paths["grounded"], statement=True)
    assert statement["predicate"] == report
    assert isinstance(cli.verify(paths["source"], paths["grounded"], output_format="summary"), str)
    with pytest.raises(ValueError):
        cli.verify(paths["source"], paths["grounded"], output_format="markdown")


def test_cli_fingerprint_and_explain(paths: dict[str, Path], cli: EthosCli) -> None:
    with Document.open(paths["source"]) as document:
        assert cli.fingerprint(paths["source"]) == document.describe()
    assert cli.explain() == json.loads(_ffi.call_string(_ffi.lib.ethos_config_default))


def test_python_cli_as_the_binary(paths: dict[str, Path], cli: EthosCli) -> None:
    env = {"PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    python_cli = EthosCli([sys.executable, "-m", "ethos_py.cli"], env=env)
    assert python_cli.verify_bytes(paths["source"], paths["ungrounded"]) == cli.verify_bytes(
        paths["source"], paths["ungrounded"]
    )


def test_cli_exit_1_only_with_fail_on_ungrounded(paths: dict[str, Path], cli: EthosCli) -> None:
    report = cli.verify(paths["source"], paths["ungrounded"], fail_on_ungrounded=True)
    assert report["all_evidence_grounded"] is False
    # Without the flag the real binary exits 0 on the same input; a binary that exits 1 anyway
    # is a failure, and exit 1 without a report is one even with the flag.
    exits_1 = EthosCli(_fake_binary("import sys; sys.stdout.write('{\"all_evidence_grounded\":false}'); sys.exit(1)"))
    with pytest.raises(EthosCommandError) as raised:
        exits_1.verify(paths["source"], paths["ungrounded"])
    assert raised.value.returncode == 1 and raised.value.error_code is None
    assert exits_1.verify(paths["source"], paths["ungrounded"], fail_on_ungrounded=True) == {
        "all_evidence_grounded": False
    }
    silent_1 = EthosCli(_fake_binary("import sys; sys.exit(1)"))
    with pytest.raises(EthosCommandError):
        silent_1.verify(paths["source"], paths["ungrounded"], fail_on_ungrounded=True)


def test_cli_passes_format_and_dash_dash(paths: dict[str, Path]) -> None:
    echo = EthosCli(_fake_binary("import json, sys; print(json.dumps(sys.argv[1:]))"))
    argv = echo.verify(paths["source"], paths["grounded"], grounding="ethos-native", config=paths["grounded"])
    assert argv[0] == "verify" and argv[-2:] == ["--", str(paths["source"])]
    assert argv[argv.index("--format") + 1] == "json"
    assert argv[argv.index("--grounding") + 1] == "ethos-native"


def test_missing_inputs_raise_before_spawning(paths: dict[str, Path], tmp_path: Path) -> None:
    # The binary does not exist either: FileNotFoundError (not EthosNotFoundError) proves no spawn.
    never_runs = EthosCli(tmp_path / "no-such-binary")
    missing = tmp_path / "missing.json"
    with pytest.raises(FileNotFoundError):
        never_runs.verify(missing, paths["grounded"])
    with pytest.raises(FileNotFoundError):
        never_runs.verify(paths["source"], missing)
    with pytest.raises(FileNotFoundError):
        never_runs.verify(paths["source"], paths["grounded"], config=missing)
    with pytest.raises(FileNotFoundError):
        never_runs.verify(paths["source"], tmp_path)  # a directory is not an input file
    with pytest.raises(FileNotFoundError):
        never_runs.fingerprint(missing)
    # Relative inputs are resolved against cwd.
    relative = EthosCli(tmp_path / "no-such-binary", cwd=paths["source"].parent)
    with pytest.raises(EthosNotFoundError):
        relative.verify("doc.json", "grounded.json")


def test_empty_grounding_is_refused_before_spawning(paths: dict[str, Path], tmp_path: Path) -> None:
    # An empty --grounding would reach the core as a missing value: refused in Python, no spawn.
    never_runs = EthosCli(tmp_path / "no-such-binary")
    with pytest.raises(ValueError, match="grounding"):
        never_runs.verify(paths["source"], paths["grounded"], grounding="")
    with pytest.raises(ValueError, match="grounding"):
        never_runs.verify_batch(paths["source"], paths["grounded"], grounding="")
    with pytest.raises(ValueError, match="grounding"):
        never_runs.anchor(paths["source"], paths["grounded"], grounding="")
    # A missing config is named before anything runs, in verify-batch as in verify.
    with pytest.raises(FileNotFoundError):
        never_runs.verify_batch(paths["source"], paths["grounded"], config=tmp_path / "missing.json")


def test_missing_binary(paths: dict[str, Path], tmp_path: Path) -> None:
    with pytest.raises(EthosNotFoundError) as raised:
        EthosCli(tmp_path / "ethos-core").verify(paths["source"], paths["grounded"])
    assert str(tmp_path / "ethos-core") in str(raised.value)
    with pytest.raises(EthosNotFoundError):
        EthosCli(ethos_bin="ethos-definitely-not-installed").explain()
    not_executable = tmp_path / "not-executable"
    not_executable.write_text("#!/bin/sh\n")
    with pytest.raises(EthosNotFoundError):
        EthosCli(not_executable).explain()
    with pytest.raises(ValueError):
        EthosCli("a", ethos_bin="b")


def test_timeout_kills_the_command(paths: dict[str, Path]) -> None:
    sleeper = EthosCli(_fake_binary("import time; time.sleep(60)"))
    started = time.monotonic()
    with pytest.raises(EthosTimeoutError) as raised:
        sleeper.verify(paths["source"], paths["grounded"], timeout=0.5)
    assert time.monotonic() - started < 30
    assert raised.value.timeout_seconds == 0.5
    with pytest.raises(ValueError):
        sleeper.verify(paths["source"], paths["grounded"], timeout=0)


@pytest.mark.parametrize(
    ("stdout", "message"),
    [(b"\xff\xfe not utf-8", "non-UTF-8"), (b"{not json", "invalid JSON")],
)
def test_unusable_output(paths: dict[str, Path], stdout: bytes, message: str) -> None:
    writer = EthosCli(_fake_binary(f"import sys; sys.stdout.buffer.write({stdout!r})"))
    with pytest.raises(EthosOutputError, match=message):
        writer.verify(paths["source"], paths["grounded"])
    # verify_bytes hands the bytes back untouched; only parsing them can fail.
    assert writer.verify_bytes(paths["source"], paths["grounded"]) == stdout


def _envelope_binary(code: str, exit_code: int, extra_stderr: str = "") -> EthosCli:
    envelope = json.dumps({"error": {"code": code, "message": "m"}})
    script = f"import sys; sys.stderr.write({(envelope + extra_stderr + chr(10))!r}); sys.exit({exit_code})"
    return EthosCli(_fake_binary(script))


@pytest.mark.parametrize(
    ("code", "exit_code", "extra", "expected"),
    [
        ("invalid_pdf", 3, "", InvalidPdfError),
        ("corrupt_pdf", 4, "", CorruptPdfError),
        ("parse_timeout", 10, "", ParseTimeoutError),
        ("internal_error", 12, " PDFium not found", PdfiumNotFoundError),
        ("internal_error", 12, " set ETHOS_PDFIUM_LIBRARY_PATH", PdfiumNotFoundError),
        ("invalid_input", 2, "", EthosCommandError),
        ("corrupt_pdf", 3, "", CorruptPdfError),  # the envelope code wins over the exit code
    ],
)
def test_command_error_classes(paths: dict[str, Path], code: str, exit_code: int, extra: str, expected: type) -> None:
    with pytest.raises(EthosCommandError) as raised:
        _envelope_binary(code, exit_code, extra).verify(paths["source"], paths["grounded"])
    assert type(raised.value) is expected
    assert raised.value.returncode == raised.value.exit_code == exit_code


@pytest.mark.parametrize(
    ("exit_code", "expected"),
    [(3, InvalidPdfError), (4, CorruptPdfError), (10, ParseTimeoutError), (5, EthosCommandError)],
)
def test_command_error_class_from_exit_code_alone(paths: dict[str, Path], exit_code: int, expected: type) -> None:
    plain = EthosCli(_fake_binary(f"import sys; sys.stderr.write('plain text failure'); sys.exit({exit_code})"))
    with pytest.raises(EthosCommandError) as raised:
        plain.verify(paths["source"], paths["grounded"])
    assert type(raised.value) is expected and raised.value.error_code is None


def test_real_command_error_details(paths: dict[str, Path], cli: EthosCli, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    with pytest.raises(EthosCommandError) as raised:
        cli.verify(paths["source"], bad)
    error = raised.value
    assert type(error) is EthosCommandError
    assert error.returncode == 2 and error.error_code == "invalid_input" and error.stdout == ""
    assert error.message and isinstance(error.details, dict)


def test_dev_library_pairs_with_the_checkout_header(monkeypatch: pytest.MonkeyPatch) -> None:
    """ETHOS_LIBRARY (a dev build) reads the source tree's ethos.h, never an older shipped copy."""
    from ethos_py import _locate

    checkout = _locate.PACKAGE_DIR.parent / "native" / "include" / "ethos.h"
    monkeypatch.setattr(_locate, "find_bundled", lambda name: Path("/nonexistent/shipped") / name)
    monkeypatch.setenv("ETHOS_LIBRARY", "/some/dev/build/libethos.so")
    assert _locate.find_header() == checkout
    monkeypatch.delenv("ETHOS_LIBRARY")
    assert _locate.find_header() == Path("/nonexistent/shipped/ethos.h")


def test_default_cli_runs_the_core_beside_a_dev_library(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """EthosCli() (and so parse_pdf_json) runs the ethos-core built with ETHOS_LIBRARY, so a dev or
    sanitizer run never parses with an older installed core while it verifies with the new one."""
    from ethos_py import _locate

    (tmp_path / "libethos.so").write_bytes(b"")
    core = tmp_path / "ethos-core"
    core.write_bytes(b"")
    monkeypatch.setattr(_locate, "find_bundled", lambda name: Path("/nonexistent/shipped") / name)
    monkeypatch.setenv("ETHOS_LIBRARY", str(tmp_path / "libethos.so"))
    assert EthosCli().command_prefix == (str(core),)
    monkeypatch.delenv("ETHOS_LIBRARY")
    assert EthosCli().command_prefix == ("/nonexistent/shipped/ethos-core",)
