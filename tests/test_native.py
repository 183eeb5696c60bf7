"""test_native.py - the native core on its own: warnings-as-errors and sanitizer builds, ctest, the ABI surface."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import sanitizer_environment

from ethos_py import _locate

ROOT = Path(__file__).resolve().parent.parent
NATIVE = ROOT / "native"


def _configure_build_test(build_dir: Path, *options: str) -> subprocess.CompletedProcess[str]:
    subprocess.run(["cmake", "-S", str(NATIVE), "-B", str(build_dir), *options], check=True, capture_output=True, text=True)
    subprocess.run(["cmake", "--build", str(build_dir), "-j2"], check=True, capture_output=True, text=True)
    return subprocess.run(["ctest", "--output-on-failure"], cwd=build_dir, capture_output=True, text=True)


@pytest.fixture(scope="module")
def sanitizer_ctest(sanitizer_build: Path) -> subprocess.CompletedProcess[str]:
    """ctest of the shared ASan + UBSan build (tests/conftest.py): the native tests and the
    fuzz-corpus replays, built here into it."""
    built = subprocess.run(["cmake", "--build", str(sanitizer_build), "-j2"], capture_output=True, text=True)
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]
    return subprocess.run(["ctest", "--output-on-failure"], cwd=sanitizer_build, capture_output=True, text=True)


#: The native tests whose threads share state (a document's lazily built index, verify-batch
#: workers, the output copy): run under ThreadSanitizer.
CONCURRENCY_TESTS = ["capi_concurrency_tests", "document_index_tests", "near_miss_search_tests", "batch_workers_tests",
                     "batch_output_tests", "chunk_pool_tests"]


def test_concurrency_tests_under_thread_sanitizer(tmp_path: Path) -> None:
    """The concurrency tests built with ThreadSanitizer: any data race (or lock-order inversion)
    is reported and fails the run (halt_on_error)."""
    build = tmp_path / "tsan"
    subprocess.run(["cmake", "-S", str(NATIVE), "-B", str(build), "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                    "-DETHOS_WERROR=ON", "-DETHOS_SANITIZE_THREAD=ON"], check=True, capture_output=True, text=True)
    targets = [f"ethos_{name}" for name in CONCURRENCY_TESTS]
    built = subprocess.run(["cmake", "--build", str(build), "-j2", "--target", *targets], capture_output=True, text=True)
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]
    env = dict(os.environ, TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1")
    result = subprocess.run(["ctest", "--output-on-failure", "-R", "^(" + "|".join(CONCURRENCY_TESTS) + ")$"], cwd=build,
                            capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert f"100% tests passed out of {len(CONCURRENCY_TESTS)}" in result.stdout, result.stdout


def test_native_build_and_ctest(tmp_path: Path) -> None:
    """The core builds with -Werror and its ctest suite passes: the header as strict C99, the C
    smoke test, core unit tests and the shared normalization vectors."""
    result = _configure_build_test(tmp_path / "build", "-DCMAKE_BUILD_TYPE=Debug", "-DETHOS_WERROR=ON")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "100% tests passed" in result.stdout


def test_ctest_under_sanitizers(sanitizer_ctest: subprocess.CompletedProcess[str]) -> None:
    result = sanitizer_ctest
    assert result.returncode == 0, result.stdout + result.stderr
    assert "100% tests passed" in result.stdout


def test_golden_surfaces_under_sanitizers(sanitizer_build: Path) -> None:
    """Every golden case through the library, `ethos` and `ethos-core`, with the core built under
    ASan+UBSan (the sanitizer runtimes are preloaded into Python; any report aborts the run)."""
    env = sanitizer_environment(sanitizer_build)
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             str(ROOT / "tests" / "test_golden.py"), "-k", "surface"],
                            cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    assert " passed" in result.stdout and "failed" not in result.stdout


def test_release_cases_under_sanitizers(sanitizer_build: Path) -> None:
    """The release decision cases on every surface and the seeded random inputs (C ABI in process)
    with the core built under ASan+UBSan."""
    env = sanitizer_environment(sanitizer_build)
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             str(ROOT / "tests" / "test_release_cases.py"), "-k", "surface or random_inputs_agree"],
                            cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    assert " passed" in result.stdout and "failed" not in result.stdout


def test_only_ethos_symbols_are_exported() -> None:
    library = _locate.find_bundled("libethos.so")
    assert library is not None, "libethos.so is not installed"
    nm = shutil.which("nm")
    assert nm is not None
    output = subprocess.run([nm, "-D", "--defined-only", str(library)], check=True, capture_output=True, text=True).stdout
    symbols = [line.split()[-1] for line in output.splitlines() if line.strip()]
    assert symbols, "no exported symbols found"
    assert [s for s in symbols if not s.startswith("ethos_")] == []
    header = (NATIVE / "include" / "ethos.h").read_text(encoding="utf-8")
    for symbol in symbols:
        assert f"{symbol}(" in header, f"{symbol} is exported but not declared in ethos.h"


def test_header_compiles_as_strict_c99(tmp_path: Path) -> None:
    source = tmp_path / "probe.c"
    source.write_text('#include "ethos.h"\nint main(void) { return ETHOS_OK; }\n', encoding="utf-8")
    compiler = shutil.which("cc") or shutil.which("gcc")
    assert compiler is not None
    result = subprocess.run(
        [compiler, "-std=c99", "-pedantic-errors", "-Wall", "-Wextra", "-Werror", "-I", str(NATIVE / "include"),
         "-c", str(source), "-o", str(tmp_path / "probe.o")],
        capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr


def test_unicode_tables_are_fresh(tmp_path: Path) -> None:
    # The tables come from the pinned UCD files (tools/requirements-unicode.txt), never from the running
    # interpreter's unicodedata (Unicode 13 to 15.1 across the Pythons we support): a unicodedata that
    # fails to import proves the generator does not use it, so this passes alike on every Python.
    (tmp_path / "unicodedata.py").write_text('raise ImportError("the generator must not use unicodedata")\n', encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_unicode_tables.py"), "--check"], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
