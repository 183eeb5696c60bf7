// layout_glyphs.hpp - raw characters quantized and sorted into visible, hidden and off-page glyphs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pdf/raw_page.hpp"

namespace ethos::pdf {

// round_half_away_from_zero(points x 100): the one quantization of CONTRACTS §2.1.
std::int64_t quantize(double points);

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

bool is_horizontal(double angle);
bool is_cjk(char32_t codepoint);

}  // namespace ethos::pdf
