// crop_png.cpp - libpng writes into a string through a write callback; libpng's errors longjmp
// back to one setjmp that owns no C++ objects with destructors.
#include "crop_png.hpp"

#include <csetjmp>

#include <png.h>

#include "core/error.hpp"

namespace ethos::cli {
namespace {

void append(png_structp png, png_bytep data, png_size_t length) {
  auto* out = static_cast<std::string*>(png_get_io_ptr(png));
  out->append(reinterpret_cast<const char*>(data), length);
}

void flush(png_structp) {}

// Returns false when libpng reported an error. Only plain pointers live in this frame, so the
// longjmp skips no destructor.
bool write_png(const pdf::RgbImage& image, std::string* out) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  if (png == nullptr) return false;
  png_infop info = png_create_info_struct(png);
  if (info == nullptr || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, info != nullptr ? &info : nullptr);
    return false;
  }
  png_set_write_fn(png, out, append, flush);
  png_set_IHDR(png, info, static_cast<png_uint_32>(image.width), static_cast<png_uint_32>(image.height), 8,
               PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, 6);
  png_write_info(png, info);
  const std::size_t row_bytes = static_cast<std::size_t>(image.width) * 3;
  for (std::int64_t y = 0; y < image.height; ++y) {
    png_write_row(png, const_cast<png_bytep>(image.pixels.data() + static_cast<std::size_t>(y) * row_bytes));
  }
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  return true;
}

}  // namespace

std::string encode_png(const pdf::RgbImage& image) {
  std::string out;
  out.reserve(image.pixels.size() / 4 + 1024);
  if (!write_png(image, &out)) throw EthosError("internal_error", find_error_code("internal_error")->default_message);
  return out;
}

}  // namespace ethos::cli
