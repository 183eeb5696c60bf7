// column_reading.hpp - a page's aligned columns read top to bottom (pdftotext's order for a key/
// description list or a reference card drawn row by row), mapped back to the elements' offsets.
#pragma once

#include <optional>
#include <vector>

#include "core/source.hpp"
#include "core/stream_reading.hpp"

namespace ethos {

// The aligned-column reading of one page (index into source.pages): the page's line pieces (an
// element's glyphs on one visual line, cut where a gap wider than the line's height opens), grouped
// by their left edge (within 1.5 pt of the group's leftmost), each group read top
// to bottom as long as each piece sits at most a line height below the one before. Only runs that
// join pieces our reading order does not put side by side are kept (a key under the key before it,
// not a paragraph's next line), joined by line breaks like the pieces inside them. Nothing when no such run exists. Pieces are element stretches:
// the result maps back through stream_reading_boxes and stream_elements like a stream reading.
std::optional<StreamReading> column_reading(const Source& source, std::size_t page);

}  // namespace ethos
