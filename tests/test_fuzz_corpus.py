"""test_fuzz_corpus - every fuzz target of native/fuzz has a source, a stored corpus holding all its seeds, and a replay ctest (run by tests/test_native.py's builds)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FUZZ = ROOT / "native" / "fuzz"


def targets() -> list[str]:
    cmake = (FUZZ / "CMakeLists.txt").read_text(encoding="utf-8")
    listed = re.search(r"set\(ETHOS_FUZZ_TARGETS([^)]*)\)", cmake)
    assert listed is not None
    return listed.group(1).split()


def test_every_target_has_its_source_and_a_corpus() -> None:
    names = targets()
    assert len(names) >= 9
    sources = {p.stem for p in FUZZ.glob("*.cpp")} - {"fuzz_support", "replay_main"}
    assert sources == set(names)
    for name in names:
        assert any((FUZZ / "corpus" / name).iterdir()), name
        assert "LLVMFuzzerTestOneInput" in (FUZZ / f"{name}.cpp").read_text(encoding="utf-8")


def test_the_corpus_holds_every_seed_of_the_golden_cases() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "seed_fuzz_corpus.py"), "--check"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_the_dictionary_is_valid_for_libfuzzer() -> None:
    # libFuzzer's format: comments, or name="value" with \\ and \" as the only escapes in use here.
    for line in (FUZZ / "json.dict").read_text(encoding="utf-8").splitlines():
        assert line.startswith("#") or re.fullmatch(r'kw\d+="(?:[^"\\]|\\\\|\\")*"', line), line
