// layout_tables.hpp - table detection: ruled grids from drawn rules, and whitespace-aligned grids.
#pragma once

#include <cstdint>
#include <vector>

#include "core/source.hpp"
#include "pdf/layout_lines.hpp"
#include "pdf/raw_page.hpp"

namespace ethos::pdf {

// One cell of a detected grid; lines are the text inside it (reading order).
struct GridCell {
  std::int64_t row = 0, col = 0, row_span = 1, col_span = 1;
  Bbox bbox;
  std::vector<Line> lines;
};

struct Grid {
  Bbox bbox;
  std::int64_t n_rows = 0, n_cols = 0;
  std::vector<GridCell> cells;  // row-major by (row, col)
};

// Ruled grids: clusters of intersecting horizontal and vertical rules (at least two of each);
// a missing rule segment between two base cells merges them (row_span / col_span). Glyphs whose
// centre falls in a cell move from `glyphs` into that cell's lines.
std::vector<Grid> find_ruled_tables(const RawPage& page, std::vector<Glyph>& glyphs);

// Whitespace grids: at least three consecutive visual rows of line pieces that share at least
// two empty vertical gutters, or at least three rows of a key and its description aligned on two
// x positions (a table of two columns), looked for in each page column separately (page columns
// are split at gutters at least `min_gutter` wide that almost no line crosses; the gap after a
// key column is none). The pieces used move from `lines` into the grid's cells.
std::vector<Grid> find_whitespace_tables(std::vector<Line>& lines, std::int64_t min_gutter);

}  // namespace ethos::pdf
