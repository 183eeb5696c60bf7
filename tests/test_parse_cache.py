"""test_parse_cache - the parse cache from the command line: private files, no decrypted text unless
asked, entries that cannot be planted, a size bound, `cache info|clear` on both CLIs, and ethos-core
ending with the `ethos doc parse` that started it."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pdf_fixtures as fx
import pytest

ETHOS = [sys.executable, "-m", "ethos_py.cli"]


def _entries(cache: Path) -> list[Path]:
    return sorted(cache.glob("*.entry")) if cache.exists() else []


def _parse(program: list[str], pdf: Path, *options: str) -> subprocess.CompletedProcess[bytes]:
    return fx.run_program([*program, "doc", "parse", "--diagnostics", *options, str(pdf)])


def _cache_state(result: subprocess.CompletedProcess[bytes]) -> str:
    assert result.returncode == 0, result.stderr
    state: str = json.loads(result.stdout)["diagnostics"]["cache"]
    return state


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("ETHOS_CACHE_DIR", os.fspath(directory))
    monkeypatch.delenv("ETHOS_CACHE_MAX_BYTES", raising=False)
    monkeypatch.delenv("ETHOS_PDF_PASSWORD", raising=False)
    return directory


@pytest.mark.parametrize("name", ["ethos", "ethos-core"])
def test_a_password_protected_pdf_is_not_cached_unless_asked(name: str, cache: Path, tmp_path: Path) -> None:
    program = fx.programs()[name]
    pdf = fx.write_pdf(tmp_path, "locked.pdf", fx.encrypted_pdf("s3cret"))
    password = tmp_path / "password.txt"
    password.write_text("s3cret\n", encoding="utf-8")

    first = _parse(program, pdf, "--password-file", str(password))
    assert _cache_state(first) == "off"
    assert fx.VISIBLE_SENTENCE.split()[1] in first.stdout.decode()
    assert _entries(cache) == []  # nothing of the decrypted text was written
    assert _cache_state(_parse(program, pdf, "--password-file", str(password))) == "off"

    # Asked for: cached, privately, and served on the next run.
    assert _cache_state(_parse(program, pdf, "--password-file", str(password), "--cache-decrypted")) == "miss"
    (entry,) = _entries(cache)
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    assert _cache_state(_parse(program, pdf, "--password-file", str(password), "--cache-decrypted")) == "hit"


def test_the_python_api_caches_a_password_protected_pdf_only_when_asked(cache: Path, tmp_path: Path) -> None:
    import ethos_py

    pdf = fx.write_pdf(tmp_path, "locked.pdf", fx.encrypted_pdf("s3cret"))
    states = [ethos_py.parse_pdf_json(pdf, password="s3cret", diagnostics=True)["diagnostics"]["cache"] for _ in range(2)]
    assert states == ["off", "off"] and _entries(cache) == []
    asked = [
        ethos_py.parse_pdf_json(pdf, password="s3cret", cache_decrypted=True, diagnostics=True)["diagnostics"]["cache"]
        for _ in range(2)
    ]
    assert asked == ["miss", "hit"] and len(_entries(cache)) == 1


def test_cache_files_are_private_whatever_the_umask(cache: Path, tmp_path: Path) -> None:
    pdf = fx.write_pdf(tmp_path, "a.pdf", fx.text_pdf([[fx.VISIBLE_SENTENCE]]))
    old = os.umask(0o022)
    try:
        assert _cache_state(_parse(fx.programs()["ethos-core"], pdf)) == "miss"
    finally:
        os.umask(old)
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    for path in cache.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name
    # A directory left 0755 by an earlier version is tightened on the next use.
    cache.chmod(0o755)
    assert _cache_state(_parse(fx.programs()["ethos-core"], pdf)) == "hit"
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700


def _forge(document: bytes, tmp_path: Path) -> bytes:
    """``document`` with "committee" changed to "attackers" and its hashes recomputed: a document
    the strict loader accepts, for the same PDF (source fingerprint kept)."""
    sys.path.insert(0, os.fspath(fx.REPO_DIR / "tools"))
    import make_native_document as tool

    parsed = json.loads(document)
    parsed["payload"] = json.loads(json.dumps(parsed["payload"]).replace("committee", "attackers"))
    parsed["payload_sha256"] = tool.payload_sha256(parsed["payload"])
    parsed["fingerprint"] = tool.document_fingerprint(
        config_sha256=parsed["config_sha256"],
        payload_sha256=parsed["payload_sha256"],
        profile_id=parsed["profile"]["id"],
        profile_sha256=parsed["profile"]["sha256"],
        schema_version=parsed["schema_version"],
        source_fingerprint=parsed["source"]["fingerprint"],
    )
    forged: bytes = tool.c14n(parsed)
    assert forged != document
    planted = tmp_path / "planted.json"
    planted.write_bytes(forged)
    accepted = fx.run_program([*fx.programs()["ethos-core"], "fingerprint", os.fspath(planted)])
    assert accepted.returncode == 0, accepted.stderr  # valid: only the MAC can tell it apart
    return forged


@pytest.mark.parametrize("name", ["ethos", "ethos-core"])
def test_a_planted_entry_is_never_served(name: str, cache: Path, tmp_path: Path) -> None:
    program = fx.programs()[name]
    pdf = fx.write_pdf(tmp_path, "a.pdf", fx.text_pdf([[fx.VISIBLE_SENTENCE]]))
    genuine = _parse(program, pdf)
    assert _cache_state(genuine) == "miss"
    (entry,) = _entries(cache)

    # Whoever writes the directory plants a valid document for this PDF with other text (every
    # unkeyed hash recomputed, so the strict loader accepts it: the old cache served it) and
    # recomputes the hashes the entry's header names; the keyed MAC, whose key they do not
    # have, still fails, so the PDF is parsed again.
    header_line, _, document = entry.read_bytes().partition(b"\n")
    forged = _forge(document, tmp_path)
    header = json.loads(header_line)
    header["content_sha256"] = __import__("hashlib").sha256(forged).hexdigest()
    entry.write_bytes(json.dumps(header, separators=(",", ":"), sort_keys=True).encode() + b"\n" + forged)
    entry.chmod(0o600)
    again = _parse(program, pdf)
    assert _cache_state(again) == "miss"
    assert b"attackers" not in again.stdout
    assert json.loads(again.stdout)["fingerprint"] == json.loads(genuine.stdout)["fingerprint"]

    # An entry of the earlier, unauthenticated format under the same key is ignored too.
    entry.with_suffix(".json").write_bytes(forged)
    assert b"attackers" not in _parse(program, pdf).stdout


def test_cache_info_and_clear_are_the_same_on_both_clis(cache: Path, tmp_path: Path) -> None:
    programs = fx.programs()
    empty = {n: fx.run_program([*p, "cache", "info"]) for n, p in programs.items()}
    assert empty["ethos"].stdout == empty["ethos-core"].stdout
    assert json.loads(empty["ethos"].stdout) == {
        "bytes": 0, "directory": os.fspath(cache), "entries": 0, "max_bytes": 1 << 30
    }
    for index in range(2):
        pdf = fx.write_pdf(tmp_path, f"p{index}.pdf", fx.text_pdf([[fx.VISIBLE_SENTENCE, f"Page {index}."]]))
        assert _cache_state(_parse(programs["ethos-core"], pdf)) == "miss"
    (cache / "notes.txt").write_text("not an entry", encoding="utf-8")
    info = {n: fx.run_program([*p, "cache", "info"]) for n, p in programs.items()}
    assert info["ethos"].stdout == info["ethos-core"].stdout
    described = json.loads(info["ethos"].stdout)
    assert described["entries"] == 2
    assert described["bytes"] == sum(path.stat().st_size for path in _entries(cache))

    cleared = fx.run_program([*programs["ethos"], "cache", "clear"])
    assert (cleared.returncode, cleared.stderr) == (0, b"")
    assert json.loads(cleared.stdout) == {
        "directory": os.fspath(cache), "removed_bytes": described["bytes"], "removed_entries": 2
    }
    assert _entries(cache) == []
    assert (cache / "notes.txt").exists()
    again = fx.run_program([*programs["ethos-core"], "cache", "clear", "--cache-dir", os.fspath(cache)])
    assert json.loads(again.stdout)["removed_entries"] == 0


def test_the_cache_is_bounded_and_evicts_the_least_recently_used(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pdfs = [fx.write_pdf(tmp_path, f"p{i}.pdf", fx.text_pdf([[fx.VISIBLE_SENTENCE, f"Page {i}."]])) for i in range(3)]
    core = fx.programs()["ethos-core"]
    assert _cache_state(_parse(core, pdfs[0])) == "miss"
    size = _entries(cache)[0].stat().st_size
    # Room for two entries of this size, not three.
    monkeypatch.setenv("ETHOS_CACHE_MAX_BYTES", str(size * 2 + size // 2))
    time.sleep(0.05)
    assert _cache_state(_parse(core, pdfs[1])) == "miss"
    time.sleep(0.05)
    assert _cache_state(_parse(core, pdfs[0])) == "hit"  # p0 is now the most recently used
    time.sleep(0.05)
    assert _cache_state(_parse(core, pdfs[2])) == "miss"  # p1 is evicted
    assert len(_entries(cache)) == 2
    assert _cache_state(_parse(core, pdfs[0])) == "hit"
    assert _cache_state(_parse(core, pdfs[2])) == "hit"
    assert _cache_state(_parse(core, pdfs[1])) == "miss"
    info = json.loads(fx.run_program([*core, "cache", "info"]).stdout)
    assert info["max_bytes"] == size * 2 + size // 2 and info["bytes"] <= info["max_bytes"]


@pytest.mark.parametrize("value", ["0", "lots", "1.5G"])
def test_a_malformed_cache_limit_names_the_variable_on_both_clis(value: str, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ETHOS_CACHE_MAX_BYTES", value)
    results = {n: fx.run_program([*p, "cache", "info"]) for n, p in fx.programs().items()}
    for name, result in results.items():
        assert (result.returncode, result.stdout) == (2, b""), name
        assert fx.envelope_code(result.stderr) == "invalid_arguments", name
        assert json.loads(result.stderr)["error"]["details"] == {"argument": "ETHOS_CACHE_MAX_BYTES"}
    assert results["ethos"].stderr == results["ethos-core"].stderr


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text(encoding="ascii")
    except OSError:
        return []
    return [int(child) for child in text.split()]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.fixture(scope="module")
def long_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Long enough (seconds with one worker) that ethos-core is still parsing when its parent dies."""
    pages = [[f"Line {i} of page {p} with some words." for i in range(100)] for p in range(1500)]
    return fx.write_pdf(tmp_path_factory.mktemp("long"), "long.pdf", fx.text_pdf(pages, size=5))


