// pdfium_extract.hpp - one PDF page through PDFium into a RawPage in display space (the hot path
// of parsing: every character's geometry and style, plus rules, fills, images and annotations).
#pragma once

#include "pdf/pdfium_api.hpp"
#include "pdf/raw_page.hpp"

namespace ethos::pdf {

// page_index is 0-based. Throws corrupt_pdf when the page cannot be loaded or has no positive size.
RawPage extract_page(const pdfium::Api& api, pdfium::Document* document, int page_index);

}  // namespace ethos::pdf
