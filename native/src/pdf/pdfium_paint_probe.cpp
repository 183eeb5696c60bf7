// pdfium_paint_probe.cpp - objects_paint: render a page twice with some objects recoloured and compare.
#include "pdf/pdfium_paint_probe.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ethos::pdf {
namespace {

using pdfium::Api;

// One pixel per point, at most this many pixels a side (a bound on the time of a probe on a huge
// page): glyphs of the smallest size still counted as visible (0.5 pt) cover part of a pixel,
// which anti-aliasing turns into a changed value.
constexpr double kMaxProbePixels = 1000;
constexpr unsigned long kWhite = 0xFFFFFFFFul;

struct Colour {
  unsigned r = 0, g = 0, b = 0, a = 255;
  bool known = false;
};

class Bitmap {
 public:
  Bitmap(const Api& api, int width, int height) : api_(api), bitmap_(api.FPDFBitmap_Create(width, height, 0)) {}
  ~Bitmap() {
    if (bitmap_ != nullptr) api_.FPDFBitmap_Destroy(bitmap_);
  }
  Bitmap(const Bitmap&) = delete;
  Bitmap& operator=(const Bitmap&) = delete;
  pdfium::Bitmap* get() const { return bitmap_; }

 private:
  const Api& api_;
  pdfium::Bitmap* bitmap_;
};

void paint_objects(const Api& api, const std::vector<pdfium::PageObject*>& objects, unsigned r, unsigned g, unsigned b) {
  for (pdfium::PageObject* object : objects) {
    api.FPDFPageObj_SetFillColor(object, r, g, b, 255);
    api.FPDFPageObj_SetStrokeColor(object, r, g, b, 255);
  }
}

bool render(const Api& api, pdfium::Page* page, const Bitmap& bitmap, int width, int height) {
  if (bitmap.get() == nullptr) return false;
  api.FPDFBitmap_FillRect(bitmap.get(), 0, 0, width, height, kWhite);
  api.FPDF_RenderPageBitmap(bitmap.get(), page, 0, 0, width, height, 0, 0);
  return true;
}

}  // namespace

bool objects_paint(const Api& api, pdfium::Page* page, const std::vector<pdfium::PageObject*>& objects) {
  if (objects.empty()) return false;
  const double page_width = api.FPDF_GetPageWidthF(page), page_height = api.FPDF_GetPageHeightF(page);
  if (!(page_width > 0) || !(page_height > 0)) return true;  // cannot judge: assume visible
  const double scale = std::min(1.0, kMaxProbePixels / std::max(page_width, page_height));
  const int width = std::max(1, static_cast<int>(std::ceil(page_width * scale)));
  const int height = std::max(1, static_cast<int>(std::ceil(page_height * scale)));

  std::vector<Colour> fills(objects.size()), strokes(objects.size());
  for (std::size_t i = 0; i < objects.size(); ++i) {
    Colour& f = fills[i];
    f.known = api.FPDFPageObj_GetFillColor(objects[i], &f.r, &f.g, &f.b, &f.a) != 0;
    Colour& s = strokes[i];
    s.known = api.FPDFPageObj_GetStrokeColor(objects[i], &s.r, &s.g, &s.b, &s.a) != 0;
  }
  Bitmap first(api, width, height), second(api, width, height);
  paint_objects(api, objects, 255, 0, 0);
  const bool rendered_first = render(api, page, first, width, height);
  paint_objects(api, objects, 0, 0, 255);
  const bool rendered_second = render(api, page, second, width, height);
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const Colour& f = fills[i];
    if (f.known) api.FPDFPageObj_SetFillColor(objects[i], f.r, f.g, f.b, f.a);
    const Colour& s = strokes[i];
    if (s.known) api.FPDFPageObj_SetStrokeColor(objects[i], s.r, s.g, s.b, s.a);
  }
  if (!rendered_first || !rendered_second) return true;  // no bitmap: assume visible

  const auto* a = static_cast<const unsigned char*>(api.FPDFBitmap_GetBuffer(first.get()));
  const auto* b = static_cast<const unsigned char*>(api.FPDFBitmap_GetBuffer(second.get()));
  const int stride_a = api.FPDFBitmap_GetStride(first.get()), stride_b = api.FPDFBitmap_GetStride(second.get());
  if (a == nullptr || b == nullptr || stride_a != stride_b) return true;
  const std::size_t row = static_cast<std::size_t>(width) * 4;
  for (int y = 0; y < height; ++y) {
    if (std::memcmp(a + static_cast<std::size_t>(y) * stride_a, b + static_cast<std::size_t>(y) * stride_b, row) != 0) {
      return true;
    }
  }
  return false;
}

}  // namespace ethos::pdf