_API_PARSE = (
    "import sys, ethos_py; "
    "ethos_py.parse_pdf_bytes(sys.argv[1], use_cache=False, workers=1); print('finished')"
)


@pytest.mark.parametrize("surface", ["ethos doc parse", "python api"])
def test_killing_the_parent_ends_ethos_core_and_its_workers(surface: str, long_pdf: Path, tmp_path: Path) -> None:
    from ethos_py._pdfium import parse_environment

    env = parse_environment()
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [os.fspath(fx.REPO_DIR), env.get("PYTHONPATH")]))
    if surface == "ethos doc parse":
        argv = [*ETHOS, "doc", "parse", "--no-cache", "--workers", "1", "--out", os.fspath(tmp_path / "out.json"), str(long_pdf)]
    else:
        argv = [sys.executable, "-c", _API_PARSE, str(long_pdf)]
    parent = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    core: list[int] = []
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not workers:
        core = _children(parent.pid)
        workers = [w for c in core for w in _children(c)]
        time.sleep(0.01)
    assert core and workers, "ethos-core never started its workers"
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    # The parse has seconds left; ending with the parent takes milliseconds.
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline and any(_alive(pid) for pid in core + workers):
        time.sleep(0.02)
    assert not any(_alive(pid) for pid in core + workers), "ethos-core or a worker outlived ethos doc parse"
    assert not (tmp_path / "out.json").exists()
