// foot_notes_reading.hpp - the running text of a page break with the notes at each page's foot
// left out, as a reader reads a sentence that goes on overleaf (docs/matching.md "Page breaks").
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "core/source.hpp"
#include "core/stream_reading.hpp"

namespace ethos {

// The elements of a page that are notes at its foot: the last running elements of the page
// (document order; running headers and footers are not running elements), each starting with a
// note's label (one to three digits before white space or a letter, or one of * † ‡ § ¶ that the
// page's text carries as a footnote marker: footnote_markers.hpp, raised, smaller, glued to a
// word; an asterisk alone also opens each line of a code comment), set in smaller type than the page's body (a line at most 92 % as tall as the median body line) and
// lying in the lower half of the page, with body text before them. Ascending element indices;
// empty when there is none.
std::vector<std::size_t> foot_notes_of_page(const Source& source, std::size_t page);

// The running text of `pages` (two or more consecutive page indices, ascending) without the
// notes at their feet: each remaining running element whole, in document order, joined by a line
// break as in the running text, in StreamReading's shape (one piece per element) named
// `foot_notes_skipped`. nullopt when no page but the last has notes at its foot (then the running
// text already reads so across every break).
std::optional<StreamReading> running_without_foot_notes(const Source& source, const std::vector<std::size_t>& pages);

}  // namespace ethos
