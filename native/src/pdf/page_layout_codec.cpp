// page_layout_codec.cpp - PageLayout to and from a compact binary form, for the worker-to-parent pipe.
//
// Layout: the magic "EPL1", then every field in declaration order. Integers are zigzag varints
// (glyph advances are small, so a page costs about one byte per advance), strings are a varint
// length and the bytes, lists a varint count and the items. The format never leaves the process
// pair that writes and reads it, so it carries no version beyond the magic.
#include <cstring>
#include <string>

#include "core/error.hpp"
#include "pdf/layout.hpp"
#include "pdf/layout_model.hpp"

namespace ethos::pdf {
namespace {

constexpr char kMagic[4] = {'E', 'P', 'L', '1'};

class Writer {
 public:
  void integer(std::int64_t value) {
    std::uint64_t z = (static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63);
    while (z >= 0x80) {
      out.push_back(static_cast<char>((z & 0x7F) | 0x80));
      z >>= 7;
    }
    out.push_back(static_cast<char>(z));
  }
  void count(std::size_t n) { integer(static_cast<std::int64_t>(n)); }
  void text(const std::string& s) {
    count(s.size());
    out += s;
  }
  void box(const Bbox& b) {
    integer(b.x0);
    integer(b.y0);
    integer(b.x1);
    integer(b.y1);
  }
  void integers(const std::vector<std::int64_t>& values) {
    count(values.size());
    for (std::int64_t v : values) integer(v);
  }
  std::string out;
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  std::int64_t integer() {
    std::uint64_t z = 0;
    for (int shift = 0;; shift += 7) {
      if (pos_ >= bytes_.size() || shift > 63) fail();
      const auto byte = static_cast<unsigned char>(bytes_[pos_++]);
      z |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
      if ((byte & 0x80) == 0) break;
    }
    return static_cast<std::int64_t>(z >> 1) ^ -static_cast<std::int64_t>(z & 1);
  }
  // A count can never exceed the bytes left (every item takes at least one byte).
  std::size_t count() {
    const std::int64_t n = integer();
    if (n < 0 || static_cast<std::uint64_t>(n) > bytes_.size() - pos_) fail();
    return static_cast<std::size_t>(n);
  }
  std::string text() {
    const std::size_t n = count();
    std::string s(bytes_.substr(pos_, n));
    pos_ += n;
    return s;
  }
  Bbox box() {
    Bbox b;
    b.x0 = integer();
    b.y0 = integer();
    b.x1 = integer();
    b.y1 = integer();
    return b;
  }
  std::vector<std::int64_t> integers() {
    std::vector<std::int64_t> values(count());
    for (std::int64_t& v : values) v = integer();
    return values;
  }
  void expect_magic() {
    if (bytes_.size() < sizeof kMagic || std::memcmp(bytes_.data(), kMagic, sizeof kMagic) != 0) fail();
    pos_ = sizeof kMagic;
  }
  void expect_end() const {
    if (pos_ != bytes_.size()) fail();
  }

  // The bytes come from our own worker: anything unreadable is a broken worker, not bad input.
  [[noreturn]] static void fail() { throw EthosError("internal_error", "a page layout could not be decoded"); }

