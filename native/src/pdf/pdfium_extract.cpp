// pdfium_extract.cpp - RawPage extraction: chars (with per-text-object caching so the per-char loop
// makes only the PDFium calls that differ per glyph), page objects, annotations, page label.
#include "pdf/pdfium_extract.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/error.hpp"
#include "pdf/pdfium_geometry.hpp"
#include "pdf/pdfium_paint_probe.hpp"
#include "pdf/pdfium_scripts.hpp"
#include "pdf/layout_params.hpp"

namespace ethos::pdf {
namespace {

using pdfium::Api;

[[noreturn]] void throw_corrupt() { throw EthosError("corrupt_pdf", find_error_code("corrupt_pdf")->default_message); }

// Closes PDFium handles on every exit path, including exceptions from later steps.
template <typename Handle, void (*Api::*Close)(Handle*)>
class Closer {
 public:
  Closer(const Api& api, Handle* handle) : api_(api), handle_(handle) {}
  ~Closer() {
    if (handle_ != nullptr) (api_.*Close)(handle_);
  }
  Closer(const Closer&) = delete;
  Closer& operator=(const Closer&) = delete;
  Handle* get() const { return handle_; }

 private:
  const Api& api_;
  Handle* handle_;
};
using PageCloser = Closer<pdfium::Page, &Api::FPDF_ClosePage>;
using TextPageCloser = Closer<pdfium::TextPage, &Api::FPDFText_ClosePage>;
using AnnotCloser = Closer<pdfium::Annotation, &Api::FPDFPage_CloseAnnot>;

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// PDFium's UTF-16LE strings (NUL-terminated, `bytes` long) to UTF-8; unpaired surrogates become
// U+FFFD so the result is always valid UTF-8.
std::string utf16le_to_utf8(const std::vector<unsigned char>& buffer, unsigned long bytes) {
  std::string out;
  std::size_t units = std::min<std::size_t>(bytes, buffer.size()) / 2;
  std::vector<char16_t> u(units);
  for (std::size_t i = 0; i < units; ++i) u[i] = static_cast<char16_t>(buffer[2 * i] | (buffer[2 * i + 1] << 8));
  while (!u.empty() && u.back() == 0) u.pop_back();
  for (std::size_t i = 0; i < u.size(); ++i) {
    char32_t cp = u[i];
    if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < u.size() && u[i + 1] >= 0xDC00 && u[i + 1] <= 0xDFFF) {
      cp = 0x10000 + ((cp - 0xD800) << 10) + (u[i + 1] - 0xDC00);
      ++i;
    } else if (cp >= 0xD800 && cp <= 0xDFFF) {
      cp = 0xFFFD;
    }
    append_utf8(out, cp);
  }
  return out;
}

std::string page_label(const Api& api, pdfium::Document* document, int page_index) {
  unsigned long needed = api.FPDF_GetPageLabel(document, page_index, nullptr, 0);
  if (needed <= 2) return "";
  std::vector<unsigned char> buffer(needed);
  unsigned long got = api.FPDF_GetPageLabel(document, page_index, buffer.data(), needed);
  return utf16le_to_utf8(buffer, std::min(got, needed));
}

// "ABCDEF+Times-Roman" → "Times-Roman": the six-capital subset tag differs between files that
// embed different subsets of one font.
std::string strip_subset_prefix(const std::string& name) {
  const bool tagged = name.size() > 7 && name[6] == '+' &&
                      std::all_of(name.begin(), name.begin() + 6, [](char c) { return c >= 'A' && c <= 'Z'; });
  return tagged ? name.substr(7) : name;
}

std::uint32_t pack_rgba(unsigned r, unsigned g, unsigned b, unsigned a) {
  return (std::min(r, 255u) << 24) | (std::min(g, 255u) << 16) | (std::min(b, 255u) << 8) | std::min(a, 255u);
}

// Affine maps composed as PDF does: apply `inner`, then `outer`.
struct Affine {
  double a = 1, b = 0, c = 0, d = 1, e = 0, f = 0;
  void apply(double x, double y, double& ox, double& oy) const {
    ox = a * x + c * y + e;
    oy = b * x + d * y + f;
  }
  static Affine from(const pdfium::Matrix& m) { return Affine{m.a, m.b, m.c, m.d, m.e, m.f}; }
  Affine then(const Affine& outer) const {
    return Affine{a * outer.a + b * outer.c, a * outer.b + b * outer.d, c * outer.a + d * outer.c,
                  c * outer.b + d * outer.d, e * outer.a + f * outer.c + outer.e, e * outer.b + f * outer.d + outer.f};
  }
  double scale() const { return std::sqrt(std::fabs(a * d - b * c)); }
};

// The bounds of an object's clip region, in the space of the object's container (the page, or its
// form XObject): the region is the intersection of its paths, its bounds the intersection of
// theirs. False when the object has no clip path.
bool object_clip_bounds(const Api& api, pdfium::PageObject* object, double& x0, double& y0, double& x1, double& y1) {
  pdfium::ClipPath* clip = api.FPDFPageObj_GetClipPath(object);
  if (clip == nullptr) return false;
  const int paths = api.FPDFClipPath_CountPaths(clip);
  x0 = -std::numeric_limits<double>::infinity();
  y0 = x0;
  x1 = std::numeric_limits<double>::infinity();
  y1 = x1;
  bool any = false;
  for (int p = 0; p < paths; ++p) {
    const int segments = api.FPDFClipPath_CountPathSegments(clip, p);
    double px0 = std::numeric_limits<double>::infinity(), py0 = px0, px1 = -px0, py1 = -px0;
    for (int s = 0; s < segments; ++s) {
      float x = 0, y = 0;
      pdfium::PathSegment* segment = api.FPDFClipPath_GetPathSegment(clip, p, s);
      if (segment == nullptr || !api.FPDFPathSegment_GetPoint(segment, &x, &y)) continue;
      px0 = std::min(px0, double{x});
      py0 = std::min(py0, double{y});
      px1 = std::max(px1, double{x});
      py1 = std::max(py1, double{y});
    }
    if (px0 > px1) continue;
    any = true;
    x0 = std::max(x0, px0);
    y0 = std::max(y0, py0);
    x1 = std::min(x1, px1);
    y1 = std::min(y1, py1);
  }
  return any;
}

// Everything the per-char loop needs from a char's text object, computed once per object.
struct TextObjectInfo {
  pdfium::PageObject* object = nullptr;
  double font_size = 0;  // as drawn: PDFium's Tf size times the object's vertical scale
  std::int32_t font = -1;
  std::int32_t render_mode = 0;
  std::uint32_t fill_rgba = 0x000000ffu;
  std::uint32_t stroke_rgba = 0x000000ffu;
  std::int32_t paint_order = -1;
  bool has_clip = false;
  double clip_x0 = 0, clip_y0 = 0, clip_x1 = 0, clip_y1 = 0;  // user space
};

// Text objects inside form XObjects, with the map from their form's space to page space: their clip
// paths are in that space while PDFium's character boxes are in page space.
using FormTextSpaces = std::unordered_map<const pdfium::PageObject*, Affine>;

// What the object walk learns about each text object besides form spaces: where it comes in the
// painting order, and the optional-content layer it is drawn in ("" when none).
struct TextObjectPlace {
  std::int32_t paint_order = -1;
  std::string layer;
};
using TextObjectPlaces = std::unordered_map<const pdfium::PageObject*, TextObjectPlace>;

class CharExtractor {
 public:
  CharExtractor(const Api& api, pdfium::TextPage* text, const DisplayTransform& transform,
                const FormTextSpaces& form_text, const TextObjectPlaces& places, RawPage& page,
                std::vector<pdfium::PageObject*>& char_objects)
      : api_(api), text_(text), transform_(transform), form_text_(form_text), places_(places), page_(page),
        char_objects_(char_objects) {}

