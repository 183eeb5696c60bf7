// layout_text.hpp - element text built from lines: faithful characters, separators, spans, artifacts.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pdf/layout_lines.hpp"
#include "pdf/layout_model.hpp"
#include "pdf/raw_page.hpp"

namespace ethos::pdf {

// Accumulates one element's text and creates its spans (docs/pdf-parsing.md, "Faithful text").
class ElementTextBuilder {
 public:
  ElementTextBuilder(const RawPage& page, std::vector<LayoutSpan>& spans, std::int64_t element)
      : page_(page), spans_(spans), element_(element) {}

  // A line with no separator before it (the element's or a table cell's first line).
  void add_first_line(const Line& line) { append_line(line); }
  // A line that starts a new visual line of the element: one generated space before it (none
  // between two CJK characters), its offset recorded in line_breaks.
  void add_wrapped_line(const Line& line);
  // A piece of the same visual line after a wide gap: one space, not a line break.
  void add_same_line(const Line& line);
  // Table projection text (" | ", "\n"): part of the element text, not a line artifact.
  void add_literal(std::string_view text);

  bool empty() const { return scalars_ == 0; }
  const std::string& text() const { return text_; }
  std::int64_t scalars() const { return scalars_; }

  // Moves the text, spans and artifacts into the element.
  void finish(LayoutElement& element);

 private:
  void append_scalar(char32_t c);
  void append_line(const Line& line);

  const RawPage& page_;
  std::vector<LayoutSpan>& spans_;
  std::int64_t element_;
  std::string text_;
  std::int64_t scalars_ = 0;
  char32_t last_ = 0;
  std::vector<std::int64_t> span_indices_, line_breaks_, hyphen_breaks_;
};

// A span made of glyphs [begin, end) of a line: its text, box, origins and per-character advances.
LayoutSpan make_span(const RawPage& page, const std::vector<Glyph>& glyphs, std::size_t begin, std::size_t end,
                     bool horizontal);

// The glyphs of a line split into maximal runs with one font and size: [begin, end) pairs.
std::vector<std::pair<std::size_t, std::size_t>> font_runs(const Line& line);

}  // namespace ethos::pdf
