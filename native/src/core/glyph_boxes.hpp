// glyph_boxes.hpp - highlight rectangles of a character range of an element, one per visual line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/source.hpp"

namespace ethos {

struct PageBox {
  std::string page;  // page id
  Bbox bbox;
};

// The rectangles covering exactly the characters [start, end) (Unicode-scalar offsets into the
// element's text), one per visual line, in text order. Built from the element's spans: spans with
// `advances` give the characters' own x-range (x0 + sum of the advances before them), others
// contribute their whole box. Characters no span covers (generated separators) add nothing.
// Empty when the element has no spans or the range is empty.
std::vector<PageBox> boxes_for_range(const Source& source, std::size_t element, std::int64_t start, std::int64_t end);

}  // namespace ethos