  // `char_objects` receives each character's text object (nullptr when PDFium names none),
  // parallel to page.chars: the paint probes after extraction flag characters by their object.
  void run() {
    const int count = api_.FPDFText_CountChars(text_);
    if (count <= 0) return;
    page_.chars.reserve(static_cast<std::size_t>(count));
    char_objects_.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
      page_.chars.push_back(extract(i));
      char_objects_.push_back(last_object_);
    }
  }

 private:
  RawChar extract(int i) {
    RawChar ch;
    ch.codepoint = static_cast<char32_t>(api_.FPDFText_GetUnicode(text_, i));
    double ox = 0, oy = 0;
    api_.FPDFText_GetCharOrigin(text_, i, &ox, &oy);
    transform_.map_point(ox, oy, ch.origin_x, ch.origin_y);
    double left = 0, right = 0, bottom = 0, top = 0;
    if (api_.FPDFText_GetCharBox(text_, i, &left, &right, &bottom, &top)) {
      ch.box = transform_.map_rect(left, bottom, right, top);
    } else {
      ch.flags |= kCharNoBox;
      ch.box = Rect{ch.origin_x, ch.origin_y, ch.origin_x, ch.origin_y};
    }
    pdfium::RectF loose{};
    ch.loose = api_.FPDFText_GetLooseCharBox(text_, i, &loose)
                   ? transform_.map_rect(loose.left, loose.bottom, loose.right, loose.top)
                   : ch.box;
    // One matrix query serves the angle and the size: runs of glyphs share one matrix.
    pdfium::Matrix matrix{};
    const pdfium::Matrix* glyph_matrix = api_.FPDFText_GetMatrix(text_, i, &matrix) ? &matrix : nullptr;
    ch.angle = angle(i, glyph_matrix);
    ch.horizontal_scale = horizontal_scale(glyph_matrix);
    // PDFium's three tests read one character type: a generated character is neither of the
    // others, a hyphen is no mapping error.
    if (api_.FPDFText_IsGenerated(text_, i) == 1) {
      ch.flags |= kCharGenerated;
    } else if (api_.FPDFText_IsHyphen(text_, i) == 1) {
      ch.flags |= kCharHyphen;
    } else if (api_.FPDFText_HasUnicodeMapError(text_, i) == 1) {
      ch.flags |= kCharUnicodeError;
    }

    pdfium::PageObject* object = api_.FPDFText_GetTextObject(text_, i);
    last_object_ = object;
    if (object == nullptr) {
      ch.font_size = api_.FPDFText_GetFontSize(text_, i) * vertical_scale(glyph_matrix);
    } else {
      if (object != current_.object) describe(object, i, vertical_scale(glyph_matrix));
      ch.font_size = current_.font_size;
      ch.font = current_.font;
      ch.render_mode = current_.render_mode;
      ch.fill_rgba = current_.fill_rgba;
      ch.stroke_rgba = current_.stroke_rgba;
      ch.paint_order = current_.paint_order;
      if (current_.has_clip && (ch.flags & kCharNoBox) == 0 && outside_clip(left, right, bottom, top)) {
        ch.flags |= kCharClipped;
      }
    }
    return ch;
  }

