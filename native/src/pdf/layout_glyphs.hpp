// layout_glyphs.hpp - raw characters quantized and sorted into visible, hidden and off-page glyphs.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "pdf/raw_page.hpp"

namespace ethos::pdf {

// round_half_away_from_zero(points x 100): the one quantization of CONTRACTS §2.1. Inline, and
// without llround's library call: it runs several times per glyph.
inline std::int64_t quantize(double points) {
  // A broken PDF can yield NaN or huge coordinates; keep every quantity far from overflow so the
  // sums and differences taken later stay defined (1e12 quanta is ten billion points).
  constexpr double kLimit = 1e12;
  if (!std::isfinite(points)) return 0;
  const double scaled = std::clamp(points * 100.0, -kLimit, kLimit);
  // |scaled| <= 1e12 < 2^53: the truncation and the remainder below are exact, so halves round
  // away from zero exactly as llround rounds them.
  auto whole = static_cast<std::int64_t>(scaled);
  const double rest = scaled - static_cast<double>(whole);
  if (rest >= 0.5) {
    ++whole;
  } else if (rest <= -0.5) {
    --whole;
  }
  return whole;
}

// How a hidden glyph is kept from the reader (the `technique` of its hidden_text_detected warning;
// technique_name gives the stable name).
enum class HiddenTechnique : std::uint8_t {
  kNone,
  kInvisibleRenderMode,     // text render mode 3 or 7: neither filled nor stroked
  kOptionalContentOff,      // in an optional-content layer the page does not show
  kClipped,                 // outside its clip path
  kTinyFont,                // under 0.5 pt as drawn
  kSqueezed,                // squeezed to (near) zero width or height
  kTransparent,             // painted with zero alpha
  kCoveredByImage,          // an image painted after it hides it
  kCoveredByShape,          // an opaque filled rectangle painted after it hides it
  kWhiteStroke,             // outline-only text in the colour of what lies beneath
  kSameColourAsBackground,  // filled in the colour of what lies beneath (white on white, black on black)
};
const char* technique_name(HiddenTechnique technique);

// One character in quanta. x comes from the tight glyph box, y from the font-metric (loose) box
// so that all glyphs of a line share one band; generated characters carry no box of their own.
struct Glyph {
  char32_t codepoint = 0;     // already faithful: U+FFFE written as the hyphen the page shows
  std::int64_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  std::int64_t origin_x = 0, origin_y = 0;
  // Where the pen stops after this glyph (the font-metric box's right edge: origin + advance
  // width) on upright text; the tight box's right edge elsewhere. Word gaps are measured from it.
  std::int64_t advance_x1 = 0;
  std::int64_t font_size_q = 0;
  std::int32_t font = -1;     // index into RawPage::fonts
  double angle = 0;
  std::size_t order = 0;      // index in RawPage::chars (content-stream order)
  bool generated = false;     // a space PDFium synthesised (word gap); carries no geometry
  bool line_end_hyphen = false;
  bool bold = false;
  HiddenTechnique hidden = HiddenTechnique::kNone;  // why a hidden glyph is hidden
};

enum class GlyphVisibility { kVisible, kHidden, kOffPage };

struct ClassifiedGlyphs {
  std::vector<Glyph> visible, hidden, off_page;  // each in content-stream order
};

// Drops PDFium's generated line breaks (our own separators replace them), keeps its generated
// spaces, and sorts every other character by whether a reader can see it (docs/pdf-parsing.md).
ClassifiedGlyphs classify_glyphs(const RawPage& page);

// "embedded:<name>" | "subst:<name>" for a font index, "" when unknown.
std::string font_id(const RawPage& page, std::int32_t font);

// Within 0.02 rad of 0 (mod 2 pi). The angle is already in [0, 2 pi) for nearly every glyph
// (mostly exactly 0): that case skips the library's remainder, which gives the angle itself there.
bool is_horizontal_any(double angle);
inline bool is_horizontal(double angle) {
  constexpr double kTwoPi = 2 * 3.14159265358979323846;
  if (angle >= 0 && angle < kTwoPi) return angle < 0.02 || angle > kTwoPi - 0.02;
  return is_horizontal_any(angle);
}
bool is_cjk(char32_t codepoint);

}  // namespace ethos::pdf
