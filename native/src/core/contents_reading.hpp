// contents_reading.hpp - a page's running text with the page numbers of its table-of-contents lines
// left out, as extractors that read the number column apart read a contents page (docs/matching.md
// "Reading order").
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "core/source.hpp"
#include "core/stream_reading.hpp"

namespace ethos {

// The running text of `pages` (consecutive page indices, ascending) in which every contents entry
// line loses its page number: a line (the element's own line breaks) whose last token is a page
// number (one to four digits, or a roman numeral) set apart from the word before it (a gap of at
// least 1.2 times the number's height: right-aligned or tabbed), or after leader dots (`5.7 Table
// level commands . . . . 20`), or in a contents list (two lines or more, every one ending in such a
// number after a word, one of them set apart). Lines of body text that end in figures keep them. pdftotext and others read the right-aligned page numbers
// as a column of their own, so a quote copied from them runs from one entry into the next
// (`Authors, affiliations, and collaborations III.3.`). Each remaining piece keeps its element's
// offsets; pieces of one element are joined by the element's own separator, elements by a line
// break. Named `contents_numbers_dropped`. nullopt when no line of the pages is such an entry.
std::optional<StreamReading> contents_reading(const Source& source, const std::vector<std::size_t>& pages);

}  // namespace ethos
