"""hostile_pdfs - the hostile-PDF generator: one builder per kind of malformed or adversarial PDF, each with the outcome Ethos must give.

Every kind is deterministic (reportlab ``invariant=1``, pikepdf ``static_id``, fixed bytes) and
names what a parse must end in: a stable error (code and exit code, one envelope on stderr,
nothing on stdout, no ``--out`` file) or a valid document carrying the named warnings. The extra
``doc parse`` arguments of a kind bound the run (``--max-pages``, ``--max-file-bytes``,
``--max-parse-ms``, ``--max-memory-mib``) or supply a password.

Run ``python tests/hostile_pdfs.py DIR`` to write every kind into DIR (``<kind>.pdf``) for a
manual look or for another tool.
"""

from __future__ import annotations

import io
import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import hidden_text_fixtures as hidden  # noqa: E402
import pdf_fixtures as fx  # noqa: E402
import pikepdf  # noqa: E402

#: The page count limit the "many pages" kinds parse under (and exceed).
MAX_PAGES = 10
#: Wall-time limit given to every parse of the generator (ms): generous on a loaded 2-core machine
#: under the sanitizers, small beside the default (120 s), so a hang ends as parse_timeout.
MAX_PARSE_MS = 60000
#: Memory limit of every parse (MiB), far below the default 2 GiB.
MAX_MEMORY_MIB = 1024
PASSWORD = "user-secret"


@dataclass(frozen=True)
class Outcome:
    """What parsing a kind must give: ``code``/``exit_code`` (and ``details``, when given) of the
    envelope, or (code None) a valid document whose warnings are exactly ``warnings`` (each
    ``code`` or ``code/technique``) and whose text holds ``text``."""

    code: str | None = None
    exit_code: int = 0
    warnings: tuple[str, ...] = ()
    details: dict[str, object] | None = None
    text: str | None = None  # a sentence the document's text must hold


@dataclass(frozen=True)
class Kind:
    build: Callable[[], bytes]
    outcome: Outcome
    args: tuple[str, ...] = field(default=())
    why: str = ""


def _save(pdf: pikepdf.Pdf, **options: object) -> bytes:
    out = io.BytesIO()
    pdf.save(out, static_id=True, **options)
    return out.getvalue()


def _one_page() -> pikepdf.Pdf:
    return pikepdf.open(io.BytesIO(fx.text_pdf([[fx.VISIBLE_SENTENCE]])))


def _with_page_key(key: str, value: object) -> Callable[[], bytes]:
    def build() -> bytes:
        pdf = _one_page()
        pdf.pages[0].obj[key] = value
        return _save(pdf)

    return build


def broken_xref() -> bytes:
    """A sound PDF whose cross-reference offsets all point 7 bytes early: PDFium rebuilds the xref
    by scanning the objects, as every reader does."""
    data = fx.text_pdf([[fx.VISIBLE_SENTENCE]])
    start = data.rindex(b"\nxref\n") + 1
    end = data.index(b"trailer", start)
    table = data[start:end].split(b"\n")
    fixed = [line if not line.endswith(b" n ") else b"%010d 00000 n " % max(0, int(line[:10]) - 7) for line in table]
    return data[:start] + b"\n".join(fixed) + data[end:]


def zero_pages() -> bytes:
    return _save(pikepdf.new())


def page_tree_cycle() -> bytes:
    """The page tree's /Kids holds the tree itself next to the page: a walk that follows Kids never ends."""
    pdf = _one_page()
    pages = pdf.Root.Pages
    pages.Kids = pikepdf.Array([pages.Kids[0], pages])
    pages.Count = 2
    return _save(pdf)


def deep_page_tree(levels: int) -> bytes:
    """The page under ``levels`` levels of /Pages nodes, each the only kid of the one above."""
    pdf = _one_page()
    page = pdf.pages[0].obj
    node = pdf.Root.Pages
    for _ in range(levels):
        child = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Pages, Count=1, Parent=node, Kids=pikepdf.Array([page])))
        node.Kids = pikepdf.Array([child])
        node = child
    page.Parent = node
    return _save(pdf)


