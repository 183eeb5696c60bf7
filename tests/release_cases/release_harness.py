"""release_harness - loads release decision cases and runs them on the library, `ethos release` and `ethos-core release`."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CASES_DIR = Path(__file__).resolve().parent
GOLDEN_CASES_DIR = CASES_DIR.parent / "golden" / "cases"
SURFACES = ("library", "ethos", "ethos-core")
SUBPROCESS_TIMEOUT = 120


def c14n(value: Any) -> bytes:
    """Canonical JSON v1 bytes (CONTRACTS §2.1) as the contract's Python equivalent."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode("utf-8")


@dataclass
class ReleaseCase:
    directory: Path

    @property
    def name(self) -> str:
        return self.directory.name

    @property
    def spec(self) -> dict[str, Any]:
        spec: dict[str, Any] = json.loads((self.directory / "case.json").read_text(encoding="utf-8"))
        return spec

    @property
    def expect(self) -> dict[str, Any]:
        expect: dict[str, Any] = self.spec["expect"]
        return expect

    @property
    def report_path(self) -> Path:
        """`golden:<case>` reuses a golden verification report (or Statement); else a file here."""
        report: str = self.spec["report"]
        if report.startswith("golden:"):
            return GOLDEN_CASES_DIR / report.removeprefix("golden:") / "expected.json"
        return self.directory / report

    @property
    def claims_path(self) -> Path:
        return self.directory / "claims.json"

    @property
    def golden_path(self) -> Path:
        return self.directory / ("expected.json" if self.expect["exit_code"] == 0 else "expected.stderr")


def load_cases() -> list[ReleaseCase]:
    return [ReleaseCase(path.parent) for path in sorted(CASES_DIR.glob("*/case.json"))]


def library_decision(case: ReleaseCase) -> dict[str, Any]:
    """The pure-Python library decision (raises ValueError for an invalid case)."""
    from ethos_py import app_answer_release_decision

    spec = case.spec
    try:
        claims = json.loads(case.claims_path.read_bytes())
    except ValueError as error:
        raise ValueError("claims are not JSON") from error
    kwargs: dict[str, Any] = {"notes": spec.get("notes")}
    if "report_ref" in spec:
        kwargs["verification_report_ref"] = spec["report_ref"]
    proof = json.loads(case.report_path.read_bytes())
    return app_answer_release_decision(spec["question"], proof, claims, **kwargs)


def cli_arguments(case: ReleaseCase) -> list[str]:
    spec = case.spec
    args = ["release", str(case.report_path), "--question", spec["question"], "--claims", str(case.claims_path)]
    if "report_ref" in spec:
        args += ["--report-ref", spec["report_ref"]]
    for note in spec.get("notes") or []:
        args += ["--note", note]
    return args


def run_surface(surface: str, case: ReleaseCase, ethos_core: str) -> tuple[int, bytes, bytes]:
    """(exit code, stdout, stderr) as a CLI gives them; the library's ValueError is exit 2 with no bytes."""
    if surface == "library":
        try:
            return 0, c14n(library_decision(case)) + b"\n", b""
        except ValueError:
            return 2, b"", b""
    command = [sys.executable, "-m", "ethos_py.cli"] if surface == "ethos" else [ethos_core]
    done = subprocess.run([*command, *cli_arguments(case)], capture_output=True, timeout=SUBPROCESS_TIMEOUT, check=False)
    return done.returncode, done.stdout, done.stderr


def check_expect(case: ReleaseCase, decision: dict[str, Any] | None, envelope: dict[str, Any] | None) -> list[str]:
    """Disagreements between an output and the case's hand-written expect block."""
    expect = case.expect
    problems: list[str] = []
    if expect["exit_code"] == 0:
        assert decision is not None
        if decision["app_status"] != expect["app_status"]:
            problems.append(f"app_status {decision['app_status']} != {expect['app_status']}")
        actions = {claim["id"]: claim["release_action"] for claim in decision["claims"]}
        if actions != expect["actions"]:
            problems.append(f"actions {actions} != {expect['actions']}")
        return problems
    assert envelope is not None
    error = envelope["error"]
    details = error.get("details", {})
    for key, field in (("error_code", "code"),):
        if key in expect and error[field] != expect[key]:
            problems.append(f"{field} {error[field]} != {expect[key]}")
    for key, field in (("error_input", "input"), ("error_field", "field"), ("error_claim_id", "claim_id")):
        if key in expect and details.get(field) != expect[key]:
            problems.append(f"details.{field} {details.get(field)!r} != {expect[key]!r}")
    return problems
