// column_reading_tests.cpp - a page's aligned-column reading: a key/description list our order reads
// row by row ("save f save variables load f load variables") gives its key column and its
// description column, each top to bottom; a paragraph whose lines our order already reads in turn
// gives nothing; matches map back to each piece's own glyphs.
#include <string>

#include "core/column_reading.hpp"
#include "test_check.hpp"

namespace {

ethos::Element element(const char* id, const char* text) {
  ethos::Element out;
  out.id = id;
  out.kind = "text_block";
  out.page = "p0001";
  out.text = text;
  out.bbox = ethos::Bbox{0, 0, 5000, 5000};
  return out;
}

// A span of element `owner` over its scalars [start, end) at (x, y), 100 quanta per scalar, 100 high.
ethos::Span span(const ethos::Source& source, std::size_t owner, std::int64_t start, std::int64_t end, std::int64_t x,
                 std::int64_t y) {
  ethos::Span out;
  out.id = "s" + std::to_string(source.spans.size());
  out.page = "p0001";
  out.element = owner;
  out.char_start = start;
  out.char_end = end;
  out.text = source.elements[owner].text->substr(static_cast<std::size_t>(start), static_cast<std::size_t>(end - start));
  out.bbox = ethos::Bbox{x, y, x + 100 * (end - start), y + 100};
  out.advances.assign(static_cast<std::size_t>(end - start), 100);
  return out;
}

}  // namespace

int main() {
  ethos::Source source;
  source.pages.push_back(ethos::Page{"p0001", 1, 10000, 10000, 0, std::nullopt});
  // One element, read row by row: "kA dA kB dB"; keys at x=0, descriptions at x=1000.
  source.elements = {element("e1", "ka da1 kb db2"), element("e2", "one line\nnext line")};
  source.spans.push_back(span(source, 0, 0, 2, 0, 0));        // "ka"
  source.spans.push_back(span(source, 0, 3, 6, 1000, 0));     // "da1": a gap wider than the line's height before it
  source.spans.push_back(span(source, 0, 7, 9, 0, 120));      // "kb", the next row
  source.spans.push_back(span(source, 0, 10, 13, 1000, 120)); // "db2"
  // A paragraph further down at the keys' left edge: its lines follow each other in our order.
  source.spans.push_back(span(source, 1, 0, 8, 0, 2000));
  source.spans.push_back(span(source, 1, 9, 18, 0, 2120));
  source.build_indexes();
  const auto reading = ethos::column_reading(source, 0);
  CHECK(reading.has_value());
  if (reading) {
    CHECK(reading->text == "ka\nkb\nda1\ndb2");
    CHECK(std::string(reading->name) == "aligned_columns");
    // "da1 db2": the two descriptions' own glyphs, one box each.
    const auto boxes = ethos::stream_reading_boxes(source, *reading, 6, 13);
    CHECK(boxes.size() == 2);
    if (boxes.size() == 2) {
      CHECK(boxes[0].bbox.x0 == 1000 && boxes[0].bbox.y0 == 0 && boxes[1].bbox.x0 == 1000 && boxes[1].bbox.y0 == 120);
    }
  }
  // The paragraph alone: nothing to add.
  ethos::Source prose;
  prose.pages = source.pages;
  prose.elements = {element("e1", "one line\nnext line")};
  prose.spans.push_back(span(prose, 0, 0, 8, 0, 0));
  prose.spans.push_back(span(prose, 0, 9, 18, 0, 120));
  prose.build_indexes();
  CHECK(!ethos::column_reading(prose, 0).has_value());
  return ethos_test::finish("column_reading_tests");
}
