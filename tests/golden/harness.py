"""harness - loads golden cases, runs them on a surface and checks the outputs against each case's expect block."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GOLDEN_DIR = Path(__file__).resolve().parent
REPO_DIR = GOLDEN_DIR.parents[1]
CASES_DIR = GOLDEN_DIR / "cases"
SOURCES_DIR = GOLDEN_DIR / "sources"
SCHEMAS_DIR = REPO_DIR / "schemas"
TOOLS_DIR = REPO_DIR / "tools"

SURFACES = ("library", "ethos", "ethos-core")
STATUS_ORDER = ("grounded", "not_found", "mismatch", "stale", "unsupported_claim_kind", "capability_blocked", "error")
LIMITATION_ORDER = (
    "capability_limited",
    "stale_fingerprint",
    "unsupported_claim_kind",
    "non_grounded_checks",
    "semantic_unverified",
)
SUBPROCESS_TIMEOUT = 120
# --grounding values a case may name (docs/sources.md); absent = the core's own choice.
GROUNDINGS = ("ethos-native", "ethos-grounding-json", "opendataloader-json", "docling-json", "text", "markdown")

# ------------------------------------------------------------------------------------------ c14n


def c14n(value: Any) -> bytes:
    """Canonical JSON v1 bytes (CONTRACTS §2.1) as the contract's Python equivalent."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode("utf-8")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ------------------------------------------------------------------------------------------ cases

CASE_FILE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["source", "description", "surfaces", "expect"],
    "additionalProperties": False,
    "properties": {
        "source": {"type": "string", "pattern": r"^[a-z0-9-]+\.(json|md|txt)$"},
        "description": {"type": "string", "minLength": 10},
        "surfaces": {"type": "array", "minItems": 1, "uniqueItems": True, "items": {"enum": list(SURFACES)}},
        "options": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "statement": {"const": True},
                "format": {"const": "summary"},
                "fail_on_ungrounded": {"const": True},
                "claim_validation": {"const": "report"},
                "policy": {"enum": ["strict", "default", "permissive"]},
                "grounding": {"enum": list(GROUNDINGS)},
            },
        },
        "expect": {
            "type": "object",
            "required": ["exit_code"],
            "additionalProperties": False,
            "properties": {
                "exit_code": {"enum": [0, 1, 2]},
                "error_code": {"type": "string"},
                "error_path": {"type": "string", "pattern": "^\\$"},
                "checks": {"type": "array", "items": {"$ref": "#/$defs/check"}},
                "all_evidence_grounded": {"type": "boolean"},
                "fingerprint_stale": {"type": "boolean"},
                "capability_limits": {"type": "array", "items": {"type": "string"}},
                "unsupported_claim_kinds": {"type": "array", "items": {"type": "string"}},
                "warnings": {"type": "array", "items": {"type": "string"}},
                "report_schema_version": {"enum": ["1.0.0", "1.1.0"]},
                "report_fields_present": {"type": "array", "items": {"type": "string"}},
                "report_fields_absent": {"type": "array", "items": {"type": "string"}},
                "dispersion": {"type": "object"},
                "verification_config_sha256": {"type": "string"},
            },
        },
    },
    "allOf": [
        {
            "description": "claim_validation=report exists only in the library.",
            "if": {"required": ["options"], "properties": {"options": {"required": ["claim_validation"]}}},
            "then": {"properties": {"surfaces": {"const": ["library"]}}},
        }
    ],
    "$defs": {
        "check": {
            "type": "object",
            "required": ["status", "match_method"],
            "additionalProperties": False,
            "properties": {
                "status": {"enum": list(STATUS_ORDER)},
                "reason": {"type": "string"},
                "match_method": {"type": "string"},
                "evidence_tier": {"enum": ["exact_span", "table_cell", "element_scoped", "page_scoped"]},
                "semantic_unverified": {"type": "boolean"},
                "evidence": {"type": "object"},
                "evidence_keys": {"type": "array", "items": {"type": "string"}},
                "fields_present": {"type": "array", "items": {"type": "string"}},
                "fields_absent": {"type": "array", "items": {"type": "string"}},
                "resolved_element_ids": {"type": "array", "items": {"type": "string"}},
                "provenance": {"type": "object"},
                "context_echo": {"type": "object"},
                "nearest_match": {"type": "object"},
                "match": {"type": "object"},
            },
        }
    },
}