  // The length of a glyph's vertical unit on the page (1 where PDFium gives no matrix). PDFium
  // reports the size set by Tf; a producer that sets Tf 1 and scales the text matrix (graph labels
  // drawn through cairo: 1 pt type in a 10x matrix; a figure scaled into the page) draws at the
  // matrix's size. The em is the length of the glyph's vertical unit as drawn: word gaps, line
  // joins and the hidden-text threshold are measured in it.
  static double vertical_scale(const pdfium::Matrix* matrix) {
    if (matrix == nullptr) return 1.0;
    const double scale = std::hypot(double{matrix->c}, double{matrix->d});
    return scale > 0 ? scale : 1.0;
  }

  // Width per unit of height of the glyph's matrix (Tz and the CTM included): a glyph squeezed
  // horizontally to nothing is there for extraction only.
  static double horizontal_scale(const pdfium::Matrix* matrix) {
    if (matrix == nullptr) return 1.0;
    const double vertical = std::hypot(double{matrix->c}, double{matrix->d});
    if (!(vertical > 0)) return 1.0;
    return std::hypot(double{matrix->a}, double{matrix->b}) / vertical;
  }

  // The display angle of character i. PDFium computes it from the linear part of the character's
  // matrix (atan2 of two of its entries); runs of characters share one matrix, so the angle is
  // asked for, and turned to the display, only when that part changes (compared bit for bit: +0
  // and -0 give different angles).
  double angle(int i, const pdfium::Matrix* matrix) {
    if (matrix == nullptr) return display_angle(api_.FPDFText_GetCharAngle(text_, i));
    float linear[4] = {matrix->a, matrix->b, matrix->c, matrix->d};
    if (!angle_known_ || std::memcmp(linear, angle_linear_, sizeof linear) != 0) {
      angle_known_ = true;
      std::memcpy(angle_linear_, linear, sizeof linear);
      angle_ = display_angle(api_.FPDFText_GetCharAngle(text_, i));
    }
    return angle_;
  }

  double display_angle(float user) const { return user >= 0 ? transform_.map_angle(user) : 0.0; }

  // A glyph is clipped when its box lies entirely outside the clip bounds (a partly visible glyph
  // is still visible text).
  bool outside_clip(double left, double right, double bottom, double top) const {
    constexpr double kSlack = 0.5;  // points; rounding in producers' clip rectangles
    return right < current_.clip_x0 - kSlack || left > current_.clip_x1 + kSlack ||
           top < current_.clip_y0 - kSlack || bottom > current_.clip_y1 + kSlack;
  }

  // `index`: a character of the object, for the font size PDFium reports for all of its
  // characters (taken from the object alone); `scale`: its glyphs' vertical scale.
  void describe(pdfium::PageObject* object, int index, double scale) {
    current_ = TextObjectInfo{};
    current_.object = object;
    current_.font_size = api_.FPDFText_GetFontSize(text_, index) * scale;
    const int mode = api_.FPDFTextObj_GetTextRenderMode(object);
    current_.render_mode = mode < 0 ? 0 : mode;
    unsigned r = 0, g = 0, b = 0, a = 255;
    if (api_.FPDFPageObj_GetFillColor(object, &r, &g, &b, &a)) current_.fill_rgba = pack_rgba(r, g, b, a);
    r = g = b = 0;
    a = 255;
    if (api_.FPDFPageObj_GetStrokeColor(object, &r, &g, &b, &a)) current_.stroke_rgba = pack_rgba(r, g, b, a);
    if (auto it = places_.find(object); it != places_.end()) current_.paint_order = it->second.paint_order;
    current_.font = font_index(api_.FPDFTextObj_GetFont(object));
    clip_bounds(object);
  }

