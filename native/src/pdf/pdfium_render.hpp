// pdfium_render.hpp - renders a rectangle of a page with PDFium and highlights boxes on it: the
// pixels of a crop (CONTRACTS §2.11). Runs only inside forked render workers, like parsing.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/crop_geometry.hpp"
#include "core/source.hpp"
#include "pdf/pdfium_api.hpp"

namespace ethos::pdf {

// Fixed rendering settings: every crop of every surface uses them, so one machine renders the
// same pixels for the same PDF and descriptor.
constexpr std::int64_t kCropDpi = 144;
constexpr std::int64_t kCropMarginQ = 600;  // 6 pt around the evidence rectangle

// What to render: a rectangle of one page, in the document's display-space quanta.
struct CropRequest {
  int page = 0;                              // 0-based PDF page
  std::int64_t page_width = 0, page_height = 0;  // the document's page size, quanta
  Bbox bbox;                                 // evidence rectangle (the margin is added here)
  std::vector<Bbox> highlights;
  // How bbox, highlights and the page size relate to the PDF page (core/crop_geometry.hpp);
  // render_crop expects display_quanta, pdf/crop_mapping.hpp converts the others.
  CropGeometry geometry = CropGeometry::display_quanta;
  // The page rectangle the image shows (the margin is added around it): the evidence rectangle,
  // or more of the page for a reader (a table cell's row and column head, a legible width;
  // core/crop_descriptor.cpp). Unset: bbox.
  std::optional<Bbox> view;
  // The check's evidence was refused (a mismatch): its highlight is drawn hatched in vermillion,
  // not solid yellow, so a refused match never looks like a grounded one, in colour or without.
  bool refused = false;
};

// An 8-bit RGB image, rows top to bottom.
struct RgbImage {
  std::int64_t width = 0, height = 0;
  std::vector<std::uint8_t> pixels;  // width * height * 3
};

// The pixel rectangle [x0, x1) x [y0, y1) of a crop at kCropDpi: bbox plus margin, clamped to the
// page, outward-rounded. Pure arithmetic, shared by the renderer and its tests.
struct PixelRect {
  std::int64_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};
PixelRect crop_pixel_rect(const CropRequest& request);
// A box in quanta as pixels of the page at kCropDpi (outward-rounded).
PixelRect page_pixels(const Bbox& box);

// Renders the crop with annotations as the page shows them on white, then blends a translucent
// highlight over the union of the highlight boxes. Throws corrupt_pdf for a page PDFium cannot
// load, internal_error when a bitmap cannot be made.
RgbImage render_crop(const pdfium::Api& api, pdfium::Document* document, const CropRequest& request);

}  // namespace ethos::pdf
