// layout_lines.hpp - glyphs in content order grouped into line pieces on one baseline.
#pragma once

#include <cstdint>
#include <vector>

#include "core/source.hpp"
#include "pdf/layout_glyphs.hpp"

namespace ethos::pdf {

// A run of glyphs on one baseline with no wide gap: a whole line of a paragraph, or one cell of
// a table row. Generated spaces sit only between real glyphs, never at either end.
struct Line {
  std::vector<Glyph> glyphs;
  Bbox bbox;
  bool horizontal = true;
  std::int64_t font_size_q = 0;  // the size most of its glyphs have
  bool bold = false;             // most of its glyphs are in a bold font
  std::size_t order = 0;         // content-stream index of its first glyph

  std::int64_t height() const { return bbox.y1 - bbox.y0; }
  char32_t first_char() const { return glyphs.front().codepoint; }
};

// Groups glyphs (content-stream order) into lines: a glyph continues the current line when it
// shares the line's band (superscripts and subscripts included), does not move backwards and is
// not separated by a gap wider than one em. Wide gaps split a visual line into pieces so that
// column gutters and table columns stay visible to the later steps.
std::vector<Line> build_lines(const std::vector<Glyph>& glyphs);

// True when b's band overlaps a's by at least half of the smaller height (same visual line).
bool same_band(const Bbox& a, const Bbox& b);

Bbox unite(const Bbox& a, const Bbox& b);

}  // namespace ethos::pdf
