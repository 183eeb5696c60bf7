"""test_hostile_policy - --policy files are bounded like every other input, and non-ASCII policy input gets a clear error."""

from __future__ import annotations

import json
from pathlib import Path

import pdf_fixtures as fx
import pytest

from ethos_py import Document, EthosError
from ethos_py.document import MAX_POLICY_BYTES, explain_policy_json

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "schemas" / "examples"
POLICY = (EXAMPLES / "policy.example.json").read_bytes()


def padded(size: int) -> bytes:
    """The example policy with trailing JSON whitespace up to `size` bytes: valid at any size."""
    assert len(POLICY) <= size
    return POLICY + b" " * (size - len(POLICY))


run_both = fx.run_on_both_clis


def test_a_policy_file_over_the_limit_is_file_too_large_on_both_clis(tmp_path: Path) -> None:
    policy = tmp_path / "huge-policy.json"
    policy.write_bytes(padded(MAX_POLICY_BYTES + 1))
    expected = {"argument": "--policy", "max_bytes": MAX_POLICY_BYTES}
    for argv in (
        ["explain", "--policy", str(policy)],
        ["verify", str(EXAMPLES / "document.example.json"), "--citations", str(EXAMPLES / "citations.example.json"),
         "--policy", str(policy), "--out", str(tmp_path / "report.json")],
    ):
        code, stdout, stderr = run_both(argv)
        assert code == 7 and stdout == b""
        error = json.loads(stderr)["error"]
        assert error["code"] == "file_too_large" and error["details"] == expected
        assert "--policy" in error["message"] and str(MAX_POLICY_BYTES) in error["message"]
    assert not (tmp_path / "report.json").exists()


def test_a_policy_at_the_limit_is_read(tmp_path: Path) -> None:
    policy = tmp_path / "policy.json"
    policy.write_bytes(padded(MAX_POLICY_BYTES))
    code, stdout, _ = run_both(["explain", "--policy", str(policy)])
    assert code == 0
    assert json.loads(stdout) == json.loads(explain_policy_json(POLICY))


def test_policy_bytes_over_the_limit_in_process(tmp_path: Path) -> None:
    path = tmp_path / "huge-policy.json"
    path.write_bytes(padded(MAX_POLICY_BYTES + 1))
    with Document.open(EXAMPLES / "document.example.json") as document:
        for policy in (path, padded(MAX_POLICY_BYTES + 1)):
            with pytest.raises(EthosError) as raised:
                document.verify_json(EXAMPLES / "citations.example.json", policy=policy)
            assert raised.value.code == "file_too_large"
            assert raised.value.details == {"argument": "--policy", "max_bytes": MAX_POLICY_BYTES}
    with pytest.raises(EthosError) as raised:
        explain_policy_json(path)
    assert raised.value.code == "file_too_large"


@pytest.mark.parametrize(
    ("content", "message", "path"),
    [
        (b"caf\xe9", "invalid JSON syntax", "$"),  # Latin-1 text, not JSON
        (POLICY.replace(b"{", b'{"note":"caf\xe9",', 1), "invalid UTF-8", "$.note"),  # a Latin-1 byte in a string
        (b"\xef\xbb\xbf" + POLICY, "byte order mark not allowed", "$"),
    ],
)
def test_non_ascii_policy_input_names_the_policy_and_the_problem(tmp_path: Path, content: bytes, message: str, path: str) -> None:
    policy = tmp_path / "policy.json"
    policy.write_bytes(content)
    code, stdout, stderr = run_both(["explain", "--policy", str(policy)])
    assert code == 2 and stdout == b""
    error = json.loads(stderr)["error"]
    assert error["code"] == "invalid_input" and error["message"] == message
    assert error["details"]["input"] == "policy" and error["details"]["path"] == path