 private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string encode_page_layout(const PageLayout& layout) {
  Writer w;
  w.out.append(kMagic, sizeof kMagic);
  w.integer(layout.index);
  w.integer(layout.width);
  w.integer(layout.height);
  w.integer(layout.rotation);
  w.text(layout.label);
  w.integer(layout.body_font_size_q);
  w.count(layout.spans.size());
  for (const LayoutSpan& s : layout.spans) {
    w.integer(s.order);
    w.box(s.bbox);
    w.text(s.text);
    w.text(s.font_id);
    w.integer(s.font_size_q);
    w.integer(s.first_origin_x);
    w.integer(s.first_origin_y);
    w.integer(s.last_origin_x);
    w.integer(s.last_origin_y);
    w.integers(s.advances);
    w.integer(s.element);
    w.integer(s.char_start);
    w.integer(s.char_end);
  }
  w.count(layout.elements.size());
  for (const LayoutElement& e : layout.elements) {
    w.text(e.type);
    w.integer(e.heading_level);
    w.box(e.bbox);
    w.text(e.text);
    w.integers(e.spans);
    w.integers(e.line_breaks);
    w.integers(e.hyphen_breaks);
    w.integer(e.table);
    w.integer(e.region);
    w.integer(e.font_size_q);
  }
  w.count(layout.tables.size());
  for (const LayoutTable& t : layout.tables) {
    w.box(t.bbox);
    w.integer(t.n_rows);
    w.integer(t.n_cols);
    w.count(t.cells.size());
    for (const LayoutCell& c : t.cells) {
      w.integer(c.row);
      w.integer(c.col);
      w.integer(c.row_span);
      w.integer(c.col_span);
      w.box(c.bbox);
      w.text(c.text);
    }
  }
  w.count(layout.regions.size());
  for (const LayoutRegion& r : layout.regions) {
    w.box(r.bbox);
    w.text(r.kind);
  }
  w.count(layout.warnings.size());
  for (const LayoutWarning& warning : layout.warnings) {
    w.text(warning.code);
    w.integer(warning.span);
    w.integer(warning.region);
    w.integer(warning.element);
    w.text(warning.technique);
  }
  w.integer(layout.document_script_count);
  w.count(layout.document_scripts.size());
  for (const std::string& name : layout.document_scripts) w.text(name);
  return std::move(w.out);
}

PageLayout decode_page_layout(std::string_view bytes) {
  Reader r(bytes);
  r.expect_magic();
  PageLayout layout;
  layout.index = r.integer();
  layout.width = r.integer();
  layout.height = r.integer();
  layout.rotation = r.integer();
  layout.label = r.text();
  layout.body_font_size_q = r.integer();
  layout.spans.resize(r.count());
  for (LayoutSpan& s : layout.spans) {
    s.order = r.integer();
    s.bbox = r.box();
    s.text = r.text();
    s.font_id = r.text();
    s.font_size_q = r.integer();
    s.first_origin_x = r.integer();
    s.first_origin_y = r.integer();
    s.last_origin_x = r.integer();
    s.last_origin_y = r.integer();
    s.advances = r.integers();
    s.element = r.integer();
    s.char_start = r.integer();
    s.char_end = r.integer();
  }
  layout.elements.resize(r.count());
  for (LayoutElement& e : layout.elements) {
    e.type = r.text();
    e.heading_level = r.integer();
    e.bbox = r.box();
    e.text = r.text();
    e.spans = r.integers();
    e.line_breaks = r.integers();
    e.hyphen_breaks = r.integers();
    e.table = r.integer();
    e.region = r.integer();
    e.font_size_q = r.integer();
  }
  layout.tables.resize(r.count());
  for (LayoutTable& t : layout.tables) {
    t.bbox = r.box();
    t.n_rows = r.integer();
    t.n_cols = r.integer();
    t.cells.resize(r.count());
    for (LayoutCell& c : t.cells) {
      c.row = r.integer();
      c.col = r.integer();
      c.row_span = r.integer();
      c.col_span = r.integer();
      c.bbox = r.box();
      c.text = r.text();
    }
  }
  layout.regions.resize(r.count());
  for (LayoutRegion& region : layout.regions) {
    region.bbox = r.box();
    region.kind = r.text();
  }
  layout.warnings.resize(r.count());
  for (LayoutWarning& warning : layout.warnings) {
    warning.code = r.text();
    warning.span = r.integer();
    warning.region = r.integer();
    warning.element = r.integer();
    warning.technique = r.text();
  }
  layout.document_script_count = r.integer();
  layout.document_scripts.resize(r.count());
  for (std::string& name : layout.document_scripts) name = r.text();
  r.expect_end();
  return layout;
}

}  // namespace ethos::pdf
