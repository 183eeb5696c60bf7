"""test_config_pinning - what decides a verdict is pinned and shown: `explain --pinned`, the
public_matching_rule warning, the summary (issue 23 item 9; docs/matching.md "When a policy applies")."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from conftest import schema_errors
from pdf_fixtures import run_on_both_clis

import ethos_py

TEXT = "A matrix with non-negative real entries whose row sums equal one is stochastic.\n"
CLAIM = {"kind": "quote", "text": "negative real entries whose row sums", "citation": {"element_id": "e000001"}}


def _files(tmp_path: Path) -> tuple[Path, Path]:
    source = tmp_path / "matrix.txt"
    source.write_text(TEXT, encoding="utf-8")
    citations = tmp_path / "citations.json"
    fingerprint = "sha256:" + hashlib.sha256(source.read_bytes()).hexdigest()
    citations.write_text(json.dumps({"document_fingerprint": fingerprint, "claims": [CLAIM]}))
    return source, citations


def _verify(source: Path, citations: Path, config: Path | None, *extra: str) -> dict[str, Any]:
    """The report on both CLIs and the library, asserted byte-identical."""
    argv = ["verify", str(source), "--citations", str(citations), "--grounding", "text", *extra]
    if config is not None:
        argv += ["--config", str(config)]
    code, stdout, _ = run_on_both_clis(argv)
    assert code == 0
    policy = extra[extra.index("--policy") + 1] if "--policy" in extra else None
    with ethos_py.Document.open(source, "text") as document:
        library = document.verify_json(citations.read_bytes(), None if config is None else config.read_bytes(),
                                       policy=policy)
    assert stdout == library + b"\n"
    report: dict[str, Any] = json.loads(stdout)
    assert schema_errors("verification-report", report) == []
    return report


def _explain(tmp_path: Path, name: str, *argv: str) -> Path:
    code, stdout, _ = run_on_both_clis(["explain", *argv])
    assert code == 0
    path = tmp_path / name
    path.write_bytes(stdout)
    return path


def test_explain_output_fed_back_says_the_public_rule_decided(tmp_path: Path) -> None:
    source, citations = _files(tmp_path)
    ladder = _verify(source, citations, None)
    assert (ladder["checks"][0]["status"], ladder["checks"][0]["reason"]) == ("mismatch", "polarity_guard")
    assert "public_matching_rule" not in ladder["warnings"]

    # default-v1 as explain prints it: an explicit public config, so the public substring rule
    # decides (compatibility with strict public readers), and the report says so.
    public = _verify(source, citations, _explain(tmp_path, "default-v1.json"))
    assert public["checks"][0]["status"] == "grounded"
    assert "public_matching_rule" in public["warnings"]
    assert public["verification_config_sha256"] == ladder["verification_config_sha256"]
    assert public["attestation"]["policy_fingerprint"] != ladder["policy_fingerprint"]

    # explain --pinned: the same config with the ladder written in; fed back, it decides as no
    # config does, with the same policy fingerprint, and no warning.
    pinned_path = _explain(tmp_path, "pinned.json", "--pinned")
    pinned_config = json.loads(pinned_path.read_bytes())
    assert schema_errors("verification-config", pinned_config) == []
    assert pinned_config["matching"]["policy"]["name"] == "default"
    pinned = _verify(source, citations, pinned_path)
    assert (pinned["checks"][0]["status"], pinned["checks"][0]["reason"]) == ("mismatch", "polarity_guard")
    assert pinned["policy_fingerprint"] == ladder["policy_fingerprint"]
    assert pinned["attestation"]["config_version"] == "default-v1+default"
    assert "public_matching_rule" not in pinned["warnings"]
    # ... and the config hash tells it from default-v1.
    assert pinned["verification_config_sha256"] != ladder["verification_config_sha256"]
    assert pinned["verification_config_sha256"] == hashlib.sha256(_c14n(pinned_config)).hexdigest()


def test_pinned_with_a_policy_writes_that_policy(tmp_path: Path) -> None:
    pinned = json.loads(_explain(tmp_path, "strict.json", "--pinned", "--policy", "strict").read_bytes())
    explained = json.loads(_explain(tmp_path, "explained.json", "--policy", "strict").read_bytes())
    assert pinned["matching"]["policy"] == explained["policy"]
    default_v1 = json.loads(_explain(tmp_path, "default-v1.json").read_bytes())
    assert pinned["config_version"] == "default-v1+strict"
    del pinned["matching"]["policy"]
    pinned["config_version"] = "default-v1"
    assert pinned == default_v1


def test_a_policy_override_on_a_public_config_is_no_public_rule(tmp_path: Path) -> None:
    source, citations = _files(tmp_path)
    report = _verify(source, citations, _explain(tmp_path, "default-v1.json"), "--policy", "default")
    assert report["checks"][0]["reason"] == "polarity_guard"
    assert "public_matching_rule" not in report["warnings"]


def test_summary_shows_the_public_rule_warning(tmp_path: Path) -> None:
    source, citations = _files(tmp_path)
    config = _explain(tmp_path, "default-v1.json")
    code, stdout, _ = run_on_both_clis(["verify", str(source), "--citations", str(citations), "--grounding", "text",
                                        "--config", str(config), "--format", "summary"])
    assert code == 0
    lines = stdout.decode().splitlines()
    assert any(line.startswith("policy: config matching") for line in lines), lines
    assert "public_matching_rule" in next(line for line in lines if line.startswith("warnings: "))


def _c14n(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")
