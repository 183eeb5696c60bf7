"""test_hostile_verify_budget - --max-verify-ms / max_verify_ms ends a verify past its time budget with the same envelope on every surface."""

from __future__ import annotations

import json
from pathlib import Path

import pdf_fixtures as fx
import pytest

from ethos_py import Document, EthosError

EXPECTED = {"argument": "--max-verify-ms", "max_verify_ms": 1}


def repeated(words: int, ends_in_b: bool) -> str:
    """ "a a a ... a" (ending in "b" when asked): issue 24's adversarial repetition."""
    return " ".join(["a"] * (words - 1) + ["b" if ends_in_b else "a"])


@pytest.fixture(scope="module")
def case(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A text source of one 160 KB element and citations of four 16 KB quotes of it (about 40 ms
    each to refute: far past a 1 ms budget), as one request and as an NDJSON of 80 lines."""
    root = tmp_path_factory.mktemp("budget")
    source = root / "source.txt"
    source.write_text(repeated(80000, False))
    with Document.open(source, grounding="text") as document:
        fingerprint = document.fingerprint
    claim = {"kind": "quote", "text": repeated(8000, True), "citation": {"element_id": "e000001"}}
    request = {"document_fingerprint": fingerprint, "claims": [claim] * 4}
    citations = root / "citations.json"
    citations.write_text(json.dumps(request))
    ndjson = root / "citations.ndjson"
    ndjson.write_text("".join(json.dumps(request) + "\n" for _ in range(80)))
    small = root / "small.json"
    small.write_text(json.dumps({"document_fingerprint": fingerprint, "claims": [{**claim, "text": "a a b"}]}))
    return {"root": root, "source": source, "citations": citations, "ndjson": ndjson, "small": small}


run_both = fx.run_on_both_clis


@pytest.mark.parametrize("command", ["verify", "verify-batch", "verify-batch --merged"])
def test_a_run_past_its_budget_is_input_limit_exceeded_on_both_clis(case: dict[str, Path], command: str) -> None:
    out = case["root"] / "report.out"
    words = command.split()
    inputs = ["--citations", str(case["citations"])] if words[0] == "verify" else ["--citations-ndjson", str(case["ndjson"])]
    argv = [*words, str(case["source"]), "--grounding", "text", *inputs, "--max-verify-ms", "1", "--out", str(out)]
    code, stdout, stderr = run_both(argv)
    assert code == 2 and stdout == b""
    assert fx.envelope_code(stderr) == "input_limit_exceeded"
    error = json.loads(stderr)["error"]
    assert error["details"] == EXPECTED
    assert "--max-verify-ms" in error["message"] and "1 ms" in error["message"]
    assert not out.exists() and list(case["root"].glob(".*")) == []  # nothing written, no temp file left


def test_the_library_raises_the_same_envelope(case: dict[str, Path]) -> None:
    done = fx.run_program([*fx.programs()["ethos-core"], "verify", str(case["source"]), "--grounding", "text",
                           "--citations", str(case["citations"]), "--max-verify-ms", "1"])
    envelope = json.loads(done.stderr)["error"]
    with Document.open(case["source"], grounding="text") as document:
        for call in (
            lambda: document.verify_json(case["citations"], max_verify_ms=1),
            lambda: document.verify_batch_json(case["ndjson"], max_verify_ms=1),
            lambda: document.verify_batch_json(case["ndjson"], merged=True, max_verify_ms=1),
        ):
            with pytest.raises(EthosError) as raised:
                call()
            assert raised.value.code == envelope["code"] and raised.value.details == envelope["details"]
            assert str(raised.value.message) == envelope["message"]


def test_a_budget_in_time_changes_no_byte(case: dict[str, Path]) -> None:
    base = ["verify", str(case["source"]), "--grounding", "text", "--citations", str(case["small"])]
    plain = run_both(base)
    assert plain[0] == 0
    assert run_both([*base, "--max-verify-ms", "600000"]) == plain
    with Document.open(case["source"], grounding="text") as document:
        assert document.verify_json(case["small"], max_verify_ms=600000) + b"\n" == plain[1]


@pytest.mark.parametrize("value", ["0", "abc", "1.5", "1099511627777", ""])
@pytest.mark.parametrize("command", ["verify", "verify-batch"])
def test_a_bad_budget_is_invalid_arguments_before_any_file_is_read(command: str, value: str) -> None:
    inputs = ["--citations", "missing.json"] if command == "verify" else ["--citations-ndjson", "missing.ndjson"]
    code, stdout, stderr = run_both([command, "missing-source.txt", *inputs, "--max-verify-ms", value])
    assert code == 2 and stdout == b""
    error = json.loads(stderr)["error"]
    assert error["code"] == "invalid_arguments" and error["details"] == {"argument": "--max-verify-ms"}