  void clip_bounds(pdfium::PageObject* object) {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    if (!object_clip_bounds(api_, object, x0, y0, x1, y1)) return;
    // Bring the bounds into page space when the object lives in a form XObject.
    if (auto it = form_text_.find(object); it != form_text_.end()) {
      double xs[4], ys[4];
      it->second.apply(x0, y0, xs[0], ys[0]);
      it->second.apply(x1, y0, xs[1], ys[1]);
      it->second.apply(x0, y1, xs[2], ys[2]);
      it->second.apply(x1, y1, xs[3], ys[3]);
      x0 = *std::min_element(xs, xs + 4);
      x1 = *std::max_element(xs, xs + 4);
      y0 = *std::min_element(ys, ys + 4);
      y1 = *std::max_element(ys, ys + 4);
    }
    current_.has_clip = true;
    current_.clip_x0 = x0;
    current_.clip_y0 = y0;
    current_.clip_x1 = x1;
    current_.clip_y1 = y1;
  }

  std::int32_t font_index(pdfium::Font* font) {
    if (font == nullptr) return -1;
    for (std::size_t k = 0; k < font_handles_.size(); ++k) {
      if (font_handles_[k] == font) return static_cast<std::int32_t>(k);
    }
    RawFont raw;
    std::size_t needed = api_.FPDFFont_GetBaseFontName(font, nullptr, 0);
    if (needed > 1) {
      std::string name(needed, '\0');
      api_.FPDFFont_GetBaseFontName(font, name.data(), needed);
      name.resize(std::min(name.find('\0'), name.size()));
      raw.name = strip_subset_prefix(name);
    }
    raw.embedded = api_.FPDFFont_GetIsEmbedded(font) == 1;
    const int weight = api_.FPDFFont_GetWeight(font);
    if (weight > 0) raw.weight = weight;
    const int flags = api_.FPDFFont_GetFlags(font);
    if (flags > 0) raw.flags = flags;
    font_handles_.push_back(font);
    page_.fonts.push_back(std::move(raw));
    return static_cast<std::int32_t>(page_.fonts.size() - 1);
  }

  const Api& api_;
  pdfium::TextPage* text_;
  const DisplayTransform& transform_;
  const FormTextSpaces& form_text_;
  const TextObjectPlaces& places_;
  RawPage& page_;
  std::vector<pdfium::PageObject*>& char_objects_;
  pdfium::PageObject* last_object_ = nullptr;  // the text object of the character extract() read last
  TextObjectInfo current_;
  std::vector<pdfium::Font*> font_handles_;  // parallel to page_.fonts
  // The last character matrix's linear part (a, b, c, d) and the display angle it gives.
  bool angle_known_ = false;
  float angle_linear_[4] = {0, 0, 0, 0};
  double angle_ = 0;
};

// Rules, fills and images from the page's objects, descending into form XObjects.
class ObjectWalker {
 public:
  ObjectWalker(const Api& api, const DisplayTransform& transform, RawPage& page, FormTextSpaces& form_text,
               TextObjectPlaces& places)
      : api_(api), transform_(transform), page_(page), form_text_(form_text), places_(places) {}

  void walk_page(pdfium::Page* pdf_page) {
    const int count = api_.FPDFPage_CountObjects(pdf_page);
    for (int i = 0; i < count; ++i) walk(api_.FPDFPage_GetObject(pdf_page, i), Affine{}, 0, "");
  }

 private:
  static constexpr int kMaxFormDepth = 8;   // forms nested deeper are ignored, not followed
  static constexpr double kThinPoints = 2.0;  // a filled rectangle at most this thick is a rule
  static constexpr double kAxisSlack = 0.5;   // points of slope still counted as straight

  // `outer` maps the object's container space (a form's space, or identity) to page user space;
  // `outer_layer` is the optional-content layer the enclosing forms are drawn in ("" when none).
  // Objects are numbered in the order they are painted: forms are painted where they stand, their
  // objects in their own order.
  void walk(pdfium::PageObject* object, const Affine& outer, int depth, const std::string& outer_layer) {
    if (object == nullptr) return;
    paint_order_ = paint_order_ + 1;
    switch (api_.FPDFPageObj_GetType(object)) {
      case pdfium::kPageObjText: {
        if (depth > 0) form_text_.emplace(object, outer);
        std::string layer = layer_of(object);
        places_[object] = TextObjectPlace{paint_order_, layer.empty() ? outer_layer : std::move(layer)};
        count_if_off_page(object, outer);
        break;
      }
      case pdfium::kPageObjImage:
        image(object, outer);
        break;
      case pdfium::kPageObjPath:
        path(object, outer);
        break;
      case pdfium::kPageObjForm: {
        if (depth >= kMaxFormDepth) break;
        pdfium::Matrix m{};
        if (!api_.FPDFPageObj_GetMatrix(object, &m)) break;
        const Affine inner = Affine::from(m).then(outer);
        std::string layer = layer_of(object);
        if (layer.empty()) layer = outer_layer;
        const int children = api_.FPDFFormObj_CountObjects(object);
        for (int i = 0; i < children; ++i) {
          walk(api_.FPDFFormObj_GetObject(object, static_cast<unsigned long>(i)), inner, depth + 1, layer);
        }
        break;
      }
      default:
        break;
    }
  }