def deeply_nested_objects() -> bytes:
    """A page dictionary with an entry of 50,000 nested arrays (parsers that recurse overflow the stack)."""
    data = fx.text_pdf([[fx.VISIBLE_SENTENCE]])
    depth = 50000
    marker = b"/Type /Page\n"
    assert data.count(marker) == 1
    # Same length elsewhere is not needed: PDFium rebuilds the xref this shifts.
    return data.replace(marker, marker + b" /Deep " + b"[" * depth + b"]" * depth, 1)


def text_at_extreme_coordinates() -> bytes:
    pdf = _one_page()
    content = b"BT /F1 12 Tf 1 0 0 1 1e20 -1e20 Tm (Far away words) Tj ET"
    pdf.pages[0].contents_add(pikepdf.Stream(pdf, content), prepend=False)
    return _save(pdf)


def tounicode_invalid() -> bytes:
    """A Type1 font whose ToUnicode CMap maps codes to U+FFFE, a lone surrogate (U+D800), a code
    point past U+10FFFF and U+0000: the parse must keep valid UTF-8 whatever the map says."""
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            b"/CMapName /Hostile def /CMapType 2 def\n1 begincodespacerange <00> <FF> endcodespacerange\n"
            b"4 beginbfchar\n<41> <FFFE>\n<42> <D800>\n<43> <DBFFDFFFDBFF>\n<44> <0000>\nendbfchar\n"
            b"1 beginbfrange\n<45> <5A> <110000>\nendbfrange\n"
            b"endcmap CMapName currentdict /CMap defineresource pop end end\n")
    pdf = pikepdf.new()
    font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.Helvetica, ToUnicode=pdf.make_stream(cmap)))
    content = (b"BT /F1 12 Tf 72 720 Td (Plain words stay readable here.) Tj ET\n"
               b"BT /F1 12 Tf 72 700 Td (ABCDEFGHIJ ABCD) Tj ET\n")
    page = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 612, 792],
                              Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font)),
                              Contents=pdf.make_stream(content))
    pdf.pages.append(pikepdf.Page(page))
    return _save(pdf)


def broken_font() -> bytes:
    """A font whose embedded program is garbage and whose Widths array is empty."""
    pdf = _one_page()
    for font in pdf.pages[0].Resources.Font.values():
        font.Subtype = pikepdf.Name.TrueType
        font.Widths = pikepdf.Array([])
        font.FirstChar = 0
        font.LastChar = 1000000
        font.FontDescriptor = pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.FontDescriptor, FontName=font.BaseFont, Flags=32, FontBBox=[0, 0, 0, 0],
            ItalicAngle=0, Ascent=0, Descent=0, CapHeight=0, StemV=0,
            FontFile2=pdf.make_stream(b"\x00\x01\x00\x00" + b"\xff" * 512)))
    return _save(pdf)


def embedded_files() -> bytes:
    pdf = _one_page()
    spec = pikepdf.AttachedFileSpec(pdf, b"#!/bin/sh\necho owned\n", filename="payload.sh", mime_type="text/x-sh")
    pdf.attachments["payload.sh"] = spec
    return _save(pdf)


def huge_image() -> bytes:
    """Visible text and an image XObject declaring 100,000 x 100,000 pixels (30 GB decoded) over
    a few bytes of data: nothing may try to decode it whole."""
    pdf = _one_page()
    image = pikepdf.Stream(pdf, zlib.compress(b"\x80" * 4096))
    image.Type = pikepdf.Name.XObject
    image.Subtype = pikepdf.Name.Image
    image.Width = 100000
    image.Height = 100000
    image.ColorSpace = pikepdf.Name.DeviceRGB
    image.BitsPerComponent = 8
    image.Filter = pikepdf.Name.FlateDecode
    page = pdf.pages[0]
    page.Resources.XObject = pikepdf.Dictionary(Im1=image)
    page.contents_add(pikepdf.Stream(pdf, b"q 200 0 0 200 300 100 cm /Im1 Do Q"), prepend=False)
    return _save(pdf)


