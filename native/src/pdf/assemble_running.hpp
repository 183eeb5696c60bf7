// assemble_running.hpp - running headers and footers: text repeated at a page edge across pages.
#pragma once

#include <vector>

#include "pdf/layout_model.hpp"

namespace ethos::pdf {

// Retypes elements as header/footer when the same text (digit runs compared as one digit, so
// page numbers match) sits at about the same height in the top or bottom band of at least two
// pages and at least 40% of them. A single page has none.
void mark_running_headers_and_footers(std::vector<PageLayout>& pages);

}  // namespace ethos::pdf