@dataclass
class Case:
    """One golden case directory."""

    name: str
    directory: Path
    meta: dict[str, Any]
    source_path: Path = field(init=False)
    citations_path: Path = field(init=False)
    config_path: Path | None = field(init=False)

    def __post_init__(self) -> None:
        self.source_path = SOURCES_DIR / self.meta["source"]
        self.citations_path = self.directory / "citations.json"
        config = self.directory / "config.json"
        self.config_path = config if config.exists() else None

    @property
    def options(self) -> dict[str, Any]:
        return self.meta.get("options", {})

    @property
    def expect(self) -> dict[str, Any]:
        return self.meta["expect"]

    @property
    def surfaces(self) -> list[str]:
        return self.meta["surfaces"]

    @property
    def citations_bytes(self) -> bytes:
        return self.citations_path.read_bytes()

    @property
    def config_bytes(self) -> bytes | None:
        return None if self.config_path is None else self.config_path.read_bytes()

    @property
    def golden_path(self) -> Path:
        """expected.stderr for failures (exit >= 2), expected.txt for summaries, else expected.json."""
        if self.expect["exit_code"] >= 2:
            return self.directory / "expected.stderr"
        if self.options.get("format") == "summary":
            return self.directory / "expected.txt"
        return self.directory / "expected.json"


def load_cases() -> list[Case]:
    cases = []
    for directory in sorted(p for p in CASES_DIR.iterdir() if p.is_dir()):
        meta = json.loads((directory / "case.json").read_text(encoding="utf-8"))
        cases.append(Case(directory.name, directory, meta))
    return cases


# ------------------------------------------------------------------------------------------ surfaces


def ethos_core_binary() -> str:
    """ETHOS_CORE, else the ethos-core beside ETHOS_LIBRARY (a dev or sanitizer build), else the
    binary EthosCli runs by default (the bundled ethos-core)."""
    explicit = os.environ.get("ETHOS_CORE")
    if explicit:
        return explicit
    library = os.environ.get("ETHOS_LIBRARY")
    if library and (Path(library).parent / "ethos-core").is_file():
        return str(Path(library).parent / "ethos-core")
    from ethos_py import EthosCli

    return EthosCli().ethos_bin


def _gate(output: bytes, statement: bool) -> bool:
    value = json.loads(output)
    report = value["predicate"] if statement else value
    return bool(report["all_evidence_grounded"])


def _run_library(case: Case) -> tuple[int, bytes, bytes]:
    import ethos_py
    from ethos_py.errors import EthosError

    options = case.options
    statement = bool(options.get("statement", False))
    try:
        document = ethos_py.Document.open(case.source_path, options.get("grounding"))
        try:
            report = document.verify_json(
                case.citations_bytes,
                case.config_bytes,
                statement=statement,
                subject_name=case.source_path.name if statement else None,
                claim_validation=options.get("claim_validation", "strict"),
                policy=options.get("policy"),
            )
        finally:
            document.close()
    except EthosError as error:
        # what every CLI prints: the envelope line on stderr, nothing on stdout
        return error.exit_code, b"", bytes(error.envelope) + b"\n"
    exit_code = 1 if options.get("fail_on_ungrounded") and not _gate(report, statement) else 0
    if options.get("format") == "summary":
        return exit_code, ethos_py.summary_text(report).encode("utf-8"), b""
    return exit_code, report + b"\n", b""


def cli_arguments(case: Case) -> list[str]:
    """verify arguments; the source is passed by file name and the command runs in its directory."""
    args = ["verify", case.source_path.name, "--citations", str(case.citations_path)]
    if case.config_path is not None:
        args += ["--config", str(case.config_path)]
    options = case.options
    if options.get("format") == "summary":
        args += ["--format", "summary"]
    if options.get("fail_on_ungrounded"):
        args.append("--fail-on-ungrounded")
    if options.get("statement"):
        args.append("--statement")
    if options.get("policy"):
        args += ["--policy", options["policy"]]
    if options.get("grounding"):
        args += ["--grounding", options["grounding"]]
    return args


