"""test_hostile_out_temps - a writer killed (kill -9) during --out leaves a temp file; the next --out into that directory removes it, and only such files."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pdf_fixtures as fx
import pytest

from ethos_py._host_io import STALE_TEMP_SECONDS, remove_stale_out_temps

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "schemas" / "examples"
DOCUMENT = EXAMPLES / "document.example.json"


def temps(directory: Path) -> list[Path]:
    return sorted(directory.glob(".ethos-out-*"))


def kill_during_out(program: str, directory: Path, ndjson: Path) -> Path:
    """Runs verify-batch with a large --out into `directory` and kills it (SIGKILL) once its temp
    file appears; returns the temp file left behind. Retried when the write finished first."""
    from ethos_py._pdfium import parse_environment

    env = parse_environment()
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [os.fspath(REPO), env.get("PYTHONPATH")]))
    argv = [*fx.programs()[program], "verify-batch", str(DOCUMENT), "--citations-ndjson", str(ndjson),
            "--quiet", "--out", str(directory / "reports.ndjson")]
    for _ in range(8):
        process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        left: list[Path] = []
        while process.poll() is None and not left:
            left = temps(directory)
        if left:
            process.send_signal(signal.SIGKILL)
        process.wait()
        if left and process.returncode == -signal.SIGKILL and temps(directory):
            assert not (directory / "reports.ndjson").exists()
            return temps(directory)[0]
        (directory / "reports.ndjson").unlink(missing_ok=True)
    pytest.fail("the write finished before the kill in 8 tries: make the batch larger so a kill lands mid-write")


@pytest.fixture(scope="module")
def ndjson(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """20,000 requests: tens of MB of reports, so the write takes long enough to be killed in."""
    path = tmp_path_factory.mktemp("batch") / "citations.ndjson"
    line = json.dumps(json.loads((EXAMPLES / "citations.example.json").read_text()), separators=(",", ":"))
    path.write_text((line + "\n") * 20000)
    return path


def age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


@pytest.mark.parametrize("program", ["ethos-core", "ethos"])
def test_the_next_out_removes_what_a_killed_writer_left(tmp_path: Path, ndjson: Path, program: str) -> None:
    left = kill_during_out(program, tmp_path, ndjson)
    dead_pid = int(left.name.split("-")[2])
    assert left.stat().st_size > 0
    # Not touched while it may still be written (changed less than a minute ago) ...
    fresh = tmp_path / f".ethos-out-{dead_pid}-Fresh1"
    fresh.write_bytes(b"partial")
    # ... nor when its writer is alive, nor when the name is not ours.
    alive = tmp_path / f".ethos-out-{os.getpid()}-Alive1"
    alive.write_bytes(b"partial")
    others = [tmp_path / ".ethos-out-abc123", tmp_path / f".ethos-out-{dead_pid}-x", tmp_path / "notes.txt"]
    for path in others:
        path.write_bytes(b"kept")
    for path in (left, alive, *others):
        age(path, STALE_TEMP_SECONDS + 60)
    # Both programs clean up on their next --out into the directory.
    for runner in ("ethos", "ethos-core"):
        if not left.exists():  # the first run removed the killed writer's file: another one like it
            left = tmp_path / f".ethos-out-{dead_pid}-Again1"
            left.write_bytes(b"partial")
            age(left, STALE_TEMP_SECONDS + 60)
        out = tmp_path / f"report-{runner}.json"
        done = fx.run_program([*fx.programs()[runner], "verify", str(DOCUMENT), "--citations",
                               str(EXAMPLES / "citations.example.json"), "--out", str(out)])
        assert done.returncode == 0 and out.exists()
        assert not left.exists()
        assert fresh.exists() and alive.exists() and all(path.exists() for path in others)
        assert temps(tmp_path) == sorted([fresh, alive, others[0], others[1]])


def test_the_rule_in_process(tmp_path: Path) -> None:
    process = subprocess.Popen(["sleep", "0"])
    process.wait()
    gone = tmp_path / f".ethos-out-{process.pid}-abc_1234"
    gone.write_bytes(b"x")
    age(gone, STALE_TEMP_SECONDS + 1)
    huge = tmp_path / ".ethos-out-9999999999-abc123"  # no pid at all: kept, no error
    huge.write_bytes(b"x")
    age(huge, STALE_TEMP_SECONDS + 1)
    directory = tmp_path / f".ethos-out-{process.pid}-dir123"
    directory.mkdir()
    age(directory, STALE_TEMP_SECONDS + 1)
    remove_stale_out_temps(str(tmp_path))
    assert not gone.exists() and directory.exists() and huge.exists()


@pytest.mark.parametrize("program", ["ethos-core", "ethos"])
def test_the_next_crop_dir_write_removes_a_killed_writers_staging_directory(tmp_path: Path, program: str) -> None:
    process = subprocess.Popen(["sleep", "0"])
    process.wait()
    crop_dir = tmp_path / "crops"
    crop_dir.mkdir()

    def staging(name: str, *, age_by: float = STALE_TEMP_SECONDS + 60, subdirectory: bool = False) -> Path:
        path = crop_dir / name
        path.mkdir()
        (path / "crop-partial.json").write_bytes(b'{"artifact_type":')
        if subdirectory:
            (path / "nested").mkdir()
        age(path, age_by)
        return path

    # What kill -9 during a --crop-dir write leaves: a staging directory named after a dead writer.
    left = staging(f".ethos-crops-{process.pid}-Ab12_x")
    # Kept: one changed a moment ago, one whose writer lives, one holding more than our files,
    # and names that are not ours.
    kept = [staging(f".ethos-crops-{process.pid}-Fresh1", age_by=0), staging(f".ethos-crops-{os.getpid()}-Alive1"),
            staging(f".ethos-crops-{process.pid}-Nest12", subdirectory=True), staging(".ethos-crops-abc123"),
            staging("album")]
    done = fx.run_program([*fx.programs()[program], "verify", str(DOCUMENT), "--citations",
                           str(EXAMPLES / "citations.example.json"), "--crop-dir", str(crop_dir)])
    assert done.returncode == 0, done.stderr
    assert not left.exists()
    assert all(path.is_dir() for path in kept)
    written = sorted(path.name for path in crop_dir.iterdir() if path.is_file())
    assert written and all(name.startswith("crop-") for name in written)
    # The run's own staging directory is gone: only the kept ones remain beside the crops.
    assert sorted(path for path in crop_dir.iterdir() if path.is_dir()) == sorted(kept)
