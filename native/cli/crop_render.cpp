// crop_render.cpp - crop rendering through the parse supervisor: the same fork, limits and error
// frames as parsing, with a page's PNGs as the frame payload instead of its layout.
#include "crop_render.hpp"

#include <map>
#include <set>

#include "crop_png.hpp"
#include "host_io.hpp"
#include "pages_spec.hpp"
#include "parse_supervisor.hpp"
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

}  // namespace

std::string render_page_crops(const pdf::pdfium::Api& api, pdf::pdfium::Document* document, int page,
                              const CropRenderJob& job) {
  std::string out;
  for (const pdf::CropRequest& request : job.requests) {
    if (request.page != page) continue;
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
                                       const std::vector<CropPlan>& plans, const ParseLimits& limits) {
  std::vector<RenderedCrop> rendered;
  if (plans.empty()) return rendered;
  CropRenderJob job;
  std::set<std::int64_t> pages;
  for (const CropPlan& plan : plans) {
    job.requests.push_back(pdf::CropRequest{static_cast<int>(plan.page_index - 1), plan.page_width, plan.page_height,
                                            plan.bbox, plan.highlights});
    pages.insert(plan.page_index);
  }
  std::string spec;
  for (std::int64_t page : pages) spec += (spec.empty() ? "" : ",") + std::to_string(page);

  ParseJob parse;
  parse.pdf = pdf;
  parse.library_path = pdf::resolve_pdfium_library_path(nullptr);
  parse.selection = PageSelection::parse(spec);
  parse.limits = limits;
  parse.render = &job;
  const std::vector<std::string> payloads = supervise_parse(parse);  // one per page, ascending

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
