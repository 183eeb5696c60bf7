// table_columns_tests.cpp - a table's column reading: cells column by column, each top to bottom,
// joined by a line break; no reading for one-row or one-column tables; a match's boxes are the
// boxes of exactly the cells it touches; a two-column table's rows without separators; any table's
// rows as tools print them (without separators, or between outer pipes).
#include <cstdio>
#include <string>

#include "core/table_columns.hpp"
#include "test_check.hpp"

namespace {

ethos::Cell cell(std::int64_t row, std::int64_t col, std::string text, std::int64_t x) {
  ethos::Cell out;
  out.row = row;
  out.col = col;
  out.text = std::move(text);
  out.bbox = ethos::Bbox{x, row * 100, x + 90, row * 100 + 90};
  return out;
}

}  // namespace

int main() {
  ethos::Table table;
  table.page = "p0001";
  // Declared row by row, as parsers do, with one empty cell.
  table.cells = {cell(0, 0, "Region", 0), cell(0, 1, "Units", 100), cell(0, 2, "Revenue", 200),
                 cell(1, 0, "North", 0),  cell(1, 1, "", 100),      cell(1, 2, "4,800", 200),
                 cell(2, 0, "S\u00FCd", 0), cell(2, 1, "95", 100),  cell(2, 2, "3,610", 200)};
  const auto columns = ethos::table_columns(table);
  CHECK(columns.has_value());
  if (columns) {
    CHECK(columns->text == "Region\nNorth\nS\u00FCd\nUnits\n95\nRevenue\n4,800\n3,610");
    CHECK(columns->page == "p0001");
    CHECK(columns->cells.size() == 8);  // the empty cell has no place in the text
    // Scalar offsets, not bytes: "Süd" is three scalars.
    CHECK(columns->cells[2].start == 13 && columns->cells[2].end == 16);
    CHECK(columns->cells[3].start == 17 && columns->cells[3].end == 22);
    // "Süd\nUnits" touches the last cell of column 1 and the first of column 2: their two boxes.
    const auto boxes = ethos::table_column_boxes(*columns, 13, 22);
    CHECK(boxes.size() == 2);
    if (boxes.size() == 2) {
      CHECK(boxes[0].page == "p0001" && boxes[0].bbox.x0 == 0 && boxes[0].bbox.y0 == 200);
      CHECK(boxes[1].bbox.x0 == 100 && boxes[1].bbox.y0 == 0);
    }
    CHECK(ethos::starts_cell(*columns, 0) && ethos::starts_cell(*columns, 17) && ethos::starts_cell(*columns, 13));
    CHECK(!ethos::starts_cell(*columns, 1) && !ethos::starts_cell(*columns, 16) && !ethos::starts_cell(*columns, 100));
    // Inside one cell: its box only; the line break alone touches no cell.
    CHECK(ethos::table_column_boxes(*columns, 1, 3).size() == 1);
    CHECK(ethos::table_column_boxes(*columns, 16, 17).empty());
  }
  // A cell spanning two columns stands at its first column; declaration order does not matter.
  ethos::Table spanning;
  spanning.cells = {cell(0, 1, "b", 100), cell(0, 0, "a", 0), cell(1, 0, "c", 0), cell(1, 1, "d", 100)};
  spanning.cells[2].col_span = 2;
  const auto spanned = ethos::table_columns(spanning);
  CHECK(spanned && spanned->text == "a\nc\nb\nd");
  // One row or one column: the column reading would add no order.
  ethos::Table row;
  row.cells = {cell(0, 0, "a", 0), cell(0, 1, "b", 100)};
  CHECK(!ethos::table_columns(row));
  ethos::Table column;
  column.cells = {cell(0, 0, "a", 0), cell(1, 0, "b", 0)};
  CHECK(!ethos::table_columns(column));
  // A key/description table (two columns) is also read row by row without separators, declared
  // in any order; a wider table, a single row or a single column is not.
  ethos::Table keys;
  keys.page = "p0002";
  keys.cells = {cell(1, 1, "Sum of effects", 100), cell(0, 0, "anova", 0), cell(0, 1, "Decomposition", 100), cell(1, 0, "coef", 0)};
  const auto key_rows = ethos::table_key_rows(keys);
  CHECK(key_rows && key_rows->text == "anova\nDecomposition\ncoef\nSum of effects" && key_rows->page == "p0002");
  if (key_rows) {
    // "coef Sum": the key and its description, their two boxes.
    const auto boxes = ethos::table_column_boxes(*key_rows, 20, 28);
    CHECK(boxes.size() == 2 && boxes[0].bbox.x0 == 0 && boxes[0].bbox.y0 == 100 && boxes[1].bbox.x0 == 100);
    CHECK(ethos::starts_cell(*key_rows, 20) && ethos::starts_cell(*key_rows, 25));
  }
  CHECK(!ethos::table_key_rows(table) && !ethos::table_key_rows(row) && !ethos::table_key_rows(column));
  // Any table of two columns or more, read row by row the way tools print a row: cells joined by
  // a line break (white space from the white-space tier on), or as Markdown rows with outer pipes.
  const auto rows = ethos::table_rows(table, false);
  CHECK(rows && rows->text == "Region\nUnits\nRevenue\nNorth\n4,800\nS\u00FCd\n95\n3,610");
  CHECK(rows && std::string(rows->reading) == "table_rows");
  const auto piped = ethos::table_rows(table, true);
  CHECK(piped && piped->text == "| Region | Units | Revenue |\n| North | 4,800 |\n| S\u00FCd | 95 | 3,610 |");
  CHECK(piped && std::string(piped->reading) == "table_rows_piped");
  if (piped) {
    // "North | 4,800": its two cells' boxes; the cells start where their text does, pipes aside.
    CHECK(piped->cells.size() == 8 && piped->cells[3].start == 31 && piped->cells[3].end == 36);
    const auto boxes = ethos::table_column_boxes(*piped, 31, 44);
    CHECK(boxes.size() == 2 && boxes[0].bbox.x0 == 0 && boxes[1].bbox.x0 == 200);
  }
  const auto one_row = ethos::table_rows(row, true);
  CHECK(one_row && one_row->text == "| a | b |");
  CHECK(!ethos::table_rows(column, false) && !ethos::table_rows(column, true));
  CHECK(columns && std::string(columns->reading) == "table_columns");
  return ethos_test::finish("table_columns_tests");
}
