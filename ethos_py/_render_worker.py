"""_render_worker - the child process that renders PDF pages and page regions to PNG with PDFium (pypdfium2) for the HTML evidence report, so that a hostile PDF can crash or hang only a killable child.

Reads one job (JSON) on stdin: {"pdf": path, "password": str|null, "pages": [{"index": 1-based,
"scale": pixels per point, "regions": [[x0, y0, x1, y1], ...] in pixels of the page rendered at that scale]}]}. Prints
{"pages": [{"index", "width", "height", "png", "regions": [png, ...]}]} with PNGs in base64. The page
is rendered as displayed (its /Rotate applied, over its crop box): the same top-left space as the
parser's display quanta, so a box in quanta is at quanta * scale / 100 pixels.
"""

from __future__ import annotations

import base64
import json
import struct
import sys
import zlib
from typing import Any

#: The longest side rendered, in pixels (report_html.MAX_SIDE_PX, with a pixel of rounding).
MAX_SIDE_PX = 4001


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_rgb(width: int, height: int, rows: list[bytes]) -> bytes:
    """An 8-bit RGB PNG of ``rows`` (each ``width * 3`` bytes). No row filter (zlib alone does well on
    a page's flat white) and a fixed compression level: the same pixels give the same bytes.

        >>> png_rgb(1, 1, [b"\\xff\\x00\\x00"])[:8]
        b'\\x89PNG\\r\\n\\x1a\\n'
    """
    raw = b"".join(b"\x00" + row for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw, 9))
            + _chunk(b"IEND", b""))


def main() -> int:
    import pypdfium2 as pdfium

    job = json.loads(sys.stdin.buffer.read())
    out: list[dict[str, Any]] = []
    pdf = pdfium.PdfDocument(job["pdf"], password=job.get("password"))
    try:
        for wanted in job["pages"]:
            page = pdf[int(wanted["index"]) - 1]
            try:
                width_pt, height_pt = page.get_size()
                if max(width_pt, height_pt) * float(wanted["scale"]) > MAX_SIDE_PX:
                    # The parent sized the page from the document; a PDF whose page is larger was not
                    # the one parsed, or lies: refuse rather than allocate without bound.
                    sys.stdout.write(json.dumps({"too_large": wanted["index"]}))
                    return 3
                bitmap = page.render(scale=float(wanted["scale"]), rev_byteorder=True, draw_annots=True)
                width, height, stride = bitmap.width, bitmap.height, bitmap.stride
                channels = bitmap.n_channels
                buffer = bytes(bitmap.buffer)
                rows = []
                for y in range(height):
                    line = buffer[y * stride:y * stride + width * channels]
                    if channels == 4:  # RGBX: drop the fourth byte
                        line = b"".join(line[i:i + 3] for i in range(0, len(line), 4))
                    rows.append(line)
                regions: list[str | None] = []
                for x0, y0, x1, y1 in wanted["regions"]:
                    x0, y0 = max(0, int(x0)), max(0, int(y0))
                    x1, y1 = min(width, int(x1)), min(height, int(y1))
                    if x1 <= x0 or y1 <= y0:
                        regions.append(None)
                        continue
                    crop = [row[x0 * 3:x1 * 3] for row in rows[y0:y1]]
                    regions.append(base64.b64encode(png_rgb(x1 - x0, y1 - y0, crop)).decode("ascii"))
                out.append({"index": wanted["index"], "width": width, "height": height, "regions": regions,
                            "png": base64.b64encode(png_rgb(width, height, rows)).decode("ascii")})
            finally:
                page.close()
    finally:
        pdf.close()
    sys.stdout.write(json.dumps({"pages": out}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
