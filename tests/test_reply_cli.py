"""test_reply_cli - `ethos reply extract` and `ethos edits apply`: outputs, exit codes, envelopes, atomic --out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import schema_errors

REPO = Path(__file__).resolve().parents[1]
REPLY = 'Sure:\n```json\n{"edits": [{"anchor": "within 30 days", "replacement": "within 45 days"},' \
        ' {"anchor": "within 60 days", "replacement": "x"}]}\n```\nAnything else?'
SOURCE = "Fees are due within 30 days of the invoice.\n"


def _ethos(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "ethos_py.cli", *args], input=stdin, env=env, capture_output=True,
                          timeout=120, check=False)


def _envelope(done: subprocess.CompletedProcess[bytes]) -> dict[str, object]:
    assert done.stdout == b"" and done.stderr.count(b"\n") == 1, done.stderr
    error: dict[str, object] = json.loads(done.stderr)["error"]
    return error


def test_reply_extract_from_a_file_and_from_stdin(tmp_path: Path) -> None:
    (tmp_path / "reply.txt").write_text(REPLY, encoding="utf-8")
    for done in (_ethos("reply", "extract", "--file", str(tmp_path / "reply.txt")),
                 _ethos("reply", "extract", stdin=REPLY.encode())):
        assert done.returncode == 0 and done.stderr == b""
        data = json.loads(done.stdout)
        assert schema_errors("reply-extraction", data) == []
        assert data["found"] and data["payload"]["edits"][0]["anchor"] == "within 30 days"
        assert data["chosen"]["fence"] == "json"


def test_reply_extract_without_a_payload_is_an_envelope() -> None:
    done = _ethos("reply", "extract", stdin=b'Shape:\n```json\n{"anchor": "string"}\n```')
    assert done.returncode == 2
    error = _envelope(done)
    assert error["code"] == "invalid_input"
    assert error["details"] == {"argument": "--file", "path": "$", "reason": "no_payload:illustrative_only"}
    cut = _ethos("reply", "extract", stdin=b'{"edits": [{"anchor": "x"')
    assert cut.returncode == 2 and _envelope(cut)["details"]["reason"] == "no_payload:truncated"  # type: ignore[index]


def test_reply_extract_refuses_bytes_that_are_not_utf8() -> None:
    done = _ethos("reply", "extract", stdin=b"\xff{}")
    assert done.returncode == 2 and _envelope(done)["details"]["reason"] == "not_utf8"  # type: ignore[index]


def test_edits_apply_reports_applied_and_skipped(tmp_path: Path) -> None:
    (tmp_path / "reply.txt").write_text(REPLY, encoding="utf-8")
    (tmp_path / "source.txt").write_text(SOURCE, encoding="utf-8")
    args = ("edits", "apply", "--source", str(tmp_path / "source.txt"), "--reply", str(tmp_path / "reply.txt"))
    done = _ethos(*args)
    assert done.returncode == 0 and done.stderr == b""
    report = json.loads(done.stdout)
    assert schema_errors("edit-result", report) == []
    assert report["text"] == "Fees are due within 45 days of the invoice.\n"
    assert [edit["index"] for edit in report["applied"]] == [0]
    assert [(edit["index"], edit["reason"]) for edit in report["skipped"]] == [(1, "not_found")]
    failing = _ethos(*args, "--fail-on-skipped", "--out", str(tmp_path / "edited.txt"))
    assert failing.returncode == 1 and "text" not in json.loads(failing.stdout)
    assert schema_errors("edit-result", json.loads(failing.stdout)) == []
    assert (tmp_path / "edited.txt").read_text(encoding="utf-8") == "Fees are due within 45 days of the invoice.\n"


def test_edits_apply_out_is_atomic_a_failed_run_leaves_the_file(tmp_path: Path) -> None:
    (tmp_path / "edited.txt").write_text("before", encoding="utf-8")
    (tmp_path / "source.txt").write_text(SOURCE, encoding="utf-8")
    done = _ethos("edits", "apply", "--source", str(tmp_path / "source.txt"), "--reply", "-",
                  "--out", str(tmp_path / "edited.txt"), stdin=b"no payload here")
    assert done.returncode == 2 and _envelope(done)["details"]["argument"] == "--reply"  # type: ignore[index]
    assert (tmp_path / "edited.txt").read_text(encoding="utf-8") == "before"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["edited.txt", "source.txt"]


def test_edits_apply_errors_are_envelopes(tmp_path: Path) -> None:
    missing = _ethos("edits", "apply", "--source", str(tmp_path / "nope.txt"), "--reply", "-", stdin=REPLY.encode())
    assert missing.returncode == 2 and _envelope(missing)["code"] == "host_io"
    no_source = _ethos("edits", "apply", "--reply", "-", stdin=REPLY.encode())
    assert no_source.returncode == 2 and _envelope(no_source)["code"] == "invalid_arguments"


def test_edits_apply_to_a_pdf_source_edits_its_parsed_text(tmp_path: Path) -> None:
    import pdf_fixtures as fx

    (tmp_path / "contract.pdf").write_bytes(fx.text_pdf([["Fees are due within 30 days of the invoice.",
                                                           "The Supplier shall not be liable for indirect loss."]]))
    (tmp_path / "reply.txt").write_text(REPLY, encoding="utf-8")
    done = _ethos("edits", "apply", "--source", str(tmp_path / "contract.pdf"), "--reply", str(tmp_path / "reply.txt"),
                  "--out", str(tmp_path / "edited.txt"))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [edit["old_text"] for edit in report["applied"]] == ["within 30 days"]
    edited = (tmp_path / "edited.txt").read_text(encoding="utf-8")
    assert "Fees are due within 45 days of the invoice." in edited and "not be liable" in edited


def test_edits_apply_takes_a_policy_preset_or_file(tmp_path: Path) -> None:
    (tmp_path / "source.txt").write_text("FEES ARE DUE within 30 days of the invoice.\n", encoding="utf-8")
    reply = '{"edits": [{"anchor": "Fees are due within 30 days", "replacement": "Fees are due within 45 days"}]}'
    args = ("edits", "apply", "--source", str(tmp_path / "source.txt"), "--reply", "-")
    default = json.loads(_ethos(*args, stdin=reply.encode()).stdout)
    assert [edit["tier"] for edit in default["applied"]] == ["case"]
    strict = json.loads(_ethos(*args, "--policy", "strict", stdin=reply.encode()).stdout)
    assert strict["applied"] == [] and strict["skipped"][0]["reason"] == "not_found"
    from_file = _ethos(*args, "--policy", str(REPO / "schemas" / "examples" / "policy.example.json"), stdin=reply.encode())
    assert from_file.returncode == 0, from_file.stderr
    unknown = _ethos(*args, "--policy", str(tmp_path / "no-such-policy.json"), stdin=reply.encode())
    assert unknown.returncode == 2 and _envelope(unknown)["details"]["argument"] == "--policy"  # type: ignore[index]