def _run_process(command: list[str]) -> tuple[int, bytes, bytes]:
    done = subprocess.run(command, cwd=SOURCES_DIR, capture_output=True, timeout=SUBPROCESS_TIMEOUT, check=False)
    return done.returncode, done.stdout, done.stderr


def run_surface(surface: str, case: Case) -> tuple[int, bytes, bytes]:
    """Runs a case on one surface: (exit_code, stdout bytes, stderr bytes) as a CLI would give them."""
    if surface == "library":
        return _run_library(case)
    if surface == "ethos":
        return _run_process([sys.executable, "-m", "ethos_py.cli", *cli_arguments(case)])
    if surface == "ethos-core":
        return _run_process([ethos_core_binary(), *cli_arguments(case)])
    raise ValueError(f"unknown surface {surface!r}")


# ------------------------------------------------------------------------------------------ contract readings


def proof_summary(report: dict[str, Any]) -> dict[str, Any]:
    """CONTRACTS §2.7, computed here independently of the core."""
    stale = report["fingerprint_stale"]
    reusable, review = [], []
    for check in report["checks"]:
        ok = check["status"] == "grounded" and not check["semantic_unverified"] and not stale
        (reusable if ok else review).append(check["id"])
    certified = report["all_evidence_grounded"]
    status = "verified" if certified else ("partially_verified" if reusable else "unverified")
    capability = (
        bool(report["capability_limits"])
        or "capability_limited" in report["warnings"]
        or any("capability_limited" in c["warnings"] for c in report["checks"])
    )
    flags = {
        "capability_limited": capability,
        "stale_fingerprint": stale,
        "unsupported_claim_kind": bool(report["unsupported_claim_kinds"]),
        "non_grounded_checks": any(c["status"] != "grounded" for c in report["checks"]),
        "semantic_unverified": any(c["semantic_unverified"] for c in report["checks"]),
    }
    return {
        "proof_status": status,
        "request_certified": certified,
        "reusable_grounded_check_ids": reusable,
        "needs_review_check_ids": review,
        "proof_limitations": [name for name in LIMITATION_ORDER if flags[name]],
    }


def expected_gate(report: dict[str, Any]) -> bool:
    """CONTRACTS §2.6: the all_evidence_grounded rule."""
    if report["fingerprint_stale"] or report["unsupported_claim_kinds"]:
        return False
    supported = [c for c in report["checks"] if c["status"] != "unsupported_claim_kind"]
    if not supported:
        return False
    return all(c["status"] == "grounded" for c in supported) and not any(
        c["semantic_unverified"] for c in report["checks"]
    )


def locator_label(citation: dict[str, Any]) -> str:
    """CONTRACTS §1.5: ';'-joined page, element_id, span_id, table_id, cell:R,C, bbox:[a,b,c,d]."""
    parts = []
    for key in ("page", "element_id", "span_id", "table_id"):
        if key in citation:
            parts.append(f"{key}:{citation[key]}")
    if "cell" in citation:
        parts.append(f"cell:{citation['cell']['row']},{citation['cell']['col']}")
    if "bbox" in citation:
        parts.append("bbox:[" + ",".join(str(n) for n in citation["bbox"]) + "]")
    return ";".join(parts)


def parse_summary(text: str) -> tuple[list[tuple[str, str]], list[str]]:
    """Splits summary text into (key, value) header lines and the lines after non_grounded_checks (up to a ladder profile)."""
    lines = text.split("\n")
    header: list[tuple[str, str]] = []
    tail: list[str] = []
    for index, line in enumerate(lines[1:], start=1):
        key, _, value = line.partition(":")
        header.append((key, value.strip()))
        if key == "non_grounded_checks":
            tail = lines[index + 1 :]
            # Ours, after the contract's lines: a policy report's ladder profile
            # (tests/test_summary_ladder_profile.py checks it against the report).
            if "ladder_profile:" in tail:
                tail = tail[: tail.index("ladder_profile:")] + [""]
            break
    return header, tail


def _split_list(value: str) -> list[str]:
    return [] if value == "none" else [part.strip() for part in value.split(",")]


# ------------------------------------------------------------------------------------------ checking


