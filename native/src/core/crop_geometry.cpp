// crop_geometry.cpp - each loader's box semantics, named once for the crop renderer.
#include "core/crop_geometry.hpp"

namespace ethos {

std::optional<CropGeometry> crop_geometry_of(const Source& source) {
  if (source.pages.empty()) return std::nullopt;
  if (source.kind == "ethos-native-document") return CropGeometry::display_quanta;
  // OpenDataLoader writes PDF user-space points ([left, bottom, right, top]); the adapter keeps
  // them unflipped and declares the origin unknown because the file does not say so. Rendering
  // from the PDF is the one place that may rely on what the tool is known to write.
  if (source.kind == "opendataloader-json") return CropGeometry::pdf_user_space;
  // Grounding JSON (centipoints, top-left by contract) and Docling (points, flipped to top-left by
  // the adapter) carry their own page sizes.
  return CropGeometry::page_scaled;
}

}  // namespace ethos
