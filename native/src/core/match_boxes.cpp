// match_boxes.cpp - maps a match in a target's text onto the owning elements' glyph geometry.
#include "core/match_boxes.hpp"

#include <algorithm>
#include <string_view>

#include "text/utf8.hpp"

namespace ethos {
namespace {

void append(std::vector<PageBox>& out, std::vector<PageBox> more) {
  out.insert(out.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
}

}  // namespace

std::vector<PageBox> match_boxes(const Source& source, const Target& target, std::int64_t start, std::int64_t end) {
  std::vector<PageBox> boxes;
  if (target.text == nullptr || start >= end) return boxes;

  if (std::string_view(target.tier) == "exact_span") {
    // A span's text is a slice of its element's text starting at char_start.
    for (std::size_t index : source.spans_on_page(std::string(target.page))) {
      const Span& span = source.spans[index];
      if (&span.text != target.text) continue;
      if (span.element && span.char_start) {
        append(boxes, boxes_for_range(source, *span.element, *span.char_start + start, *span.char_start + end));
      }
      break;
    }
    return boxes;
  }
  if (target.columns) return table_column_boxes(*target.columns, start, end);
  if (target.stream) return stream_reading_boxes(source, *target.stream, start, end);
  if (target.elements.empty() || std::string_view(target.tier) == "table_cell") return boxes;

  // A target that is one element's own text (the common case: a quote cited to its element):
  // the range is in that text already, so its length is not counted.
  const std::size_t only = target.elements.front();
  if (target.elements.size() == 1 && source.elements[only].text && &*source.elements[only].text == target.text) {
    return boxes_for_range(source, only, start, end);
  }
  // Element texts laid end to end with one separator scalar between neighbours (a join's space or
  // the running text's line break); every element gets the part of [start, end) inside its text.
  std::int64_t cursor = 0;
  for (std::size_t element : target.elements) {
    const std::optional<std::string>& text = source.elements[element].text;
    const auto length = static_cast<std::int64_t>(text ? utf8::scalar_count(*text) : 0);
    const std::int64_t from = std::max(start, cursor), to = std::min(end, cursor + length);
    if (from < to) append(boxes, boxes_for_range(source, element, from - cursor, to - cursor));
    cursor += length + 1;
    if (cursor >= end) break;
  }
  return boxes;
}

}  // namespace ethos