  // The layer of an object drawn inside `/OC /name BDC ... EMC`: PDFium gives the mark's
  // parameters from the optional-content group's dictionary, whose /Name identifies the layer
  // ("\x01" stands for a group without a name, so it still counts as a layer).
  std::string layer_of(pdfium::PageObject* object) const {
    const int marks = api_.FPDFPageObj_CountMarks(object);
    for (int k = 0; k < marks; ++k) {
      pdfium::PageObjectMark* mark = api_.FPDFPageObj_GetMark(object, static_cast<unsigned long>(k));
      if (mark == nullptr || utf16_value(mark, nullptr) != "OC") continue;
      std::string name = utf16_value(mark, "Name");
      return name.empty() ? std::string("\x01") : name;
    }
    return "";
  }

  // A mark's name (key nullptr) or string parameter, as UTF-8; "" when absent.
  std::string utf16_value(pdfium::PageObjectMark* mark, const char* key) const {
    unsigned long needed = 0;
    const bool sized = key == nullptr ? api_.FPDFPageObjMark_GetName(mark, nullptr, 0, &needed) != 0
                                      : api_.FPDFPageObjMark_GetParamStringValue(mark, key, nullptr, 0, &needed) != 0;
    if (!sized || needed <= 2) return "";
    std::vector<unsigned char> buffer(needed);
    unsigned long got = 0;
    const bool read = key == nullptr
                          ? api_.FPDFPageObjMark_GetName(mark, buffer.data(), needed, &got) != 0
                          : api_.FPDFPageObjMark_GetParamStringValue(mark, key, buffer.data(), needed, &got) != 0;
    return read ? utf16le_to_utf8(buffer, std::min(got, needed)) : "";
  }

  Rect display_box(const Affine& m, double x0, double y0, double x1, double y1) const {
    double xs[4], ys[4];
    m.apply(x0, y0, xs[0], ys[0]);
    m.apply(x1, y0, xs[1], ys[1]);
    m.apply(x0, y1, xs[2], ys[2]);
    m.apply(x1, y1, xs[3], ys[3]);
    Rect box = transform_.map_rect(xs[0], ys[0], xs[0], ys[0]);
    for (int k = 1; k < 4; ++k) {
      Rect p = transform_.map_rect(xs[k], ys[k], xs[k], ys[k]);
      box.x0 = std::min(box.x0, p.x0);
      box.y0 = std::min(box.y0, p.y0);
      box.x1 = std::max(box.x1, p.x1);
      box.y1 = std::max(box.y1, p.y1);
    }
    return box;
  }

  // A text object off the page, or one PDFium could not place at all: for text far away (at
  // 10^6 pt) it zeroes the object's matrix and bounds and its text page keeps no character.
  void count_if_off_page(pdfium::PageObject* object, const Affine& outer) {
    pdfium::Matrix m{};
    if (api_.FPDFPageObj_GetMatrix(object, &m) && m.a == 0 && m.b == 0 && m.c == 0 && m.d == 0) {
      ++page_.off_page_text_objects;
      return;
    }
    float l = 0, b = 0, r = 0, t = 0;
    if (!api_.FPDFPageObj_GetBounds(object, &l, &b, &r, &t)) return;
    const Rect box = display_box(outer, l, b, r, t);
    const bool finite = std::isfinite(box.x0) && std::isfinite(box.x1) && std::isfinite(box.y0) && std::isfinite(box.y1);
    if (!finite || box.x1 < 0 || box.x0 > page_.width || box.y1 < 0 || box.y0 > page_.height) {
      ++page_.off_page_text_objects;
    }
  }

  void image(pdfium::PageObject* object, const Affine& outer) {
    float l = 0, b = 0, r = 0, t = 0;
    if (!api_.FPDFPageObj_GetBounds(object, &l, &b, &r, &t)) return;
    page_.images.push_back(RawImage{display_box(outer, l, b, r, t), paint_order_, api_.FPDFPageObj_HasTransparency(object) == 0});
  }

