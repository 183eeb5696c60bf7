// layout_model.hpp - PageLayout: one page after layout analysis, in quanta, with page-local numbering.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/source.hpp"  // ethos::Bbox (quanta, top-left origin)

namespace ethos::pdf {

// A run of characters of one line with the same font and size (CONTRACTS §2.2 span).
struct LayoutSpan {
  std::int64_t order = 0;      // index of its first character in PDFium's (content-stream) order
  Bbox bbox;
  std::string text;            // UTF-8, the document's own characters
  std::string font_id;         // "embedded:<name>" | "subst:<name>" | "" when unknown
  std::int64_t font_size_q = 0;
  std::int64_t first_origin_x = 0, first_origin_y = 0, last_origin_x = 0, last_origin_y = 0;
  std::vector<std::int64_t> advances;  // per Unicode scalar of text; empty for non-horizontal text
  std::int64_t element = -1;   // page-local element index; -1 for hidden/off-page text
  std::int64_t char_start = 0, char_end = 0;  // scalar offsets into the owning element's text
};

struct LayoutCell {
  std::int64_t row = 0, col = 0, row_span = 1, col_span = 1;
  Bbox bbox;
  std::string text;
};

struct LayoutTable {
  Bbox bbox;
  std::int64_t n_rows = 1, n_cols = 1;
  std::vector<LayoutCell> cells;  // row-major
};

struct LayoutRegion {
  Bbox bbox;
  std::string kind;  // image | figure
};

struct LayoutElement {
  std::string type;                  // text_block, heading, list_item, caption, table, region, ...
  std::int64_t heading_level = 0;    // 1..9 for headings, else 0
  Bbox bbox;
  std::string text;
  std::vector<std::int64_t> spans;   // page-local span indices, in text order
  std::vector<std::int64_t> line_breaks, hyphen_breaks;  // see docs/pdf-parsing.md "Faithful text"
  std::int64_t table = -1, region = -1;  // page-local indices
  std::int64_t font_size_q = 0;      // dominant font size (headings are ranked on it)
};

// A security or parser warning raised on one page; ids and messages are assigned at assembly.
struct LayoutWarning {
  std::string code;
  std::int64_t span = -1, region = -1;  // page-local indices, -1 when none
  // Page-local index of the element whose area hidden text lies in (what a reader of that element
  // should know is there), -1 when none.
  std::int64_t element = -1;
  std::string technique;  // how hidden text is hidden (HiddenTechnique's name), "" for other codes
};

struct PageLayout {
  std::int64_t index = 0;             // 1-based page index in the PDF
  std::int64_t width = 0, height = 0; // quanta
  std::int64_t rotation = 0;
  std::string label;
  std::vector<LayoutElement> elements;  // reading order
  std::vector<LayoutSpan> spans;        // content-stream order
  std::vector<LayoutTable> tables;
  std::vector<LayoutRegion> regions;
  std::vector<LayoutWarning> warnings;
  std::int64_t body_font_size_q = 0;  // most frequent font size of visible text, by characters
  std::int64_t document_script_count = 0;    // RawPage::document_script_count
  std::vector<std::string> document_scripts;  // RawPage::document_scripts
};

}  // namespace ethos::pdf
