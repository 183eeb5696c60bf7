// layout_glyphs.cpp - quantization, faithful code points and the visibility rules for raw characters.
#include "pdf/layout_glyphs.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <utility>
#include <vector>

#include "pdf/layout_params.hpp"

namespace ethos::pdf {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kMinVisibleFontSize = params::kMinVisibleFontSizePt;
constexpr std::uint32_t kSameColourDelta = params::kSameColourChannelDelta;
constexpr double kMinHorizontalScale = params::kMinHorizontalScalePercent / 100.0;

// Painted with (nearly) no alpha: at 8/255 or less nobody reads it, and an alpha of 1/255 must not
// pass where 0 is caught. (Watermarks and highlights use 25/255 and more.)
bool transparent(std::uint32_t rgba) { return (rgba & 0xFFu) <= params::kMaxInvisibleAlpha; }

bool contains(const Rect& r, double x, double y) { return x >= r.x0 && x <= r.x1 && y >= r.y0 && y <= r.y1; }

// `outer` covers `inner` whole, up to a quarter point (producers round their rectangles).
bool covers(const Rect& outer, const Rect& inner) {
  constexpr double kSlack = 0.25;
  return outer.x0 <= inner.x0 + kSlack && outer.x1 >= inner.x1 - kSlack && outer.y0 <= inner.y0 + kSlack &&
         outer.y1 >= inner.y1 - kSlack;
}

bool has_area(const Rect& r) { return r.x1 > r.x0 && r.y1 > r.y0; }

// Whether (x, y) lies inside a polygon by the even-odd rule (a ray to the right crosses its edges
// an odd number of times). Even-odd inside is also nonzero inside, so either fill rule agrees.
bool inside_polygon(const RawCover& cover, double x, double y) {
  bool inside = false;
  const std::size_t n = cover.xs.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const double xi = cover.xs[i], yi = cover.ys[i], xj = cover.xs[j], yj = cover.ys[j];
    if ((yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

// Whether segments [a, b] and [c, d] cross at a point inside both (touching ends do not count).
bool segments_cross(double ax, double ay, double bx, double by, double cx, double cy, double dx, double dy) {
  const auto side = [](double px, double py, double qx, double qy, double rx, double ry) {
    const double cross = (qx - px) * (ry - py) - (qy - py) * (rx - px);
    return cross > 0 ? 1 : (cross < 0 ? -1 : 0);
  };
  const int d1 = side(cx, cy, dx, dy, ax, ay), d2 = side(cx, cy, dx, dy, bx, by);
  const int d3 = side(ax, ay, bx, by, cx, cy), d4 = side(ax, ay, bx, by, dx, dy);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

// A polygon covers a box whole when the box's corners are inside it and none of its edges enters
// the box (no corner of it strictly inside the box, no edge crossing the box's edges): the box
// then lies in one face of the polygon, an inside one. Inside its clip bounds too.
bool polygon_covers(const RawCover& cover, const Rect& box) {
  if (!has_area(box) || cover.xs.size() < 3 || !covers(cover.painted, box)) return false;
  const double cx[4] = {box.x0, box.x1, box.x1, box.x0}, cy[4] = {box.y0, box.y0, box.y1, box.y1};
  for (int k = 0; k < 4; ++k) {
    if (!inside_polygon(cover, cx[k], cy[k])) return false;
  }
  const std::size_t n = cover.xs.size();
  for (std::size_t i = 0; i < n; ++i) {
    const double px = cover.xs[i], py = cover.ys[i];
    if (px > box.x0 && px < box.x1 && py > box.y0 && py < box.y1) return false;
    const double qx = cover.xs[(i + 1) % n], qy = cover.ys[(i + 1) % n];
    for (int k = 0; k < 4; ++k) {
      if (segments_cross(px, py, qx, qy, cx[k], cy[k], cx[(k + 1) % 4], cy[(k + 1) % 4])) return false;
    }
  }
  return true;
}

// Over a scanned page: an image covering at least half the page. Invisible text there is the
// scan's OCR layer; over a smaller image (a logo, a figure) it is text nobody sees.
bool over_scan(const RawPage& page, double x, double y) {
  const double page_area = page.width * page.height;
  return std::any_of(page.images.begin(), page.images.end(), [&](const RawImage& image) {
    const double area = (image.box.x1 - image.box.x0) * (image.box.y1 - image.box.y0);
    return area * 100 >= page_area * static_cast<double>(params::kScanImagePercent) && contains(image.box, x, y);
  });
}

bool same_colour(std::uint32_t a, std::uint32_t b) {
  for (int shift : {24, 16, 8}) {
    const int ca = static_cast<int>((a >> shift) & 0xFFu), cb = static_cast<int>((b >> shift) & 0xFFu);
    if (std::abs(ca - cb) > static_cast<int>(kSameColourDelta)) return false;
  }
  return true;
}

// Painted after the text (or in an unknown order, never counted as on top).
bool painted_over(std::int32_t object, std::int32_t text) { return text >= 0 && object > text; }

// The opaque fills and the images of a page by horizontal band, so that what lies over or under a
// glyph is looked up among the objects of its band only: a page of thousands of filled cells and
// thousands of glyphs compared every glyph with every fill.
class PaintIndex {
 public:
  explicit PaintIndex(const RawPage& page) : height_(page.height) {
    bands_.resize(kBands);
    for (const RawFill& fill : page.fills) {
      if (fill.opaque) add(fill.painted, Painted{&fill, nullptr});
    }
    for (const RawImage& image : page.images) add(image.box, Painted{nullptr, &image});
    for (const RawCover& cover : page.covers) add(cover.painted, Painted{nullptr, nullptr, &cover});
  }

  // An opaque filled rectangle, or another opaque straight-edged shape, painted after the glyph
  // that covers its whole box.
  bool covered_by_shape(const RawChar& c) const {
    for (const Painted& p : band((c.box.y0 + c.box.y1) / 2)) {
      if (p.fill != nullptr && painted_over(p.fill->paint_order, c.paint_order) && covers(p.fill->painted, c.box)) return true;
      if (p.cover != nullptr && painted_over(p.cover->paint_order, c.paint_order) && polygon_covers(*p.cover, c.box)) return true;
    }
    return false;
  }

  // What the glyph is painted on at (x, y): the last opaque fill painted before it there, else
  // the white page. nullopt when an image (or a straight-edged shape that is not a rectangle) was
  // painted there after that fill: a picture's colour at one point says nothing, so text over an
  // image is never judged by colour.
  std::optional<std::uint32_t> background(const RawChar& c, double x, double y) const {
    const std::vector<Painted>& here = band(y);
    const RawFill* top = nullptr;
    for (const Painted& p : here) {
      const RawFill* fill = p.fill;
      if (fill == nullptr || painted_over(fill->paint_order, c.paint_order) || !contains(fill->painted, x, y)) continue;
      if (top == nullptr || fill->paint_order > top->paint_order) top = fill;
    }
    const std::int32_t floor = top == nullptr ? -1 : top->paint_order;
    for (const Painted& p : here) {
      const RawImage* image = p.image;
      if (image != nullptr && !painted_over(image->paint_order, c.paint_order) && image->paint_order >= floor &&
          contains(image->box, x, y)) {
        return std::nullopt;
      }
      // A straight-edged shape under the glyph there: its colour is not kept, so it is not judged.
      const RawCover* cover = p.cover;
      if (cover != nullptr && !painted_over(cover->paint_order, c.paint_order) && cover->paint_order >= floor &&
          contains(cover->painted, x, y) && inside_polygon(*cover, x, y)) {
        return std::nullopt;
      }
    }
    return top == nullptr ? std::uint32_t{0xFFFFFFFFu} : top->fill_rgba;
  }

 private:
  static constexpr std::size_t kBands = 64;
  struct Painted {
    const RawFill* fill;
    const RawImage* image;
    const RawCover* cover = nullptr;  // only covered_by_shape reads these
  };

  std::size_t band_of(double y) const {
    if (!(height_ > 0) || !(y > 0)) return 0;  // NaN and everything above the page: the first band
    const double band = y / height_ * static_cast<double>(kBands);
    return band >= static_cast<double>(kBands) ? kBands - 1 : static_cast<std::size_t>(band);
  }
  const std::vector<Painted>& band(double y) const { return bands_[band_of(y)]; }
  void add(const Rect& box, const Painted& painted) {
    const std::size_t last = band_of(box.y1);
    for (std::size_t b = band_of(box.y0); b <= last; ++b) bands_[b].push_back(painted);
  }

  double height_;
  std::vector<std::vector<Painted>> bands_;
};

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

struct Visibility {
  GlyphVisibility kind = GlyphVisibility::kVisible;
  HiddenTechnique technique = HiddenTechnique::kNone;
};

Visibility hidden(HiddenTechnique technique) { return {GlyphVisibility::kHidden, technique}; }

// The rules in the order docs/pdf-parsing.md gives them: the first that holds names the technique.
Visibility visibility(const RawPage& page, const PaintIndex& painted, const RawChar& c, bool whitespace) {
  const Rect& b = c.box;
  const double cx = (b.x0 + b.x1) / 2, cy = (b.y0 + b.y1) / 2;
  if (b.x1 < 0 || b.x0 > page.width || b.y1 < 0 || b.y0 > page.height) return {GlyphVisibility::kOffPage, HiddenTechnique::kNone};
  if (c.render_mode == 3 || c.render_mode == 7) {
    // An invisible text layer over a scanned page is an OCR layer: the words the image shows.
    return over_scan(page, cx, cy) ? Visibility{} : hidden(HiddenTechnique::kInvisibleRenderMode);
  }
  if ((c.flags & kCharOptionalContentOff) != 0) return hidden(HiddenTechnique::kOptionalContentOff);
  if ((c.flags & kCharClipped) != 0) return hidden(HiddenTechnique::kClipped);
  if (std::fabs(c.font_size) < kMinVisibleFontSize) return hidden(HiddenTechnique::kTinyFont);
  if (!whitespace && (c.flags & kCharNoBox) == 0 && !has_area(c.box) && !has_area(c.loose)) {
    return hidden(HiddenTechnique::kSqueezed);
  }
  if (!whitespace && c.horizontal_scale < kMinHorizontalScale) return hidden(HiddenTechnique::kSqueezed);
  // Render modes 0-2 and 4-6 paint: 0 and 4 fill, 1 and 5 stroke, 2 and 6 both.
  const int mode = c.render_mode & 3;
  const bool fills = mode == 0 || mode == 2, strokes = mode == 1 || mode == 2;
  const bool fill_shows = fills && !transparent(c.fill_rgba), stroke_shows = strokes && !transparent(c.stroke_rgba);
  if (!fill_shows && !stroke_shows) return hidden(HiddenTechnique::kTransparent);
  if ((c.flags & kCharCoveredByImage) != 0) return hidden(HiddenTechnique::kCoveredByImage);
  if ((c.flags & kCharNoBox) == 0 && painted.covered_by_shape(c)) return hidden(HiddenTechnique::kCoveredByShape);
  const std::optional<std::uint32_t> under = painted.background(c, cx, cy);
  if (!under) return {};
  if ((fill_shows && !same_colour(c.fill_rgba, *under)) || (stroke_shows && !same_colour(c.stroke_rgba, *under))) return {};
  return hidden(fill_shows ? HiddenTechnique::kSameColourAsBackground : HiddenTechnique::kWhiteStroke);
}

}  // namespace

const char* technique_name(HiddenTechnique technique) {
  switch (technique) {
    case HiddenTechnique::kInvisibleRenderMode: return "invisible_render_mode";
    case HiddenTechnique::kOptionalContentOff: return "optional_content_off";
    case HiddenTechnique::kClipped: return "clipped";
    case HiddenTechnique::kTinyFont: return "tiny_font";
    case HiddenTechnique::kSqueezed: return "squeezed";
    case HiddenTechnique::kTransparent: return "transparent";
    case HiddenTechnique::kCoveredByImage: return "covered_by_image";
    case HiddenTechnique::kCoveredByShape: return "covered_by_shape";
    case HiddenTechnique::kWhiteStroke: return "white_stroke";
    case HiddenTechnique::kSameColourAsBackground: return "same_colour_as_background";
    case HiddenTechnique::kNone: break;
  }
  return "";
}

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
  const PaintIndex painted(page);
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
    const Visibility seen = visibility(page, painted, c, is_space(c.codepoint));
    g.hidden = seen.technique;
    switch (seen.kind) {
      case GlyphVisibility::kVisible: out.visible.push_back(g); break;
      case GlyphVisibility::kHidden: out.hidden.push_back(g); break;
      case GlyphVisibility::kOffPage: out.off_page.push_back(g); break;
    }
  }
  return out;
}

}  // namespace ethos::pdf