  void path(pdfium::PageObject* object, const Affine& outer) {
    int fill_mode = 0;
    pdfium::Bool stroke = 0;
    if (!api_.FPDFPath_GetDrawMode(object, &fill_mode, &stroke)) return;
    const bool filled = fill_mode != pdfium::kFillModeNone;
    if (!filled && !stroke) return;
    pdfium::Matrix m{};
    if (!api_.FPDFPageObj_GetMatrix(object, &m)) return;
    const Affine to_page = Affine::from(m).then(outer);
    float width = 0;
    api_.FPDFPageObj_GetStrokeWidth(object, &width);
    const double stroke_width = std::max(0.0, double{width} * to_page.scale());
    std::uint32_t fill = 0;
    unsigned r = 0, g = 0, b = 0, a = 255;
    if (filled && api_.FPDFPageObj_GetFillColor(object, &r, &g, &b, &a)) fill = pack_rgba(r, g, b, a);
    fill_opaque_ = filled && (fill & 0xFFu) == 0xFFu && api_.FPDFPageObj_HasTransparency(object) == 0;
    // A fill is painted only inside its clip path: a page-sized rectangle clipped to a corner covers
    // no text elsewhere.
    fill_clip_.reset();
    double cx0 = 0, cy0 = 0, cx1 = 0, cy1 = 0;
    if (filled && object_clip_bounds(api_, object, cx0, cy0, cx1, cy1)) {
      const Rect clip = display_box(outer, cx0, cy0, cx1, cy1);
      if (std::isfinite(clip.x0) && std::isfinite(clip.y0) && std::isfinite(clip.x1) && std::isfinite(clip.y1)) fill_clip_ = clip;
    }

    // Walk the subpaths: straight segments only; a curve disqualifies its subpath.
    const int count = api_.FPDFPath_CountSegments(object);
    points_.clear();
    bool curved = false, closed = false;
    for (int i = 0; i <= count; ++i) {
      pdfium::PathSegment* segment = i < count ? api_.FPDFPath_GetPathSegment(object, i) : nullptr;
      const int type = segment ? api_.FPDFPathSegment_GetType(segment) : pdfium::kSegmentMoveTo;
      if (type == pdfium::kSegmentMoveTo) {
        if (!points_.empty() && !curved) subpath(closed, filled, stroke != 0, stroke_width, fill);
        points_.clear();
        curved = false;
        closed = false;
        if (segment == nullptr) break;
      }
      if (segment == nullptr) continue;
      if (type == pdfium::kSegmentBezierTo) curved = true;
      float x = 0, y = 0;
      if (!api_.FPDFPathSegment_GetPoint(segment, &x, &y)) continue;
      double px = 0, py = 0, dx = 0, dy = 0;
      to_page.apply(x, y, px, py);
      transform_.map_point(px, py, dx, dy);
      points_.push_back({dx, dy});
      if (api_.FPDFPathSegment_GetClose(segment)) closed = true;
    }
  }

  struct Point {
    double x, y;
  };

  void add_rule(double x0, double y0, double x1, double y1, double stroke_width) {
    const bool horizontal = std::fabs(y1 - y0) <= kAxisSlack;
    const double half = stroke_width / 2;
    Rect box{std::min(x0, x1), std::min(y0, y1), std::max(x0, x1), std::max(y0, y1)};
    // Degenerate boxes are widened to the stroke width so the rule has its drawn thickness.
    if (horizontal) {
      box.y0 -= half;
      box.y1 += half;
    } else {
      box.x0 -= half;
      box.x1 += half;
    }
    page_.rules.push_back(RawRule{box, horizontal});
  }

  void add_cover() {
    RawCover cover;
    Rect bounds{points_[0].x, points_[0].y, points_[0].x, points_[0].y};
    for (const Point& p : points_) {
      if (!std::isfinite(p.x) || !std::isfinite(p.y)) return;
      cover.xs.push_back(p.x);
      cover.ys.push_back(p.y);
      bounds = Rect{std::min(bounds.x0, p.x), std::min(bounds.y0, p.y), std::max(bounds.x1, p.x), std::max(bounds.y1, p.y)};
    }
    if (fill_clip_) {
      bounds = Rect{std::max(bounds.x0, fill_clip_->x0), std::max(bounds.y0, fill_clip_->y0),
                    std::min(bounds.x1, fill_clip_->x1), std::min(bounds.y1, fill_clip_->y1)};
    }
    if (!(bounds.x1 > bounds.x0 && bounds.y1 > bounds.y0)) return;  // clipped away, or no area
    cover.painted = bounds;
    cover.paint_order = paint_order_;
    page_.covers.push_back(std::move(cover));
  }

  // An axis-aligned rectangle given as 4 corners (a fifth equal to the first is allowed).
  bool as_rectangle(Rect& box) const {
    std::size_t n = points_.size();
    if (n == 5 && std::fabs(points_[4].x - points_[0].x) <= kAxisSlack &&
        std::fabs(points_[4].y - points_[0].y) <= kAxisSlack) {
      n = 4;
    }
    if (n != 4) return false;
    for (std::size_t k = 0; k < 4; ++k) {
      const Point& p = points_[k];
      const Point& q = points_[(k + 1) % 4];
      if (std::fabs(p.x - q.x) > kAxisSlack && std::fabs(p.y - q.y) > kAxisSlack) return false;
    }
    box = Rect{points_[0].x, points_[0].y, points_[0].x, points_[0].y};
    for (std::size_t k = 1; k < 4; ++k) {
      box.x0 = std::min(box.x0, points_[k].x);
      box.y0 = std::min(box.y0, points_[k].y);
      box.x1 = std::max(box.x1, points_[k].x);
      box.y1 = std::max(box.y1, points_[k].y);
    }
    return true;
  }

