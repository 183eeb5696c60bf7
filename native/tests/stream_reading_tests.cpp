// stream_reading_tests.cpp - a page's content-stream reading: spans in span order, an element's own
// white space kept between spans that continue it, a line break at any other step; no reading when
// the stream order is the reading order; hidden spans and running furniture left out; matches map
// back to each element's own glyphs.
#include <string>

#include "core/stream_reading.hpp"
#include "span_fixtures.hpp"
#include "test_check.hpp"

using ethos::test::element;
using ethos::test::span;

int main() {
  // Two columns the layout reads one after the other; the content stream draws them row by row.
  ethos::Source source;
  source.pages.push_back(ethos::Page{"p0001", 1, 10000, 10000, 0, std::nullopt});
  source.elements = {element("e1", "ab cd\nef"), element("e2", "XY\nZW"), element("e3", "7", "footer")};
  source.spans.push_back(span(source, 0, 0, 2, 0, 0));      // "ab"
  source.spans.push_back(span(source, 0, 3, 5, 300, 0));    // "cd": the element's own space before it
  source.spans.push_back(span(source, 1, 0, 2, 5000, 0));   // "XY", right column, same row
  source.spans.push_back(span(source, 0, 6, 8, 0, 200));    // "ef", next row
  source.spans.push_back(span(source, 1, 3, 5, 5000, 200)); // "ZW"
  source.spans.push_back(span(source, 2, 0, 1, 0, 9000));   // the page number: furniture
  ethos::Span hidden = span(source, 0, 0, 2, 0, 0);
  hidden.element.reset();
  hidden.char_start.reset();
  hidden.char_end.reset();
  hidden.text = "secret";
  source.spans.push_back(hidden);
  source.build_indexes();
  const auto reading = ethos::stream_reading(source, {0});
  CHECK(reading.has_value());
  if (reading) {
    CHECK(reading->text == "ab cd\nXY\nef\nZW");
    CHECK(reading->pieces.size() == 5);
    CHECK(ethos::piece_at(*reading, 6) == 2 && ethos::piece_at(*reading, 5) == reading->pieces.size());
    // "cd XY": two elements, one box in each (the left column's "cd", the right column's "XY").
    CHECK((ethos::stream_elements(*reading, 3, 8) == std::vector<std::size_t>{0, 1}));
    const auto boxes = ethos::stream_reading_boxes(source, *reading, 3, 8);
    CHECK(boxes.size() == 2);
    if (boxes.size() == 2) {
      CHECK(boxes[0].bbox.x0 == 300 && boxes[0].bbox.x1 == 500 && boxes[1].bbox.x0 == 5000 && boxes[1].bbox.x1 == 5200);
    }
    // "ab cd" continues one element: one range, one box over both spans.
    const auto one = ethos::stream_reading_boxes(source, *reading, 0, 5);
    CHECK(one.size() == 1 && one[0].bbox.x0 == 0 && one[0].bbox.x1 == 500);
  }
  // Drawn in reading order: the stream reading adds nothing.
  ethos::Source ordered;
  ordered.pages = source.pages;
  ordered.elements = {element("e1", "ab cd"), element("e2", "XY")};
  ordered.spans.push_back(span(ordered, 0, 0, 2, 0, 0));
  ordered.spans.push_back(span(ordered, 0, 3, 5, 300, 0));
  ordered.spans.push_back(span(ordered, 1, 0, 2, 0, 200));
  ordered.build_indexes();
  CHECK(!ethos::stream_reading(ordered, {0}).has_value());
  return ethos_test::finish("stream_reading_tests");
}
