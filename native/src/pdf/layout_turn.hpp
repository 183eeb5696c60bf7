// layout_turn.hpp - pages whose text runs vertically or upside down: laid out in the text's frame.
#pragma once

#include "pdf/layout_model.hpp"
#include "pdf/raw_page.hpp"

namespace ethos::pdf {

// Quarter turns (0-3, clockwise) that make most of the page's text run left to right, found from
// the pen's movement between neighbouring glyphs (not from any angle convention). 0 unless most
// visible glyphs are turned.
int text_turn(const RawPage& page);

// The page turned by `quarters` clockwise quarter turns (geometry, size; turned glyphs upright).
RawPage turn_page(const RawPage& page, int quarters);

// Maps a layout made on turn_page(page, quarters) back to the page's display space: every box
// and origin, the page size; advances are dropped (they run along a vertical line there).
void turn_back(PageLayout& layout, const RawPage& page, int quarters);

}  // namespace ethos::pdf
