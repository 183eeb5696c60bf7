// layout_page.cpp - layout_page: glyphs -> tables, lines -> reading order -> typed elements, warnings.
#include <algorithm>
#include <map>
#include <utility>

#include "pdf/layout.hpp"
#include "pdf/layout_classify.hpp"
#include "pdf/layout_glyphs.hpp"
#include "pdf/layout_line_numbers.hpp"
#include "pdf/layout_lines.hpp"
#include "pdf/layout_model.hpp"
#include "pdf/layout_order.hpp"
#include "pdf/layout_params.hpp"
#include "pdf/layout_tables.hpp"
#include "pdf/layout_text.hpp"
#include "pdf/layout_turn.hpp"
#include "text/utf8.hpp"

namespace ethos::pdf {
namespace {

using namespace params;

// What one entry of the reading order is.
struct Item {
  enum Kind { kLine, kTable, kRegion } kind;
  std::size_t index;
};

std::string line_text(const Line& line) {
  std::string text;
  for (const Glyph& g : line.glyphs) utf8::append(text, g.codepoint);
  return text;
}

// Consecutive lines (in reading order) that form one paragraph-like block.
struct Block {
  std::vector<const Line*> lines;
  std::vector<bool> same_line;  // per line: joins the previous one on its visual line
  Bbox bbox;
  bool list_item = false;
  std::size_t visual_lines = 0;
};

bool ends_sentence(const Line& line) {
  const char32_t c = line.glyphs.back().codepoint;
  return c == U'.' || c == U':' || c == U'!' || c == U'?' || c == 0x3002;
}

// Whether `next` continues `block` (whose last line is `last`), and how.
enum class Join { kNewBlock, kSameLine, kWrap };

Join join_kind(const Block& block, const Line& next, const std::string& next_text, std::int64_t body_size) {
  const Line& last = *block.lines.back();
  if (next.horizontal != last.horizontal || !next.horizontal) return Join::kNewBlock;
  if (same_band(last.bbox, next.bbox) && next.bbox.x0 >= last.bbox.x1) return Join::kSameLine;
  const std::int64_t height = std::min(last.height(), next.height());
  const std::int64_t gap = next.bbox.y0 - last.bbox.y1;
  // Display type (titles) is set with more leading than body text: allow a wider gap there.
  const bool display = std::min(last.font_size_q, next.font_size_q) * 100 >= body_size * kHeadingSizePercent;
  if (gap * 10 > height * (display ? 10 : 6) || gap * 2 < -height) return Join::kNewBlock;
  if (next.bbox.x0 >= block.bbox.x1 || next.bbox.x1 <= block.bbox.x0) return Join::kNewBlock;
  const std::int64_t larger = std::max(last.font_size_q, next.font_size_q);
  if (std::abs(last.font_size_q - next.font_size_q) * 100 > larger * 15) return Join::kNewBlock;
  if (last.bold != next.bold) return Join::kNewBlock;
  if (starts_with_list_marker(next_text)) return Join::kNewBlock;
  const std::int64_t em = std::max<std::int64_t>(next.font_size_q, 1);
  // A first-line indent starts a paragraph; a centred line (title, centred block) is no indent.
  const bool centred = std::abs((next.bbox.x0 - block.bbox.x0) - (block.bbox.x1 - next.bbox.x1)) <= em;
  if (!block.list_item && !centred && next.bbox.x0 > last.bbox.x0 + em) return Join::kNewBlock;
  const std::int64_t width = block.bbox.x1 - block.bbox.x0;
  if (block.visual_lines >= 2 && ends_sentence(last) && (block.bbox.x1 - last.bbox.x1) * 4 > width) {
    return Join::kNewBlock;  // a short last line ending a sentence closes the paragraph
  }
  return Join::kWrap;
}

bool has_letter(const std::string& text) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    const char32_t c = utf8::next(text, pos);
    if ((c >= U'A' && c <= U'Z') || (c >= U'a' && c <= U'z') || c >= 0xC0) return true;
  }
  return false;
}

class PageBuilder {
 public:
  explicit PageBuilder(const RawPage& page) : page_(page) {}

