"""test_hostile_pdf_generator - every kind of the hostile-PDF generator (tests/hostile_pdfs.py) parsed by `ethos doc parse` and `ethos-core doc parse`: its expected envelope or document, the same bytes on both, no output file on failure."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hostile_pdfs as hostile
import pdf_fixtures as fx
import pytest
from conftest import schema_errors
from ethos_cli_server import EthosServer, core_env

#: A parse that has not ended by then has hung (each kind parses in well under a minute under the
#: sanitizers, and --max-parse-ms stops it before).
TIMEOUT_SECONDS = 240


def _limits(kind: hostile.Kind) -> list[str]:
    """The generator's limits, unless the kind sets one of them itself."""
    limits = {"--max-parse-ms": str(hostile.MAX_PARSE_MS), "--max-memory-mib": str(hostile.MAX_MEMORY_MIB)}
    return [part for flag, value in limits.items() if flag not in kind.args for part in (flag, value)]


@pytest.fixture(scope="module")
def ethos_server() -> Iterator[EthosServer]:
    server = EthosServer(timeout=TIMEOUT_SECONDS)
    yield server
    assert server.close() == 0


def _parse(program: str, pdf: Path, out: Path, kind: hostile.Kind, server: EthosServer) -> tuple[int, bytes, bytes]:
    """`doc parse` of one program: ethos-core as a process of its own, `ethos` in the long-lived
    child (tests/ethos_cli_server.py; its parse runs ethos-core as a child process all the same)."""
    argv = ["doc", "parse", str(pdf), "--no-cache", "--quiet", *_limits(kind), *kind.args, "--out", str(out)]
    if program == "ethos":
        return server.run(argv)
    done = subprocess.run([*fx.programs()["ethos-core"], *argv], env=core_env(), cwd=out.parent, stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=TIMEOUT_SECONDS, check=False)
    return done.returncode, done.stdout, done.stderr


def _warnings(document: dict[str, Any]) -> list[str]:
    payload = document["payload"]
    return sorted({w["code"] + (f"/{w['technique']}" if "technique" in w else "")
                   for w in payload["parser_warnings"] + payload["security_warnings"]})


@pytest.mark.parametrize("name", list(hostile.KINDS))
def test_every_hostile_pdf_kind_ends_in_its_outcome_on_both_clis(name: str, tmp_path: Path, ethos_server: EthosServer) -> None:
    kind = hostile.KINDS[name]
    pdf = fx.write_pdf(tmp_path, f"{name}.pdf", kind.build())
    results = {}
    for program in ("ethos", "ethos-core"):
        work = tmp_path / program
        work.mkdir()
        out = work / "document.json"
        code, stdout, stderr = _parse(program, pdf, out, kind, ethos_server)
        assert code >= 0, f"{program} killed by signal {-code}: {stderr[-2000:]!r}"
        assert stdout == b"", stdout[:400]
        if kind.outcome.code is None:
            assert code == 0 and stderr == b"", (program, stderr)
            assert sorted(path.name for path in work.iterdir()) == ["document.json"]
            results[program] = (code, out.read_bytes())
        else:
            # Nothing written: not the output, not its temp file.
            assert list(work.iterdir()) == [], (program, list(work.iterdir()))
            assert (code, fx.envelope_code(stderr)) == (kind.outcome.exit_code, kind.outcome.code), (program, stderr)
            error = json.loads(stderr)["error"]
            assert schema_errors("error-envelope", json.loads(stderr)) == []
            if kind.outcome.details is not None:
                assert error["details"] == kind.outcome.details
            results[program] = (code, stderr)
    assert results["ethos"] == results["ethos-core"]
    if kind.outcome.code is None:
        document = json.loads(results["ethos"][1])
        assert schema_errors("document", document) == []
        assert _warnings(document) == sorted(kind.outcome.warnings)
        if kind.outcome.text is not None:
            assert kind.outcome.text in fx.all_text(document)


def test_the_generator_has_twenty_kinds_or_more_of_each_outcome_class() -> None:
    kinds = hostile.KINDS.values()
    assert len(hostile.KINDS) >= 20
    failing = {kind.outcome.code for kind in kinds if kind.outcome.code}
    # Every stable parse failure a PDF can cause is among the outcomes.
    assert failing == {"invalid_pdf", "corrupt_pdf", "password_protected", "unsupported_pdf_feature", "page_limit_exceeded",
                       "file_too_large", "ocr_required", "parse_timeout", "memory_limit_exceeded"}
    assert sum(1 for kind in kinds if kind.outcome.code is None) >= 20
    assert all(kind.why for kind in kinds)


def test_the_generator_is_deterministic_and_writes_every_kind(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(Path(hostile.__file__)), str(tmp_path / "pdfs")], capture_output=True,
                          text=True, check=True, timeout=300)
    written = sorted(Path(line).name for line in done.stdout.split())
    assert written == sorted(f"{name}.pdf" for name in hostile.KINDS)
    for name in ("incremental_update", "tounicode_invalid_code_points", "page_tree_cycle", "huge_image_dimensions"):
        assert (tmp_path / "pdfs" / f"{name}.pdf").read_bytes() == hostile.KINDS[name].build()


def test_docs_list_every_kind_with_its_outcome() -> None:
    text = (fx.REPO_DIR / "docs" / "reliability.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip(" `"): line for line in text.splitlines() if line.startswith("| `")}
    for name, kind in hostile.KINDS.items():
        assert name in rows, f"docs/reliability.md has no row for {name}"
        expected = [f"`{kind.outcome.code}` (exit {kind.outcome.exit_code})"] if kind.outcome.code else \
            [f"`{warning}`" for warning in kind.outcome.warnings] or ["warnings: none"]
        assert all(part in rows[name] for part in expected), rows[name]
