// stream_reading.hpp - a page's text in PDFium's own (content-stream) order, rebuilt from its spans,
// with every scalar mapped back to its element's offsets (docs/matching.md "Reading order").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/glyph_boxes.hpp"
#include "core/source.hpp"

namespace ethos {

// The stream reading of one or more consecutive pages: the texts of their element-owned spans in
// span order (native documents number spans in content-stream order, page by page), each span's
// characters exactly as its element holds them. Between two spans the element's own text is kept
// when the second continues the first inside one element (nothing, or the white space between
// them); any other step is a line break, like the separators of a running text.
struct StreamReading {
  std::string text;  // UTF-8
  // One piece per span, in text order: scalars [start, end) of `text` are the element's scalars
  // [element_start, element_start + end - start).
  struct Piece {
    std::uint32_t start = 0, end = 0;
    std::size_t element = 0;
    std::int64_t element_start = 0;
  };
  std::vector<Piece> pieces;
  std::vector<std::int64_t> hyphen_breaks;  // the elements' recorded line-end hyphens, in `text` scalars
  // The reading's name in the report (`match.reading`): content_stream, or aligned_columns for
  // column_reading's (core/column_reading.hpp), which shares this shape.
  const char* name = "content_stream";
};

// The stream reading of `pages` (indices into source.pages, ascending), or nothing when it would
// add no order the running text lacks: no span with glyph geometry, or every span follows the one
// before in the elements' reading order (then the page's running text already reads this way).
// Spans owned by no element (hidden or off-page text) and running headers and footers are left out.
std::optional<StreamReading> stream_reading(const Source& source, const std::vector<std::size_t>& pages);

// The piece index holding scalar `at` of the reading, or pieces.size() when `at` is a separator.
std::size_t piece_at(const StreamReading& reading, std::uint32_t at);

// The elements a match [start, end) of the reading touches, in order of first touch.
std::vector<std::size_t> stream_elements(const StreamReading& reading, std::uint32_t start, std::uint32_t end);

// The highlight boxes of a match [start, end) of the reading: its characters' own glyph boxes,
// element by element (a run of pieces contiguous in one element is one range).
std::vector<PageBox> stream_reading_boxes(const Source& source, const StreamReading& reading, std::int64_t start,
                                          std::int64_t end);

}  // namespace ethos
