// column_reading_tests.cpp - a page's aligned-column reading: a key/description list our order reads
// row by row ("save f save variables load f load variables") gives its key column and its
// description column, each top to bottom; a paragraph whose lines our order already reads in turn
// gives nothing; matches map back to each piece's own glyphs.
#include <string>

#include "core/column_reading.hpp"
#include "span_fixtures.hpp"
#include "test_check.hpp"

namespace {

using ethos::test::span;

// The list's elements are larger than the stream test's: 5000 quanta square.
ethos::Element element(const char* id, const char* text) { return ethos::test::element(id, text, "text_block", 5000); }

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
