// table_columns.cpp - builds a table's column-major reading and maps a match in it to cell boxes.
#include "core/table_columns.hpp"

#include <algorithm>
#include <numeric>
#include <string_view>

#include "text/utf8.hpp"

namespace ethos {

namespace {

// The table's extent: (rows, columns).
std::pair<std::int64_t, std::int64_t> extent(const Table& table) {
  std::int64_t rows = 0, cols = 0;
  for (const Cell& cell : table.cells) {
    rows = std::max(rows, cell.row + cell.row_span);
    cols = std::max(cols, cell.col + cell.col_span);
  }
  return {rows, cols};
}

// The cells' texts in the order `column_major` says, joined by line breaks, with their ranges.
// row_joiner (row-major only): what joins two cells of one row instead ("\n" for the key-rows
// reading); piped: every row set between outer pipes, its cells joined by " | ".
TableColumns reading(const Table& table, bool column_major, const char* row_joiner = "\n", bool piped = false) {
  std::vector<std::size_t> order(table.cells.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // A spanning cell stands at its first row and column; the sort is stable so that two cells
  // declared at one position keep the document's order (deterministic either way).
  std::stable_sort(order.begin(), order.end(), [&table, column_major](std::size_t a, std::size_t b) {
    const Cell& x = table.cells[a];
    const Cell& y = table.cells[b];
    if (column_major) return x.col != y.col ? x.col < y.col : x.row < y.row;
    return x.row != y.row ? x.row < y.row : x.col < y.col;
  });
  TableColumns out;
  out.page = table.page;
  std::uint32_t scalars = 0;
  std::int64_t row = -1;
  const auto add = [&](std::string_view joiner) {
    out.text += joiner;
    scalars += static_cast<std::uint32_t>(utf8::scalar_count(joiner));
  };
  for (std::size_t index : order) {
    const Cell& cell = table.cells[index];
    if (cell.text.empty()) continue;
    const bool same_row = !column_major && cell.row == row;
    if (!out.text.empty()) {
      // A break, as between the elements of a running text: a quote crosses it from the
      // white-space tier on, never at exact, and it ends every token. Cells of one row are
      // joined as the row reading asks.
      if (piped && !same_row) add(" |");
      add(same_row ? std::string_view(row_joiner) : std::string_view("\n"));
    }
    if (piped && !same_row) add("| ");
    row = cell.row;
    const auto length = static_cast<std::uint32_t>(utf8::scalar_count(cell.text));
    out.cells.push_back({scalars, scalars + length, cell.bbox, index});
    out.text += cell.text;
    scalars += length;
  }
  if (piped && !out.text.empty()) add(" |");
  return out;
}

}  // namespace

std::optional<TableColumns> table_columns(const Table& table) {
  const auto [rows, cols] = extent(table);
  if (rows < 2 || cols < 2) return std::nullopt;
  return reading(table, true);
}

std::optional<TableColumns> table_key_rows(const Table& table) {
  const auto [rows, cols] = extent(table);
  if (rows < 2 || cols != 2) return std::nullopt;
  TableColumns out = reading(table, false);
  out.reading = "table_rows";
  return out;
}

std::optional<TableColumns> table_rows(const Table& table, bool piped) {
  const auto [rows, cols] = extent(table);
  if (cols < 2) return std::nullopt;
  TableColumns out = reading(table, false, piped ? " | " : "\n", piped);
  out.reading = piped ? "table_rows_piped" : "table_rows";
  return out;
}

std::vector<std::uint32_t> reading_junctions(const TableColumns& reading, const Table& table, const std::u32string& row_text,
                                             const std::vector<std::uint32_t>& row_junctions) {
  if (row_junctions.empty()) return {};
  std::vector<std::size_t> order(table.cells.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&table](std::size_t a, std::size_t b) {
    const Cell& x = table.cells[a];
    const Cell& y = table.cells[b];
    return x.row != y.row ? x.row < y.row : x.col < y.col;
  });
  // Where each cell's text starts in the row projection; nothing but separators between cells.
  std::vector<std::optional<std::uint32_t>> at(table.cells.size());
  std::size_t cursor = 0;
  for (std::size_t index : order) {
    if (table.cells[index].text.empty()) continue;
    std::u32string cell;
    for (std::size_t pos = 0; pos < table.cells[index].text.size();) cell.push_back(utf8::next(table.cells[index].text, pos));
    const std::size_t found = row_text.find(cell, cursor);
    if (found == std::u32string::npos) return {};
    for (std::size_t p = cursor; p < found; ++p) {
      if (row_text[p] != U' ' && row_text[p] != U'|' && row_text[p] != U'\n') return {};
    }
    at[index] = static_cast<std::uint32_t>(found);
    cursor = found + cell.size();
  }
  std::vector<std::uint32_t> junctions;
  for (const TableColumns::CellRange& range : reading.cells) {
    if (range.cell >= at.size() || !at[range.cell]) continue;
    const std::uint32_t begin = *at[range.cell];
    const std::uint32_t length = range.end - range.start;
    for (std::uint32_t junction : row_junctions) {
      if (junction > begin && junction < begin + length) junctions.push_back(range.start + (junction - begin));
    }
  }
  std::sort(junctions.begin(), junctions.end());
  return junctions;
}

bool starts_cell(const TableColumns& columns, std::uint32_t at) {
  const auto before = [](const TableColumns::CellRange& range, std::uint32_t offset) { return range.start < offset; };
  const auto cell = std::lower_bound(columns.cells.begin(), columns.cells.end(), at, before);
  return cell != columns.cells.end() && cell->start == at;
}

std::vector<PageBox> table_column_boxes(const TableColumns& columns, std::int64_t start, std::int64_t end) {
  std::vector<PageBox> boxes;
  for (const TableColumns::CellRange& cell : columns.cells) {
    if (cell.start >= end) break;
    if (cell.end <= start || !cell.bbox) continue;
    boxes.push_back({columns.page, *cell.bbox});
  }
  return boxes;
}

}  // namespace ethos
