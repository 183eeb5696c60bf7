// column_reading.cpp - builds a page's aligned-column reading from its spans (column_reading.hpp).
#include "core/column_reading.hpp"

#include <algorithm>
#include <string_view>

#include "text/normalize.hpp"
#include "text/utf8.hpp"

namespace ethos {
namespace {

// Left edges closer than this (quanta) are one column: TeX sets a column's lines a few hundredths
// of a point apart.
constexpr std::int64_t kAlignSlack = 150;

struct LinePiece {
  std::size_t element = 0;
  std::int64_t start = 0, end = 0;  // element scalars
  Bbox box;
};

// Whether the element's text between scalars [from, to) is only white space (possibly none).
bool white_between(const std::string& text, std::int64_t from, std::int64_t to) {
  if (from > to) return false;
  const std::size_t begin = utf8::byte_offset_of_scalar(text, static_cast<std::size_t>(from));
  const std::size_t end =
      begin + utf8::byte_offset_of_scalar(std::string_view(text).substr(begin), static_cast<std::size_t>(to - from));
  const std::string_view between = std::string_view(text).substr(begin, end - begin);
  std::size_t pos = 0;
  while (pos < between.size()) {
    if (!is_unicode_white_space(utf8::next(between, pos))) return false;
  }
  return true;
}

bool same_line(const Bbox& a, const Bbox& b) {
  const std::int64_t overlap = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
  const std::int64_t smaller = std::min(a.y1 - a.y0, b.y1 - b.y0);
  return overlap > 0 && overlap * 2 >= smaller;
}

// Whether our reading order already reads `next` right after `previous`: the same element's text
// goes on with white space only, or the next element starts where the previous one ended.
bool adjacent(const Source& source, const LinePiece& previous, const LinePiece& next) {
  if (previous.element == next.element) return white_between(*source.elements[next.element].text, previous.end, next.start);
  if (next.element != previous.element + 1 || next.start != 0) return false;
  const auto length = static_cast<std::int64_t>(utf8::scalar_count(*source.elements[previous.element].text));
  return white_between(*source.elements[previous.element].text, previous.end, length);
}

}  // namespace

std::optional<StreamReading> column_reading(const Source& source, std::size_t page) {
  if (page >= source.pages.size()) return std::nullopt;
  // The page's line pieces, element by element, each element's spans in text order.
  std::vector<LinePiece> pieces;
  for (std::size_t element : source.elements_on_page(source.pages[page].id)) {
    const Element& owner = source.elements[element];
    if (!owner.text || owner.kind == "header" || owner.kind == "footer") continue;
    bool open = false;
    for (std::size_t index : source.geometry_spans_of(element)) {
      const Span& span = source.spans[index];
      if (!span.bbox || *span.char_end <= *span.char_start) continue;
      if (open) {
        LinePiece& piece = pieces.back();
        // The line's height, at most half as much again as the next span's: a tall ornament (a
        // frame's corner glyph) does not make the gap to the text after it a word gap.
        const std::int64_t height =
            std::min(piece.box.y1 - piece.box.y0, (span.bbox->y1 - span.bbox->y0) * 3 / 2);
        if (same_line(piece.box, *span.bbox) && span.bbox->x0 >= piece.box.x1 - kAlignSlack &&
            span.bbox->x0 - piece.box.x1 <= height && white_between(*owner.text, piece.end, *span.char_start)) {
          piece.end = *span.char_end;
          piece.box = Bbox{std::min(piece.box.x0, span.bbox->x0), std::min(piece.box.y0, span.bbox->y0),
                           std::max(piece.box.x1, span.bbox->x1), std::max(piece.box.y1, span.bbox->y1)};
          continue;
        }
      }
      pieces.push_back({element, *span.char_start, *span.char_end, *span.bbox});
      open = true;
    }
  }
  // Columns: pieces whose left edges lie within the slack of the column's first, by left edge.
  std::vector<std::size_t> order(pieces.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return pieces[a].box.x0 < pieces[b].box.x0; });
  StreamReading out;
  out.name = "aligned_columns";
  std::uint32_t scalars = 0;
  const auto append = [&](const LinePiece& piece) {
    const std::string& text = *source.elements[piece.element].text;
    const std::size_t begin = utf8::byte_offset_of_scalar(text, static_cast<std::size_t>(piece.start));
    const std::size_t end = begin + utf8::byte_offset_of_scalar(std::string_view(text).substr(begin),
                                                                static_cast<std::size_t>(piece.end - piece.start));
    if (!out.text.empty()) {
      out.text += '\n';  // as between the elements of a running text: never crossed at exact
      ++scalars;
    }
    for (std::int64_t h : source.elements[piece.element].hyphen_breaks) {
      if (h >= piece.start && h < piece.end) out.hyphen_breaks.push_back(scalars + (h - piece.start));
    }
    const auto length = static_cast<std::uint32_t>(piece.end - piece.start);
    out.pieces.push_back({scalars, scalars + length, piece.element, piece.start});
    out.text.append(text, begin, end - begin);
    scalars += length;
  };
  for (std::size_t first = 0; first < order.size();) {
    std::size_t last = first + 1;
    while (last < order.size() && pieces[order[last]].box.x0 - pieces[order[first]].box.x0 <= kAlignSlack) ++last;
    std::vector<std::size_t> column(order.begin() + static_cast<std::ptrdiff_t>(first),
                                    order.begin() + static_cast<std::ptrdiff_t>(last));
    std::stable_sort(column.begin(), column.end(), [&](std::size_t a, std::size_t b) { return pieces[a].box.y0 < pieces[b].box.y0; });
    // Runs: each piece at most a line height below the one before.
    for (std::size_t r = 0; r < column.size();) {
      std::size_t end = r + 1;
      bool adds = false;
      while (end < column.size()) {
        const LinePiece& above = pieces[column[end - 1]];
        const LinePiece& below = pieces[column[end]];
        const std::int64_t height = above.box.y1 - above.box.y0;
        if (below.box.y0 < above.box.y1 - height / 2 || below.box.y0 - above.box.y1 > height) break;
        adds = adds || !adjacent(source, above, below);
        ++end;
      }
      if (adds) {
        for (std::size_t k = r; k < end; ++k) append(pieces[column[k]]);
      }
      r = end;
    }
    first = last;
  }
  if (out.pieces.empty()) return std::nullopt;
  return out;
}

}  // namespace ethos
