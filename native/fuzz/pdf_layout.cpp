// pdf_layout.cpp - fuzz target: PDF parsing after PDFium - pages of arbitrary glyphs, rules, fills and images through layout, the worker-to-parent frame codec (also with corrupted frames, as a compromised worker would send them), assembly, and loading the assembled document.
//
// PDFium itself is not fuzzed here (it is Google's, fuzzed by OSS-Fuzz, and runs in killable
// workers); what is ours is everything after it. The input is a recipe read byte by byte: pages,
// fonts, and a pen that sets glyphs from a palette of the characters our rules single out (accents,
// hyphens, footnote marks, CJK, white space, PDFium's U+FFFE, raw UTF-16 units), with jumps,
// rotated and hidden text, and rules, fills, images and straight-edged shapes. Invariant checked: an uncorrupted layout
// always assembles into a document the core opens; a corrupted frame is refused with an error,
// never read out of bounds.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "fuzz_support.hpp"
#include "pdf/layout.hpp"
#include "pdf/layout_model.hpp"

namespace {

using ethos::pdf::RawChar;
using ethos::pdf::RawPage;
using ethos::pdf::Rect;

class Recipe {
 public:
  Recipe(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  std::uint16_t u16() { return static_cast<std::uint16_t>(byte() << 8 | byte()); }
  bool done() const { return at_ >= size_; }

 private:
  const std::uint8_t* data_;
  std::size_t size_, at_ = 0;
};

// The characters the layout and matching rules treat specially, and ordinary text around them.
constexpr std::array<char32_t, 48> kPalette = {
    U'a', U'e', U'n', U't', U'o', U'i', U'r', U's', U'E', U'T', U'0', U'1', U'9', U' ', U'.', U',',
    U'-', 0x00AD, 0xFFFE, 0x00B4, 0x00A8, 0x02C6, 0x0060, 0x00B8, 0x0301, 0x0131, U'*', 0x2020, 0x00B9, 0x00B2,
    0x2022, 0x4E2D, 0x6587, 0x3001, 0x3002, 0xFF08, U'\t', 0x00A0, 0x3000, 0x200B, 0xFB01, 0x05D0, 0x0627,
    U'(', U')', U'|', U'/', U':'};

Rect rect_at(Recipe& r, double width, double height) {
  const double x0 = r.byte() * width / 256.0, y0 = r.byte() * height / 256.0;
  return {x0, y0, x0 + r.byte() * width / 512.0, y0 + r.byte() * height / 512.0};
}

RawPage page_from(Recipe& r, std::int32_t index) {
  RawPage page;
  page.index = index;
  page.width = 100 + r.byte() * 4.0;
  page.height = 100 + r.byte() * 4.0;
  page.rotation = (r.byte() & 3) * 90;
  const int fonts = 1 + r.byte() % 4;
  for (int f = 0; f < fonts; ++f) {
    const std::uint8_t bits = r.byte();
    page.fonts.push_back({(bits & 1) ? "CMR10" : "Helvetica-Bold", (bits & 2) != 0, (bits & 4) ? 700 : 400, bits >> 3});
  }
  double x = 36, y = 36, size = 10, angle = 0, scale = 1;
  std::int32_t font = 0, render_mode = 0, paint = 0;
  std::uint32_t fill = 0x000000ffu;
  std::uint16_t flags = 0;
  for (int steps = 0; steps < 2048 && !r.done(); ++steps) {
    const std::uint8_t op = r.byte();
    switch (op % 16) {
      case 12:  // next line
        y += size * (1.0 + (r.byte() % 8) / 4.0);
        x = 36 + r.byte() % 64;
        break;
      case 13:  // jump anywhere, sometimes off the page
        x = r.u16() / 32.0 - 256;
        y = r.u16() / 32.0 - 256;
        break;
      case 14:  // style
        size = 1 + r.byte() % 24;
        angle = std::array<double, 5>{0, 1.5707963, 3.1415926, 4.7123889, 0.3}[r.byte() % 5];
        font = static_cast<std::int32_t>(r.byte() % (fonts + 1)) - 1;
        render_mode = r.byte() % 8;
        fill = (r.byte() & 1) ? 0xffffffffu : 0x000000ffu;
        scale = (r.byte() % 4 == 0) ? 0.01 : 1.0;
        flags = static_cast<std::uint16_t>(r.byte() & 0x7f);
        break;
      case 15: {  // a rule, a fill, an image or a straight-edged shape
        const std::uint8_t kind = r.byte() % 4;
        const Rect box = rect_at(r, page.width, page.height);
        if (kind == 0) page.rules.push_back({box, (r.byte() & 1) != 0});
        if (kind == 1) page.fills.push_back({box, (r.byte() & 1) ? 0xffffffffu : 0x000000ffu, paint++, true, box});
        if (kind == 2) page.images.push_back({box, paint++, (r.byte() & 1) != 0});
        if (kind == 3) {  // 3 to 8 corners inside the box, in any order (self-crossing shapes too)
          ethos::pdf::RawCover cover;
          const int corners = 3 + r.byte() % 6;
          for (int k = 0; k < corners; ++k) {
            cover.xs.push_back(box.x0 + (box.x1 - box.x0) * (r.byte() / 255.0));
            cover.ys.push_back(box.y0 + (box.y1 - box.y0) * (r.byte() / 255.0));
          }
          cover.painted = box;
          cover.paint_order = paint++;
          page.covers.push_back(std::move(cover));
        }
        break;
      }
      default: {  // a glyph at the pen
        RawChar c;
        const std::uint8_t pick = r.byte();
        c.codepoint = pick < 240 ? kPalette[pick % kPalette.size()] : r.u16();  // raw UTF-16 units too
        const double advance = size * (0.3 + (r.byte() % 8) / 10.0);
        const double jitter = (static_cast<int>(r.byte() % 9) - 4) * size / 10.0;
        c.box = {x, y - size * 0.7 + jitter, x + advance * 0.9, y + jitter};
        c.loose = {x, y - size * 0.8, x + advance, y + size * 0.2};
        c.origin_x = x;
        c.origin_y = y;
        c.font_size = size;
        c.angle = angle;
        c.font = font;
        c.render_mode = render_mode;
        c.fill_rgba = fill;
        c.stroke_rgba = fill;
        c.horizontal_scale = scale;
        c.paint_order = paint++;
        c.flags = flags;
        page.chars.push_back(c);
        x += (op % 16 == 11) ? -advance * 3 : advance;  // sometimes back over earlier glyphs
        break;
      }
    }
  }
  return page;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bool corrupt = (data[0] & 1) != 0;
  // A corrupting input spends its second half on the frames' bytes.
  const std::size_t recipe_size = corrupt ? size / 2 : size;
  Recipe recipe(data + 1, recipe_size > 0 ? recipe_size - 1 : 0);
  Recipe damage(data + recipe_size, size - recipe_size);
  const int page_count = 1 + recipe.byte() % 3;
  std::vector<ethos::pdf::PageLayout> layouts;
  try {
    for (int p = 0; p < page_count; ++p) {
      std::string frame = ethos::pdf::encode_page_layout(ethos::pdf::layout_page(page_from(recipe, p + 1)));
      if (corrupt) {
        for (int flips = damage.byte() % 8; flips > 0 && !frame.empty(); --flips) {
          frame[damage.u16() % frame.size()] = static_cast<char>(damage.byte());
        }
        if (damage.byte() & 1) frame.resize(frame.size() - damage.byte() % (frame.size() + 1));
      }
      layouts.push_back(ethos::pdf::decode_page_layout(frame));
    }
  } catch (const ethos::EthosError&) {
    if (!corrupt) throw;  // our own frames always decode
    return 0;
  }
  ethos::pdf::AssembleInputs inputs;
  inputs.source_sha256 = std::string(64, 'a');
  inputs.source_bytes = size;
  std::string document;
  try {
    document = ethos::pdf::assemble_document(std::move(layouts), inputs);
  } catch (const ethos::EthosError&) {
    if (!corrupt) throw;
    return 0;
  }
  ethos_document* opened = nullptr;
  char* error = nullptr;
  if (ethos_document_open(document.data(), document.size(), nullptr, 0, &opened, &error) != 0) {
    if (!corrupt) {
      std::fprintf(stderr, "an assembled document did not open: %s\n", error == nullptr ? "?" : error);
      std::abort();
    }
    ethos::fuzz::release(error);
    return 0;
  }
  char* out = nullptr;
  const std::string citations =
      "{\"claims\":[{\"kind\":\"quote\",\"text\":\"ent e1 .\",\"citation\":{\"scope\":\"document\"}}]}";
  ethos_verify(opened, citations.data(), citations.size(), nullptr, 0, nullptr, 0, &out);
  ethos::fuzz::release(out);
  ethos_document_free(opened);
  return 0;
}