def expected_document_fingerprint(case: Case) -> str | None:
    """The source's fingerprint by loader (docs/sources.md): native documents carry theirs, ODL
    only an optional source_fingerprint, every other loader hashes the exact bytes."""
    data = case.source_path.read_bytes()
    grounding = case.options.get("grounding")
    if grounding == "opendataloader-json":
        return json.loads(data).get("source_fingerprint")
    if grounding in ("ethos-grounding-json", "docling-json", "text", "markdown"):
        return "sha256:" + sha256_hex(data)
    document = json.loads(data)
    if grounding is None and document.get("artifact_type") == "ethos.grounding.v1":
        return "sha256:" + sha256_hex(data)
    return document["fingerprint"]


def report_of(case: Case, stdout: bytes) -> dict[str, Any]:
    value = json.loads(stdout)
    return value["predicate"] if case.options.get("statement") else value


def check_report(case: Case, report: dict[str, Any]) -> list[str]:
    """Problems of a report against the case's expect block and the contract's invariants."""
    problems: list[str] = []
    expect = case.expect

    def want(label: str, expected: Any, actual: Any) -> None:
        if expected != actual:
            problems.append(f"{label}: expected {expected!r}, got {actual!r}")

    # --- the intent
    for key in ("all_evidence_grounded", "fingerprint_stale", "capability_limits", "verification_config_sha256"):
        if key in expect:
            want(key, expect[key], report.get(key))
    want("unsupported_claim_kinds", expect.get("unsupported_claim_kinds", []), report.get("unsupported_claim_kinds"))
    want("warnings", expect.get("warnings", []), report.get("warnings"))
    want("schema_version", expect.get("report_schema_version", "1.0.0"), report.get("schema_version"))
    for key in expect.get("report_fields_present", []):
        if key not in report:
            problems.append(f"report field {key} missing")
    for key in expect.get("report_fields_absent", []):
        if key in report:
            problems.append(f"report field {key} present")
    for key, value in expect.get("dispersion", {}).items():
        want(f"dispersion.{key}", value, report.get("dispersion", {}).get(key))
    checks = report.get("checks", [])
    expected_checks = expect.get("checks")
    if expected_checks is not None:
        want("number of checks", len(expected_checks), len(checks))
        for want_check, check in zip(expected_checks, checks, strict=False):
            cid = check.get("id")
            want(f"{cid}.status", want_check["status"], check.get("status"))
            want(f"{cid}.reason", want_check.get("reason"), check.get("reason"))
            want(f"{cid}.match_method", want_check["match_method"], check.get("match_method"))
            want(f"{cid}.evidence_tier", want_check.get("evidence_tier"), check.get("evidence_tier"))
            want(
                f"{cid}.semantic_unverified",
                want_check.get("semantic_unverified", False),
                check.get("semantic_unverified"),
            )
            evidence = check.get("evidence", {})
            for key, value in want_check.get("evidence", {}).items():
                want(f"{cid}.evidence.{key}", value, evidence.get(key))
            if "evidence_keys" in want_check:
                want(f"{cid}.evidence keys", sorted(want_check["evidence_keys"]), sorted(evidence))
            for key in want_check.get("fields_present", []):
                if key not in check:
                    problems.append(f"{cid}: field {key} missing")
            for key in want_check.get("fields_absent", []):
                if key in check:
                    problems.append(f"{cid}: field {key} present")
            if "resolved_element_ids" in want_check:
                want(
                    f"{cid}.resolved_element_ids", want_check["resolved_element_ids"], check.get("resolved_element_ids")
                )
            for block in ("provenance", "context_echo", "nearest_match", "match"):
                for key, value in want_check.get(block, {}).items():
                    want(f"{cid}.{block}.{key}", value, check.get(block, {}).get(key))

    # --- invariants every report must satisfy (CONTRACTS §2.5, §2.6)
    want("gate rule (§2.6)", expected_gate(report), report.get("all_evidence_grounded"))
    citations = json.loads(case.citations_bytes)
    claims = citations if isinstance(citations, list) else citations["claims"]
    want("attestation.claims_sha256", sha256_hex(c14n(claims)), report.get("attestation", {}).get("claims_sha256"))
    want("check ids", [f"v{i:04d}" for i in range(1, len(claims) + 1)], [c.get("id") for c in checks])
    want("claim echoes", claims, [c.get("claim") for c in checks])
    if case.config_bytes is not None:
        config = json.loads(case.config_bytes)
        want("verification_config_sha256 (§2.5)", sha256_hex(c14n(config)), report.get("verification_config_sha256"))
        want(
            "attestation.config_version", config["config_version"], report.get("attestation", {}).get("config_version")
        )
    want("document_fingerprint", expected_document_fingerprint(case), report.get("document_fingerprint"))
    for check in checks:
        resolved = check.get("status") in ("grounded", "mismatch")
        if resolved != ("evidence" in check) and check.get("status") != "error":
            problems.append(f"{check.get('id')}: evidence presence does not follow resolution (§2.6)")
    return problems


