// assemble_running.hpp - running headers and footers: text repeated at a page edge across pages.
#pragma once

#include <vector>

#include "pdf/layout_model.hpp"

namespace ethos::pdf {

// Retypes short elements (at most two lines) of a page's top or bottom band (12% of the height,
// 25% for its outermost elements) as header/footer when they are running furniture: the same text
// (digit runs compared as one digit, or nearly the same text) at the same place on a page at most
// kRunningWindowPages away (both parities, for alternating even/odd headers); a page number
// ("Page 12", "12 of 40", "- 12 -", or a bare "12"/"xii" that is the page's label or index, or
// numbers pages like a neighbour's does); or a line that starts or ends with its page's number
// like a line at the same place nearby. See docs/pdf-parsing.md "Running headers and footers".
void mark_running_headers_and_footers(std::vector<PageLayout>& pages);

}  // namespace ethos::pdf
