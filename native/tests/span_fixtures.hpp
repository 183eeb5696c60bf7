// span_fixtures.hpp - elements and spans of a one-page source, built by hand for the reading-order tests (stream and column readings).
#pragma once

#include <cstdint>
#include <string>

#include "core/source.hpp"

namespace ethos::test {

// A text element of page p0001 with a square box of `side` quanta.
inline Element element(const char* id, const char* text, const char* kind = "text_block", std::int64_t side = 1000) {
  Element out;
  out.id = id;
  out.kind = kind;
  out.page = "p0001";
  out.text = text;
  out.bbox = Bbox{0, 0, side, side};
  return out;
}

// A span of element `owner` over its scalars [start, end) at (x, y), 100 quanta per scalar, 100 high.
inline Span span(const Source& source, std::size_t owner, std::int64_t start, std::int64_t end, std::int64_t x,
                 std::int64_t y) {
  Span out;
  out.id = "s" + std::to_string(source.spans.size());
  out.page = "p0001";
  out.element = owner;
  out.char_start = start;
  out.char_end = end;
  out.text = source.elements[owner].text->substr(static_cast<std::size_t>(start), static_cast<std::size_t>(end - start));
  out.bbox = Bbox{x, y, x + 100 * (end - start), y + 100};
  out.advances.assign(static_cast<std::size_t>(end - start), 100);
  return out;
}

}  // namespace ethos::test
