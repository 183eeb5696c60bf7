// glyph_boxes.cpp - per-character x-ranges from span advances, merged into one box per visual line.
#include "core/glyph_boxes.hpp"

#include <algorithm>

namespace ethos {
namespace {

// Two boxes lie on one visual line when their y-ranges overlap by half of the smaller height.
bool same_line(const Bbox& a, const Bbox& b) {
  const std::int64_t overlap = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
  const std::int64_t smaller = std::min(a.y1 - a.y0, b.y1 - b.y0);
  return overlap >= 0 && overlap * 2 >= smaller;
}

}  // namespace

std::vector<PageBox> boxes_for_range(const Source& source, std::size_t element, std::int64_t start, std::int64_t end) {
  std::vector<PageBox> out;
  if (element >= source.elements.size() || start >= end) return out;
  // The element's spans with their offsets, in text order (indexed once by the source).
  for (const std::size_t index : source.geometry_spans_of(element)) {
    const Span* span = &source.spans[index];
    // The list is sorted by char_start: once a span starts at or past the range's end, so do
    // all later ones (each one skipped is a span record not read from memory).
    if (*span->char_start >= end) break;
    const std::int64_t from = std::max(start, *span->char_start), to = std::min(end, *span->char_end);
    if (from >= to) continue;
    Bbox piece = *span->bbox;
    const auto length = static_cast<std::size_t>(*span->char_end - *span->char_start);
    if (span->advances.size() == length) {
      const auto first = static_cast<std::size_t>(from - *span->char_start);
      const auto last = static_cast<std::size_t>(to - *span->char_start);
      std::int64_t x = span->bbox->x0;
      for (std::size_t i = 0; i < first; ++i) x += span->advances[i];
      piece.x0 = x;
      for (std::size_t i = first; i < last; ++i) x += span->advances[i];
      piece.x1 = x;
    }
    if (!out.empty() && out.back().page == span->page && same_line(out.back().bbox, piece)) {
      Bbox& line = out.back().bbox;
      line = {std::min(line.x0, piece.x0), std::min(line.y0, piece.y0), std::max(line.x1, piece.x1), std::max(line.y1, piece.y1)};
    } else {
      if (out.capacity() == 0) out.reserve(4);  // a range spans a line or a few: one allocation, not 1, 2, 4
      out.push_back({span->page, piece});
    }
  }
  return out;
}

}  // namespace ethos
