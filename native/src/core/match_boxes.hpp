// match_boxes.hpp - the highlight rectangles of a located match, whatever kind of target it was
// found in (element, span, cross-element join, running text of a page range).
#pragma once

#include <cstdint>
#include <vector>

#include "core/glyph_boxes.hpp"
#include "core/verifier.hpp"

namespace ethos {

// One rectangle per visual line of the matched characters [start, end) (Unicode-scalar offsets
// into target.text). Targets made of several elements hold their texts joined by one separator
// scalar, so each element's share of the range is mapped back into that element's own text.
// Table cells carry no glyph geometry: the result is empty for them, as for sources without spans,
// and a match in a table's column reading gets the boxes of the cells it touches.
std::vector<PageBox> match_boxes(const Source& source, const Target& target, std::int64_t start, std::int64_t end);

}  // namespace ethos
