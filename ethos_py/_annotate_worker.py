"""_annotate_worker - the child process that writes annotations into a copy of a PDF with PDFium (pypdfium2), so that a hostile PDF can crash or hang only a killable child.

Reads one job (JSON) on stdin: {"pdf": path, "password": str|null, "out": path, "annotations": [...]};
each annotation is {"page": 1-based index, "kind": "highlight"|"squiggly"|"note", "quads":
[[x0, y0, x1, y1], ...] in display quanta (top-left origin), "color": [r, g, b, a], "contents":
str}. Writes the copy to "out" and prints {"written": n} on stdout. Display quanta are mapped back
to the page's user space through the box and rotation the parser mapped them with.
"""

from __future__ import annotations

import ctypes
import json
import sys
from typing import Any


def _widestring(text: str) -> Any:
    """A UTF-16LE, NUL-terminated buffer PDFium reads as FPDF_WIDESTRING."""
    import pypdfium2.raw as raw

    data = (text + "\0").encode("utf-16-le")
    buffer = ctypes.create_string_buffer(data, len(data))
    return ctypes.cast(buffer, raw.FPDF_WIDESTRING), buffer  # the buffer must outlive the call


class _UserSpace:
    """The inverse of the parser's display transform (native/src/pdf/pdfium_geometry.hpp): display
    points (top-left origin, the page turned by its /Rotate) back to the page's user space, over the
    same box (FPDF_GetPageBoundingBox: the crop box within the media box) and rotation."""

    def __init__(self, raw: Any, page: Any) -> None:
        box = raw.FS_RECTF()
        if not raw.FPDF_GetPageBoundingBox(page, ctypes.byref(box)):
            raise RuntimeError("PDFium could not read the page's box")
        self.left, self.right = min(box.left, box.right), max(box.left, box.right)
        self.bottom, self.top = min(box.bottom, box.top), max(box.bottom, box.top)
        self.quarters = raw.FPDFPage_GetRotation(page) % 4

    def point(self, quantum_x: float, quantum_y: float) -> tuple[float, float]:
        dx, dy = quantum_x / 100.0, quantum_y / 100.0
        if self.quarters == 0:
            return self.left + dx, self.top - dy
        if self.quarters == 1:
            return self.left + dy, self.bottom + dx
        if self.quarters == 2:
            return self.right - dx, self.bottom + dy
        return self.right - dy, self.top - dx


def _annotate(raw: Any, page: Any, job: dict[str, Any]) -> None:
    subtype = {"highlight": raw.FPDF_ANNOT_HIGHLIGHT, "squiggly": raw.FPDF_ANNOT_SQUIGGLY,
               "note": raw.FPDF_ANNOT_TEXT}[job["kind"]]
    annot = raw.FPDFPage_CreateAnnot(page, subtype)
    if not annot:
        raise RuntimeError(f"PDFium could not create a {job['kind']} annotation")
    try:
        user = _UserSpace(raw, page)
        xs: list[float] = []
        ys: list[float] = []
        for x0, y0, x1, y1 in job["quads"]:
            corners = [user.point(x, y) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
            xs += [c[0] for c in corners]
            ys += [c[1] for c in corners]
            if job["kind"] != "note":
                # Top-left, top-right, bottom-left, bottom-right: the order viewers read.
                (ax, ay), (bx, by), (cx, cy), (dx, dy) = corners
                quad = raw.FS_QUADPOINTSF(ax, ay, bx, by, cx, cy, dx, dy)
                if not raw.FPDFAnnot_AppendAttachmentPoints(annot, ctypes.byref(quad)):
                    raise RuntimeError("PDFium could not add a highlight's quad")
        if job["kind"] == "note":
            # A note's icon sits at the evidence's top-left corner, 18 pt square.
            left, top = min(xs), max(ys)
            rect = raw.FS_RECTF(left, top, left + 18, top - 18)
        else:
            rect = raw.FS_RECTF(min(xs), max(ys), max(xs), min(ys))
        raw.FPDFAnnot_SetRect(annot, ctypes.byref(rect))
        r, g, b, a = (int(v) for v in job["color"])
        raw.FPDFAnnot_SetColor(annot, raw.FPDFANNOT_COLORTYPE_Color, r, g, b, a)
        raw.FPDFAnnot_SetFlags(annot, raw.FPDF_ANNOT_FLAG_PRINT)
        for key, value in (("Contents", job["contents"]), ("T", "Ethos")):
            text, keep = _widestring(value)
            raw.FPDFAnnot_SetStringValue(annot, key.encode("ascii"), text)
            del keep
    finally:
        raw.FPDFPage_CloseAnnot(annot)


def main() -> int:
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    job = json.loads(sys.stdin.buffer.read())
    pdf = pdfium.PdfDocument(job["pdf"], password=job.get("password"))
    try:
        for annotation in job["annotations"]:
            page = pdf[annotation["page"] - 1]
            try:
                _annotate(raw, page.raw, annotation)
            finally:
                page.close()
        pdf.save(job["out"])
    finally:
        pdf.close()
    sys.stdout.write(json.dumps({"written": len(job["annotations"])}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
