"""hidden_text_fixtures - PDFs that hide a sentence from the reader by one technique each, and PDFs whose text is plainly visible.

Each hiding PDF draws pdf_fixtures.VISIBLE_SENTENCE at y=720 and pdf_fixtures.HIDDEN_SENTENCE at
y=650 (x=72, 11 pt Helvetica, reportlab's bottom-left origin), hidden as its technique says. The
visible PDFs draw the hidden sentence where a reader sees it, in ways a careless check would take
for hiding. All are deterministic (reportlab ``invariant=1``, pikepdf ``static_id``).
"""

from __future__ import annotations

import io
from collections.abc import Callable

import pdf_fixtures as fx
import pikepdf
from reportlab.lib.colors import Color, black, white
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

X, VISIBLE_Y, HIDDEN_Y, SIZE = 72.0, 720.0, 650.0, 11.0


def _image(rgba: tuple[int, int, int, int] | None = None) -> ImageReader:
    from PIL import Image

    if rgba is None:
        return ImageReader(Image.new("RGB", (16, 16), (200, 40, 40)))
    return ImageReader(Image.new("RGBA", (16, 16), rgba))


def _sentence(canvas: Canvas, colour: Color = black) -> None:
    canvas.setFillColor(colour)
    canvas.setFont(fx.BODY_FONT, SIZE)
    canvas.drawString(X, HIDDEN_Y, fx.HIDDEN_SENTENCE)
    canvas.setFillColor(black)


def _page(draw_hidden: Callable[[Canvas], None]) -> bytes:
    def draw(canvas: Canvas) -> None:
        canvas.setFont(fx.BODY_FONT, SIZE)
        canvas.drawString(X, VISIBLE_Y, fx.VISIBLE_SENTENCE)
        draw_hidden(canvas)

    return fx._draw([draw])


def _text_object(canvas: Canvas, *, render_mode: int = 0, horizontal_scale: float = 100) -> None:
    text = canvas.beginText(X, HIDDEN_Y)
    text.setFont(fx.BODY_FONT, SIZE)
    text.setTextRenderMode(render_mode)
    text.setHorizScale(horizontal_scale)
    text.textLine(fx.HIDDEN_SENTENCE)
    canvas.drawText(text)


def _black_on_black(canvas: Canvas) -> None:
    # A black band drawn first, the sentence in black on it.
    canvas.setFillColor(black)
    canvas.rect(60, HIDDEN_Y - 6, 420, 22, stroke=0, fill=1)
    _sentence(canvas, black)


def _covered_by_shape(canvas: Canvas) -> None:
    # The sentence first, then an opaque grey rectangle over it.
    _sentence(canvas)
    canvas.setFillColor(Color(0.8, 0.8, 0.8))
    canvas.rect(60, HIDDEN_Y - 6, 420, 22, stroke=0, fill=1)


def _polygon(canvas: Canvas, colour: Color, points: list[tuple[float, float]]) -> None:
    canvas.setFillColor(colour)
    path = canvas.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)


# A hexagon around the hidden sentence's line (not a rectangle: the shape a rule for filled
# rectangles alone would miss).
_HEXAGON = [(40, HIDDEN_Y + 4), (60, HIDDEN_Y - 10), (480, HIDDEN_Y - 10), (500, HIDDEN_Y + 4),
            (480, HIDDEN_Y + 20), (60, HIDDEN_Y + 20)]


def _covered_by_polygon(canvas: Canvas) -> None:
    # The sentence first, then an opaque grey hexagon over all of it.
    _sentence(canvas)
    _polygon(canvas, Color(0.8, 0.8, 0.8), _HEXAGON)


def _covered_by_image(canvas: Canvas) -> None:
    # The sentence first, then an opaque (maskless RGB) image over it.
    _sentence(canvas)
    canvas.drawImage(_image(), 60, HIDDEN_Y - 6, 420, 22)


