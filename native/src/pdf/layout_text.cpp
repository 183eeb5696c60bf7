// layout_text.cpp - element text assembly: separators, line artifacts, spans and glyph advances.
#include "pdf/layout_text.hpp"

#include <algorithm>

#include "text/utf8.hpp"

namespace ethos::pdf {

std::vector<std::pair<std::size_t, std::size_t>> font_runs(const Line& line) {
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  std::size_t begin = 0;
  const Glyph* run_font = nullptr;  // the first real glyph of the current run
  for (std::size_t i = 0; i < line.glyphs.size(); ++i) {
    const Glyph& g = line.glyphs[i];
    if (g.generated) continue;  // a word gap belongs to the run it follows
    if (run_font != nullptr && (g.font != run_font->font || g.font_size_q != run_font->font_size_q)) {
      runs.emplace_back(begin, i);
      begin = i;
    }
    if (run_font == nullptr || begin == i) run_font = &line.glyphs[i];
  }
  if (begin < line.glyphs.size()) runs.emplace_back(begin, line.glyphs.size());
  return runs;
}

LayoutSpan make_span(const RawPage& page, const std::vector<Glyph>& glyphs, std::size_t begin, std::size_t end,
                     bool horizontal) {
  LayoutSpan span;
  const Glyph* first = nullptr;
  const Glyph* last = nullptr;
  for (std::size_t i = begin; i < end; ++i) {
    const Glyph& g = glyphs[i];
    utf8::append(span.text, g.codepoint);
    if (g.generated) continue;
    const Bbox box{g.x0, g.y0, g.x1, g.y1};
    span.bbox = first == nullptr ? box : unite(span.bbox, box);
    if (first == nullptr) first = &g;
    last = &g;
  }
  if (first == nullptr) return span;  // cannot happen: runs start with a real glyph
  span.order = static_cast<std::int64_t>(first->order);
  span.font_id = font_id(page, first->font);
  span.font_size_q = first->font_size_q;
  span.first_origin_x = first->origin_x;
  span.first_origin_y = first->origin_y;
  span.last_origin_x = last->origin_x;
  span.last_origin_y = last->origin_y;
  if (!horizontal) return span;  // advances are defined along a horizontal line only
  // Each character owns [left_i, left_{i+1}): its ink plus the gap after it. Left edges are made
  // monotonic (kerning and combining marks overlap) and the last one ends at bbox.x1, so the
  // advances always sum to the span width and are never negative.
  std::vector<std::int64_t> left;
  left.reserve(end - begin);
  std::int64_t previous_right = span.bbox.x0;
  for (std::size_t i = begin; i < end; ++i) {
    const Glyph& g = glyphs[i];
    std::int64_t x = g.generated ? previous_right : g.x0;
    if (left.empty()) x = span.bbox.x0;
    if (!left.empty()) x = std::max(x, left.back());
    left.push_back(std::min(x, span.bbox.x1));
    if (!g.generated) previous_right = std::max(previous_right, g.x1);
  }
  span.advances.resize(left.size());
  for (std::size_t i = 0; i < left.size(); ++i) {
    span.advances[i] = (i + 1 < left.size() ? left[i + 1] : span.bbox.x1) - left[i];
  }
  return span;
}

void ElementTextBuilder::append_scalar(char32_t c) {
  utf8::append(text_, c);
  ++scalars_;
  last_ = c;
}

void ElementTextBuilder::append_line(const Line& line) {
  for (const auto& [begin, end] : font_runs(line)) {
    LayoutSpan span = make_span(page_, line.glyphs, begin, end, line.horizontal);
    span.element = element_;
    span.char_start = scalars_;
    for (std::size_t i = begin; i < end; ++i) append_scalar(line.glyphs[i].codepoint);
    span.char_end = scalars_;
    span_indices_.push_back(static_cast<std::int64_t>(spans_.size()));
    spans_.push_back(std::move(span));
  }
  // Every hyphen that ends a visual line is recorded, whether PDFium flagged it or not: the
  // matcher decides whether a word was split there ("hyphen- ated") or a compound ("well- known").
  const Glyph& last = line.glyphs.back();
  const bool hyphen = last.codepoint == U'-' || last.codepoint == 0x00AD || last.codepoint == 0x2010 || last.codepoint == 0x2011;
  if (last.line_end_hyphen || hyphen) hyphen_breaks_.push_back(scalars_ - 1);
}

void ElementTextBuilder::add_wrapped_line(const Line& line) {
  if (scalars_ > 0) {
    if (is_cjk(last_) && is_cjk(line.first_char())) {
      line_breaks_.push_back(scalars_);  // a CJK wrap: nothing inserted, the next line starts here
    } else {
      line_breaks_.push_back(scalars_);
      append_scalar(U' ');
    }
  }
  append_line(line);
}

void ElementTextBuilder::add_same_line(const Line& line) {
  if (scalars_ > 0 && !(is_cjk(last_) && is_cjk(line.first_char()))) append_scalar(U' ');
  append_line(line);
}

void ElementTextBuilder::add_literal(std::string_view text) {
  std::size_t pos = 0;
  while (pos < text.size()) append_scalar(utf8::next(text, pos));
}

void ElementTextBuilder::finish(LayoutElement& element) {
  element.text = std::move(text_);
  element.spans = std::move(span_indices_);
  element.line_breaks = std::move(line_breaks_);
  element.hyphen_breaks = std::move(hyphen_breaks_);
}

}  // namespace ethos::pdf
