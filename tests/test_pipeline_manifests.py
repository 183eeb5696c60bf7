"""test_pipeline_manifests - issue 27 item 4: the manifest beside every output of the pipeline (verify-jsonl, repair, calibrate,
sensitivity) records the policy and its fingerprint, the package, PDFium and Unicode versions, every tier's soundness rationale,
the calibration when one was used, and the ladder profile recomputed here from the outputs themselves; manifests are
deterministic; a calibration made under another policy, loader or Ethos version is refused."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import harness
import pytest
from test_repair import CASES, SOURCE, _labelled, _write

from ethos_py.document import explain_policy_json

ETHOS = [sys.executable, "-m", "ethos_py.cli"]
TIERS = ["exact", "whitespace", "typography", "case", "skeleton"]


def _run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*ETHOS, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=harness.SUBPROCESS_TIMEOUT, check=False)


def _ok(cwd: Path, *args: str) -> str:
    done = _run(cwd, *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every command of the pipeline run under the permissive policy (not the default, so a manifest
    that recorded the default whatever was asked would be caught), each with --manifest."""
    work = tmp_path_factory.mktemp("manifests")
    _write(work / "claims.jsonl", [{"id": name, "claim": claim, "source": SOURCE} for name, claim in CASES])
    _labelled(work, 40)
    policy = ("--policy", "permissive")
    _ok(work, "verify-jsonl", "claims.jsonl", "-o", "certified.jsonl", "--manifest", "verify-run.json", *policy)
    _ok(work, "calibrate", "labelled.jsonl", "-o", "cal.json", "--alpha", "0.1", "--delta", "0.1", "--scores", "scores.jsonl",
        "--manifest", "calibrate-run.json", *policy)
    _ok(work, "repair", "claims.jsonl", "-o", "repaired.jsonl", "--calibration", "cal.json", "--manifest", "repair-run.json",
        *policy)
    _ok(work, "sensitivity", "--jsonl", "claims.jsonl", "--threshold", "0.8", "--out", "sensitivity.json",
        "--manifest", "sensitivity-run.json")
    return work


def _policies(work: Path) -> list[tuple[str, dict[str, Any], str]]:
    """(which manifest, its explained policy, the policy it should be) for every policy a manifest records."""
    found = [(name, _json(work / f"{name}-run.json")["policy"], "permissive") for name in ("verify", "calibrate", "repair")]
    sensitivity = _json(work / "sensitivity-run.json")["policies"]
    return found + [(f"sensitivity {preset}", sensitivity[preset], preset) for preset in ("strict", "default", "permissive")]


