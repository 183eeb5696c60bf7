// line_end_hyphens.hpp - records the line-end hyphens of a loaded text, as our PDF parser does.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace ethos {
class Source;
}

namespace ethos::sources {

// Scalar offsets of every hyphen (`-`, U+2010, U+00AD) that ends a line of `text`: a word
// character or punctuation before it, only spaces or tabs between it and a line break, and text
// on the next line. Whether a word was split there or a compound broke at its own hyphen is the
// matcher's decision (docs/matching.md "Line-end hyphenation"), exactly as for PDF elements.
std::vector<std::int64_t> line_end_hyphens(std::string_view text);

// Fills hyphen_breaks of every element of a foreign or text source that has text and none
// recorded, so the hyphenation readings apply to every source kind (issue 23, item 8).
void record_line_end_hyphens(Source& source);

}  // namespace ethos::sources
