// layout_line_numbers.cpp - margin line numbers: found so that they leave the reading order of the body.
#include "pdf/layout_line_numbers.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

#include "pdf/layout_params.hpp"

namespace ethos::pdf {
namespace {

// The value of a line that is a plain integer of at most params::kMaxLineNumberDigits digits.
bool integer_value(const Line& line, std::int64_t& value) {
  if (line.glyphs.empty() || line.glyphs.size() > params::kMaxLineNumberDigits) return false;
  value = 0;
  for (const Glyph& g : line.glyphs) {
    if (g.codepoint < U'0' || g.codepoint > U'9') return false;
    value = value * 10 + static_cast<std::int64_t>(g.codepoint - U'0');
  }
  return true;
}

// The candidates on one side: integer lines entirely left (or right) of every non-integer line.
// A number column is only margin furniture when the text it numbers lies wholly on one side.
std::vector<std::size_t> side_column(const std::vector<Line>& lines, bool left) {
  std::int64_t text_x0 = std::numeric_limits<std::int64_t>::max(), text_x1 = std::numeric_limits<std::int64_t>::min();
  std::vector<std::size_t> numbers;
  std::int64_t value = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].horizontal && integer_value(lines[i], value)) {
      numbers.push_back(i);
    } else {
      text_x0 = std::min(text_x0, lines[i].bbox.x0);
      text_x1 = std::max(text_x1, lines[i].bbox.x1);
    }
  }
  if (text_x0 > text_x1) return {};  // nothing to number
  std::vector<std::size_t> column;
  for (std::size_t i : numbers) {
    if (left ? lines[i].bbox.x1 < text_x0 : lines[i].bbox.x0 > text_x1) column.push_back(i);
  }
  std::sort(column.begin(), column.end(), [&](std::size_t a, std::size_t b) { return lines[a].bbox.y0 < lines[b].bbox.y0; });
  if (column.size() < params::kMinLineNumbers) return {};
  // One column: every piece overlaps the others horizontally, and the values ascend downwards by
  // one constant step (every line, or every fifth). The constant step tells a numbering from a
  // column of page numbers at the right of a table of contents, which ascend unevenly.
  std::int64_t previous = -1, step = 0;
  std::int64_t x0 = lines[column.front()].bbox.x0, x1 = lines[column.front()].bbox.x1;
  for (std::size_t i : column) {
    integer_value(lines[i], value);
    if (previous >= 0 && step == 0) step = value - previous;
    if ((previous >= 0 && (step <= 0 || value - previous != step)) || lines[i].bbox.x0 >= x1 || lines[i].bbox.x1 <= x0) {
      return {};
    }
    previous = value;
    x0 = std::max(x0, lines[i].bbox.x0);
    x1 = std::min(x1, lines[i].bbox.x1);
  }
  // A table's row labels (a longtable's 1, 2, 3 ... beside rows of figures) are cells, not margin
  // furniture: a number with three pieces or more on its band (cells split at their gaps) numbers
  // a table row; a manuscript's line number has one line beside it, two in a two-column page.
  std::size_t row_labels = 0;
  for (std::size_t i : column) {
    std::size_t beside = 0;
    for (std::size_t j = 0; j < lines.size() && beside < 3; ++j) {
      if (j != i && lines[j].horizontal && same_band(lines[i].bbox, lines[j].bbox)) ++beside;
    }
    if (beside >= 3) ++row_labels;
  }
  if (row_labels * 2 >= column.size()) return {};
  return column;
}

}  // namespace

std::vector<std::vector<std::size_t>> find_margin_line_numbers(const std::vector<Line>& lines) {
  std::vector<std::vector<std::size_t>> out;
  for (const bool left : {true, false}) {
    std::vector<std::size_t> column = side_column(lines, left);
    if (!column.empty()) out.push_back(std::move(column));
  }
  return out;
}

}  // namespace ethos::pdf