  void subpath(bool closed, bool filled, bool stroked, double stroke_width, std::uint32_t fill) {
    Rect box;
    if (filled && (closed || points_.size() >= 4) && as_rectangle(box)) {
      const double w = box.x1 - box.x0, h = box.y1 - box.y0;
      if (std::min(w, h) <= kThinPoints) {
        page_.rules.push_back(RawRule{box, w >= h});
      } else {
        Rect painted = box;
        if (fill_clip_) {
          painted.x0 = std::max(box.x0, fill_clip_->x0);
          painted.y0 = std::max(box.y0, fill_clip_->y0);
          painted.x1 = std::min(box.x1, fill_clip_->x1);
          painted.y1 = std::min(box.y1, fill_clip_->y1);
        }
        // Clipped away entirely: it paints nothing, so it hides and backs nothing either.
        const bool paints = painted.x1 > painted.x0 && painted.y1 > painted.y0;
        page_.fills.push_back(RawFill{box, fill, paint_order_, fill_opaque_ && paints, paints ? painted : box});
      }
      if (!stroked) return;
    } else if (filled && fill_opaque_ && points_.size() >= 3) {
      // Any other straight-edged fill (a fill always closes its subpath) may hide text too.
      add_cover();
    }
    if (!stroked) return;
    // Every straight axis-aligned edge of a stroked path is a rule (cell borders drawn as
    // rectangles or polylines included).
    const std::size_t n = points_.size();
    const std::size_t edges = closed && n > 2 ? n : n - 1;
    for (std::size_t k = 0; k < edges && n >= 2; ++k) {
      const Point& p = points_[k];
      const Point& q = points_[(k + 1) % n];
      const bool flat = std::fabs(p.y - q.y) <= kAxisSlack, upright = std::fabs(p.x - q.x) <= kAxisSlack;
      if (flat == upright) continue;  // diagonal, or a zero-length dot
      add_rule(p.x, p.y, q.x, q.y, stroke_width);
    }
  }

  const Api& api_;
  const DisplayTransform& transform_;
  RawPage& page_;
  FormTextSpaces& form_text_;
  TextObjectPlaces& places_;
  std::int32_t paint_order_ = -1;
  bool fill_opaque_ = false;   // the current path's fill hides what lies beneath it
  std::optional<Rect> fill_clip_;  // the current path's clip bounds in display space, if it has a clip
  std::vector<Point> points_;  // reused across subpaths: no allocation per path
};

void extract_annotations(const Api& api, pdfium::Document* document, pdfium::Page* pdf_page,
                         const DisplayTransform& transform, RawPage& page) {
  const int count = api.FPDFPage_GetAnnotCount(pdf_page);
  for (int i = 0; i < count; ++i) {
    AnnotCloser annot(api, api.FPDFPage_GetAnnot(pdf_page, i));
    if (annot.get() == nullptr) continue;
    RawAnnotation raw;
    raw.subtype = api.FPDFAnnot_GetSubtype(annot.get());
    pdfium::RectF rect{};
    if (api.FPDFAnnot_GetRect(annot.get(), &rect)) raw.box = transform.map_rect(rect.left, rect.bottom, rect.right, rect.top);
    if (raw.subtype == pdfium::kAnnotLink) {
      pdfium::Link* link = api.FPDFAnnot_GetLink(annot.get());
      pdfium::Action* action = link ? api.FPDFLink_GetAction(link) : nullptr;
      if (action != nullptr) raw.action = static_cast<std::int32_t>(api.FPDFAction_GetType(action));
      if (action != nullptr && api.FPDFAction_GetType(action) == pdfium::kActionUri) {
        unsigned long needed = api.FPDFAction_GetURIPath(document, action, nullptr, 0);
        if (needed > 1) {
          std::string uri(needed, '\0');
          api.FPDFAction_GetURIPath(document, action, uri.data(), needed);
          uri.resize(std::min(uri.find('\0'), uri.size()));
          raw.uri = std::move(uri);
        }
      }
    }
    page.annotations.push_back(std::move(raw));
  }
}

