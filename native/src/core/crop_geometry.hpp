// crop_geometry.hpp - how a source's page boxes lie on the pages of its PDF, so the crops of a
// foreign source render from the original PDF without a second parse.
#pragma once

#include <optional>

#include "core/source.hpp"

namespace ethos {

enum class CropGeometry {
  // Quanta of the PDF's display space (top-left, /Rotate applied): the native parser's own boxes,
  // drawn as they are.
  display_quanta,
  // Top-left boxes on the source's own page size (Grounding JSON, Docling), stretched onto the
  // PDF page's display space; the two page shapes must agree.
  page_scaled,
  // PDF user-space points x 100, bottom-left origin, before /Rotate (OpenDataLoader's boxes),
  // mapped through the page's visible box and rotation.
  pdf_user_space,
};

// nullopt for a source without page geometry (text, Markdown, page-less Grounding JSON): such a
// source has nothing a crop could show.
std::optional<CropGeometry> crop_geometry_of(const Source& source);

}  // namespace ethos
