// layout_turn.cpp - detection of turned text and the exact quarter-turn maps between both frames.
#include "pdf/layout_turn.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "pdf/layout_glyphs.hpp"

namespace ethos::pdf {
namespace {

bool real_glyph(const RawChar& c) {
  return (c.flags & (kCharGenerated | kCharNoBox)) == 0 && c.codepoint > U' ' && c.render_mode != 3 && c.render_mode != 7;
}

// One clockwise quarter turn of a point of a page `width` wide and `height` high (top-left
// origin, y down): the left edge becomes the top edge. The turned page is height x width.
void turn_point(double& x, double& y, double height) {
  const double nx = height - y, ny = x;
  x = nx;
  y = ny;
}

void turn_rect(Rect& r, double height) {
  double x0 = r.x0, y0 = r.y0, x1 = r.x1, y1 = r.y1;
  turn_point(x0, y0, height);
  turn_point(x1, y1, height);
  r = {std::min(x0, x1), std::min(y0, y1), std::max(x0, x1), std::max(y0, y1)};
}

// The inverse map in quanta: a point of the turned page back to the page before the turn
// (`width` is the width of the page before the turn).
void unturn_point(std::int64_t& x, std::int64_t& y, std::int64_t turned_width) {
  const std::int64_t ox = y, oy = turned_width - x;
  x = ox;
  y = oy;
}

void unturn_box(Bbox& b, std::int64_t turned_width) {
  std::int64_t x0 = b.x0, y0 = b.y0, x1 = b.x1, y1 = b.y1;
  unturn_point(x0, y0, turned_width);
  unturn_point(x1, y1, turned_width);
  b = {std::min(x0, x1), std::min(y0, y1), std::max(x0, x1), std::max(y0, y1)};
}

}  // namespace

int text_turn(const RawPage& page) {
  std::size_t turned = 0, total = 0;
  double dx = 0, dy = 0;
  const RawChar* previous = nullptr;
  for (const RawChar& c : page.chars) {
    if (!real_glyph(c)) continue;
    ++total;
    if (!is_horizontal(c.angle)) ++turned;
    if (previous != nullptr && std::fabs(previous->angle - c.angle) < 0.02) {
      const double step_x = c.origin_x - previous->origin_x, step_y = c.origin_y - previous->origin_y;
      // Only steps within a line (at most two ems) say which way the pen moves.
      if (std::hypot(step_x, step_y) <= 2 * std::max(c.font_size, 1.0) && !is_horizontal(c.angle)) {
        dx += step_x;
        dy += step_y;
      }
    }
    previous = &c;
  }
  if (total == 0 || turned * 2 <= total) return 0;
  if (std::fabs(dx) >= std::fabs(dy)) return dx >= 0 ? 0 : 2;
  return dy < 0 ? 1 : 3;  // upwards: one clockwise turn makes it run right; downwards: three
}

RawPage turn_page(const RawPage& page, int quarters) {
  RawPage out = page;
  // The angle of the most common turned glyph becomes upright.
  std::map<long, std::size_t> angles;
  for (const RawChar& c : page.chars) {
    if (real_glyph(c)) ++angles[std::lround(c.angle * 100)];
  }
  long dominant = 0;
  std::size_t best = 0;
  for (const auto& [angle, count] : angles) {
    if (count > best) {
      best = count;
      dominant = angle;
    }
  }
  for (int q = 0; q < quarters; ++q) {
    const double height = out.height;
    for (RawChar& c : out.chars) {
      turn_rect(c.box, height);
      turn_rect(c.loose, height);
      turn_point(c.origin_x, c.origin_y, height);
    }
    for (RawRule& r : out.rules) {
      turn_rect(r.box, height);
      r.horizontal = !r.horizontal;
    }
    for (RawFill& f : out.fills) {
      turn_rect(f.box, height);
      turn_rect(f.painted, height);
    }
    for (RawCover& c : out.covers) {
      for (std::size_t k = 0; k < c.xs.size(); ++k) turn_point(c.xs[k], c.ys[k], height);
      turn_rect(c.painted, height);
    }
    for (RawImage& i : out.images) turn_rect(i.box, height);
    for (RawAnnotation& a : out.annotations) turn_rect(a.box, height);
    std::swap(out.width, out.height);
  }
  for (RawChar& c : out.chars) {
    c.angle = std::lround(c.angle * 100) == dominant ? 0.0 : c.angle - static_cast<double>(dominant) / 100;
  }
  return out;
}

void turn_back(PageLayout& layout, const RawPage& page, int quarters) {
  for (int q = 0; q < quarters; ++q) {
    const std::int64_t turned_width = layout.width;
    for (LayoutElement& e : layout.elements) unturn_box(e.bbox, turned_width);
    for (LayoutSpan& s : layout.spans) {
      unturn_box(s.bbox, turned_width);
      unturn_point(s.first_origin_x, s.first_origin_y, turned_width);
      unturn_point(s.last_origin_x, s.last_origin_y, turned_width);
    }
    for (LayoutTable& t : layout.tables) {
      unturn_box(t.bbox, turned_width);
      for (LayoutCell& c : t.cells) unturn_box(c.bbox, turned_width);
    }
    for (LayoutRegion& r : layout.regions) unturn_box(r.bbox, turned_width);
    std::swap(layout.width, layout.height);
  }
  for (LayoutSpan& s : layout.spans) s.advances.clear();
  layout.width = quantize(page.width);
  layout.height = quantize(page.height);
}

}  // namespace ethos::pdf
