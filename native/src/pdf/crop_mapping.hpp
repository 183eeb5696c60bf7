// crop_mapping.hpp - a foreign source's crop request (its page size, its boxes) mapped onto the
// display space of the PDF page it came from, the space render_crop draws in.
#pragma once

#include "pdf/pdfium_geometry.hpp"
#include "pdf/pdfium_render.hpp"

namespace ethos::pdf {

// The same request in display_quanta: page size of `page` (its visible box, rotation applied),
// bbox and highlights mapped per request.geometry. A page_scaled request whose page shape differs
// from the PDF page's by more than 1% is source_mismatch (the PDF is not the source's): the boxes
// would land on the wrong content.
CropRequest map_crop_request(const CropRequest& request, const DisplayTransform& page);

}  // namespace ethos::pdf