def content_stream_bomb() -> bytes:
    """A 16 MB content stream of save/restore pairs and empty text objects, Flate-compressed
    about 1000:1, after the visible sentence."""
    pdf = _one_page()
    unit = b"q BT ET Q "
    body = unit * (16 * 1024 * 1024 // len(unit))
    stream = pikepdf.Stream(pdf, zlib.compress(body, 9))
    stream.Filter = pikepdf.Name.FlateDecode
    page = pdf.pages[0]
    page.Contents = pikepdf.Array([page.Contents, stream]) if not isinstance(page.Contents, pikepdf.Array) else page.Contents
    return _save(pdf, compress_streams=False, stream_decode_level=pikepdf.StreamDecodeLevel.none)


INCREMENTAL_SENTENCE = "The amended figures supersede the earlier draft."


def incremental_update() -> bytes:
    """The one-page PDF followed by an incremental update that replaces the page's content: the
    last revision is what a reader sees and what must be parsed."""
    base = fx.text_pdf([[fx.VISIBLE_SENTENCE]])
    with pikepdf.open(io.BytesIO(base)) as pdf:
        page = pdf.pages[0]
        page_number = page.obj.objgen[0]
        font_ref = [key for key in page.Resources.Font.keys()][0]
        resources = page.Resources.Font[font_ref].objgen[0]
        size = int(pdf.trailer.Size)
        root = pdf.Root.objgen[0]
        parent = page.Parent.objgen[0]
    prev = base.rindex(b"startxref")
    prev_offset = int(base[prev + len(b"startxref"):].split()[0])
    content = f"BT {font_ref} 11 Tf 72 720 Td ({INCREMENTAL_SENTENCE}) Tj ET".encode()
    update = io.BytesIO()
    update.write(base if base.endswith(b"\n") else base + b"\n")
    offsets = {}
    offsets[size] = update.tell()
    update.write(b"%d 0 obj\n<< /Length %d >>\nstream\n" % (size, len(content)) + content + b"\nendstream\nendobj\n")
    offsets[page_number] = update.tell()
    update.write(b"%d 0 obj\n<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << /Font << %s %d 0 R >> >> "
                 b"/Contents %d 0 R >>\nendobj\n" % (page_number, parent, font_ref.encode(), resources, size))
    xref = update.tell()
    update.write(b"xref\n")
    for number in sorted(offsets):
        update.write(b"%d 1\n%010d 00000 n \n" % (number, offsets[number]))
    update.write(b"trailer\n<< /Size %d /Root %d 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n" % (size + 1, root, prev_offset, xref))
    return update.getvalue()


def huge_file() -> bytes:
    return fx.many_pages_pdf(3)


_HIDDEN = {technique: Kind(lambda technique=technique: hidden.hidden_pdf(technique),
                           Outcome(warnings=(f"hidden_text_detected/{technique}",)),
                           why=f"hidden text: {technique}")
           for technique in hidden.TECHNIQUES}

#: kind -> builder, expected outcome, extra ``doc parse`` arguments.
KINDS: dict[str, Kind] = {
    "not_a_pdf": Kind(fx.not_a_pdf, Outcome("invalid_pdf", 3), why="no %PDF- header"),
    "empty_file": Kind(lambda: b"", Outcome("invalid_pdf", 3), why="zero bytes"),
    "header_only": Kind(lambda: b"%PDF-1.7\n", Outcome("corrupt_pdf", 4), why="a header and nothing else"),
    "garbled_body": Kind(fx.corrupt_pdf, Outcome("corrupt_pdf", 4), why="no object, xref or trailer to repair"),
    "truncated": Kind(fx.truncated_pdf, Outcome("corrupt_pdf", 4), why="cut after 40 bytes"),
    "truncated_half": Kind(lambda: fx.text_pdf([[fx.VISIBLE_SENTENCE]])[:700], Outcome("corrupt_pdf", 4),
                           why="cut in the middle of its objects"),
    "broken_xref_offsets": Kind(broken_xref, Outcome(text=fx.VISIBLE_SENTENCE), why="every xref offset wrong: repaired"),
    "zero_pages": Kind(zero_pages, Outcome("corrupt_pdf", 4, details={"reason": "no_pages"}), why="a page tree without pages"),
    "page_tree_cycle": Kind(page_tree_cycle, Outcome(), why="/Kids contains its own parent"),
    "deep_page_tree": Kind(lambda: deep_page_tree(500), Outcome(text=fx.VISIBLE_SENTENCE), why="the page under 500 nested /Pages nodes"),
    "page_tree_too_deep": Kind(lambda: deep_page_tree(2000), Outcome("corrupt_pdf", 4),
                               why="2,000 nested /Pages nodes: past PDFium's depth limit, no page loads"),
    "deeply_nested_objects": Kind(deeply_nested_objects, Outcome(), why="50,000 nested arrays in a page"),
    "encrypted_no_password": Kind(lambda: fx.encrypted_pdf(PASSWORD), Outcome("password_protected", 5), why="AES-256, no password given"),
    "encrypted_wrong_password": Kind(lambda: fx.encrypted_pdf(PASSWORD), Outcome("password_protected", 5),
                                     ("--password", "not-the-password"), why="AES-256, wrong password"),
    "encrypted_with_password": Kind(lambda: fx.encrypted_pdf(PASSWORD), Outcome(text=fx.VISIBLE_SENTENCE), ("--password", PASSWORD),
                                    why="AES-256, right password"),
    "encrypted_empty_user_password": Kind(lambda: fx.encrypted_pdf(""), Outcome(), why="opens without a password"),
    "unknown_security_handler": Kind(fx.unknown_security_handler_pdf, Outcome("unsupported_pdf_feature", 9),
                                     why="/Encrypt /Filter names no known handler"),
    "huge_mediabox": Kind(_with_page_key("/MediaBox", pikepdf.Array([0, 0, 1e9, 1e9])), Outcome(),
                          why="a page of 10^9 pt a side"),
    "zero_mediabox": Kind(_with_page_key("/MediaBox", pikepdf.Array([0, 0, 0, 0])), Outcome(), why="an empty page box"),
    "inverted_mediabox": Kind(_with_page_key("/MediaBox", pikepdf.Array([612, 792, 0, 0])), Outcome(),
                              why="corners swapped"),
    "negative_mediabox": Kind(_with_page_key("/MediaBox", pikepdf.Array([-612, -792, 612, 792])), Outcome(text=fx.VISIBLE_SENTENCE),
                              why="a page box with a negative origin"),
    "page_box_misses_the_text": Kind(_with_page_key("/MediaBox", pikepdf.Array([-1e6, -1e6, -999388, -999208])),
                                     Outcome("ocr_required", 8), why="a page box far from every glyph: nothing visible"),
    "nan_like_mediabox": Kind(_with_page_key("/MediaBox", pikepdf.Array([0, 0, 1e39, -1e39])), Outcome(),
                              why="sides past float range"),
    "cropbox_outside_mediabox": Kind(_with_page_key("/CropBox", pikepdf.Array([5000, 5000, 6000, 6000])),
                                     Outcome("corrupt_pdf", 4), why="a crop box that misses the media box: PDFium loads no page"),
    "rotate_90": Kind(lambda: fx.rotated_pdf(90, [fx.VISIBLE_SENTENCE]), Outcome(), why="/Rotate 90"),
    "rotate_180": Kind(lambda: fx.rotated_pdf(180, [fx.VISIBLE_SENTENCE]), Outcome(), why="/Rotate 180"),
    "rotate_270": Kind(lambda: fx.rotated_pdf(270, [fx.VISIBLE_SENTENCE]), Outcome(), why="/Rotate 270"),
    "rotate_odd": Kind(_with_page_key("/Rotate", 45), Outcome(), why="/Rotate 45 (not a multiple of 90)"),
    "rotate_negative_huge": Kind(_with_page_key("/Rotate", -9000000090), Outcome(), why="/Rotate -9000000090"),
    "text_at_extreme_coordinates": Kind(text_at_extreme_coordinates, Outcome(warnings=("off_page_text_detected",)),
                                        why="a text object at (10^20, -10^20)"),
    **{f"hidden_{name}": kind for name, kind in _HIDDEN.items()},
    "hidden_text_offpage": Kind(lambda: fx.hidden_text_pdf("offpage"), Outcome(warnings=("off_page_text_detected",)),
                                why="text left of the page"),
    "thousands_of_tiny_glyphs": Kind(lambda: fx.heavy_page_pdf(40000), Outcome(warnings=("off_page_text_detected",)),
                                     why="40,000 glyphs of 4 pt on one page, the last lines below its bottom edge"),
    "many_pages_over_limit": Kind(lambda: fx.many_pages_pdf(MAX_PAGES + 2, 2), Outcome("page_limit_exceeded", 6),
                                  ("--max-pages", str(MAX_PAGES)), why=f"{MAX_PAGES + 2} pages, --max-pages {MAX_PAGES}"),
    "many_pages_at_limit": Kind(lambda: fx.many_pages_pdf(MAX_PAGES, 2), Outcome(), ("--max-pages", str(MAX_PAGES)),
                                why=f"{MAX_PAGES} pages, --max-pages {MAX_PAGES}"),
    "file_over_size_limit": Kind(huge_file, Outcome("file_too_large", 7), ("--max-file-bytes", "1024"),
                                 why="--max-file-bytes 1024"),
    "tounicode_invalid_code_points": Kind(tounicode_invalid, Outcome(), why="ToUnicode to U+FFFE, U+D800, past U+10FFFF, U+0000"),
    "broken_font_program": Kind(broken_font, Outcome(), why="garbage FontFile2, empty Widths"),
    "javascript_name_tree": Kind(lambda: hidden.javascript_pdf(("open", "steal")), Outcome(warnings=("javascript_present",)),
                                 why="two document-level JavaScript actions"),
    "embedded_files": Kind(embedded_files, Outcome(), why="an attached shell script"),
    "annotations_and_links": Kind(lambda: fx.annotated_pdf(link=True, note=True),
                                  Outcome(warnings=("annotations_present", "external_links_present")), why="a URI link and a note"),
    "images_only": Kind(fx.image_only_pdf, Outcome("ocr_required", 8), why="a scan without a text layer"),
    "huge_image_dimensions": Kind(huge_image, Outcome(), why="an image declaring 100,000 x 100,000 pixels"),
    "content_stream_bomb": Kind(content_stream_bomb, Outcome(text=fx.VISIBLE_SENTENCE), why="16 MB of operators compressed 1000:1"),
    "parse_over_time_limit": Kind(content_stream_bomb, Outcome("parse_timeout", 10, details={"max_parse_ms": 1}),
                                  ("--max-parse-ms", "1"), why="the bomb under --max-parse-ms 1"),
    "parse_over_memory_limit": Kind(lambda: fx.heavy_page_pdf(40000), Outcome("memory_limit_exceeded", 11, details={"max_memory_mib": 1}),
                                    ("--max-memory-mib", "1"), why="a heavy page under --max-memory-mib 1"),
    "incremental_update": Kind(incremental_update, Outcome(text=INCREMENTAL_SENTENCE), why="a later revision replaces the page"),
}


def write_all(directory: Path) -> list[Path]:
    """Writes every kind as ``<kind>.pdf`` into ``directory`` and returns the paths."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, kind in KINDS.items():
        path = directory / f"{name}.pdf"
        path.write_bytes(kind.build())
        paths.append(path)
    return paths


if __name__ == "__main__":
    for written in write_all(Path(sys.argv[1] if len(sys.argv) > 1 else "hostile-pdfs")):
        print(written)