def check_summary(case: Case, text: str) -> list[str]:
    """Problems of --format summary text against expect and the line grammar of CONTRACTS §1.5."""
    problems: list[str] = []
    expect = case.expect
    if not text.endswith("\n") or not text.startswith("ethos verify summary\n"):
        problems.append("summary must start with 'ethos verify summary' and end with a newline")
    header, tail = parse_summary(text)
    keys = [k for k, _ in header]
    values = dict(header)
    order = [
        "schema_version",
        "verification_config_sha256",
        "all_evidence_grounded",
        "fingerprint_stale",
        "proof_status",
        "request_certified",
        "reusable_grounded_checks",
        "needs_review_checks",
        "proof_limitations",
        "recovery_hint",
        "policy",
        "policy_fingerprint",
        "document_fingerprint",
        "grounding",
        # optional (§1.5): only when the source names an adapter
        *(["grounding_adapter", "grounding_adapter_version"] if "grounding_adapter" in values else []),
        "grounding_capabilities",
        "checks_total",
        *[f"checks_{s}" for s in STATUS_ORDER],
        "capability_limits",
        "unsupported_claim_kinds",
        "warnings",
        "non_grounded_checks",
    ]
    if keys != order:
        problems.append(f"summary line order: expected {order}, got {keys}")
    checks = expect.get("checks", [])
    citations = json.loads(case.citations_bytes)
    claims = citations if isinstance(citations, list) else citations["claims"]
    pseudo = {
        "fingerprint_stale": expect.get("fingerprint_stale", False),
        "all_evidence_grounded": expect.get("all_evidence_grounded"),
        "capability_limits": expect.get("capability_limits", []),
        "warnings": expect.get("warnings", []),
        "unsupported_claim_kinds": expect.get("unsupported_claim_kinds", []),
        "checks": [
            {
                "id": f"v{i:04d}",
                "status": c["status"],
                "semantic_unverified": c.get("semantic_unverified", False),
                "warnings": [],
            }
            for i, c in enumerate(checks, start=1)
        ],
    }
    summary = proof_summary(pseudo)

    def want(label: str, expected: Any, actual: Any) -> None:
        if expected != actual:
            problems.append(f"summary {label}: expected {expected!r}, got {actual!r}")

    want("all_evidence_grounded", str(expect.get("all_evidence_grounded")).lower(), values.get("all_evidence_grounded"))
    want("fingerprint_stale", str(expect.get("fingerprint_stale", False)).lower(), values.get("fingerprint_stale"))
    want("proof_status", summary["proof_status"], values.get("proof_status"))
    want("request_certified", str(summary["request_certified"]).lower(), values.get("request_certified"))
    want(
        "reusable_grounded_checks",
        summary["reusable_grounded_check_ids"],
        _split_list(values.get("reusable_grounded_checks", "")),
    )
    want("needs_review_checks", summary["needs_review_check_ids"], _split_list(values.get("needs_review_checks", "")))
    want("proof_limitations", summary["proof_limitations"], _split_list(values.get("proof_limitations", "")))
    verified_clean = summary["proof_status"] == "verified" and not summary["proof_limitations"]
    if (values.get("recovery_hint") == "none") != verified_clean:
        problems.append(f"summary recovery_hint {values.get('recovery_hint')!r} for {summary['proof_status']}")
    want("checks_total", str(len(checks)), values.get("checks_total"))
    for status in STATUS_ORDER:
        want(f"checks_{status}", str(sum(c["status"] == status for c in checks)), values.get(f"checks_{status}"))
    want("capability_limits", expect.get("capability_limits", []), _split_list(values.get("capability_limits", "")))
    want(
        "unsupported_claim_kinds",
        expect.get("unsupported_claim_kinds", []),
        _split_list(values.get("unsupported_claim_kinds", "")),
    )
    want("document_fingerprint", expected_document_fingerprint(case), values.get("document_fingerprint"))
    items = [line for line in tail if line.startswith("- ")]
    diagnostics = [line for line in tail if line.startswith("  diagnostic:")]
    non_grounded = [(i, c) for i, c in enumerate(checks, start=1) if c["status"] != "grounded"]
    if not non_grounded:
        want("non_grounded_checks", ["- none"], items)
    else:
        expected_items = [
            f"- v{i:04d} status={c['status']} reason={c.get('reason', 'unspecified')} kind={claims[i - 1]['kind']} "
            f"locator={locator_label(claims[i - 1]['citation'])} match_method={c['match_method']}"
            for i, c in non_grounded
        ]
        want("non_grounded_checks", expected_items, items)
        want("diagnostic lines", len(non_grounded), len(diagnostics))
    return problems


