// crop_render.cpp - crop rendering through the parse supervisor: the same fork, limits and error
// frames as parsing, with a page's PNGs as the frame payload instead of its layout.
#include "crop_render.hpp"

#include <map>
#include <optional>
#include <set>

#include "core/error.hpp"
#include "crop_png.hpp"
#include "host_io.hpp"
#include "pages_spec.hpp"
#include "parse_supervisor.hpp"
#include "pdf/crop_mapping.hpp"
#include "pdf/pdfium_library.hpp"

namespace ethos::cli {
namespace {

void put(std::string& out, std::uint64_t value, int bytes) {
  for (int k = 0; k < bytes; ++k) out += static_cast<char>((value >> (8 * k)) & 0xFF);
}

std::uint64_t get(std::string_view in, std::size_t at, int bytes) {
  std::uint64_t value = 0;
  for (int k = 0; k < bytes; ++k) value |= std::uint64_t{static_cast<unsigned char>(in[at + static_cast<std::size_t>(k)])} << (8 * k);
  return value;
}

// The page's user-space to display transform, as the parser builds it (pdfium_extract.cpp).
pdf::DisplayTransform display_of(const pdf::pdfium::Api& api, pdf::pdfium::Document* document, int page) {
  pdf::pdfium::Page* handle = api.FPDF_LoadPage(document, page);
  if (handle == nullptr) throw EthosError("corrupt_pdf", find_error_code("corrupt_pdf")->default_message);
  pdf::pdfium::RectF bounds{};
  const bool ok = api.FPDF_GetPageBoundingBox(handle, &bounds) != 0;
  const int rotation = api.FPDFPage_GetRotation(handle);
  api.FPDF_ClosePage(handle);
  if (!ok) throw EthosError("corrupt_pdf", find_error_code("corrupt_pdf")->default_message);
  const pdf::DisplayTransform display(bounds.left, bounds.bottom, bounds.right, bounds.top, rotation);
  if (!(display.width() > 0) || !(display.height() > 0)) {
    throw EthosError("corrupt_pdf", find_error_code("corrupt_pdf")->default_message);
  }
  return display;
}

EthosError crop_too_large(const pdf::CropRequest& request, nlohmann::json limit) {
  limit["input"] = "crop";
  limit["page_index"] = request.page + 1;
  return EthosError("input_limit_exceeded", error_message(*find_error_code("input_limit_exceeded"), limit), limit);
}

EthosError crop_off_page(const pdf::CropRequest& request) {
  return invalid_input("crop rectangle lies outside its page", "$", {{"input", "crop"}, {"page_index", request.page + 1}});
}

constexpr std::int64_t kMaxCoordinate = 9007199254740991;  // 2^53 - 1, as every strict input

bool in_range(const Bbox& box) {
  for (const std::int64_t v : {box.x0, box.y0, box.x1, box.y1}) {
    if (v < -kMaxCoordinate || v > kMaxCoordinate) return false;
  }
  return true;
}

}  // namespace

void check_crop_request(const pdf::CropRequest& request) {
  // The page first, in quanta (a side of kMaxCropSidePx pixels), so its pixel size is small.
  constexpr std::int64_t kMaxSideQ = kMaxCropSidePx * 7200 / pdf::kCropDpi;
  if (request.page_width < 0 || request.page_height < 0 || request.page_width > kMaxSideQ ||
      request.page_height > kMaxSideQ) {
    throw crop_too_large(request, {{"limit_side_px", kMaxCropSidePx}});
  }
  // The rectangle must touch the page: crop_pixel_rect clamps its far edges to the page, and a
  // near edge on the page keeps the render offset small too.
  const Bbox& box = request.bbox;
  if (!in_range(box) || box.x0 > box.x1 || box.y0 > box.y1 || box.x0 > request.page_width ||
      box.y0 > request.page_height || box.x1 < 0 || box.y1 < 0) {
    throw crop_off_page(request);
  }
  for (const Bbox& highlight : request.highlights) {
    if (!in_range(highlight)) throw crop_off_page(request);  // bounded: page_pixels multiplies them
  }
  if (request.view) {  // what is shown: on the page like the evidence, as crop_pixel_rect reads it
    const Bbox& view = *request.view;
    if (!in_range(view) || view.x0 > view.x1 || view.y0 > view.y1 || view.x0 > request.page_width ||
        view.y0 > request.page_height || view.x1 < 0 || view.y1 < 0) {
      throw crop_off_page(request);
    }
  }
  const pdf::PixelRect rect = pdf::crop_pixel_rect(request);  // every input bounded above: no overflow
  const std::int64_t width = rect.x1 - rect.x0, height = rect.y1 - rect.y0;
  if (width > kMaxCropSidePx || height > kMaxCropSidePx || width * height > kMaxCropPixels) {
    throw crop_too_large(request, {{"limit_pixels", kMaxCropPixels}, {"width_px", width}, {"height_px", height}});
  }
}

std::string render_page_crops(const pdf::pdfium::Api& api, pdf::pdfium::Document* document, int page,
                              const CropRenderJob& job) {
  std::string out;
  std::optional<pdf::DisplayTransform> display;  // read once per page, only for foreign sources
  for (const pdf::CropRequest& original : job.requests) {
    if (original.page != page) continue;
    if (original.geometry != CropGeometry::display_quanta && !display) display = display_of(api, document, page);
    const pdf::CropRequest request = display ? pdf::map_crop_request(original, *display) : original;
    check_crop_request(request);  // before render_crop sizes any bitmap from it
    const std::string png = encode_png(pdf::render_crop(api, document, request));
    const pdf::PixelRect rect = pdf::crop_pixel_rect(request);
    put(out, static_cast<std::uint64_t>(rect.x1 - rect.x0), 4);
    put(out, static_cast<std::uint64_t>(rect.y1 - rect.y0), 4);
    put(out, png.size(), 8);
    out += png;
  }
  return out;
}

std::vector<RenderedCrop> render_crops(std::string_view pdf, const std::string& pdf_fingerprint,
                                       const std::vector<CropPlan>& plans, const ParseLimits& limits,
                                       const std::string* password) {
  std::vector<RenderedCrop> rendered;
  if (plans.empty()) return rendered;
  CropRenderJob job;
  std::set<std::int64_t> pages;
  for (const CropPlan& plan : plans) {
    job.requests.push_back(pdf::CropRequest{static_cast<int>(plan.page_index - 1), plan.page_width, plan.page_height,
                                            plan.bbox, plan.highlights, plan.geometry, plan.view, plan.refused});
    // A native document's boxes are the PDF's display space already: refused here, before any
    // worker starts (foreign boxes are checked by the worker once mapped onto the PDF page).
    if (plan.geometry == CropGeometry::display_quanta) check_crop_request(job.requests.back());
    pages.insert(plan.page_index);
  }
  std::string spec;
  for (std::int64_t page : pages) spec += (spec.empty() ? "" : ",") + std::to_string(page);

  ParseJob parse;
  parse.pdf = pdf;
  parse.password = password;
  parse.library_path = pdf::resolve_pdfium_library_path(nullptr);
  parse.selection = PageSelection::parse(spec);
  parse.limits = limits;
  parse.render = &job;
  std::vector<std::string> payloads;  // one per page, ascending
  try {
    payloads = supervise_parse(parse);
  } catch (const EthosError& error) {
    // A page the PDF does not have: the only way for a foreign source's page index (a native
    // document's pages are the PDF's, bound by its fingerprint) to miss.
    if (error.code() != "invalid_arguments" || error.details().value("argument", "") != "--pages") throw;
    throw EthosError("source_mismatch", find_error_code("source_mismatch")->default_message,
                     {{"argument", "--crop-source-pdf"}, {"input", "page_count"}});
  }

  // Payloads come in ascending page order; within a page, in request order.
  std::map<int, std::pair<std::string_view, std::size_t>> cursor;  // page -> (payload, offset)
  std::size_t k = 0;
  for (std::int64_t page : pages) cursor[static_cast<int>(page - 1)] = {payloads.at(k++), 0};
  for (const pdf::CropRequest& request : job.requests) {
    auto& [payload, offset] = cursor.at(request.page);
    if (payload.size() < offset + 16) throw host_error("internal_error");
    RenderedCrop crop;
    crop.source_pdf_fingerprint = pdf_fingerprint;
    crop.width_px = static_cast<std::int64_t>(get(payload, offset, 4));
    crop.height_px = static_cast<std::int64_t>(get(payload, offset + 4, 4));
    const std::uint64_t length = get(payload, offset + 8, 8);
    offset += 16;
    if (payload.size() - offset < length) throw host_error("internal_error");
    crop.png.assign(payload.substr(offset, length));
    offset += length;
    rendered.push_back(std::move(crop));
  }
  return rendered;
}

}  // namespace ethos::cli
