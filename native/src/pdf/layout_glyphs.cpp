// layout_glyphs.cpp - quantization, faithful code points and the visibility rules for raw characters.
#include "pdf/layout_glyphs.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <utility>
#include <vector>

#include "pdf/layout_params.hpp"

namespace ethos::pdf {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kMinVisibleFontSize = params::kMinVisibleFontSizePt;
constexpr std::uint32_t kNearWhite = params::kNearWhiteChannel;

bool near_white(std::uint32_t rgba) {
  return ((rgba >> 24) & 0xFFu) >= kNearWhite && ((rgba >> 16) & 0xFFu) >= kNearWhite &&
         ((rgba >> 8) & 0xFFu) >= kNearWhite;
}

bool transparent(std::uint32_t rgba) { return (rgba & 0xFFu) == 0; }

bool contains(const Rect& r, double x, double y) { return x >= r.x0 && x <= r.x1 && y >= r.y0 && y <= r.y1; }

bool has_area(const Rect& r) { return r.x1 > r.x0 && r.y1 > r.y0; }

bool over_image(const RawPage& page, double x, double y) {
  return std::any_of(page.images.begin(), page.images.end(), [&](const RawImage& image) { return contains(image.box, x, y); });
}

// White text is visible only over something that is not white (a dark fill or an image).
bool over_dark_background(const RawPage& page, double x, double y) {
  for (const RawFill& fill : page.fills) {
    if (!transparent(fill.fill_rgba) && !near_white(fill.fill_rgba) && contains(fill.box, x, y)) return true;
  }
  return over_image(page, x, y);
}

bool is_space(char32_t c) { return c == U' ' || c == U'\t' || c == 0xA0 || c == 0x3000; }

// Code points that cannot be written as UTF-8 (or are NUL) become U+FFFD; everything else is kept.
char32_t writable(char32_t c) {
  if (c == 0 || (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF) return 0xFFFD;
  return c;
}

bool bold_font(const RawFont& font) {
  if (font.weight >= 600 || (font.flags & (1 << 18)) != 0) return true;  // ForceBold descriptor flag
  std::string lower;
  for (char c : font.name) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  for (const char* word : {"bold", "black", "heavy", "semibold", "demi"}) {
    if (lower.find(word) != std::string::npos) return true;
  }
  return false;
}

GlyphVisibility visibility(const RawPage& page, const RawChar& c, bool whitespace) {
  const Rect& b = c.box;
  const double cx = (b.x0 + b.x1) / 2, cy = (b.y0 + b.y1) / 2;
  if (b.x1 < 0 || b.x0 > page.width || b.y1 < 0 || b.y0 > page.height) return GlyphVisibility::kOffPage;
  if (c.render_mode == 3 || c.render_mode == 7) {
    // An invisible text layer over a scanned image is an OCR layer: the words the image shows.
    return over_image(page, cx, cy) ? GlyphVisibility::kVisible : GlyphVisibility::kHidden;
  }
  if ((c.flags & kCharClipped) != 0) return GlyphVisibility::kHidden;
  if (std::fabs(c.font_size) < kMinVisibleFontSize) return GlyphVisibility::kHidden;
  if (!whitespace && (c.flags & kCharNoBox) == 0 && !has_area(c.box) && !has_area(c.loose)) {
    return GlyphVisibility::kHidden;
  }
  if (transparent(c.fill_rgba)) return GlyphVisibility::kHidden;
  if (near_white(c.fill_rgba) && !over_dark_background(page, cx, cy)) return GlyphVisibility::kHidden;
  return GlyphVisibility::kVisible;
}

}  // namespace

bool is_horizontal_any(double angle) {
  double a = std::fmod(angle, 2 * kPi);
  if (a < 0) a += 2 * kPi;
  return a < 0.02 || a > 2 * kPi - 0.02;
}

bool is_cjk(char32_t c) {
  return (c >= 0x1100 && c <= 0x11FF) || (c >= 0x2E80 && c <= 0x2FDF) || (c >= 0x3000 && c <= 0x4DBF) ||
         (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xA960 && c <= 0xA97F) || (c >= 0xAC00 && c <= 0xD7FF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFFEF) ||
         (c >= 0x20000 && c <= 0x3FFFF);
}

std::string font_id(const RawPage& page, std::int32_t font) {
  if (font < 0 || static_cast<std::size_t>(font) >= page.fonts.size() || page.fonts[static_cast<std::size_t>(font)].name.empty()) {
    return "";
  }
  const RawFont& f = page.fonts[static_cast<std::size_t>(font)];
  return (f.embedded ? "embedded:" : "subst:") + f.name;
}

ClassifiedGlyphs classify_glyphs(const RawPage& page) {
  ClassifiedGlyphs out;
  out.visible.reserve(page.chars.size());
  // Once per font, not per glyph: the name test lower-cases and searches a string.
  std::vector<bool> bold(page.fonts.size());
  for (std::size_t f = 0; f < page.fonts.size(); ++f) bold[f] = bold_font(page.fonts[f]);
  for (std::size_t i = 0; i < page.chars.size(); ++i) {
    const RawChar& c = page.chars[i];
    // Line breaks are never drawn: PDFium's (and stray real ones) give way to our separators.
    if (c.codepoint == U'\r' || c.codepoint == U'\n') continue;
    Glyph g;
    g.order = i;
    g.angle = c.angle;
    g.font = c.font;
    g.font_size_q = quantize(std::fabs(c.font_size));
    // PDFium replaces a line-end hyphen by a marker (U+0002 from FPDFText_GetUnicode, U+FFFE in
    // its page text): the page shows a hyphen-minus there. A real code point it reports instead
    // (U+00AD, U+2010, '-') is kept as it is.
    const bool marker = c.codepoint == 0xFFFE || c.codepoint == 0x0002;
    g.line_end_hyphen = (c.flags & kCharHyphen) != 0 || marker;
    g.codepoint = marker ? U'-' : writable(c.codepoint);
    g.bold = c.font >= 0 && static_cast<std::size_t>(c.font) < page.fonts.size() && bold[static_cast<std::size_t>(c.font)];
    g.origin_x = quantize(c.origin_x);
    g.origin_y = quantize(c.origin_y);
    if ((c.flags & kCharGenerated) != 0) {
      g.generated = true;
      out.visible.push_back(g);  // a word gap; dropped later when it ends up at a line edge
      continue;
    }
    const bool no_box = (c.flags & kCharNoBox) != 0;
    g.x0 = no_box ? g.origin_x : quantize(c.box.x0);
    g.x1 = no_box ? g.origin_x : quantize(c.box.x1);
    // The font-metric box gives every glyph of a line the same band - unless the font's metrics
    // are not a text font's: math extension fonts (TeX's cmex) declare a descent of three ems and
    // an ascent of less than one, so a wide hat over one letter got a box reaching 37 pt below it
    // and merged the lines under it. A loose box that lies mostly below the baseline (no text
    // font descends further than it ascends) gives way to the em square on the baseline, which
    // keeps such a glyph in its line's band as a text font's box would (its ink, a hat above
    // the letter, would not).
    const double loose_height = c.loose.y1 - c.loose.y0;
    const bool mostly_below = (c.loose.y1 - c.origin_y) * 100 > params::kMaxLooseDescentPercent * loose_height;
    const bool use_loose = is_horizontal(c.angle) && loose_height > 0;
    if (use_loose && !mostly_below) {
      g.y0 = quantize(c.loose.y0);
      g.y1 = quantize(c.loose.y1);
    } else if (!use_loose && !no_box && c.box.y1 > c.box.y0) {
      g.y0 = quantize(c.box.y0);
      g.y1 = quantize(c.box.y1);
    } else {  // no usable box, or a font-metric box mostly below the baseline: the em square on the baseline
      g.y0 = g.origin_y - quantize(std::fabs(c.font_size) * 0.8);
      g.y1 = g.origin_y + quantize(std::fabs(c.font_size) * 0.2);
    }
    // Boxes are [x0, x1] x [y0, y1] with x0 <= x1 and y0 <= y1 whatever the PDF said.
    if (g.x0 > g.x1) std::swap(g.x0, g.x1);
    if (g.y0 > g.y1) std::swap(g.y0, g.y1);
    // The tight box hugs the ink, the advance is what the typesetter spaced by: a digit with wide
    // side bearings ends well before the pen does.
    g.advance_x1 = is_horizontal(c.angle) && c.loose.x1 > c.loose.x0 ? quantize(c.loose.x1) : g.x1;
    switch (visibility(page, c, is_space(c.codepoint))) {
      case GlyphVisibility::kVisible: out.visible.push_back(g); break;
      case GlyphVisibility::kHidden: out.hidden.push_back(g); break;
      case GlyphVisibility::kOffPage: out.off_page.push_back(g); break;
    }
  }
  return out;
}

}  // namespace ethos::pdf