// Text objects of one optional-content layer that the page does not show: the renderer paints
// none of them. Objects that are invisible anyway (render mode 3 or 7) take no part, or a layer
// holding only an OCR layer's text would look switched off.
void probe_hidden_layers(const Api& api, pdfium::Page* pdf_page, const TextObjectPlaces& places,
                         const std::vector<pdfium::PageObject*>& char_objects, RawPage& page) {
  std::map<std::string, std::vector<pdfium::PageObject*>> layers;
  std::set<const pdfium::PageObject*> seen;
  for (std::size_t i = 0; i < page.chars.size(); ++i) {
    pdfium::PageObject* object = char_objects[i];
    if (object == nullptr || page.chars[i].render_mode == 3 || page.chars[i].render_mode == 7) continue;
    const auto place = places.find(object);
    if (place == places.end() || place->second.layer.empty() || !seen.insert(object).second) continue;
    layers[place->second.layer].push_back(object);
  }
  std::set<const pdfium::PageObject*> hidden;
  std::size_t probes = 0;
  for (const auto& [layer, objects] : layers) {
    if (++probes > params::kMaxPaintProbesPerPage) break;  // a bound on rendering: the rest count as shown
    if (!objects_paint(api, pdf_page, objects)) hidden.insert(objects.begin(), objects.end());
  }
  for (std::size_t i = 0; i < page.chars.size(); ++i) {
    if (hidden.count(char_objects[i]) != 0) page.chars[i].flags |= kCharOptionalContentOff;
  }
}

// Text objects with a glyph under an image painted after them: the image hides them unless it is
// see-through where they are, which only the renderer knows (soft masks are not exposed). An image
// over (nearly) the whole page is a scan with its OCR text beneath it ("text under the page
// image"), whose text is what the page shows: not probed.
void probe_text_under_images(const Api& api, pdfium::Page* pdf_page,
                             const std::vector<pdfium::PageObject*>& char_objects, RawPage& page) {
  const double page_area = page.width * page.height;
  std::vector<const RawImage*> covers;
  for (const RawImage& image : page.images) {
    const double area = (image.box.x1 - image.box.x0) * (image.box.y1 - image.box.y0);
    if (area * 100 < page_area * params::kPageImagePercent) covers.push_back(&image);
  }
  if (covers.empty()) return;
  std::vector<pdfium::PageObject*> candidates;
  std::set<const pdfium::PageObject*> seen;
  for (std::size_t i = 0; i < page.chars.size(); ++i) {
    const RawChar& c = page.chars[i];
    if (char_objects[i] == nullptr || (c.flags & (kCharGenerated | kCharNoBox)) != 0) continue;
    const bool covered = std::any_of(covers.begin(), covers.end(), [&](const RawImage* image) {
      return image->paint_order > c.paint_order && image->box.x0 <= c.box.x0 && image->box.x1 >= c.box.x1 &&
             image->box.y0 <= c.box.y0 && image->box.y1 >= c.box.y1;
    });
    if (covered && seen.insert(char_objects[i]).second) candidates.push_back(char_objects[i]);
  }
  std::set<const pdfium::PageObject*> hidden;
  for (std::size_t k = 0; k < candidates.size() && k < params::kMaxPaintProbesPerPage; ++k) {
    if (!objects_paint(api, pdf_page, {candidates[k]})) hidden.insert(candidates[k]);
  }
  for (std::size_t i = 0; i < page.chars.size(); ++i) {
    if (hidden.count(char_objects[i]) != 0) page.chars[i].flags |= kCharCoveredByImage;
  }
}

}  // namespace

RawPage extract_page(const Api& api, pdfium::Document* document, int page_index) {
  PageCloser pdf_page(api, api.FPDF_LoadPage(document, page_index));
  if (pdf_page.get() == nullptr) throw_corrupt();
  pdfium::RectF bounds{};
  if (!api.FPDF_GetPageBoundingBox(pdf_page.get(), &bounds)) throw_corrupt();
  const DisplayTransform transform(bounds.left, bounds.bottom, bounds.right, bounds.top,
                                   api.FPDFPage_GetRotation(pdf_page.get()));
  RawPage page;
  page.index = page_index + 1;
  page.width = transform.width();
  page.height = transform.height();
  // NaN fails both comparisons, so it is rejected too.
  if (!(page.width > 0) || !(page.height > 0) || !std::isfinite(page.width) || !std::isfinite(page.height)) {
    throw_corrupt();
  }
  page.rotation = transform.rotation_degrees();
  page.label = page_label(api, document, page_index);

  // Objects first: the walk finds the text objects inside forms, whose clip paths need their
  // form's matrix.
  FormTextSpaces form_text;
  TextObjectPlaces places;
  ObjectWalker(api, transform, page, form_text, places).walk_page(pdf_page.get());
  std::vector<pdfium::PageObject*> char_objects;
  {
    TextPageCloser text(api, api.FPDFText_LoadPage(pdf_page.get()));
    if (text.get() == nullptr) throw_corrupt();
    CharExtractor(api, text.get(), transform, form_text, places, page, char_objects).run();
  }
  extract_annotations(api, document, pdf_page.get(), transform, page);
  page.document_scripts = document_script_names(api, document, page.document_script_count);
  // Last: the probes recolour page objects, so nothing may be read from the page after them.
  probe_hidden_layers(api, pdf_page.get(), places, char_objects, page);
  probe_text_under_images(api, pdf_page.get(), char_objects, page);
  return page;
}

}  // namespace ethos::pdf