  PageLayout build() {
    out_.index = page_.index;
    out_.width = quantize(page_.width);
    out_.height = quantize(page_.height);
    out_.rotation = page_.rotation;
    out_.label = page_.label;
    out_.document_script_count = page_.document_script_count;
    out_.document_scripts = page_.document_scripts;
    ClassifiedGlyphs glyphs = classify_glyphs(page_);
    out_.body_font_size_q = body_font_size(glyphs.visible);
    std::vector<Grid> grids = find_ruled_tables(page_, glyphs.visible);
    std::vector<Line> lines = build_lines(glyphs.visible);
    // Margin line numbers leave the page before tables and reading order are found: beside the
    // body they would pair with its lines into rows. They become one element per column, after
    // the body, so that no body sentence is interrupted by a number.
    std::vector<std::vector<Line>> margin_numbers = take_margin_line_numbers(lines);
    const std::int64_t gutter = std::max(kMinGutter, out_.body_font_size_q);
    for (Grid& grid : find_whitespace_tables(lines, gutter)) grids.push_back(std::move(grid));
    std::vector<Bbox> images;
    for (const RawImage& image : page_.images) {
      const Bbox box = clamp({quantize(image.box.x0), quantize(image.box.y0), quantize(image.box.x1), quantize(image.box.y1)});
      if (box.x1 - box.x0 >= kMinRegionExtent && box.y1 - box.y0 >= kMinRegionExtent) images.push_back(box);
    }
    std::vector<Bbox> boxes;
    std::vector<Item> items;
    std::vector<bool> bulleted(lines.size() + grids.size() + images.size(), false);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      boxes.push_back(lines[i].bbox);
      items.push_back({Item::kLine, i});
      bulleted[i] = lines[i].horizontal && lines[i].glyphs.size() > 1 && is_bullet(lines[i].first_char());
    }
    for (std::size_t i = 0; i < grids.size(); ++i) {
      boxes.push_back(grids[i].bbox);
      items.push_back({Item::kTable, i});
    }
    for (std::size_t i = 0; i < images.size(); ++i) {
      boxes.push_back(images[i]);
      items.push_back({Item::kRegion, i});
    }
    Block block;
    for (std::size_t position : reading_order(boxes, bulleted, gutter)) {
      const Item item = items[position];
      if (item.kind != Item::kLine) {
        flush(block);
        if (item.kind == Item::kTable) add_table(grids[item.index]);
        if (item.kind == Item::kRegion) add_region(images[item.index]);
        continue;
      }
      const Line& line = lines[item.index];
      const std::string text = line_text(line);
      const Join join = block.lines.empty() ? Join::kNewBlock : join_kind(block, line, text, out_.body_font_size_q);
      if (join == Join::kNewBlock) {
        flush(block);
        block.list_item = starts_with_list_marker(text);
      }
      block.lines.push_back(&line);
      block.same_line.push_back(join == Join::kSameLine);
      block.bbox = block.lines.size() == 1 ? line.bbox : unite(block.bbox, line.bbox);
      if (join != Join::kSameLine) ++block.visual_lines;
    }
    flush(block);
    for (const std::vector<Line>& column : margin_numbers) add_line_numbers(column);
    mark_figures();
    add_unseen_text(glyphs.hidden, "hidden_text_detected");
    add_unseen_text(glyphs.off_page, "off_page_text_detected");
    // Text far off the page leaves no glyph to warn about (PDFium drops it): the page says so.
    if (glyphs.off_page.empty() && page_.off_page_text_objects > 0) {
      out_.warnings.push_back({"off_page_text_detected", -1, -1, -1, ""});
    }
    add_page_warnings(!lines.empty() || !margin_numbers.empty() || std::any_of(grids.begin(), grids.end(), [](const Grid& g) {
      return std::any_of(g.cells.begin(), g.cells.end(), [](const GridCell& c) { return !c.lines.empty(); });
    }));
    return std::move(out_);
  }

 private:
  Bbox clamp(Bbox b) const {
    if (b.x0 > b.x1) std::swap(b.x0, b.x1);
    if (b.y0 > b.y1) std::swap(b.y0, b.y1);
    b.x0 = std::clamp<std::int64_t>(b.x0, 0, out_.width);
    b.x1 = std::clamp<std::int64_t>(b.x1, 0, out_.width);
    b.y0 = std::clamp<std::int64_t>(b.y0, 0, out_.height);
    b.y1 = std::clamp<std::int64_t>(b.y1, 0, out_.height);
    return b;
  }

  static std::int64_t body_font_size(const std::vector<Glyph>& glyphs) {
    std::map<std::int64_t, std::size_t> counts;
    for (const Glyph& g : glyphs) {
      if (!g.generated) ++counts[g.font_size_q];
    }
    std::int64_t body = 0;
    std::size_t best = 0;
    for (const auto& [size, count] : counts) {
      if (count > best) {
        best = count;
        body = size;
      }
    }
    return body;
  }

  std::int64_t next_element() const { return static_cast<std::int64_t>(out_.elements.size()); }

  void flush(Block& block) {
    if (block.lines.empty()) return;
    LayoutElement element;
    ElementTextBuilder text(page_, out_.spans, next_element());
    bool bold = true;
    for (std::size_t i = 0; i < block.lines.size(); ++i) {
      const Line& line = *block.lines[i];
      if (i == 0) {
        text.add_first_line(line);
      } else if (block.same_line[i]) {
        text.add_same_line(line);
      } else {
        text.add_wrapped_line(line);
      }
      element.font_size_q = std::max(element.font_size_q, line.font_size_q);
      bold = bold && line.bold;
    }
    element.bbox = clamp(block.bbox);
    text.finish(element);
    element.type = classify(element, bold, block.visual_lines);
    if (element.type == "heading") element.heading_level = section_number_depth(element.text);
    out_.elements.push_back(std::move(element));
    block = Block{};
  }

  std::string classify(const LayoutElement& element, bool bold, std::size_t visual_lines) const {
    const std::size_t scalars = utf8::scalar_count(element.text);
    const bool larger = element.font_size_q * 100 >= out_.body_font_size_q * kHeadingSizePercent;
    const bool bold_short = bold && scalars <= kMaxBoldHeadingScalars && element.text.back() != '.';
    // A numbered line set apart by size, weight or capitals is a section title, not a list item:
    // "1. Introduction" in bold, "II. FORMATTING".
    if (visual_lines == 1 && scalars <= kMaxBoldHeadingScalars && section_number_depth(element.text) > 0 &&
        (larger || bold_short || upper_case_title(element.text))) {
      return "heading";
    }
    if (starts_with_list_marker(element.text)) return "list_item";
    if (starts_with_caption_label(element.text)) return "caption";
    if (visual_lines <= kMaxHeadingLines && scalars <= kMaxHeadingScalars && has_letter(element.text) &&
        (larger || bold_short)) {
      return "heading";
    }
    return "text_block";
  }

  static std::vector<std::vector<Line>> take_margin_line_numbers(std::vector<Line>& lines) {
    std::vector<std::vector<Line>> columns;
    std::vector<bool> taken(lines.size(), false);
    for (const std::vector<std::size_t>& column : find_margin_line_numbers(lines)) {
      columns.emplace_back();
      for (std::size_t i : column) {
        columns.back().push_back(lines[i]);
        taken[i] = true;
      }
    }
    std::vector<Line> rest;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (!taken[i]) rest.push_back(std::move(lines[i]));
    }
    lines = std::move(rest);
    return columns;
  }

  // A column of margin line numbers: page furniture, typed "footer" (CONTRACTS §2.2 has no
  // line-number type; as furniture the verifier's running text, chunks and Markdown leave it out,
  // as they leave out running footers), one number per visual line, after the body.
  void add_line_numbers(const std::vector<Line>& column) {
    LayoutElement element;
    element.type = "footer";
    ElementTextBuilder text(page_, out_.spans, next_element());
    for (std::size_t i = 0; i < column.size(); ++i) {
      if (i == 0) {
        text.add_first_line(column[i]);
        element.bbox = column[i].bbox;
      } else {
        text.add_wrapped_line(column[i]);
        element.bbox = unite(element.bbox, column[i].bbox);
      }
      element.font_size_q = std::max(element.font_size_q, column[i].font_size_q);
    }
    element.bbox = clamp(element.bbox);
    text.finish(element);
    out_.elements.push_back(std::move(element));
  }

  void add_table(const Grid& grid) {
    LayoutTable table;
    table.bbox = clamp(grid.bbox);
    table.n_rows = grid.n_rows;
    table.n_cols = grid.n_cols;
    LayoutElement element;
    element.type = "table";
    element.bbox = table.bbox;
    element.table = static_cast<std::int64_t>(out_.tables.size());
    ElementTextBuilder text(page_, out_.spans, next_element());
    // Table projection (CONTRACTS §2.2): rows joined by "\n", cells by " | ".
    for (std::int64_t row = 0; row < grid.n_rows; ++row) {
      if (row > 0) text.add_literal("\n");
      bool first_cell = true;
      for (const GridCell& cell : grid.cells) {
        if (cell.row != row) continue;
        if (!first_cell) text.add_literal(" | ");
        first_cell = false;
        const std::size_t start = text.text().size();
        for (std::size_t i = 0; i < cell.lines.size(); ++i) {
          if (i == 0) {
            text.add_first_line(cell.lines[i]);
          } else if (same_band(cell.lines[i - 1].bbox, cell.lines[i].bbox)) {
            text.add_same_line(cell.lines[i]);
          } else {
            text.add_wrapped_line(cell.lines[i]);
          }
          element.font_size_q = std::max(element.font_size_q, cell.lines[i].font_size_q);
        }
        table.cells.push_back({cell.row, cell.col, cell.row_span, cell.col_span, clamp(cell.bbox), text.text().substr(start)});
      }
    }
    text.finish(element);
    out_.tables.push_back(std::move(table));
    out_.elements.push_back(std::move(element));
  }

  void add_region(const Bbox& box) {
    LayoutElement element;
    element.type = "region";
    element.bbox = box;
    element.region = static_cast<std::int64_t>(out_.regions.size());
    out_.regions.push_back({box, "image"});
    out_.elements.push_back(std::move(element));
  }

  // An image with a caption right above or below it (overlapping horizontally) is a figure.
  void mark_figures() {
    for (const LayoutElement& element : out_.elements) {
      if (element.region < 0) continue;
      LayoutRegion& region = out_.regions[static_cast<std::size_t>(element.region)];
      for (const LayoutElement& caption : out_.elements) {
        if (caption.type != "caption") continue;
        const Bbox& c = caption.bbox;
        const bool overlaps_x = c.x0 < region.bbox.x1 && c.x1 > region.bbox.x0;
        const bool below = c.y0 >= region.bbox.y1 - kCaptionDistance / 10 && c.y0 - region.bbox.y1 <= kCaptionDistance;
        const bool above = c.y1 <= region.bbox.y0 + kCaptionDistance / 10 && region.bbox.y0 - c.y1 <= kCaptionDistance;
        if (overlaps_x && (below || above)) region.kind = "figure";
      }
    }
  }

  // Text a reader cannot see becomes spans owned by no element (so no element text or chunk
  // carries it), each named by a warning. Hidden glyphs are grouped by technique first, so each
  // span (and its warning) has one.
  void add_unseen_text(const std::vector<Glyph>& glyphs, const char* code) {
    std::map<HiddenTechnique, std::vector<Glyph>> groups;
    for (const Glyph& g : glyphs) groups[g.hidden].push_back(g);
    for (const auto& [technique, group] : groups) {
      for (const Line& line : build_lines(group)) {
        for (const auto& [begin, end] : font_runs(line)) {
          LayoutSpan span = make_span(page_, line.glyphs, begin, end, line.horizontal);
          const bool hidden = technique != HiddenTechnique::kNone;  // off-page text lies in no element
          LayoutWarning warning{code, static_cast<std::int64_t>(out_.spans.size()), -1,
                                hidden ? element_under(span.bbox) : -1, technique_name(technique)};
          out_.warnings.push_back(std::move(warning));
          out_.spans.push_back(std::move(span));
        }
      }
    }
  }

  // The text-bearing element whose box overlaps `box` most, -1 when none does: hidden text laid in
  // (or under) a visible paragraph is reported on that paragraph too.
  std::int64_t element_under(const Bbox& box) const {
    std::int64_t best = -1, best_area = 0;
    for (std::size_t e = 0; e < out_.elements.size(); ++e) {
      const LayoutElement& element = out_.elements[e];
      if (element.text.empty()) continue;
      const std::int64_t w = std::min(box.x1, element.bbox.x1) - std::max(box.x0, element.bbox.x0);
      const std::int64_t h = std::min(box.y1, element.bbox.y1) - std::max(box.y0, element.bbox.y0);
      if (w <= 0 || h <= 0) continue;
      if (w * h > best_area) {
        best_area = w * h;
        best = static_cast<std::int64_t>(e);
      }
    }
    return best;
  }

  void add_page_warnings(bool has_text) {
    if (!page_.annotations.empty()) out_.warnings.push_back({"annotations_present", -1, -1, -1, ""});
    constexpr std::int32_t kLinkSubtype = 2;  // FPDF_ANNOT_LINK
    if (std::any_of(page_.annotations.begin(), page_.annotations.end(),
                    [](const RawAnnotation& a) { return a.subtype == kLinkSubtype && !a.uri.empty(); })) {
      out_.warnings.push_back({"external_links_present", -1, -1, -1, ""});
    }
    // A link that runs something when clicked: a program (Launch) or an action PDFium does not
    // support, which is where JavaScript is (PDFium's public API does not tell JavaScript from the
    // other unsupported actions). Never run; reported so the page is not taken for plain text.
    constexpr std::int32_t kUnsupportedAction = 0, kLaunchAction = 4;  // PDFACTION_UNSUPPORTED, PDFACTION_LAUNCH
    if (std::any_of(page_.annotations.begin(), page_.annotations.end(), [](const RawAnnotation& a) {
          return a.subtype == kLinkSubtype && (a.action == kUnsupportedAction || a.action == kLaunchAction);
        })) {
      out_.warnings.push_back({"unsupported_annotation", -1, -1, -1, ""});
    }
    if (!has_text && !page_.images.empty()) out_.warnings.push_back({"image_only_page", -1, -1, -1, ""});
  }

  const RawPage& page_;
  PageLayout out_;
};

}  // namespace

PageLayout layout_page(const RawPage& page) {
  // Text that runs vertically or upside down (content turned on its page) is laid out in its
  // own frame, where it runs left to right, and the result mapped back to display space.
  const int quarters = text_turn(page);
  if (quarters == 0) return PageBuilder(page).build();
  PageLayout layout = PageBuilder(turn_page(page, quarters)).build();
  turn_back(layout, page, quarters);
  return layout;
}

}  // namespace ethos::pdf
