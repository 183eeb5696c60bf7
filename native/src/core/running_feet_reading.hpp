// running_feet_reading.hpp - the running text of a page break with each page's running foot read
// in place, as text extractors read it (docs/matching.md "Page breaks").
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "core/source.hpp"
#include "core/stream_reading.hpp"

namespace ethos {

// The running text of `pages` (two or more consecutive page indices, ascending) with the running
// footers of every page but the last read after that page's running elements, in document order,
// each without a page number at its start or end (`4.9. Main building script: debian/rules 25`
// reads `4.9. Main building script: debian/rules`); running headers stay out. pdftotext, pypdf and
// PyMuPDF read a page's foot as its last line, so a quote copied from them across a page break can
// start in the chapter title a footer repeats. Each remaining running element whole, joined by a
// line break as in the running text, in StreamReading's shape (one piece per element or kept
// footer part) named `running_feet_kept`. nullopt when no page but the last has a footer with a
// letter left once its page number is dropped (the running text then already reads so).
std::optional<StreamReading> running_with_feet(const Source& source, const std::vector<std::size_t>& pages);

}  // namespace ethos