def test_every_manifest_records_the_policy_in_force_and_its_fingerprint(work: Path) -> None:
    for name, explained, preset in _policies(work):
        assert explained == json.loads(explain_policy_json(preset)), name
        canonical = json.dumps(explained["policy"], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert explained["policy_fingerprint"] == "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest(), name


def test_every_tier_has_its_soundness_rationale(work: Path) -> None:
    for name, explained, _ in _policies(work):
        policy = explained["policy"]
        accepted = TIERS[:TIERS.index(policy["accept_up_to"]) + 1]
        for tier in policy["tiers"]:
            [line] = [a for a in explained["assumptions"] if a.startswith(f"{tier}: ")]
            verdict = "Accepted (grounded)." if tier in accepted else "Not accepted: reported, never grounded."
            assert line.endswith(verdict), (name, tier)
            assert ("UNSOUND" in line) == (tier == "skeleton"), (name, tier)


def test_every_manifest_records_the_package_pdfium_and_unicode_versions(work: Path) -> None:
    printed = dict(line.split(" ", 1) for line in _ok(work, "--version").splitlines())
    expected = {"name": "ethos", "version": printed["ethos"], "pdfium": printed["pdfium"],
                "unicode_version": printed["unicode"]}
    for name in ("verify", "calibrate", "repair", "sensitivity"):
        assert _json(work / f"{name}-run.json")["verifier"] == expected, name


def _profile(tiers: list[str | None], records: int) -> list[dict[str, Any]]:
    rows, cumulative = [], 0
    for tier in TIERS:
        grounded = tiers.count(tier)
        cumulative += grounded
        rows.append({"tier": tier, "grounded": grounded, "share": grounded / records, "cumulative_share": cumulative / records})
    return rows


def _tier(verdict: dict[str, Any]) -> str | None:
    return verdict["match"]["tier"] if verdict["status"] == "grounded" else None


def test_the_ladder_profile_is_the_outputs_own(work: Path) -> None:
    certified = [json.loads(line)["ethos"] for line in (work / "certified.jsonl").read_text().splitlines()]
    profile = _json(work / "verify-run.json")["ladder_profile"]
    assert profile == _profile([_tier(v) for v in certified], len(certified))
    assert [row["grounded"] for row in profile] == [1, 0, 0, 1, 0]  # permissive: exact and case, as the claims say
    # repair: the claims as given (their 'before' certificates), not what was stored after.
    repaired = [json.loads(line)["ethos"] for line in (work / "repaired.jsonl").read_text().splitlines()]
    assert _json(work / "repair-run.json")["ladder_profile"] == _profile([_tier(r["before"]) for r in repaired], len(repaired))
    scores = [json.loads(line) for line in (work / "scores.jsonl").read_text().splitlines()]
    assert _json(work / "calibrate-run.json")["ladder_profile"] == _profile([s["tier"] for s in scores], len(scores))
    assert sum(s["tier"] is not None for s in scores) == 1  # the one labelled claim grounded as given
    result = _json(work / "sensitivity.json")
    profiles = _json(work / "sensitivity-run.json")["ladder_profiles"]
    for preset in ("strict", "default", "permissive"):
        assert profiles[preset] == _profile([row[preset].get("tier") if row[preset]["outcome"] == "grounded" else None
                                             for row in result["checks"]], result["claims"]), preset


def test_the_calibration_used_is_recorded_by_its_digest_wherever_it_goes(work: Path) -> None:
    calibration = _json(work / "cal.json")
    digest = hashlib.sha256(json.dumps(calibration, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    made, used = _json(work / "calibrate-run.json")["calibration"], _json(work / "repair-run.json")["cascade"]["calibration"]
    assert made["sha256"] == used["sha256"] == digest
    assert made["threshold"] == calibration["threshold"] and made["binding"] == calibration["binding"]
    for key in ("target", "alpha", "delta", "n", "guarantee_status", "guarantee", "data_sha256"):
        assert made[key] == used[key] == calibration[key], key
    assert _json(work / "calibrate-run.json")["output"]["sha256"] == hashlib.sha256((work / "cal.json").read_bytes()).hexdigest()


def test_inputs_and_outputs_are_named_with_their_digests(work: Path) -> None:
    def sha(name: str) -> str:
        return hashlib.sha256((work / name).read_bytes()).hexdigest()

    calibrate = _json(work / "calibrate-run.json")
    assert calibrate["input"] == {"path": "labelled.jsonl", "sha256": sha("labelled.jsonl"), "records": 41}
    assert calibrate["scores"] == {"path": "scores.jsonl", "sha256": sha("scores.jsonl"), "records": 41}
    sensitivity = _json(work / "sensitivity-run.json")
    assert sensitivity["inputs"] == {"jsonl": {"path": "claims.jsonl", "sha256": sha("claims.jsonl")}}
    assert sensitivity["output"] == {"path": "sensitivity.json", "sha256": sha("sensitivity.json"), "format": "json"}
    assert sensitivity["repair"] == _json(work / "sensitivity.json")["repair"]


def test_manifests_are_deterministic(work: Path, tmp_path: Path) -> None:
    for name in ("claims.jsonl", "labelled.jsonl", "cal.json"):
        (tmp_path / name).write_bytes((work / name).read_bytes())
    _ok(tmp_path, "calibrate", "labelled.jsonl", "-o", "cal.json", "--alpha", "0.1", "--delta", "0.1", "--scores",
        "scores.jsonl", "--manifest", "calibrate-run.json", "--policy", "permissive")
    _ok(tmp_path, "sensitivity", "--jsonl", "claims.jsonl", "--threshold", "0.8", "--out", "sensitivity.json",
        "--manifest", "sensitivity-run.json")
    for name in ("calibrate-run.json", "sensitivity-run.json"):
        assert (tmp_path / name).read_bytes() == (work / name).read_bytes(), name


def test_a_sensitivity_manifest_of_a_text_rendering_on_stdout(work: Path, tmp_path: Path) -> None:
    (tmp_path / "claims.jsonl").write_bytes((work / "claims.jsonl").read_bytes())
    printed = _ok(tmp_path, "sensitivity", "--jsonl", "claims.jsonl", "--format", "text", "--manifest", "run.json")
    output = _json(tmp_path / "run.json")["output"]
    assert output == {"path": None, "sha256": hashlib.sha256(printed.encode("utf-8")).hexdigest(), "format": "text"}


def _refused(work: Path, tmp_path: Path, calibration: dict[str, Any], *args: str) -> str:
    (tmp_path / "cal.json").write_text(json.dumps(calibration), encoding="utf-8")
    (tmp_path / "claims.jsonl").write_bytes((work / "claims.jsonl").read_bytes())
    done = _run(tmp_path, "repair", "claims.jsonl", "-o", "out.jsonl", "--calibration", "cal.json", "--manifest", "run.json",
                *args)
    assert done.returncode == 2, done.stderr
    envelope = json.loads(done.stderr)["error"]
    assert envelope["code"] == "invalid_input" and envelope["details"]["argument"] == "--calibration"
    assert not (tmp_path / "out.jsonl").exists() and not (tmp_path / "run.json").exists()
    return str(envelope["details"]["reason"])


def test_a_calibration_is_refused_under_another_policy_loader_or_version(work: Path, tmp_path: Path) -> None:
    calibration = _json(work / "cal.json")  # made under permissive
    assert "policy_fingerprint" in _refused(work, tmp_path, calibration)  # the run's default policy
    assert "policy_fingerprint" in _refused(work, tmp_path, calibration, "--policy", "strict")
    assert "pipeline" in _refused(work, tmp_path, calibration, "--policy", "permissive", "--grounding", "text")
    older = json.loads(json.dumps(calibration))
    older["binding"]["ethos_version"] = "0.0.1"
    assert "ethos_version" in _refused(work, tmp_path, older, "--policy", "permissive")
    other_scorer = json.loads(json.dumps(calibration))
    other_scorer["binding"]["scorer"] = "gtrex difflib ratio"
    assert "scorer" in _refused(work, tmp_path, other_scorer, "--policy", "permissive")