def check_outcome(case: Case, exit_code: int, stdout: bytes, stderr: bytes) -> list[str]:
    """Everything the case's expect block (and the output rules of §1.3-§1.5) say about one run."""
    expect = case.expect
    problems: list[str] = []
    if exit_code != expect["exit_code"]:
        problems.append(f"exit code: expected {expect['exit_code']}, got {exit_code}")
    if exit_code >= 2:
        if stdout:
            problems.append("stdout must be empty on failure")
        problems += check_envelope(case, stderr)
        return problems
    if stderr:
        problems.append(f"stderr must be empty on success, got {stderr[:200]!r}")
    if expect["exit_code"] >= 2:
        return problems
    if case.options.get("format") == "summary":
        return problems + check_summary(case, stdout.decode("utf-8"))
    if not stdout.endswith(b"\n") or stdout.count(b"\n") != 1:
        problems.append("the report must be one line ending with a newline")
    value = json.loads(stdout)
    if c14n(value) + b"\n" != stdout:
        problems.append("the report is not canonical JSON")
    if case.options.get("statement"):
        problems += check_statement(case, value)
    return problems + check_report(case, report_of(case, stdout))


def check_statement(case: Case, statement: dict[str, Any]) -> list[str]:
    problems = []
    subject = statement.get("subject", [{}])[0]
    if subject.get("name") != case.source_path.name:
        problems.append(f"statement subject name {subject.get('name')!r} is not {case.source_path.name!r}")
    if subject.get("digest", {}).get("sha256") != sha256_hex(case.source_path.read_bytes()):
        problems.append("statement subject digest is not the sha256 of the document bytes read")
    if statement.get("predicateType") != "https://docushell.com/ethos/grounding/v1":
        problems.append(f"predicateType {statement.get('predicateType')!r}")
    return problems


def check_envelope(case: Case, stderr: bytes) -> list[str]:
    problems = []
    if not stderr.endswith(b"\n") or stderr.count(b"\n") != 1:
        return [f"stderr must be exactly one envelope line, got {stderr[:300]!r}"]
    try:
        envelope = json.loads(stderr)
    except ValueError:
        return [f"stderr is not JSON: {stderr[:300]!r}"]
    if c14n(envelope) + b"\n" != stderr:
        problems.append("the envelope is not canonical JSON")
    code = envelope.get("error", {}).get("code") if isinstance(envelope, dict) else None
    if "error_code" in case.expect and code != case.expect["error_code"]:
        problems.append(f"error code: expected {case.expect['error_code']!r}, got {code!r}")
    if "error_path" in case.expect:
        path = envelope.get("error", {}).get("details", {}).get("path") if isinstance(envelope, dict) else None
        if path != case.expect["error_path"]:
            problems.append(f"error details.path: expected {case.expect['error_path']!r}, got {path!r}")
    message = envelope.get("error", {}).get("message", "") if isinstance(envelope, dict) else ""
    for path in (str(case.directory), str(SOURCES_DIR), case.source_path.name):
        if path in message:
            problems.append(f"the message is not a fixed template (contains {path!r})")
    return problems
