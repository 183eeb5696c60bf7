// crop_png.hpp - RGB image to PNG bytes with libpng: fixed settings and no time or text chunks,
// so the same pixels always give the same bytes with the same libpng.
#pragma once

#include <string>

#include "pdf/pdfium_render.hpp"

namespace ethos::cli {

// Throws internal_error when libpng fails (or memory_limit_exceeded when it runs out of memory).
std::string encode_png(const pdf::RgbImage& image);

}  // namespace ethos::cli
