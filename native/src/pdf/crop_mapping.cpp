// crop_mapping.cpp - scale (top-left sources with their own page size) or the user-space to
// display transform (OpenDataLoader's PDF points) for every box of a crop request.
#include "pdf/crop_mapping.hpp"

#include <cmath>

#include "core/error.hpp"
#include "pdf/layout_glyphs.hpp"

namespace ethos::pdf {
namespace {

// quantize() takes points: a quantum is 1/100 point.
Bbox scaled(const Bbox& box, double sx, double sy) {
  return Bbox{quantize(static_cast<double>(box.x0) * sx / 100.0), quantize(static_cast<double>(box.y0) * sy / 100.0),
              quantize(static_cast<double>(box.x1) * sx / 100.0), quantize(static_cast<double>(box.y1) * sy / 100.0)};
}

Bbox from_user_space(const Bbox& box, const DisplayTransform& page) {
  const Rect r = page.map_rect(static_cast<double>(box.x0) / 100.0, static_cast<double>(box.y0) / 100.0,
                               static_cast<double>(box.x1) / 100.0, static_cast<double>(box.y1) / 100.0);
  return Bbox{quantize(r.x0), quantize(r.y0), quantize(r.x1), quantize(r.y1)};
}

}  // namespace

CropRequest map_crop_request(const CropRequest& request, const DisplayTransform& page) {
  if (request.geometry == CropGeometry::display_quanta) return request;
  CropRequest out = request;
  out.geometry = CropGeometry::display_quanta;
  out.page_width = quantize(page.width());
  out.page_height = quantize(page.height());
  if (request.geometry == CropGeometry::page_scaled) {
    const double w = static_cast<double>(request.page_width), h = static_cast<double>(request.page_height);
    const double pw = static_cast<double>(out.page_width), ph = static_cast<double>(out.page_height);
    // Same shape: width/height ratios within 1% (cross-multiplied, so no division by zero).
    if (!(w > 0 && h > 0) || std::fabs(w * ph - h * pw) > 0.01 * w * ph) {
      throw EthosError("source_mismatch", find_error_code("source_mismatch")->default_message,
                       {{"argument", "--crop-source-pdf"}, {"input", "page_size"}});
    }
    const double sx = pw / w, sy = ph / h;  // display quanta per source quantum
    out.bbox = scaled(request.bbox, sx, sy);
    if (out.view) out.view = scaled(*out.view, sx, sy);
    for (Bbox& box : out.highlights) box = scaled(box, sx, sy);
  } else {
    out.bbox = from_user_space(request.bbox, page);
    if (out.view) out.view = from_user_space(*out.view, page);
    for (Bbox& box : out.highlights) box = from_user_space(box, page);
  }
  return out;
}

}  // namespace ethos::pdf
