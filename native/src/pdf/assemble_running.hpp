// assemble_running.hpp - running headers and footers: text repeated at a page edge across pages.
#pragma once

#include <vector>

#include "pdf/layout_model.hpp"

namespace ethos::pdf {

// Retypes short elements (at most two lines) of the top or bottom band of a page as header/footer
// when they are running furniture: the same text (digit runs compared as one digit, or nearly the
// same text) at about the same height on a page at most kRunningWindowPages away (both parities,
// for alternating even/odd headers); a page number ("Page 12", "12 of 40", "- 12 -", or a bare
// "12"/"xii" that is the page's label or numbers pages like a neighbour's does); or a line that
// ends (or starts) with the page's number where furniture sits on a nearby page. See
// docs/pdf-parsing.md "Running headers and footers".
void mark_running_headers_and_footers(std::vector<PageLayout>& pages);

}  // namespace ethos::pdf
