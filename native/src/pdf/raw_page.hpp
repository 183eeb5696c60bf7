// raw_page.hpp - what PDFium gives us for one page, already in display space: the contract between
// extraction (pdfium_*.cpp, which talks to PDFium) and layout (layout_*.cpp, which never does).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ethos::pdf {

// A rectangle in display space: PDF points, top-left origin, page rotation already applied, so
// 0 <= x <= page width and 0 <= y <= page height for anything drawn on the visible page.
struct Rect {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

// Per-character flags (bit set).
enum CharFlag : std::uint16_t {
  kCharGenerated = 1 << 0,     // inserted by PDFium (a space or line break it synthesised)
  kCharHyphen = 1 << 1,        // PDFium marks it as a line-end hyphen (FPDFText_IsHyphen)
  kCharUnicodeError = 1 << 2,  // the font's ToUnicode mapping failed for this glyph
  kCharClipped = 1 << 3,       // the glyph lies outside its object's clip path
  kCharNoBox = 1 << 4,         // PDFium returned no box (box fields are then the origin point)
  kCharOptionalContentOff = 1 << 5,  // its text object is in optional content the page does not show
  kCharCoveredByImage = 1 << 6,      // an image painted after its text object hides all of that object
};

struct RawChar {
  char32_t codepoint = 0;  // FPDFText_GetUnicode, exactly as PDFium reports it (U+FFFE included)
  Rect box;                // tight glyph box (FPDFText_GetCharBox)
  Rect loose;              // font-metric box (FPDFText_GetLooseCharBox): ascent to descent
  double origin_x = 0, origin_y = 0;  // pen position (FPDFText_GetCharOrigin)
  double font_size = 0;    // points as drawn: FPDFText_GetFontSize scaled by the glyph's matrix
  double angle = 0;        // radians in display space, 0 = left-to-right upright text
  std::int32_t font = -1;  // index into RawPage::fonts, -1 when unknown
  std::int32_t render_mode = 0;  // FPDF_TEXTRENDERMODE_* of the owning text object (3 = invisible)
  std::uint32_t fill_rgba = 0x000000ffu;  // 0xRRGGBBAA
  std::uint32_t stroke_rgba = 0x000000ffu;  // 0xRRGGBBAA: what render modes 1, 2, 5 and 6 paint
  // The glyph's width per unit of its height as drawn (horizontal over vertical scale of its
  // matrix, Tz included): 1 for ordinary type, near 0 for text squeezed to nothing.
  double horizontal_scale = 1.0;
  // Position of its text object in the page's painting order (RawFill/RawImage::paint_order share
  // the numbering): what is painted later lies on top. -1 when unknown.
  std::int32_t paint_order = -1;
  std::uint16_t flags = 0;               // CharFlag bits
};

struct RawFont {
  std::string name;       // base font name without the subset prefix
  bool embedded = false;  // embedded in the PDF (font_id "embedded:<name>") or substituted ("subst:")
  std::int32_t weight = 400;
  std::int32_t flags = 0;  // PDF font descriptor flags (FPDFText_GetFontInfo)
};

// A straight stroke or a thin filled rectangle: the raw material of ruled tables.
struct RawRule {
  Rect box;  // degenerate boxes are widened to the stroke width
  bool horizontal = false;
};

// A filled rectangle with its colour: backgrounds (white-on-white checks) and table shading.
struct RawFill {
  Rect box;
  std::uint32_t fill_rgba = 0;
  std::int32_t paint_order = -1;  // see RawChar::paint_order
  bool opaque = false;            // full alpha, normal blending, no soft mask: hides what is beneath
  // The part of `box` inside the fill's own clip path (the bounds of it): what it paints, which
  // the hidden-text rules judge by. `box` itself when it has no clip path.
  Rect painted;
};

// An opaque filled shape with straight edges that is not an axis-aligned rectangle (a triangle, a
// turned square, an irregular polygon), kept only to tell whether it hides text painted before it.
struct RawCover {
  std::vector<double> xs, ys;     // the polygon's corners in display space, in path order
  Rect painted;                   // its bounds inside the fill's clip path (the clip's bounds)
  std::int32_t paint_order = -1;  // see RawChar::paint_order
};

struct RawImage {
  Rect box;
  std::int32_t paint_order = -1;  // see RawChar::paint_order
  bool opaque = false;            // no transparency PDFium knows of (blend mode, alpha, soft mask)
};

struct RawAnnotation {
  std::int32_t subtype = 0;  // FPDF_ANNOT_* subtype number
  Rect box;
  std::string uri;           // for links with a URI action, else empty
  // A link's action as PDFium types it (PDFACTION_*: 0 one PDFium does not support, JavaScript
  // among them; 4 launches a program), -1 when the link has none.
  std::int32_t action = -1;
};

struct RawPage {
  std::int32_t index = 0;  // 1-based page index in the PDF
  double width = 0, height = 0;  // display size in points (after rotation)
  std::int32_t rotation = 0;     // /Rotate normalised to 0, 90, 180 or 270
  std::string label;             // printed page label (/PageLabels), empty when none
  std::vector<RawChar> chars;    // PDFium's text order (content-stream order)
  std::vector<RawFont> fonts;
  std::vector<RawRule> rules;
  std::vector<RawFill> fills;
  std::vector<RawCover> covers;  // opaque straight-edged shapes that are not rectangles
  std::vector<RawImage> images;
  std::vector<RawAnnotation> annotations;
  // Text objects whose bounds lie wholly off the page: PDFium's text page keeps no character of
  // one placed far away (at 10^6 pt), so only this count shows that such text is there.
  std::int32_t off_page_text_objects = 0;
  // The document's JavaScript actions (a document-level fact, the same on every page; the first
  // parsed page reports it): their number and names (pdfium_scripts.hpp).
  std::int64_t document_script_count = 0;
  std::vector<std::string> document_scripts;
};

}  // namespace ethos::pdf
