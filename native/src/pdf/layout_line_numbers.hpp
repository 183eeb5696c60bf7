// layout_line_numbers.hpp - margin line numbers (a column of ascending integers beside the text).
#pragma once

#include <vector>

#include "pdf/layout_lines.hpp"

namespace ethos::pdf {

// The margin line-number columns of a page (left edge first), each the indices of its lines top
// to bottom. A column of margin line numbers, as manuscripts and drafts print them, has at least
// params::kMinLineNumbers pieces, each a plain integer, ascending from top to bottom by one
// constant step, left or right of every other line of the page. None when the page has no such
// column; at most one per page edge. A column whose numbers mostly stand beside three pieces or
// more on their baseline (a table row's cells) is a table's row labels, not margin furniture.
std::vector<std::vector<std::size_t>> find_margin_line_numbers(const std::vector<Line>& lines);

}  // namespace ethos::pdf