def _white_stroke(canvas: Canvas) -> None:
    # Render mode 1 (stroke only) with a white stroke: outlines in the page's colour.
    canvas.setStrokeColor(white)
    _text_object(canvas, render_mode=1)


def _squeezed(canvas: Canvas) -> None:
    # Tz 1: every glyph 1 % of its width, the sentence a 2 pt sliver.
    _text_object(canvas, horizontal_scale=1)


def _transparent(canvas: Canvas) -> None:
    # Fill alpha 0 (ExtGState /ca 0), set after the colour: reportlab's setFillColor resets it.
    canvas.saveState()
    canvas.setFont(fx.BODY_FONT, SIZE)
    canvas.setFillAlpha(0)
    canvas.drawString(X, HIDDEN_Y, fx.HIDDEN_SENTENCE)
    canvas.restoreState()


def _invisible_over_a_logo(canvas: Canvas) -> None:
    # Render mode 3 over a small image: an OCR layer lies over a scanned page, not over a logo.
    canvas.drawImage(_image(), 60, HIDDEN_Y - 6, 420, 22)
    _text_object(canvas, render_mode=3)


def _nearly_transparent(canvas: Canvas) -> None:
    # Fill alpha 0.01 (about 3 of 255): not zero, and still nothing a reader sees.
    canvas.saveState()
    canvas.setFont(fx.BODY_FONT, SIZE)
    canvas.setFillAlpha(0.01)
    canvas.drawString(X, HIDDEN_Y, fx.HIDDEN_SENTENCE)
    canvas.restoreState()


def _faint_watermark(canvas: Canvas) -> None:
    # Fill alpha 0.15, the way watermarks are drawn: faint, but read.
    canvas.saveState()
    canvas.setFont(fx.BODY_FONT, SIZE)
    canvas.setFillAlpha(0.15)
    canvas.drawString(X, HIDDEN_Y, fx.HIDDEN_SENTENCE)
    canvas.restoreState()


#: technique -> drawing of the hidden sentence (optional content is built by optional_content_pdf).
_HIDERS: dict[str, Callable[[Canvas], None]] = {
    "same_colour_as_background": _black_on_black,
    "covered_by_shape": _covered_by_shape,
    "covered_by_image": _covered_by_image,
    "white_stroke": _white_stroke,
    "squeezed": _squeezed,
    "invisible_render_mode": lambda canvas: _text_object(canvas, render_mode=3),
    "transparent": _transparent,
}

#: Further ways to use a technique: name -> (technique, drawing).
VARIANTS: dict[str, tuple[str, Callable[[Canvas], None]]] = {
    "invisible_over_a_logo": ("invisible_render_mode", _invisible_over_a_logo),
    "white_on_white": ("same_colour_as_background", lambda canvas: _sentence(canvas, white)),
    "covered_by_a_polygon": ("covered_by_shape", _covered_by_polygon),
    "nearly_transparent": ("transparent", _nearly_transparent),
}

#: Every technique a hidden_text_detected warning can name that these fixtures produce.
TECHNIQUES = (*_HIDERS, "optional_content_off")


def hidden_pdf(technique: str) -> bytes:
    """The hidden sentence hidden by ``technique`` (one of TECHNIQUES) or a VARIANTS name."""
    if technique == "optional_content_off":
        return optional_content_pdf(shown=False)
    if technique in VARIANTS:
        return _page(VARIANTS[technique][1])
    return _page(_HIDERS[technique])


