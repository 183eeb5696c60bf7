// layout_lines.cpp - line building: band overlap, direction and gap rules over content-order glyphs.
#include "pdf/layout_lines.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "pdf/layout_params.hpp"

namespace ethos::pdf {
namespace {

bool is_blank(char32_t c) { return c == U' ' || c == U'\t' || c == 0xA0 || c == 0x3000; }

// Word gaps PDFium did not mark. PDFium judges a gap by the font's space width and misses the
// thin and medium spaces of typeset math (`f(y, u)` after a comma, an integral sign before its
// integrand). On upright text, a gap is measured from where the line's glyphs so far stop -
// their advances (origin + advance width), not their ink, which would open gaps beside digits
// with wide side bearings; the rightmost one, so that an accent drawn back over its letter opens
// no gap after it - to the next glyph's origin. It is a word gap when it exceeds the line's
// usual gap (the lower quartile: zero for ordinary text and for a formula however many of its
// symbols are set apart, the letter spacing of a letter-spaced line) by kMinWordGapPercent of
// an em. Between two CJK characters a gap is justification, never a space: those scripts write
// none.
void insert_word_gaps(Line& line) {
  struct Pair {
    std::size_t at;  // index of the glyph after the gap
    std::int64_t gap, em;
    bool candidate;
  };
  std::vector<Pair> pairs;
  pairs.reserve(line.glyphs.size());
  bool any_wide = false;  // a gap that could be a word gap: without one (most lines) nothing to do
  std::int64_t pen_right = 0;
  const Glyph* previous = nullptr;  // the last real glyph, nullptr after a space
  for (std::size_t i = 0; i < line.glyphs.size(); ++i) {
    const Glyph& g = line.glyphs[i];
    if (g.generated || is_blank(g.codepoint) || !is_horizontal(g.angle)) {
      previous = nullptr;
      continue;
    }
    if (previous != nullptr) {
      const std::int64_t em = std::max({g.font_size_q, previous->font_size_q, std::int64_t{1}});
      const bool cjk_pair = is_cjk(g.codepoint) && is_cjk(previous->codepoint);
      pairs.push_back({i, g.origin_x - pen_right, em, !cjk_pair});
      any_wide = any_wide || (!cjk_pair && pairs.back().gap * 100 >= params::kMinWordGapPercent * em);
      pen_right = std::max({pen_right, g.advance_x1, g.x1});
    } else {
      pen_right = std::max(g.advance_x1, g.x1);
    }
    previous = &g;
  }
  if (pairs.size() < 2 || !any_wide) return;  // one gap alone has nothing to be compared with
  std::vector<std::int64_t> gaps;
  gaps.reserve(pairs.size());
  for (const Pair& p : pairs) gaps.push_back(p.gap);
  const auto lower_quartile = gaps.begin() + static_cast<std::ptrdiff_t>((gaps.size() - 1) / 4);
  std::nth_element(gaps.begin(), lower_quartile, gaps.end());
  const std::int64_t usual = std::max(*lower_quartile, std::int64_t{0});
  std::vector<Glyph> out;
  out.reserve(line.glyphs.size() + pairs.size());
  std::size_t next = 0;
  for (std::size_t i = 0; i < line.glyphs.size(); ++i) {
    if (next < pairs.size() && pairs[next].at == i) {
      const Pair& p = pairs[next++];
      if (p.candidate && (p.gap - usual) * 100 >= params::kMinWordGapPercent * p.em) {
        Glyph gap = out.back();
        gap.codepoint = U' ';
        gap.generated = true;
        gap.line_end_hyphen = false;
        out.push_back(gap);
      }
    }
    out.push_back(line.glyphs[i]);
  }
  line.glyphs = std::move(out);
}

// Closes a line: generated spaces at its ends go (they separated it from nothing), the rest of
// its properties are computed from its real glyphs.
void finish_line(Line& line, std::vector<Line>& out) {
  while (!line.glyphs.empty() && line.glyphs.back().generated) line.glyphs.pop_back();
  std::size_t lead = 0;
  while (lead < line.glyphs.size() && line.glyphs[lead].generated) ++lead;
  line.glyphs.erase(line.glyphs.begin(), line.glyphs.begin() + static_cast<std::ptrdiff_t>(lead));
  if (line.glyphs.empty()) return;
  insert_word_gaps(line);
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

// A spacing accent (TeX's accent glyphs: ´ ` ¨ ˆ ˜ ¯ ˉ ˘ ˙ ˚ ˝ ˇ ¸ ˛) or a combining mark.
bool is_accent_glyph(char32_t c) {
  switch (c) {
    case 0x60: case 0xA8: case 0xAF: case 0xB4: case 0xB8: case 0x2C6: case 0x2C7: case 0x2C9:
    case 0x2D8: case 0x2D9: case 0x2DA: case 0x2DB: case 0x2DC: case 0x2DD:
      return true;
    default:
      return c >= 0x300 && c <= 0x36F;
  }
}

// An accent drawn after the rest of its line, back over a letter the line already holds (some
// fonts' accents come from another font, painted once the line is set: lmtest's affiliations give
// "Institut fur ... Un", then the diaeresis of "für", then "iversität"). Read in content order it
// would start a line of its own and cut the line it belongs to in two; it goes with its letter
// instead, before it (where TeX's \accent puts an accent set above), so the text reads "f¨ur" as
// every other accent of such fonts reads. Only a narrow accent glyph whose middle lies inside the
// line's extent, in its band, at its angle.
bool accent_falls_back_into(const Line& line, const Bbox& band, const Glyph& last, const Glyph& g) {
  if (!is_accent_glyph(g.codepoint) || !is_horizontal(g.angle) || std::fabs(g.angle - last.angle) >= 0.02) return false;
  if (g.x1 > last.x0) return false;  // not drawn back: the ordinary rules decide
  const std::int64_t em = std::max(g.font_size_q, std::int64_t{1});
  const std::int64_t middle = (g.x0 + g.x1) / 2;
  return g.x1 - g.x0 <= em && middle >= band.x0 && middle <= band.x1 && same_band(band, Bbox{g.x0, g.y0, g.x1, g.y1}) &&
         !line.glyphs.empty();
}

// Puts the accent before the letter its middle lies over (or, over a gap, before the first glyph
// right of its middle).
void insert_accent(Line& line, const Glyph& accent) {
  const std::int64_t middle = (accent.x0 + accent.x1) / 2;
  auto at = std::find_if(line.glyphs.begin(), line.glyphs.end(),
                         [&](const Glyph& g) { return !g.generated && g.x0 <= middle && middle <= g.x1; });
  if (at == line.glyphs.end()) {
    at = std::find_if(line.glyphs.begin(), line.glyphs.end(), [&](const Glyph& g) { return !g.generated && g.x0 > middle; });
  }
  line.glyphs.insert(at, accent);
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
  bool after_late_accent = false;     // the last real glyph was an accent put back into the line
  for (const Glyph& g : glyphs) {
    if (g.generated) {
      // Keep one generated space between real glyphs; a run of them means one gap. PDFium marks
      // the jump back to an accent drawn late, and the jump forward after it, as word gaps: the
      // accent sits inside a word, so those are none (a real gap there is found from the glyph
      // positions by insert_word_gaps).
      if (last_real != nullptr && !current.glyphs.back().generated && !after_late_accent) current.glyphs.push_back(g);
      continue;
    }
    const Bbox box{g.x0, g.y0, g.x1, g.y1};
    if (last_real != nullptr && accent_falls_back_into(current, band, *last_real, g)) {
      if (current.glyphs.back().generated) current.glyphs.pop_back();
      insert_accent(current, g);  // the line goes on from its last glyph: last_real stays
      after_late_accent = true;
      continue;
    }
    after_late_accent = false;
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
