// crop_render.hpp - renders crops in forked workers under the parse limits: the supervisor of
// `doc parse` runs them, each worker sends one frame per page with that page's PNGs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/crop_descriptor.hpp"
#include "pdf/pdfium_api.hpp"
#include "pdf/pdfium_render.hpp"

namespace ethos::cli {

struct ParseLimits;

// What render workers are asked to do: every crop, in descriptor order.
struct CropRenderJob {
  std::vector<pdf::CropRequest> requests;
};

// The largest crop rendered: a page side of at most kMaxCropSidePx pixels at the crop resolution
// (28,800 px: 14,400 pt, the largest page side PDF allows) and at most kMaxCropPixels pixels in
// all (64 Mi: ~0.5 GiB of bitmaps, well inside a render worker's memory limit).
constexpr std::int64_t kMaxCropSidePx = 28800;
constexpr std::int64_t kMaxCropPixels = std::int64_t{64} << 20;

// Checks a crop's geometry (in display quanta) before anything is allocated for it: a document's
// page sizes and boxes are untrusted (a native document is only integrity-hashed), and the
// renderer sizes its bitmaps from them. A page side or crop over the limits is
// input_limit_exceeded (details: input "crop", page_index, the limit and the crop's size in
// pixels), a rectangle off its page or beyond ±(2^53-1) invalid_input. Every value is bounded
// before it is multiplied, so no arithmetic here or in the renderer can overflow.
void check_crop_request(const pdf::CropRequest& request);

// Worker side: the frame payload of one page, the PNG of every request on `page` in order, each
// as u32 width, u32 height, u64 length (little-endian) and the bytes.
std::string render_page_crops(const pdf::pdfium::Api& api, pdf::pdfium::Document* document, int page,
                              const CropRenderJob& job);

// Parent side: renders one PNG per plan from the PDF bytes (whose fingerprint the caller checked)
// in child processes under `limits`, opening an encrypted PDF with `password` (null: none); the
// PDFium library is found as for parsing. Throws the workers' errors (corrupt_pdf,
// password_protected for a missing or wrong password, parse_timeout, memory_limit_exceeded, ...).
std::vector<RenderedCrop> render_crops(std::string_view pdf, const std::string& pdf_fingerprint,
                                       const std::vector<CropPlan>& plans, const ParseLimits& limits,
                                       const std::string* password);

}  // namespace ethos::cli