def optional_content_pdf(*, shown: bool) -> bytes:
    """Both sentences, the second inside ``/OC /oc1 BDC ... EMC`` of a layer named "Secret" that the
    default configuration lists in /OFF (``shown=False``) or /ON (``shown=True``). Written with
    pikepdf: reportlab has no optional content."""
    pdf = pikepdf.new()
    font = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica))
    layer = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.OCG, Name=pikepdf.String("Secret")))
    content = (
        f"BT /F1 11 Tf {X:g} {VISIBLE_Y:g} Td ({fx.VISIBLE_SENTENCE}) Tj ET\n"
        f"/OC /oc1 BDC BT /F1 11 Tf {X:g} {HIDDEN_Y:g} Td ({fx.HIDDEN_SENTENCE}) Tj ET EMC\n"
    ).encode("ascii")
    resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font), Properties=pikepdf.Dictionary(oc1=layer))
    page = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 612, 792], Resources=resources,
                              Contents=pdf.make_stream(content))
    pdf.pages.append(pikepdf.Page(page))
    state = pikepdf.Dictionary(ON=[layer]) if shown else pikepdf.Dictionary(OFF=[layer])
    state.Order = [layer]
    pdf.Root.OCProperties = pikepdf.Dictionary(OCGs=[layer], D=state)
    out = io.BytesIO()
    pdf.save(out, static_id=True)
    return out.getvalue()


def javascript_pdf(names: tuple[str, ...]) -> bytes:
    """The visible sentence, with one document-level JavaScript action (/Names /JavaScript) per
    name; each script only calls app.alert, and nothing ever runs it."""
    pdf = pikepdf.open(io.BytesIO(fx.text_pdf([[fx.VISIBLE_SENTENCE]])))
    entries: list[object] = []
    for name in sorted(names):
        action = pdf.make_indirect(pikepdf.Dictionary(
            S=pikepdf.Name.JavaScript, JS=pikepdf.String(f"app.alert('{name}');")))
        entries += [pikepdf.String(name), action]
    pdf.Root.Names = pikepdf.Dictionary(JavaScript=pikepdf.Dictionary(Names=entries))
    out = io.BytesIO()
    pdf.save(out, static_id=True)
    return out.getvalue()


def link_action_pdf(action: str) -> bytes:
    """The visible sentence with one link annotation over it whose action is `action`: "javascript"
    (an app.alert script), "launch" (a program), "named" (a viewer command), "goto" (page 1) or
    "uri" (a web address). Nothing ever runs any of them."""
    pdf = pikepdf.open(io.BytesIO(fx.text_pdf([[fx.VISIBLE_SENTENCE]])))
    page = pdf.pages[0]
    actions = {
        "javascript": pikepdf.Dictionary(S=pikepdf.Name.JavaScript, JS=pikepdf.String("app.alert('clicked');")),
        "launch": pikepdf.Dictionary(S=pikepdf.Name.Launch, F=pikepdf.String("calc.exe")),
        "named": pikepdf.Dictionary(S=pikepdf.Name.Named, N=pikepdf.Name.NextPage),
        "goto": pikepdf.Dictionary(S=pikepdf.Name.GoTo, D=[page.obj, pikepdf.Name.Fit]),
        "uri": pikepdf.Dictionary(S=pikepdf.Name.URI, URI=pikepdf.String("https://example.com/")),
    }
    link = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Link,
                                                Rect=[60, VISIBLE_Y - 4, 480, VISIBLE_Y + 14], Border=[0, 0, 0],
                                                A=actions[action]))
    page.obj.Annots = pdf.make_indirect([link])
    out = io.BytesIO()
    pdf.save(out, static_id=True)
    return out.getvalue()


def _light_band_before(canvas: Canvas) -> None:
    canvas.setFillColor(Color(0.93, 0.93, 0.96))
    canvas.rect(60, HIDDEN_Y - 6, 420, 22, stroke=0, fill=1)
    _sentence(canvas)


def _white_on_dark_before(canvas: Canvas) -> None:
    canvas.setFillColor(Color(0.1, 0.2, 0.4))
    canvas.rect(60, HIDDEN_Y - 6, 420, 22, stroke=0, fill=1)
    _sentence(canvas, white)


def _white_on_dark_polygon_before(canvas: Canvas) -> None:
    _polygon(canvas, Color(0.1, 0.2, 0.4), _HEXAGON)
    _sentence(canvas, white)


