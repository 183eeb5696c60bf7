// layout_lines.cpp - line building: band overlap, direction and gap rules over content-order glyphs.
#include "pdf/layout_lines.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace ethos::pdf {
namespace {

bool is_blank(char32_t c) { return c == U' ' || c == U'\t' || c == 0xA0 || c == 0x3000; }

// Closes a line: generated spaces at its ends go (they separated it from nothing), the rest of
// its properties are computed from its real glyphs.
void finish_line(Line& line, std::vector<Line>& out) {
  while (!line.glyphs.empty() && line.glyphs.back().generated) line.glyphs.pop_back();
  std::size_t lead = 0;
  while (lead < line.glyphs.size() && line.glyphs[lead].generated) ++lead;
  line.glyphs.erase(line.glyphs.begin(), line.glyphs.begin() + static_cast<std::ptrdiff_t>(lead));
  if (line.glyphs.empty()) return;
  bool first = true;
  std::map<std::int64_t, std::size_t> sizes;
  std::size_t bold = 0, real = 0, visible_ink = 0;
  for (const Glyph& g : line.glyphs) {
    if (g.generated) continue;
    const Bbox box{g.x0, g.y0, g.x1, g.y1};
    line.bbox = first ? box : unite(line.bbox, box);
    first = false;
    ++real;
    if (!is_blank(g.codepoint)) ++visible_ink;
    ++sizes[g.font_size_q];
    if (g.bold) ++bold;
  }
  if (visible_ink == 0) return;  // a line of nothing but spaces carries no text
  std::size_t best = 0;
  for (const auto& [size, count] : sizes) {
    if (count > best) {  // ties: the smaller size (map order), so the choice is deterministic
      best = count;
      line.font_size_q = size;
    }
  }
  line.bold = bold * 2 > real;
  line.horizontal = is_horizontal(line.glyphs.front().angle);
  line.order = line.glyphs.front().order;
  out.push_back(std::move(line));
}

}  // namespace

Bbox unite(const Bbox& a, const Bbox& b) {
  return {std::min(a.x0, b.x0), std::min(a.y0, b.y0), std::max(a.x1, b.x1), std::max(a.y1, b.y1)};
}

bool same_band(const Bbox& a, const Bbox& b) {
  const std::int64_t overlap = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
  const std::int64_t smaller = std::min(a.y1 - a.y0, b.y1 - b.y0);
  return overlap > 0 && overlap * 2 >= smaller;
}

std::vector<Line> build_lines(const std::vector<Glyph>& glyphs) {
  std::vector<Line> out;
  Line current;
  Glyph last_glyph;                   // last real glyph of the current line (a copy: the vector grows)
  const Glyph* last_real = nullptr;   // &last_glyph, or nullptr while the line is empty
  Bbox band;                          // union of the current line's real glyph boxes
  for (const Glyph& g : glyphs) {
    if (g.generated) {
      // Keep one generated space between real glyphs; a run of them means one gap.
      if (last_real != nullptr && !current.glyphs.back().generated) current.glyphs.push_back(g);
      continue;
    }
    const Bbox box{g.x0, g.y0, g.x1, g.y1};
    bool continues = false;
    if (last_real != nullptr) {
      const bool horizontal = is_horizontal(g.angle);
      if (std::fabs(g.angle - last_real->angle) < 0.02 && horizontal == is_horizontal(last_real->angle)) {
        const std::int64_t em = std::max({g.font_size_q, last_real->font_size_q, std::int64_t{1}});
        if (horizontal) {
          const std::int64_t gap = g.x0 - last_real->x1;
          continues = same_band(band, box) && g.x1 > last_real->x0 && gap <= em;
        } else {
          // Rotated text: the pen moves along the baseline; stay within two ems of the last glyph.
          const double dx = static_cast<double>(g.origin_x - last_real->origin_x);
          const double dy = static_cast<double>(g.origin_y - last_real->origin_y);
          continues = std::sqrt(dx * dx + dy * dy) <= 2.0 * static_cast<double>(em);
        }
      }
    }
    if (!continues && last_real != nullptr) {
      finish_line(current, out);
      current = Line{};
      last_real = nullptr;
    }
    band = last_real == nullptr ? box : unite(band, box);
    current.glyphs.push_back(g);
    last_glyph = g;
    last_real = &last_glyph;
  }
  if (last_real != nullptr) finish_line(current, out);
  return out;
}

}  // namespace ethos::pdf
