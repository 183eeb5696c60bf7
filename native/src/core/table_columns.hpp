// table_columns.hpp - a table's further readings: column-major (its cells column by column, each
// top to bottom, as column-wise extractors such as pdftotext give a table's text) and, for a
// key/description table, row by row without the projection's separators.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/glyph_boxes.hpp"
#include "core/source.hpp"

namespace ethos {

struct TableColumns {
  std::string text;  // the cell texts in column-major order, joined by a line break
  std::string page;  // the table's page id
  struct CellRange {
    std::uint32_t start = 0, end = 0;  // the cell's text in `text`, in Unicode scalars
    std::optional<Bbox> bbox;
    std::size_t cell = 0;  // its index in the table's cells
  };
  std::vector<CellRange> cells;  // in text order
  // The reading's name in the report (`match.reading`): table_columns, table_rows, table_rows_piped.
  const char* reading = "table_columns";
};

// The column reading of a table, or nothing when it would add no order the row reading lacks: a
// table of one row or one column (its cells in column order are its rows in reading order).
std::optional<TableColumns> table_columns(const Table& table);

// The row reading without separators of a table of exactly two columns (a key and its
// description, as text extractors and running text read such a row: "coef Sum of the random
// effects"): its cells row by row, each row left to right, joined by a line break. Nothing for
// other tables, whose row's cells are fields of different columns, joined only by the ` | ` of
// the element text, nor for a table of one row (its element text joins the two cells already).
std::optional<TableColumns> table_key_rows(const Table& table);

// The row reading the way text tools print a row, of any table of two columns or more: its cells
// row by row, each row left to right, with nothing but white space between them (`table_rows`:
// "Mazda RX4 Wag 21.0 6 160", as pdftotext, pypdf or a spreadsheet export give it; cells joined
// by a line break, so a quote crosses a cell edge from the white-space tier on, never at exact)
// or, second, each row set as a Markdown row with outer pipes (`table_rows_piped`:
// "| Mazda RX4 Wag | 21.0 | 6 |", as our own Markdown writer and LLM tools print tables).
std::optional<TableColumns> table_rows(const Table& table, bool piped);

// The font junctions of a reading (offsets where two glyph runs in different fonts or sizes meet
// inside a cell, "Jν(x)" after the ν), from those of the table element's row projection
// `row_text` (its cells row by row, joined by " | " and line breaks): each cell is found in it in
// row order, and a junction strictly inside a cell moves with the cell. Empty when the row
// projection is not the table's cells in that order.
std::vector<std::uint32_t> reading_junctions(const TableColumns& reading, const Table& table, const std::u32string& row_text,
                                             const std::vector<std::uint32_t>& row_junctions);

// Whether scalar offset `at` of the column reading is where a cell's text starts.
bool starts_cell(const TableColumns& columns, std::uint32_t at);

// The boxes of the cells a match [start, end) of the column reading touches (cells carry no glyph
// geometry, so a cell's box stands for its characters).
std::vector<PageBox> table_column_boxes(const TableColumns& columns, std::int64_t start, std::int64_t end);

}  // namespace ethos
