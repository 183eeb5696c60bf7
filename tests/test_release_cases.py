"""test_release_cases.py - the release decision on every surface: golden cases, seeded random inputs, the public oracle, CLI errors."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import ethos_pdf  # the public pure-Python helpers, an oracle only (never copied)
import pytest
from conftest import schema_errors

from ethos_py._release_core import release_decision_json
from ethos_py.errors import EthosError
from ethos_py.release import CLAIM_SUPPORT, CLAIM_TYPES, RELEVANCE, app_answer_release_decision

import harness  # tests/golden, put on sys.path by conftest (its ethos-core resolution)

sys.path.insert(0, str(Path(__file__).resolve().parent / "release_cases"))
from release_harness import (  # noqa: E402
    SURFACES,
    ReleaseCase,
    c14n,
    check_expect,
    cli_arguments,
    load_cases,
    run_surface,
)

ethos_core_binary = harness.ethos_core_binary

CASES = load_cases()
APP_STATUSES = {"certified", "partial_certified", "claim_support_needs_review", "supported_synthesis_needs_review",
                "claim_support_rejected", "grounded_but_irrelevant", "cannot_answer_from_sources"}


def test_cases_cover_every_app_status_and_many_errors() -> None:
    statuses = {case.expect["app_status"] for case in CASES if case.expect["exit_code"] == 0}
    assert statuses == APP_STATUSES
    assert sum(case.expect["exit_code"] == 2 for case in CASES) >= 15


@pytest.mark.parametrize("surface", SURFACES)
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_case_on_surface_matches_golden(case: ReleaseCase, surface: str) -> None:
    exit_code, stdout, stderr = run_surface(surface, case, ethos_core_binary())
    assert exit_code == case.expect["exit_code"], stderr
    golden = case.golden_path.read_bytes()
    if exit_code == 0:
        assert stdout == golden
        assert stderr == b""
        decision = json.loads(stdout)
        assert schema_errors("app-answer-release-decision", decision) == []
        assert check_expect(case, decision, None) == []
    elif surface != "library":  # the library raises ValueError instead of printing an envelope
        assert stdout == b""
        assert stderr == golden
        envelope = json.loads(stderr)
        assert schema_errors("error-envelope", envelope) == []
        assert check_expect(case, None, envelope) == []


def _oracle_proof(case: ReleaseCase) -> Any:
    proof = json.loads(case.report_path.read_bytes())
    # The public 0.6.0 helper reads a Statement as an empty report; ours unwraps it (CONTRACTS §2.9).
    return proof["predicate"] if "predicate" in proof else proof


@pytest.mark.parametrize("case", [c for c in CASES if c.expect["exit_code"] == 0], ids=lambda case: case.name)
def test_valid_case_agrees_with_oracle(case: ReleaseCase) -> None:
    spec = case.spec
    kwargs: dict[str, Any] = {"notes": spec.get("notes")}
    if "report_ref" in spec:
        kwargs["verification_report_ref"] = spec["report_ref"]
    claims = json.loads(case.claims_path.read_bytes())
    oracle = ethos_pdf.app_answer_release_decision(spec["question"], _oracle_proof(case), claims, **kwargs)
    assert c14n(oracle) + b"\n" == case.golden_path.read_bytes()


@pytest.mark.parametrize(
    "case",
    [c for c in CASES if c.expect["exit_code"] == 2 and c.name != "error-claims-invalid-json"],
    ids=lambda case: case.name,
)
def test_invalid_case_is_rejected_by_oracle_too(case: ReleaseCase) -> None:
    spec = case.spec
    kwargs: dict[str, Any] = {"notes": spec.get("notes")}
    if "report_ref" in spec:
        kwargs["verification_report_ref"] = spec["report_ref"]
    claims = json.loads(case.claims_path.read_bytes())
    with pytest.raises(ValueError):
        ethos_pdf.app_answer_release_decision(spec["question"], _oracle_proof(case), claims, **kwargs)


# ------------------------------------------------------------------------------------------ seeded random inputs

CHECK_IDS = ["v0001", "v0002", "v0003", "v0004", "v0005"]


def _random_proof(rng: random.Random) -> dict[str, Any]:
    ids = CHECK_IDS[: rng.randint(0, len(CHECK_IDS))]
    reusable = [check for check in ids if rng.random() < 0.6]
    review = [check for check in ids if check not in reusable]
    certified = bool(ids) and not review and rng.random() < 0.8
    status = "verified" if certified else ("partially_verified" if reusable else "unverified")
    limitations = [] if not review else ["non_grounded_checks"]
    return {"proof_status": status, "request_certified": certified, "reusable_grounded_check_ids": reusable,
            "needs_review_check_ids": review, "proof_limitations": limitations}


def _random_claim(rng: random.Random, index: int, invalid: bool) -> dict[str, Any]:
    claim: dict[str, Any] = {"id": f"c{index}", "text": rng.choice(["Revenue grew", "Ümsatz stieg 12,5 %", "x"])}
    grounding = rng.randrange(4)
    if grounding == 0:
        claim["check_ids"] = rng.sample(CHECK_IDS, rng.randint(1, 3))
    elif grounding == 1:
        claim["check_id"] = rng.choice(CHECK_IDS)
    else:
        claim["citation_grounded"] = rng.random() < 0.5
    if grounding < 2 and rng.random() < 0.2:
        claim["citation_grounded"] = rng.random() < 0.5  # may disagree with the proof: an error then
    claim["question_relevance"] = rng.choice(RELEVANCE)
    claim["claim_type"] = rng.choice(CLAIM_TYPES)
    if rng.random() < 0.8:
        claim["claim_support"] = rng.choice(CLAIM_SUPPORT)
    if invalid:
        field, value = rng.choice([("question_relevance", "maybe"), ("claim_type", None), ("claim_support", ""),
                                   ("id", ""), ("text", 7), ("check_ids", []), ("check_ids", ["v0001", "v0001"]),
                                   ("check_id", ""), ("citation_grounded", "true")])
        claim[field] = value
    return claim


def _random_input(seed: int) -> tuple[str, dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    rng = random.Random(seed)
    proof = _random_proof(rng)
    claims = [_random_claim(rng, i, invalid=rng.random() < 0.05) for i in range(rng.randint(0, 5))]
    if rng.random() < 0.15:  # an answer the app fully supports, so "certified" is reached too
        for claim in claims:
            for field in ("check_id", "check_ids"):
                claim.pop(field, None)
            claim.update(citation_grounded=True, question_relevance="direct_answer", claim_type="source_fact",
                         claim_support="supported")
    if claims and rng.random() < 0.05:
        claims.append(dict(claims[0]))  # a duplicate claim id
    kwargs: dict[str, Any] = {}
    if rng.random() < 0.3:
        kwargs["notes"] = rng.sample(["checked by app", "model v3", "second review"], rng.randint(1, 2))
    if rng.random() < 0.3:
        kwargs["verification_report_ref"] = "runs/7/report.json"
    return rng.choice(["What changed?", " Revenue? ", "Wie hoch war der Umsatz?"]), proof, claims, kwargs


def _python(question: str, proof: Any, claims: Any, kwargs: dict[str, Any]) -> bytes | None:
    try:
        return c14n(app_answer_release_decision(question, proof, claims, **kwargs))
    except ValueError:
        return None


def _native(question: str, proof: Any, claims: Any, kwargs: dict[str, Any]) -> bytes | None:
    try:
        return release_decision_json(c14n(proof), c14n(claims), question,
                                     verification_report_ref=kwargs.get("verification_report_ref"),
                                     notes=kwargs.get("notes") or ())
    except EthosError as error:
        assert error.code == "invalid_input"
        assert error.exit_code == 2
        return None


def _oracle(question: str, proof: Any, claims: Any, kwargs: dict[str, Any]) -> bytes | None:
    try:
        return c14n(ethos_pdf.app_answer_release_decision(question, proof, claims, **kwargs))
    except ValueError:
        return None


def test_random_inputs_agree_between_python_native_and_oracle() -> None:
    outcomes = {"decided": 0, "rejected": 0}
    statuses = set()
    for seed in range(600):
        question, proof, claims, kwargs = _random_input(seed)
        python, native, oracle = (decide(question, proof, claims, kwargs) for decide in (_python, _native, _oracle))
        assert python == native == oracle, f"seed {seed}"
        outcomes["decided" if python is not None else "rejected"] += 1
        if python is not None:
            decision = json.loads(python)
            assert schema_errors("app-answer-release-decision", decision) == [], f"seed {seed}"
            statuses.add(decision["app_status"])
    # the generator really exercises both sides and every status
    assert outcomes["decided"] > 200 and outcomes["rejected"] > 50, outcomes
    assert statuses == APP_STATUSES


def _cli_case(tmp_path: Path, seed: int) -> tuple[list[str], bytes | None]:
    question, proof, claims, kwargs = _random_input(seed)
    proof_path, claims_path = tmp_path / f"proof-{seed}.json", tmp_path / f"claims-{seed}.json"
    proof_path.write_bytes(json.dumps(proof, indent=1).encode())
    claims_path.write_bytes(json.dumps(claims, ensure_ascii=False).encode())
    args = ["release", str(proof_path), "--question", question, "--claims", str(claims_path)]
    if "verification_report_ref" in kwargs:
        args += ["--report-ref", kwargs["verification_report_ref"]]
    for note in kwargs.get("notes", []):
        args += ["--note", note]
    return args, _python(question, proof, claims, kwargs)


@pytest.mark.parametrize("seed", range(0, 600, 40))
def test_random_inputs_through_both_clis(tmp_path: Path, seed: int) -> None:
    args, expected = _cli_case(tmp_path, seed)
    results = []
    for command in ([ethos_core_binary()], [sys.executable, "-m", "ethos_py.cli"]):
        done = subprocess.run([*command, *args], capture_output=True, timeout=120, check=False)
        results.append((done.returncode, done.stdout, done.stderr))
        if expected is None:
            assert done.returncode == 2 and done.stdout == b""
            assert json.loads(done.stderr)["error"]["code"] == "invalid_input"
        else:
            assert (done.returncode, done.stdout, done.stderr) == (0, expected + b"\n", b"")
    assert results[0] == results[1]


# ------------------------------------------------------------------------------------------ CLI specifics

def _both_clis(args: list[str], cwd: Path | None = None) -> list[tuple[int, bytes, bytes]]:
    out = []
    for command in ([ethos_core_binary()], [sys.executable, "-m", "ethos_py.cli"]):
        done = subprocess.run([*command, *args], capture_output=True, timeout=120, check=False, cwd=cwd)
        out.append((done.returncode, done.stdout, done.stderr))
    return out


def test_out_writes_the_decision_atomically(tmp_path: Path) -> None:
    case = next(c for c in CASES if c.name == "partial-certified-with-notes")
    for command in ([ethos_core_binary()], [sys.executable, "-m", "ethos_py.cli"]):
        done = subprocess.run([*command, *cli_arguments(case), "--out", str(tmp_path / "decision.json")],
                              capture_output=True, timeout=120, check=False)
        assert (done.returncode, done.stdout, done.stderr) == (0, b"", b""), command
        assert (tmp_path / "decision.json").read_bytes() == case.golden_path.read_bytes()
        assert os.listdir(tmp_path) == ["decision.json"]  # no temporary file left behind
        (tmp_path / "decision.json").unlink()


def test_invalid_claims_leave_no_out_file(tmp_path: Path) -> None:
    case = next(c for c in CASES if c.name == "error-unknown-check-id")
    results = _both_clis([*cli_arguments(case), "--out", str(tmp_path / "decision.json")])
    assert results[0] == results[1]
    assert results[0][0] == 2
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    ("args", "code", "details"),
    [
        pytest.param(["release", "missing.json", "--question", "Q", "--claims", "claims.json"], "host_io",
                     {"argument": "REPORT", "path": "missing.json", "reason": "not_found"}, id="missing-report"),
        pytest.param(["release", "report.json", "--question", "Q", "--claims", "nope.json"], "host_io",
                     {"argument": "--claims", "path": "nope.json", "reason": "not_found"}, id="missing-claims"),
    ],
)
def test_host_errors_are_identical(tmp_path: Path, args: list[str], code: str, details: dict[str, Any]) -> None:
    (tmp_path / "report.json").write_bytes(CASES[0].report_path.read_bytes())
    (tmp_path / "claims.json").write_bytes(b"[]")
    results = _both_clis(args, cwd=tmp_path)
    assert results[0] == results[1]
    exit_code, stdout, stderr = results[0]
    assert exit_code == 2 and stdout == b""
    error = json.loads(stderr)["error"]
    assert error["code"] == code and error["details"] == details


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["release", "report.json", "--claims", "claims.json"], id="missing-question"),
        pytest.param(["release", "report.json", "--question", "Q"], id="missing-claims-option"),
        pytest.param(["release", "--question", "Q", "--claims", "claims.json"], id="missing-report-positional"),
    ],
)
def test_argument_errors_exit_2_on_both(tmp_path: Path, args: list[str]) -> None:
    for exit_code, stdout, stderr in _both_clis(args, cwd=tmp_path):
        assert exit_code == 2 and stdout == b""
        assert json.loads(stderr)["error"]["code"] == "invalid_arguments"


def test_non_utf8_question_is_an_argument_error(tmp_path: Path) -> None:
    (tmp_path / "report.json").write_bytes(CASES[0].report_path.read_bytes())
    (tmp_path / "claims.json").write_bytes(b"[]")
    args = [b"release", b"report.json", b"--question", b"caf\xe9", b"--claims", b"claims.json"]
    results = []
    for command in ([os.fsencode(ethos_core_binary())], [os.fsencode(sys.executable), b"-m", b"ethos_py.cli"]):
        done = subprocess.run([*command, *args], capture_output=True, timeout=120, check=False, cwd=tmp_path)
        results.append((done.returncode, done.stdout, done.stderr))
    assert results[0] == results[1]
    assert results[0][0] == 2
    assert json.loads(results[0][2])["error"] == {"code": "invalid_arguments", "details": {"argument": "--question"},
                                                   "message": json.loads(results[0][2])["error"]["message"]}


# ------------------------------------------------------------------------------------------ schema negatives

def test_schema_rejects_a_reason_that_contradicts_its_action() -> None:
    decision = json.loads(next(c for c in CASES if c.name == "certified-from-statement").golden_path.read_bytes())
    assert schema_errors("app-answer-release-decision", decision) == []
    for field, value in [("release_action", "needs_review"), ("citation_grounded", False),
                         ("claim_support", "not_evaluated"), ("question_relevance", "unrelated")]:
        broken = json.loads(json.dumps(decision))
        broken["claims"][0][field] = value
        assert schema_errors("app-answer-release-decision", broken) != [], field
    broken = json.loads(json.dumps(decision))
    broken["app_status"] = "grounded_but_irrelevant"
    assert schema_errors("app-answer-release-decision", broken) != []
