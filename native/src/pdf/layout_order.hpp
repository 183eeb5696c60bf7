// layout_order.hpp - reading order of boxes on a page: recursive XY-cut on whitespace gaps.
#pragma once

#include <cstdint>
#include <vector>

#include "core/source.hpp"

namespace ethos::pdf {

// Indices of `boxes` in reading order. The widest empty gap of the region (a vertical gutter at
// least `min_gutter` wide, or any horizontal gap) splits it, recursively: so a multi-column page
// is read column by column, left to right, and a full-width title before both columns (a wider
// horizontal gap that lies inside two page columns gives way to their gutter). Boxes
// that no gap separates are read top to bottom, and left to right within a visual line.
// `bulleted` marks the boxes that are lines starting with a bullet (one flag per box): a column
// of them, each beside one line, is a list's keys and reads row by row with its descriptions.
std::vector<std::size_t> reading_order(const std::vector<Bbox>& boxes, const std::vector<bool>& bulleted, std::int64_t min_gutter);

}  // namespace ethos::pdf