def _translucent_highlight_after(canvas: Canvas) -> None:
    _sentence(canvas)
    canvas.saveState()
    canvas.setFillColor(Color(1, 1, 0, alpha=0.3))  # the colour's alpha becomes the fill alpha
    canvas.rect(60, HIDDEN_Y - 6, 420, 22, stroke=0, fill=1)
    canvas.restoreState()


def _clipped_cover_after(canvas: Canvas) -> None:
    # A page-sized grey rectangle painted after the sentence, clipped to the top-left corner.
    _sentence(canvas)
    canvas.saveState()
    path = canvas.beginPath()
    path.rect(0, 742, 50, 50)
    canvas.clipPath(path, stroke=0, fill=0)
    canvas.setFillColor(Color(0.5, 0.5, 0.5))
    canvas.rect(0, 0, 612, 792, stroke=0, fill=1)
    canvas.restoreState()


def _see_through_image_after(canvas: Canvas) -> None:
    # A half-transparent RGBA image (a soft mask) drawn over the sentence: the text shows through.
    _sentence(canvas)
    canvas.drawImage(_image((200, 0, 0, 100)), 60, HIDDEN_Y - 6, 420, 22, mask="auto")


def _over_image_before(canvas: Canvas) -> None:
    canvas.drawImage(_image(), 60, HIDDEN_Y - 6, 420, 22)
    _sentence(canvas, white)


def _ocr_layer_over_a_scan(canvas: Canvas) -> None:
    # A scanned page: its image over the whole page, the OCR text over it in render mode 3.
    canvas.drawImage(_image(), 0, 0, 612, 792)
    _text_object(canvas, render_mode=3)


def _text_under_page_image(canvas: Canvas) -> None:
    # A scan with its OCR text beneath the page image ("text under the page image"): the image
    # covers the whole page, and its pixels show the words the text carries.
    _sentence(canvas)
    canvas.drawImage(_image(), 0, 0, 612, 792)


#: name -> drawing of the sentence that a reader sees.
_VISIBLE: dict[str, Callable[[Canvas], None]] = {
    "black_on_white": lambda canvas: _sentence(canvas),
    "red_on_white": lambda canvas: _sentence(canvas, Color(0.8, 0, 0)),
    "light_grey_on_white": lambda canvas: _sentence(canvas, Color(0.75, 0.75, 0.75)),
    "light_band_drawn_before": _light_band_before,
    "white_on_dark_band_drawn_before": _white_on_dark_before,
    "white_on_dark_polygon_drawn_before": _white_on_dark_polygon_before,
    "translucent_highlight_drawn_after": _translucent_highlight_after,
    "cover_clipped_elsewhere_drawn_after": _clipped_cover_after,
    "see_through_image_drawn_after": _see_through_image_after,
    "white_over_image_drawn_before": _over_image_before,
    "outlined_in_black": lambda canvas: _text_object(canvas, render_mode=1),
    "condensed_to_80_percent": lambda canvas: _text_object(canvas, horizontal_scale=80),
    "faint_watermark": _faint_watermark,
}

VISIBLE_KINDS = (*_VISIBLE, "layer_shown")

#: Visible kinds whose sentence a scan's image shows (its text is not in a region of its own).
UNDER_PAGE_IMAGE = "text_under_page_image"
OCR_LAYER = "ocr_layer_over_a_scan"


def visible_pdf(kind: str) -> bytes:
    """The sentence drawn visibly by ``kind`` (one of VISIBLE_KINDS or UNDER_PAGE_IMAGE)."""
    if kind == "layer_shown":
        return optional_content_pdf(shown=True)
    if kind == UNDER_PAGE_IMAGE:
        return _page(_text_under_page_image)
    if kind == OCR_LAYER:
        return _page(_ocr_layer_over_a_scan)
    return _page(_VISIBLE[kind])
