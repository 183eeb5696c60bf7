// pdfium_paint_probe.hpp - whether page objects paint anything, asked of PDFium's own renderer.
#pragma once

#include <vector>

#include "pdf/pdfium_api.hpp"

namespace ethos::pdf {

// True when the page rendered with `objects` in one colour differs, in at least one pixel, from the
// page rendered with them in another: some of their ink reaches the page. Two cases need the
// renderer because PDFium's object API cannot answer them: optional content (it exposes a text
// object's layer mark but not whether the document shows that layer) and images drawn over text
// (an image's soft mask or colour-key mask, which make it partly see-through, are not exposed).
// The objects' fill and stroke colours are changed for the probe and put back afterwards (as RGB:
// call this only once everything else has been read from the page).
bool objects_paint(const pdfium::Api& api, pdfium::Page* page, const std::vector<pdfium::PageObject*>& objects);

}  // namespace ethos::pdf
