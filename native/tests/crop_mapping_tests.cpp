// crop_mapping_tests.cpp - foreign sources' crop boxes mapped onto the PDF page's display space
// (pdf/crop_mapping.hpp), and which sources have what geometry (core/crop_geometry.hpp).
#include <cstdio>
#include <string>

#include "core/crop_geometry.hpp"
#include "core/error.hpp"
#include "pdf/crop_mapping.hpp"
#include "test_check.hpp"

namespace {


using ethos::Bbox;
using ethos::CropGeometry;
using ethos::pdf::CropRequest;
using ethos::pdf::DisplayTransform;
using ethos::pdf::map_crop_request;

bool same(const Bbox& a, const Bbox& b) { return a.x0 == b.x0 && a.y0 == b.y0 && a.x1 == b.x1 && a.y1 == b.y1; }

CropRequest request(CropGeometry geometry, std::int64_t w, std::int64_t h, Bbox box) {
  return CropRequest{0, w, h, box, {box}, geometry, std::nullopt, false};
}

void test_display_quanta_is_untouched() {
  const DisplayTransform letter(0, 0, 612, 792, 0);
  const CropRequest in = request(CropGeometry::display_quanta, 1000, 1000, Bbox{1, 2, 3, 4});
  const CropRequest out = map_crop_request(in, letter);
  CHECK(out.page_width == 1000 && out.page_height == 1000 && same(out.bbox, in.bbox));
}

void test_page_scaled() {
  const DisplayTransform letter(0, 0, 612, 792, 0);
  // Same size: one to one, page size from the PDF.
  CropRequest out = map_crop_request(request(CropGeometry::page_scaled, 61200, 79200, Bbox{7200, 9000, 30000, 10200}), letter);
  CHECK(out.geometry == CropGeometry::display_quanta);
  CHECK(out.page_width == 61200 && out.page_height == 79200);
  CHECK(same(out.bbox, Bbox{7200, 9000, 30000, 10200}) && same(out.highlights[0], out.bbox));
  // Half the size (a producer working at 36 dpi-like units): every coordinate doubles, the
  // rectangle a rendering shows (view) too.
  CropRequest half = request(CropGeometry::page_scaled, 30600, 39600, Bbox{100, 200, 300, 400});
  half.view = Bbox{50, 200, 500, 400};
  out = map_crop_request(half, letter);
  CHECK(same(out.bbox, Bbox{200, 400, 600, 800}));
  CHECK(out.view && same(*out.view, Bbox{100, 400, 1000, 800}));
  // A crop box not at the origin does not move top-left boxes: they are relative to the page.
  const DisplayTransform cropped(50, 100, 662, 892, 0);
  out = map_crop_request(request(CropGeometry::page_scaled, 61200, 79200, Bbox{7200, 9000, 30000, 10200}), cropped);
  CHECK(same(out.bbox, Bbox{7200, 9000, 30000, 10200}));
  // Another shape is another PDF.
  bool thrown = false;
  try {
    map_crop_request(request(CropGeometry::page_scaled, 61200, 61200, Bbox{0, 0, 10, 10}), letter);
  } catch (const ethos::EthosError& error) {
    thrown = error.code() == "source_mismatch" && error.details().value("input", "") == "page_size";
  }
  CHECK(thrown);
  // Within 1%: accepted (a producer rounding the page to whole points).
  out = map_crop_request(request(CropGeometry::page_scaled, 61200, 79300, Bbox{0, 0, 100, 100}), letter);
  CHECK(out.page_height == 79200);
}

void test_pdf_user_space() {
  // ODL's [left, bottom, right, top] in points x 100 on a Letter page: flipped with the height.
  const DisplayTransform letter(0, 0, 612, 792, 0);
  CropRequest out = map_crop_request(request(CropGeometry::pdf_user_space, 1, 1, Bbox{7800, 67375, 38590, 68531}), letter);
  CHECK(out.page_width == 61200 && out.page_height == 79200);  // the PDF's size, not the source's
  CHECK(same(out.bbox, Bbox{7800, 79200 - 68531, 38590, 79200 - 67375}));
  CHECK(same(out.highlights[0], out.bbox));
  // The visible box's origin is subtracted.
  const DisplayTransform cropped(50, 100, 662, 892, 0);
  out = map_crop_request(request(CropGeometry::pdf_user_space, 1, 1, Bbox{7800, 67375, 38590, 68531}), cropped);
  CHECK(same(out.bbox, Bbox{2800, 89200 - 68531, 33590, 89200 - 67375}));
  // /Rotate 90: the page shows landscape, the box turns with it.
  const DisplayTransform turned(0, 0, 612, 792, 1);
  out = map_crop_request(request(CropGeometry::pdf_user_space, 1, 1, Bbox{7200, 10000, 10000, 20000}), turned);
  CHECK(out.page_width == 79200 && out.page_height == 61200);
  CHECK(out.bbox.x1 - out.bbox.x0 == 10000 && out.bbox.y1 - out.bbox.y0 == 2800);
}

void test_geometry_of_sources() {
  ethos::Source source;
  source.kind = "text-file";
  CHECK(!ethos::crop_geometry_of(source));  // no pages
  source.pages.push_back(ethos::Page{"p1", 1, 61200, 79200, 0, std::nullopt});
  source.kind = "ethos-native-document";
  CHECK(ethos::crop_geometry_of(source) == CropGeometry::display_quanta);
  source.kind = "opendataloader-json";
  CHECK(ethos::crop_geometry_of(source) == CropGeometry::pdf_user_space);
  source.kind = "docling-json";
  CHECK(ethos::crop_geometry_of(source) == CropGeometry::page_scaled);
  source.kind = "ethos-grounding-json";
  CHECK(ethos::crop_geometry_of(source) == CropGeometry::page_scaled);
}

}  // namespace

int main() {
  test_display_quanta_is_untouched();
  test_page_scaled();
  test_pdf_user_space();
  test_geometry_of_sources();
  return ethos_test::finish("crop_mapping_tests");
}
