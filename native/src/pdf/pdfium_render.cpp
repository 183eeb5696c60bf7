// pdfium_render.cpp - PDFium renders the page region into a BGRx bitmap; we convert it to RGB and
// blend the highlight (one mask, so overlapping boxes never darken twice).
#include "pdf/pdfium_render.hpp"

#include <algorithm>
#include <cstring>

#include "core/error.hpp"

namespace ethos::pdf {
namespace {

// Highlight: 40% of this yellow over the rendered pixel; a refused check's evidence in Okabe-Ito
// vermillion, on diagonal stripes only (so it differs in pattern too, for every reader and in grey).
constexpr std::uint8_t kHighlight[3] = {255, 213, 0};
constexpr std::uint8_t kRefusedHighlight[3] = {213, 94, 0};
constexpr std::int64_t kHatchPeriodPx = 8;  // stripes 4 px wide, 4 px apart, at 45 degrees

// floor / ceil of value * dpi / 7200 for non-negative values (quanta -> pixels).
std::int64_t floor_px(std::int64_t q) { return q * kCropDpi / 7200; }
std::int64_t ceil_px(std::int64_t q) { return (q * kCropDpi + 7199) / 7200; }

EthosError fail(const char* code) { return EthosError(code, find_error_code(code)->default_message); }

}  // namespace

PixelRect page_pixels(const Bbox& box) {
  return PixelRect{floor_px(std::max<std::int64_t>(0, box.x0)), floor_px(std::max<std::int64_t>(0, box.y0)),
                   ceil_px(std::max<std::int64_t>(0, box.x1)), ceil_px(std::max<std::int64_t>(0, box.y1))};
}

PixelRect crop_pixel_rect(const CropRequest& request) {
  const Bbox& shown = request.view.value_or(request.bbox);
  const Bbox padded{std::max<std::int64_t>(0, shown.x0 - kCropMarginQ),
                    std::max<std::int64_t>(0, shown.y0 - kCropMarginQ),
                    std::min(request.page_width, shown.x1 + kCropMarginQ),
                    std::min(request.page_height, shown.y1 + kCropMarginQ)};
  PixelRect rect = page_pixels(padded);
  // Never an empty image, even for a zero-size page or a degenerate rectangle.
  rect.x1 = std::max(rect.x1, rect.x0 + 1);
  rect.y1 = std::max(rect.y1, rect.y0 + 1);
  return rect;
}

RgbImage render_crop(const pdfium::Api& api, pdfium::Document* document, const CropRequest& request) {
  const PixelRect rect = crop_pixel_rect(request);
  const int width = static_cast<int>(rect.x1 - rect.x0);
  const int height = static_cast<int>(rect.y1 - rect.y0);

  pdfium::Page* page = api.FPDF_LoadPage(document, request.page);
  if (page == nullptr) throw fail("corrupt_pdf");
  pdfium::Bitmap* bitmap = api.FPDFBitmap_Create(width, height, 0);
  if (bitmap == nullptr) {
    api.FPDF_ClosePage(page);
    throw fail("internal_error");
  }
  api.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xFFFFFFFFUL);
  // The whole page at kCropDpi, shifted so the crop's top-left corner lands on the bitmap's
  // origin; PDFium applies the page's /Rotate itself, which is the display space of the document.
  const PixelRect full = page_pixels(Bbox{0, 0, request.page_width, request.page_height});
  api.FPDF_RenderPageBitmap(bitmap, page, static_cast<int>(-rect.x0), static_cast<int>(-rect.y0),
                            static_cast<int>(full.x1), static_cast<int>(full.y1), 0, pdfium::kRenderAnnotations);

  RgbImage image;
  image.width = width;
  image.height = height;
  image.pixels.resize(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3);
  const auto* buffer = static_cast<const std::uint8_t*>(api.FPDFBitmap_GetBuffer(bitmap));
  const int stride = api.FPDFBitmap_GetStride(bitmap);
  for (int y = 0; y < height; ++y) {
    const std::uint8_t* row = buffer + static_cast<std::ptrdiff_t>(y) * stride;
    std::uint8_t* out = image.pixels.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(width) * 3;
    for (int x = 0; x < width; ++x) {  // BGRx -> RGB
      out[3 * x + 0] = row[4 * x + 2];
      out[3 * x + 1] = row[4 * x + 1];
      out[3 * x + 2] = row[4 * x + 0];
    }
  }
  api.FPDFBitmap_Destroy(bitmap);
  api.FPDF_ClosePage(page);

  std::vector<std::uint8_t> mask(static_cast<std::size_t>(width) * static_cast<std::size_t>(height), 0);
  for (const Bbox& box : request.highlights) {
    const PixelRect h = page_pixels(box);
    const std::int64_t x0 = std::max(h.x0, rect.x0) - rect.x0, x1 = std::min(h.x1, rect.x1) - rect.x0;
    const std::int64_t y0 = std::max(h.y0, rect.y0) - rect.y0, y1 = std::min(h.y1, rect.y1) - rect.y0;
    for (std::int64_t y = y0; y < y1; ++y) {
      for (std::int64_t x = x0; x < x1; ++x) mask[static_cast<std::size_t>(y * width + x)] = 1;
    }
  }
  const std::uint8_t* colour = request.refused ? kRefusedHighlight : kHighlight;
  for (std::size_t i = 0; i < mask.size(); ++i) {
    if (mask[i] == 0) continue;
    if (request.refused) {
      // In page pixels, so the stripes line up across crops of one page.
      const std::int64_t x = static_cast<std::int64_t>(i) % width + rect.x0, y = static_cast<std::int64_t>(i) / width + rect.y0;
      if ((x + y) % kHatchPeriodPx >= kHatchPeriodPx / 2) continue;
    }
    for (std::size_t c = 0; c < 3; ++c) {
      const unsigned blended = (3U * image.pixels[3 * i + c] + 2U * colour[c]) / 5U;
      image.pixels[3 * i + c] = static_cast<std::uint8_t>(blended);
    }
  }
  return image;
}

}  // namespace ethos::pdf
