"""test_hostile_json_matrix - every case of the hostile JSON matrix (tests/hostile_json.py) ends, on `ethos` and `ethos-core` alike, in success or one stable error envelope: never a crash, a signal, a hang or internal_error."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import hostile_json as matrix
import pdf_fixtures as fx
import pytest
from conftest import schema_errors
from ethos_cli_server import EthosServer, core_env

#: A run that takes longer than this has hung (the slowest case takes well under a second alone).
TIMEOUT_SECONDS = 120
CASES = matrix.cases()


@pytest.fixture(scope="module")
def ethos_server() -> Iterator[EthosServer]:
    server = EthosServer(timeout=TIMEOUT_SECONDS)
    yield server
    assert server.close() == 0


def _ethos_core(argv: list[str]) -> tuple[int, bytes, bytes]:
    done = subprocess.run([fx.programs()["ethos-core"][0], *argv], env=core_env(), cwd=fx.REPO_DIR,
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT_SECONDS, check=False)
    return done.returncode, done.stdout, done.stderr


def _problem(case: matrix.Case, result: tuple[int, bytes, bytes]) -> str | None:
    """What is wrong with one CLI's result, or None: a signal, output besides the envelope, a bad
    envelope, internal_error, or a success with stderr output or no stdout."""
    code, stdout, stderr = result
    if code < 0:
        return f"killed by signal {-code}"
    if code == 0 or (code == 1 and stdout and not stderr):
        # 1: a verdict the input was read for (`grounding check` of an invalid artifact): a report.
        if not stdout or stderr:
            return f"exit {code} with stdout {stdout[:80]!r} stderr {stderr[:200]!r}"
        if case.slot == "grounding":
            errors = schema_errors("grounding-validation", json.loads(stdout))
            return f"grounding validation off schema: {errors}" if errors else None
        return None
    if stdout:
        return f"exit {code} with stdout {stdout[:200]!r}"
    if not stderr.endswith(b"\n") or stderr.count(b"\n") != 1:
        return f"exit {code}, stderr is not one line: {stderr[:400]!r}"
    try:
        envelope = json.loads(stderr)
    except ValueError:
        return f"exit {code}, stderr is not JSON: {stderr[:400]!r}"
    errors = schema_errors("error-envelope", envelope)
    if errors:
        return f"exit {code}, envelope off schema {errors}: {stderr[:400]!r}"
    if envelope["error"]["code"] == "internal_error":
        return f"internal_error: {stderr[:600]!r}"
    return None


@pytest.mark.parametrize("slot", list(matrix.SLOTS))
def test_every_mutation_of_a_json_input_ends_in_an_envelope_on_both_clis(slot: str, tmp_path: Path,
                                                                          ethos_server: EthosServer) -> None:
    claims = matrix.claims_file(tmp_path)
    failures: list[str] = []
    outcomes: dict[str, int] = {}
    for number, case in enumerate(case for case in CASES if case.slot == slot):
        path = tmp_path / f"case-{number}.json"
        path.write_bytes(case.data)
        argv = matrix.argv(case, path, claims)
        core = _ethos_core(argv)
        python = ethos_server.run(argv)
        if case.mutation == "base" and core[0] != 0:
            failures.append(f"{case.id}: the sound base fails: {core[2][:400]!r}")
        for program, result in (("ethos-core", core), ("ethos", python)):
            problem = _problem(case, result)
            if problem:
                failures.append(f"{case.id} ({program}): {problem}")
        if core != python:
            failures.append(f"{case.id}: the CLIs differ: ethos-core {core[0]} {core[2][:300]!r}, ethos {python[0]} {python[2][:300]!r}")
        key = "success" if core[0] == 0 else "verdict" if core[0] == 1 and not core[2] else json.loads(core[2])["error"]["code"] if core[0] > 0 and core[2].startswith(b"{") else "?"
        outcomes[key] = outcomes.get(key, 0) + 1
        path.unlink()
    assert failures == [], "\n".join(failures[:40])
    # The matrix reaches the readers: most mutations are refused, and a few (a wrong type in an
    # ignored member, a number still in range) are read as valid input.
    assert sum(outcomes.values()) > len(matrix.BYTE_MUTATIONS) and outcomes.get("success", 0) >= 1, outcomes
    assert sum(count for code, count in outcomes.items() if code != "success") > len(matrix.BYTE_MUTATIONS) // 2, outcomes


def test_the_matrix_is_seeded_and_covers_every_mutation() -> None:
    again = matrix.cases()
    assert [(case.id, case.data) for case in again] == [(case.id, case.data) for case in CASES]
    for slot in matrix.SLOTS:
        mutations = {case.mutation for case in CASES if case.slot == slot}
        assert set(matrix.BYTE_MUTATIONS) <= mutations
        assert any(m.startswith("wrong_type:") for m in mutations) and any(m.startswith("empty:") for m in mutations), slot
    depth = next(case for case in CASES if case.id == "citations-deep_nesting_top").data
    assert depth.startswith(b"[" * matrix.DEPTH)
    long_array = next(case for case in CASES if case.id == "policy-long_array_member").data
    assert long_array.count(b",0") >= matrix.LONG_ARRAY - 1


def test_a_rehashed_payload_mutation_passes_the_integrity_check(tmp_path: Path, ethos_server: EthosServer) -> None:
    """The document_payload slot reaches the document reader: the unmutated example re-hashes to
    itself, and a mutated payload is refused for its shape, not for a hash mismatch."""
    example = json.loads(matrix.SLOTS["document_payload"].base())
    assert matrix.rehashed(example) == example
    example["payload"]["elements"][0]["bbox"] = "not a box"
    path = tmp_path / "document.json"
    path.write_text(json.dumps(matrix.rehashed(example)), encoding="utf-8")
    code, stdout, stderr = _ethos_core(["security", "report", str(path)])
    assert (code, stdout) == (2, b"") and ethos_server.run(["security", "report", str(path)]) == (code, stdout, stderr)
    error = json.loads(stderr)["error"]
    assert error["code"] == "invalid_input" and "bbox" in json.dumps(error), stderr
