// stream_reading.cpp - builds a page's content-stream reading from its spans and maps matches back.
#include "core/stream_reading.hpp"

#include <algorithm>
#include <string_view>

#include "text/normalize.hpp"
#include "text/utf8.hpp"

namespace ethos {
namespace {

bool is_furniture(const Element& element) { return element.kind == "header" || element.kind == "footer"; }

// The element's text between scalars [from, to), when it is only white space (possibly none).
std::optional<std::string_view> white_between(const std::string& text, std::int64_t from, std::int64_t to) {
  if (from > to) return std::nullopt;
  const std::size_t begin = utf8::byte_offset_of_scalar(text, static_cast<std::size_t>(from));
  const std::size_t end = begin + utf8::byte_offset_of_scalar(std::string_view(text).substr(begin),
                                                              static_cast<std::size_t>(to - from));
  const std::string_view between = std::string_view(text).substr(begin, end - begin);
  std::size_t pos = 0;
  while (pos < between.size()) {
    if (!is_unicode_white_space(utf8::next(between, pos))) return std::nullopt;
  }
  return between;
}

}  // namespace

std::optional<StreamReading> stream_reading(const Source& source, const std::vector<std::size_t>& pages) {
  StreamReading out;
  std::uint32_t scalars = 0;
  bool reordered = false;
  const StreamReading::Piece* previous = nullptr;
  for (std::size_t page : pages) {
    if (page >= source.pages.size()) continue;
    for (std::size_t index : source.spans_on_page(source.pages[page].id)) {
      const Span& span = source.spans[index];
      // Hidden and off-page text has no element: it is no reader's text, in any order.
      if (!span.element || !span.char_start || !span.char_end || *span.char_end <= *span.char_start) continue;
      const Element& element = source.elements[*span.element];
      if (!element.text || is_furniture(element)) continue;
      const auto length = static_cast<std::uint32_t>(*span.char_end - *span.char_start);
      if (previous != nullptr) {
        const std::int64_t previous_end = previous->element_start + (previous->end - previous->start);
        std::optional<std::string_view> between;
        if (previous->element == *span.element) between = white_between(*element.text, previous_end, *span.char_start);
        if (between) {
          // The element's own text goes on: nothing or its white space between the two spans.
          out.text += *between;
          scalars += static_cast<std::uint32_t>(utf8::scalar_count(*between));
        } else {
          out.text += '\n';  // as between the elements of a running text: never crossed at exact
          ++scalars;
          reordered = reordered || *span.element < previous->element ||
                      (*span.element == previous->element && *span.char_start < previous_end);
        }
      }
      for (std::int64_t h : element.hyphen_breaks) {
        if (h >= *span.char_start && h < *span.char_end) out.hyphen_breaks.push_back(scalars + (h - *span.char_start));
      }
      out.pieces.push_back({scalars, scalars + length, *span.element, *span.char_start});
      previous = &out.pieces.back();
      out.text += span.text;
      scalars += length;
    }
  }
  if (!reordered) return std::nullopt;
  return out;
}

std::size_t piece_at(const StreamReading& reading, std::uint32_t at) {
  const auto after = std::upper_bound(reading.pieces.begin(), reading.pieces.end(), at,
                                      [](std::uint32_t offset, const StreamReading::Piece& piece) { return offset < piece.start; });
  if (after == reading.pieces.begin()) return reading.pieces.size();
  const auto piece = static_cast<std::size_t>(after - reading.pieces.begin()) - 1;
  return at < reading.pieces[piece].end ? piece : reading.pieces.size();
}

std::vector<std::size_t> stream_elements(const StreamReading& reading, std::uint32_t start, std::uint32_t end) {
  std::vector<std::size_t> elements;
  for (const StreamReading::Piece& piece : reading.pieces) {
    if (piece.start >= end) break;
    if (piece.end <= start) continue;
    if (std::find(elements.begin(), elements.end(), piece.element) == elements.end()) elements.push_back(piece.element);
  }
  return elements;
}

std::vector<PageBox> stream_reading_boxes(const Source& source, const StreamReading& reading, std::int64_t start,
                                          std::int64_t end) {
  std::vector<PageBox> boxes;
  // The current run: element scalars [from, to) of one element.
  std::size_t element = 0;
  std::int64_t from = 0, to = 0;
  bool open = false;
  const auto flush = [&]() {
    if (!open) return;
    std::vector<PageBox> more = boxes_for_range(source, element, from, to);
    boxes.insert(boxes.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    open = false;
  };
  for (const StreamReading::Piece& piece : reading.pieces) {
    if (piece.start >= end) break;
    const std::int64_t lo = std::max<std::int64_t>(start, piece.start), hi = std::min<std::int64_t>(end, piece.end);
    if (lo >= hi) continue;
    const std::int64_t a = piece.element_start + (lo - piece.start), b = piece.element_start + (hi - piece.start);
    if (open && piece.element == element && a >= to && a - to <= 1) {
      to = b;  // the element's text goes on (across a word gap at most): one range, merged per line
      continue;
    }
    flush();
    element = piece.element;
    from = a;
    to = b;
    open = true;
  }
  flush();
  return boxes;
}

}  // namespace ethos
