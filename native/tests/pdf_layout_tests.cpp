// pdf_layout_tests.cpp - layout, assembly, renderings and glyph boxes on synthetic raw pages.
//
// Every page here is built by hand with a fixed, simple geometry (each character is half an em
// wide), so expected texts, offsets and boxes follow from the construction, not from the code.
#include <cmath>
#include <algorithm>
#include <cstdio>
#include <limits>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/glyph_boxes.hpp"
#include "core/native_document.hpp"
#include "json/c14n.hpp"
#include "pdf/layout.hpp"
#include "pdf/layout_model.hpp"
#include "text/utf8.hpp"
#include "test_check.hpp"

namespace {

using ethos::pdf::PageLayout;
using ethos::pdf::RawChar;
using ethos::pdf::RawPage;
using json = nlohmann::json;


std::string utf8(const std::u32string& text) {
  std::string out;
  for (char32_t c : text) ethos::utf8::append(out, c);
  return out;
}

struct Style {
  int font = 0;
  std::int32_t render_mode = 0;
  std::uint32_t fill = 0x000000ffu;
  std::uint16_t flags = 0;
};

// Builds a RawPage the way the PDFium extraction fills one.
struct PageMaker {
  RawPage page;

  explicit PageMaker(std::int32_t index, double width = 612, double height = 792, std::int32_t rotation = 0) {
    page.index = index;
    page.width = width;
    page.height = height;
    page.rotation = rotation;
    page.fonts.push_back({"Body", true, 400, 0});
    page.fonts.push_back({"Body-Bold", true, 700, 0});
    page.fonts.push_back({"Sans", false, 400, 0});
  }

  // Characters of `text` from x on the baseline, each 0.5*size wide; returns the x after the text.
  double text(double x, double baseline, double size, const std::u32string& text, Style style = {}) {
    for (char32_t c : text) {
      RawChar rc;
      rc.codepoint = c;
      rc.box = {x, baseline - 0.7 * size, x + 0.5 * size, baseline};
      rc.loose = {x, baseline - 0.8 * size, x + 0.5 * size, baseline + 0.2 * size};
      rc.origin_x = x;
      rc.origin_y = baseline;
      rc.font_size = size;
      rc.font = style.font;
      rc.render_mode = style.render_mode;
      rc.fill_rgba = style.fill;
      rc.flags = style.flags;
      if (c == 0xFFFE || c == 0x0002) rc.flags = static_cast<std::uint16_t>(rc.flags | ethos::pdf::kCharHyphen);
      page.chars.push_back(rc);
      x += 0.5 * size;
    }
    return x;
  }

  // PDFium's generated line break between two lines.
  void newline() {
    for (char32_t c : {U'\r', U'\n'}) {
      RawChar rc;
      rc.codepoint = c;
      rc.flags = ethos::pdf::kCharGenerated | ethos::pdf::kCharNoBox;
      page.chars.push_back(rc);
    }
  }

  // Horizontal and vertical rules of a grid through the given coordinates (points).
  void grid(const std::vector<double>& xs, const std::vector<double>& ys) {
    for (double y : ys) page.rules.push_back({{xs.front(), y - 0.25, xs.back(), y + 0.25}, true});
    for (double x : xs) page.rules.push_back({{x - 0.25, ys.front(), x + 0.25, ys.back()}, false});
  }
};

std::int64_t q(double points) { return static_cast<std::int64_t>(points * 100 + (points >= 0 ? 0.5 : -0.5)); }

std::vector<std::string> texts(const PageLayout& layout) {
  std::vector<std::string> out;
  for (const auto& element : layout.elements) out.push_back(element.text);
  return out;
}

ethos::pdf::AssembleInputs inputs() {
  ethos::pdf::AssembleInputs in;
  in.source_sha256 = std::string(64, 'a');
  in.source_bytes = 1234;
  in.pdfium_build = "test";
  return in;
}

// Invariants every assembled document must keep, whatever its content: each owned span's text is
// its slice of the owner's text, and its advances sum to its width.
void check_document_invariants(const std::string& document) {
  const json doc = json::parse(document);
  std::map<std::string, const json*> owner;
  for (const json& e : doc.at("payload").at("elements")) {
    for (const json& ref : e.value("span_refs", json::array())) owner[ref.get<std::string>()] = &e;
  }
  for (const json& span : doc.at("payload").at("spans")) {
    const auto it = owner.find(span.at("id").get<std::string>());
    CHECK(span.contains("char_start") == (it != owner.end()));
    if (it != owner.end()) {
      const std::u32string text = [](const std::string& utf8_text) {
        std::u32string out;
        std::size_t pos = 0;
        while (pos < utf8_text.size()) out.push_back(ethos::utf8::next(utf8_text, pos));
        return out;
      }(it->second->at("text").get<std::string>());
      const auto start = span.at("char_start").get<std::size_t>(), end = span.at("char_end").get<std::size_t>();
      CHECK(end <= text.size() && utf8(text.substr(start, end - start)) == span.at("text").get<std::string>());
    }
    if (span.contains("advances")) {
      std::int64_t sum = 0;
      for (const json& a : span.at("advances")) sum += a.get<std::int64_t>();
      CHECK(sum == span.at("bbox")[2].get<std::int64_t>() - span.at("bbox")[0].get<std::int64_t>());
    }
  }
}

std::string error_envelope(const std::function<void()>& action) {
  try {
    action();
  } catch (const ethos::EthosError& error) {
    return error.envelope();
  }
  return "";
}

// Paragraph of three lines: PDFium's line-end hyphen marker, a ligature, generated line breaks.
void test_faithful_paragraph() {
  PageMaker m(1);
  const std::u32string line1 = U"The quick hyphen\uFFFE";
  const std::u32string line2 = U"ated \uFB01ne words go";
  const std::u32string line3 = U"on here.";
  m.text(72, 100, 10, line1);
  m.newline();
  m.text(72, 112, 10, line2);
  m.newline();
  m.text(72, 124, 10, line3);
  const PageLayout layout = ethos::pdf::layout_page(m.page);
  CHECK(layout.elements.size() == 1);
  if (layout.elements.size() != 1) return;
  const auto& e = layout.elements[0];
  // The marker is written as the hyphen the page shows; one generated space joins each line.
  const std::u32string expected = U"The quick hyphen-" U" " U"ated \uFB01ne words go" U" " U"on here.";
  CHECK(e.text == utf8(expected));
  CHECK(e.type == "text_block");
  const std::int64_t n1 = static_cast<std::int64_t>(line1.size()), n2 = static_cast<std::int64_t>(line2.size());
  CHECK((e.line_breaks == std::vector<std::int64_t>{n1, n1 + 1 + n2}));
  CHECK((e.hyphen_breaks == std::vector<std::int64_t>{n1 - 1}));
  CHECK(e.spans.size() == 3);
  // Each span covers one line: offsets, and advances of exactly half an em (500 quanta) per char.
  const auto& s1 = layout.spans[static_cast<std::size_t>(e.spans[0])];
  CHECK(s1.char_start == 0 && s1.char_end == n1);
  CHECK(s1.advances.size() == line1.size());
  bool all_half_em = true;
  for (std::int64_t a : s1.advances) all_half_em = all_half_em && a == 500;
  CHECK(all_half_em);
  CHECK(s1.bbox.x0 == 7200 && s1.bbox.x1 == 7200 + 500 * n1);
  CHECK(s1.font_id == "embedded:Body" && s1.font_size_q == 1000);
  const auto& s2 = layout.spans[static_cast<std::size_t>(e.spans[1])];
  CHECK(s2.char_start == n1 + 1 && s2.char_end == n1 + 1 + n2);
  CHECK(s2.text == utf8(line2));
  CHECK(e.bbox.x0 == 7200 && e.bbox.y0 == q(100 - 8) && e.bbox.y1 == q(124 + 2));
}

// PDFium's per-character API reports a line-end hyphen as U+0002; a real soft hyphen stays.
void test_hyphen_markers() {
  PageMaker m(1);
  m.text(72, 100, 10, U"one mark\u0002");
  m.newline();
  m.text(72, 112, 10, U"er and soft\u00AD");
  m.page.chars.back().flags = ethos::pdf::kCharHyphen;
  m.newline();
  m.text(72, 124, 10, U"ly done and type-");  // a real hyphen PDFium did not flag
  m.newline();
  m.text(72, 136, 10, U"set");
  const PageLayout layout = ethos::pdf::layout_page(m.page);
  CHECK(layout.elements.size() == 1);
  if (layout.elements.empty()) return;
  CHECK(layout.elements[0].text == utf8(U"one mark- er and soft\u00AD ly done and type- set"));
  CHECK((layout.elements[0].hyphen_breaks == std::vector<std::int64_t>{8, 21, 39}));
  CHECK((layout.elements[0].line_breaks == std::vector<std::int64_t>{9, 22, 40}));
}

// Font changes split spans; a PDFium word gap stays inside the span it follows.
void test_spans_follow_fonts() {
  PageMaker m(1);
  double x = m.text(72, 100, 10, U"plain ");
  x = m.text(x, 100, 10, U"bold", {1});
  RawChar gap;
  gap.codepoint = U' ';
  gap.flags = ethos::pdf::kCharGenerated | ethos::pdf::kCharNoBox;
  m.page.chars.push_back(gap);
  m.text(x + 5, 100, 10, U"tail");
  const PageLayout layout = ethos::pdf::layout_page(m.page);
  CHECK(layout.elements.size() == 1 && layout.spans.size() == 3);
  if (layout.spans.size() != 3) return;
  CHECK(layout.elements[0].text == "plain bold tail");
  CHECK(layout.spans[0].text == "plain " && layout.spans[1].text == "bold " && layout.spans[2].text == "tail");
  CHECK(layout.spans[1].font_id == "embedded:Body-Bold");
  // A trailing word gap lies outside the span's ink box, so it adds no width; the advances
  // always sum to the box width.
  CHECK((layout.spans[1].advances == std::vector<std::int64_t>{500, 500, 500, 500, 0}));
  CHECK(layout.spans[1].bbox.x1 - layout.spans[1].bbox.x0 == 2000);
  CHECK(layout.elements[0].line_breaks.empty());
}

// A full-width title, then two columns whose lines alternate in the content stream.
void test_two_columns() {
  PageMaker m(1);
  m.text(72, 60, 20, U"Title of the paper across both columns");  // crosses the gutter
  m.newline();
  const std::vector<std::u32string> left = {U"left one", U"left two", U"left three"};
  const std::vector<std::u32string> right = {U"right one", U"right two", U"right three"};
  for (std::size_t i = 0; i < 3; ++i) {
    m.text(72, 100 + 12.0 * static_cast<double>(i), 10, left[i]);
    m.text(320, 100 + 12.0 * static_cast<double>(i), 10, right[i]);
    m.newline();
  }
  const PageLayout layout = ethos::pdf::layout_page(m.page);
  CHECK((texts(layout) == std::vector<std::string>{"Title of the paper across both columns", "left one left two left three",
                                                    "right one right two right three"}));
  if (layout.elements.size() == 3) {
    CHECK(layout.elements[0].type == "heading");
    CHECK(layout.elements[1].type == "text_block");
  }
}

// Two columns whose headings face each other: the space around them is a horizontal gap across
// both columns wider than the gutter, yet it lies inside the columns - the left column is read to
// its end before the right one. Axis labels beside a plot (a side far narrower than the other)
// keep their rows.
void test_columns_with_facing_headings() {
  PageMaker m(1);
  const auto column = [&m](double x, double shift, const std::u32string& name) {
    for (int part = 0; part < 2; ++part) {
      const double top = 100 + shift + 90.0 * part;
      m.text(x, top, 10, name + U" heading " + std::u32string(1, static_cast<char32_t>(U'A' + part)));
      m.newline();
      for (int i = 0; i < 3; ++i) {
        m.text(x, top + 36 + 12.0 * i, 10, name + U" body line of text");
        m.newline();
      }
    }
  };
  column(72, 0, U"left");  // columns end at x=72+22*5=182 and start again at 196: a 14 pt gutter
  // The right column runs 6 pt lower, on baselines of its own. The 20 pt of white under the
  // heading pairs (glyph bands 10 pt high) is wider than the gutter and at most twice it; the
  // 14 pt between the parts is not wider.
  column(196, 6, U"right");
  const std::vector<std::string> got = texts(ethos::pdf::layout_page(m.page));
  CHECK((got == std::vector<std::string>{"left heading A", "left body line of text left body line of text left body line of text",
                                         "left heading B", "left body line of text left body line of text left body line of text",
                                         "right heading A", "right body line of text right body line of text right body line of text",
                                         "right heading B", "right body line of text right body line of text right body line of text"}));

  // A narrow label beside each of two stacked plots: the plots are read one after the other.
  PageMaker plots(1);
  for (int part = 0; part < 2; ++part) {
    const double top = 100 + 74.0 * part;  // 24 pt between the plots, 18 pt after the label
    plots.text(72, top + 20, 10, part == 0 ? U"Aa" : U"Bb");
    plots.text(100, top, 10, U"tick values of the plot axis");
    plots.newline();
    plots.text(100, top + 40, 10, U"more values of the plot axis");
    plots.newline();
  }
  const std::vector<std::string> labelled = texts(ethos::pdf::layout_page(plots.page));
  CHECK(labelled.size() == 6);
  if (labelled.size() == 6) CHECK(labelled[0] == "Aa" && labelled[3] == "Bb");
}

// A table of contents in the left column (entry, page number) beside running text on the right:
// two page columns, not a table.
void test_columns_are_not_tables() {
  PageMaker m(1);
  const std::vector<std::u32string> entries = {U"Intro", U"Methods", U"Data", U"Results", U"Discussion", U"Summary", U"Notes"};
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const double y = 100 + 12.0 * static_cast<double>(i);
    m.text(72, y, 10, entries[i]);
    m.text(250, y, 10, std::u32string(1, static_cast<char32_t>(U'1' + i)));
    m.text(320, y, 10, U"running text of the right column here");
    m.newline();
  }
  const PageLayout layout = ethos::pdf::layout_page(m.page);
  CHECK(layout.tables.empty());
  bool right_column_joined = false;
  for (const auto& e : layout.elements) right_column_joined = right_column_joined || e.text.rfind("running text of the right column here running", 0) == 0;
  CHECK(right_column_joined);
}

// Thousands of tiny strokes (a plot) and a single framed box are not tables.
void test_plots_are_not_tables() {
  PageMaker m(1);
  for (int i = 0; i < 400; ++i) {
    const double x = 100 + (i % 20) * 10.0, y = 100 + (i / 20) * 10.0;
    m.page.rules.push_back({{x, y, x + 2, y + 0.3}, true});
    m.page.rules.push_back({{x, y, x + 0.3, y + 2}, false});
  }
  m.grid({100, 400}, {500, 600});
  m.text(110, 550, 10, U"boxed note");
  const PageLayout layout = ethos::pdf::layout_page(m.page);
  CHECK(layout.tables.empty());
  CHECK((texts(layout) == std::vector<std::string>{"boxed note"}));
}

void test_codec_rejects_garbage() {
  PageMaker m(1);
  m.text(72, 100, 10, U"some text");
  const std::string bytes = ethos::pdf::encode_page_layout(ethos::pdf::layout_page(m.page));
  for (const std::string& bad : {std::string("nope"), bytes.substr(0, bytes.size() - 1), bytes + "x"}) {
    const std::string envelope = error_envelope([&] { ethos::pdf::decode_page_layout(bad); });
    CHECK(envelope.find("\"code\":\"internal_error\"") != std::string::npos);
  }
}

// A reference card (short keys, long descriptions) is a table of two columns, one row per key;
// a table of contents (entries, then their narrow page numbers) stays rows, each read as one
// line. Neither reads every key before every description.
void test_key_description_rows() {
  PageMaker m(1);
  const std::vector<std::pair<std::u32string, std::u32string>> card = {
      {U"C-k", U"kill to the end of the line"}, {U"C-y", U"yank the most recently killed text"}, {U"M-d", U"kill to the end of the word"}};
  for (std::size_t i = 0; i < card.size(); ++i) {
    const double y = 100 + 12.0 * static_cast<double>(i);
    m.text(72, y, 10, card[i].first);
    m.text(140, y, 10, card[i].second);
    m.newline();
  }
  const std::vector<std::u32string> toc = {U"Introduction", U"Related work", U"Methods"};
  for (std::size_t i = 0; i < toc.size(); ++i) {
    const double y = 200 + 12.0 * static_cast<double>(i);
    m.text(72, y, 10, toc[i]);
    m.text(400, y, 10, std::u32string(1, static_cast<char32_t>(U'3' + i)));
    m.newline();
  }
  const PageLayout layout = ethos::pdf::layout_page(m.page);
  CHECK(layout.tables.size() == 1);
  if (layout.tables.size() == 1) {
    const auto& table = layout.tables[0];
    CHECK(table.n_rows == 3 && table.n_cols == 2 && table.cells.size() == 6);
    for (std::size_t i = 0; i < table.cells.size() && i < 6; ++i) {
      const auto& cell = table.cells[i];
      const auto& entry = card[i / 2];
      CHECK(cell.row == static_cast<std::int64_t>(i / 2) && cell.col == static_cast<std::int64_t>(i % 2));
      CHECK(cell.text == utf8(i % 2 == 0 ? entry.first : entry.second));
    }
  }
  CHECK((texts(layout) == std::vector<std::string>{
             "C-k | kill to the end of the line\nC-y | yank the most recently killed text\nM-d | kill to the end of the word",
             "Introduction 3 Related work 4 Methods 5"}));
  if (layout.elements.size() == 2) CHECK(layout.elements[1].line_breaks.size() == 2);
}

// Every synthetic page of this file assembled into one document keeps the invariants; broken
// coordinates (NaN, infinities, huge values) neither crash nor leak into the text.
void test_invariants_and_broken_numbers() {
  PageMaker m(1);
  m.text(72, 100, 10, U"The quick hyphen\uFFFE");
  m.newline();
  m.text(72, 112, 10, U"ated text with \uFB01 and x");
  m.text(m.page.chars.back().box.x1, 109, 6, U"2");
  m.newline();
  m.grid({100, 200, 300}, {300, 320, 340});
  m.text(105, 315, 10, U"A");
  m.text(205, 315, 10, U"B");
  m.text(105, 335, 10, U"C");
  m.text(205, 335, 10, U"D");
  m.newline();
  m.text(72, 500, 10, U"bad numbers");
  m.page.chars.back().box = {std::nan(""), 1e300, -1e300, std::numeric_limits<double>::infinity()};
  m.page.chars.back().origin_x = std::nan("");
  const std::string document = ethos::pdf::assemble_document({ethos::pdf::layout_page(m.page)}, inputs());
  check_document_invariants(document);
  CHECK(ethos::load_native_document(document)->elements.size() >= 2);
}

// Random pages (a fixed-seed generator, so every run is the same): layout, codec and assembly
// never crash, keep the invariants, and the document always loads strictly.
void test_random_pages() {
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  const auto next = [&state](std::uint64_t bound) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % bound;
  };
  const char32_t alphabet[] = {U'a', U'b', U' ', U'-', U'1', U'.', 0xFFFE, 0x0002, 0x4E00, 0xFB01, U'\n', 0x2022, 0};
  for (int round = 0; round < 30; ++round) {
    std::vector<PageLayout> layouts;
    for (std::int32_t index = 1; index <= 3; ++index) {
      PageMaker m(index);
      const std::size_t chars = next(400);
      for (std::size_t i = 0; i < chars; ++i) {
        const double x = static_cast<double>(next(700)) - 40, y = static_cast<double>(next(850)) - 30;
        Style style;
        style.font = static_cast<int>(next(4)) - 1;
        style.render_mode = next(10) == 0 ? 3 : 0;
        style.flags = static_cast<std::uint16_t>(next(32));
        m.text(x, y, 1 + static_cast<double>(next(20)), std::u32string(1, alphabet[next(sizeof alphabet / sizeof alphabet[0])]), style);
        m.page.chars.back().angle = next(8) == 0 ? 1.5707963 : 0;
      }
      for (std::size_t i = next(30); i > 0; --i) {
        const double x = static_cast<double>(next(600)), y = static_cast<double>(next(800));
        const bool horizontal = next(2) == 0;
        m.page.rules.push_back({{x, y, x + (horizontal ? static_cast<double>(next(300)) : 0.5), y + (horizontal ? 0.5 : static_cast<double>(next(300)))}, horizontal});
      }
      if (next(4) == 0) m.page.images.push_back({{10, 10, 300, 300}});
      layouts.push_back(ethos::pdf::decode_page_layout(ethos::pdf::encode_page_layout(ethos::pdf::layout_page(m.page))));
    }
    std::string document;
    const std::string error = error_envelope([&] { document = ethos::pdf::assemble_document(layouts, inputs()); });
    if (!error.empty()) {
      CHECK(error.find("ocr_required") != std::string::npos);
      continue;
    }
    check_document_invariants(document);
    CHECK(error_envelope([&] { ethos::load_native_document(document); }).empty());
    CHECK(error_envelope([&] { ethos::pdf::render_markdown(document); }).empty());
  }
}

// A page shown rotated: PDFium reports display-space boxes; the page keeps its rotation.
void test_rotated_page() {
  PageMaker m(1, 792, 612, 90);
  m.text(700, 580, 10, U"landscape words");
  const PageLayout layout = ethos::pdf::layout_page(m.page);
  CHECK(layout.width == 79200 && layout.height == 61200 && layout.rotation == 90);
  CHECK(layout.elements.size() == 1);
  if (layout.elements.empty()) return;
  const auto& b = layout.elements[0].bbox;
  CHECK(b.x0 == 70000 && b.x1 == 70000 + 15 * 500 && b.y1 <= 61200);
}

// Headings (size and numbering), list items, a caption under an image (figure), superscripts.
void test_element_types() {
  PageMaker m(1);
  m.text(72, 60, 18, U"Big Heading");
  m.newline();
  m.text(72, 100, 10, U"2.1 Methods", {1});
  m.newline();
  double x = m.text(72, 130, 10, U"Body text with x");
  m.text(x, 127, 6, U"2");  // superscript: raised, smaller, same line
  m.newline();
  m.text(72, 160, 10, U"\u2022 first item");
  m.newline();
  m.text(72, 172, 10, U"\u2022 second item");
  m.newline();
  m.page.images.push_back({{72, 200, 272, 300}});
  m.text(72, 315, 10, U"Figure 1: A chart");
  const PageLayout layout = ethos::pdf::layout_page(m.page);
  std::vector<std::string> types;
  for (const auto& e : layout.elements) types.push_back(e.type);
  CHECK((types == std::vector<std::string>{"heading", "heading", "text_block", "list_item", "list_item", "region", "caption"}));
  if (types.size() != 7) return;
  CHECK(layout.elements[1].heading_level == 2);
  CHECK(layout.elements[0].heading_level == 0);  // ranked by size at assembly
  CHECK(layout.elements[2].text == "Body text with x2");
  CHECK(layout.regions.size() == 1 && layout.regions[0].kind == "figure");
  CHECK(layout.regions[0].bbox.x0 == 7200 && layout.regions[0].bbox.y1 == 30000);
}

// Numbered titles: emphasised or in capitals they are headings, plain they are list items.
void test_section_titles() {
  PageMaker m(1);
  m.text(72, 100, 10, U"1. Introduction", {1});
  m.newline();
  m.text(72, 130, 10, U"Body text of the section goes here at length.");
  m.newline();
  m.text(72, 160, 10, U"II. FORMATTING");
  m.newline();
  m.text(72, 190, 10, U"1. a plain numbered item");
  m.newline();
  m.text(72, 202, 10, U"2. another plain item");
  const PageLayout layout = ethos::pdf::layout_page(m.page);
  std::vector<std::string> types;
  for (const auto& e : layout.elements) types.push_back(e.type);
  CHECK((types == std::vector<std::string>{"heading", "text_block", "heading", "list_item", "list_item"}));
  if (types.size() == 5) CHECK(layout.elements[0].heading_level == 1 && layout.elements[2].heading_level == 1);
}

// A centred two-line title is one heading; an indented first line starts a new paragraph.
void test_centred_title_and_indent() {
  PageMaker m(1);
  m.text(100, 60, 20, U"A Long Title That Needs");  // 23 chars x 10 pt: 100..330
  m.newline();
  m.text(160, 86, 20, U"Two Lines");              // 9 chars x 10 pt: 160..250, centred-ish
  m.newline();
  m.text(72, 130, 10, U"First paragraph line one goes here");
  m.newline();
  m.text(72, 142, 10, U"and its second line ends it.");
  m.newline();
  m.text(92, 154, 10, U"Indented start of paragraph two");
  m.newline();
  m.text(72, 166, 10, U"which continues here");
  const PageLayout layout = ethos::pdf::layout_page(m.page);
  CHECK((texts(layout) == std::vector<std::string>{"A Long Title That Needs Two Lines",
                                                    "First paragraph line one goes here and its second line ends it.",
                                                    "Indented start of paragraph two which continues here"}));
}

// Content turned on its page: lines run downwards and follow each other leftwards. Read in the
// text's own frame, then boxed in display space (without advances: the lines are vertical).
void test_turned_text() {
  PageMaker m(1);
  const std::vector<std::u32string> lines = {U"first turned line", U"second turned line", U"third one"};
  for (std::size_t l = 0; l < lines.size(); ++l) {
    const double baseline_x = 500 - 14.0 * static_cast<double>(l);
    for (std::size_t i = 0; i < lines[l].size(); ++i) {
      RawChar rc;
      rc.codepoint = lines[l][i];
      const double y = 100 + 5.0 * static_cast<double>(i);
      rc.box = {baseline_x, y, baseline_x + 7, y + 5};
      rc.loose = {baseline_x - 2, y, baseline_x + 8, y + 5};
      rc.origin_x = baseline_x;
      rc.origin_y = y;
      rc.font_size = 10;
      rc.font = 0;
      rc.angle = -1.5707963267948966;
      m.page.chars.push_back(rc);
    }
    m.newline();
  }
  const PageLayout layout = ethos::pdf::layout_page(m.page);
  CHECK((texts(layout) == std::vector<std::string>{"first turned line second turned line third one"}));
  CHECK(layout.width == 61200 && layout.height == 79200);
  if (layout.elements.size() != 1) return;
  const auto& b = layout.elements[0].bbox;
  CHECK(b.x0 == q(500 - 28 - 2) && b.x1 == q(508) && b.y0 == 10000 && b.y1 == q(100 + 5 * 18));
  for (const auto& span : layout.spans) CHECK(span.advances.empty());
  const std::string document = ethos::pdf::assemble_document({layout}, inputs());
  check_document_invariants(document);
}

// Two CJK lines wrap with nothing inserted; the break is still recorded.
void test_cjk_wrap() {
  PageMaker m(1);
  m.text(72, 100, 10, U"\u65E5\u672C\u8A9E\u306E");
  m.newline();
  m.text(72, 112, 10, U"\u6587\u7AE0");
  const PageLayout layout = ethos::pdf::layout_page(m.page);
  CHECK(layout.elements.size() == 1);
  if (layout.elements.empty()) return;
  CHECK(layout.elements[0].text == utf8(U"\u65E5\u672C\u8A9E\u306E\u6587\u7AE0"));
  CHECK((layout.elements[0].line_breaks == std::vector<std::int64_t>{4}));
}

// A ruled 2x3 grid whose second row merges its first two cells (no rule between them there).
void test_ruled_table() {
  PageMaker m(1);
  m.text(72, 60, 10, U"Intro line.");
  m.newline();
  for (double y : {100.0, 120.0, 140.0}) m.page.rules.push_back({{100, y - 0.25, 400, y + 0.25}, true});
  m.page.rules.push_back({{99.75, 100, 100.25, 140}, false});
  m.page.rules.push_back({{199.75, 100, 200.25, 120}, false});  // only through the first row
  m.page.rules.push_back({{299.75, 100, 300.25, 140}, false});
  m.page.rules.push_back({{399.75, 100, 400.25, 140}, false});
  m.text(105, 115, 10, U"A");
  m.text(205, 115, 10, U"B");
  m.text(305, 115, 10, U"C");
  m.newline();
  m.text(105, 135, 10, U"wide");
  m.text(305, 135, 10, U"D");
  const PageLayout layout = ethos::pdf::layout_page(m.page);
  CHECK(layout.tables.size() == 1);
  if (layout.tables.size() != 1) return;
  const auto& t = layout.tables[0];
  CHECK(t.n_rows == 2 && t.n_cols == 3);
  CHECK(t.bbox.x0 == 10000 && t.bbox.y0 == 10000 && t.bbox.x1 == 40000 && t.bbox.y1 == 14000);
  CHECK(t.cells.size() == 5);
  if (t.cells.size() == 5) {
    CHECK(t.cells[3].row == 1 && t.cells[3].col == 0 && t.cells[3].col_span == 2 && t.cells[3].text == "wide");
    CHECK(t.cells[4].text == "D" && t.cells[4].col == 2);
    CHECK(t.cells[1].bbox.x0 == 20000 && t.cells[1].bbox.x1 == 30000);
  }
  CHECK((texts(layout) == std::vector<std::string>{"Intro line.", "A | B | C\nwide | D"}));
  if (layout.elements.size() == 2) CHECK(layout.elements[1].type == "table" && layout.elements[1].table == 0);
}

// Four rows of three short columns separated by wide gaps and no rules.
void test_whitespace_table() {
  PageMaker m(1);
  const std::vector<std::vector<std::u32string>> rows = {
      {U"Name", U"Qty", U"Price"}, {U"Apple", U"3", U"1.20"}, {U"Pear", U"10", U"0.80"}, {U"Fig", U"7", U"2.00"}};
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const double y = 100 + 14.0 * static_cast<double>(r);
    m.text(72, y, 10, rows[r][0]);
    m.text(200, y, 10, rows[r][1]);
    m.text(330, y, 10, rows[r][2]);
    m.newline();
  }
  const PageLayout layout = ethos::pdf::layout_page(m.page);
  CHECK(layout.tables.size() == 1);
  if (layout.tables.size() != 1) return;
  CHECK(layout.tables[0].n_rows == 4 && layout.tables[0].n_cols == 3 && layout.tables[0].cells.size() == 12);
  CHECK((texts(layout) == std::vector<std::string>{"Name | Qty | Price\nApple | 3 | 1.20\nPear | 10 | 0.80\nFig | 7 | 2.00"}));
}

// Invisible, white-on-white and off-page text stays out of element text; warnings name the spans.
// The texts of a layout's elements that have text, in order.
std::vector<std::string> shown_texts(const PageLayout& layout) {
  std::vector<std::string> shown;
  for (const auto& e : layout.elements) {
    if (!e.text.empty()) shown.push_back(e.text);
  }
  return shown;
}

// Each warning as (its code, or its technique when `technique`; the text of its span, if any).
std::vector<std::pair<std::string, std::string>> warned_spans(const PageLayout& layout, bool technique) {
  std::vector<std::pair<std::string, std::string>> warned;
  for (const auto& w : layout.warnings) {
    warned.emplace_back(technique ? w.technique : w.code,
                        w.span >= 0 ? layout.spans[static_cast<std::size_t>(w.span)].text : "");
  }
  return warned;
}

// Opaque straight-edged shapes that are not rectangles hide the glyphs they cover whole when
// painted after them: a hexagon over a word hides it (covered_by_shape); a thin triangle over the
// corner of a word covers no glyph whole, and a hexagon painted before a word lies under it.
void test_polygon_covers() {
  PageMaker m(1);
  m.text(100, 200, 10, U"covered");  // glyphs x 100..135, y 193..200
  m.newline();
  m.text(100, 300, 10, U"partly");
  m.newline();
  m.text(100, 400, 10, U"under");
  for (auto& c : m.page.chars) c.paint_order = 5;
  using ethos::pdf::RawCover;
  m.page.covers.push_back(RawCover{{90, 100, 150, 160, 150, 100}, {196, 190, 190, 196, 205, 205}, {90, 190, 160, 205}, 6});
  m.page.covers.push_back(RawCover{{100, 108, 100}, {290, 290, 310}, {100, 290, 108, 310}, 6});
  m.page.covers.push_back(RawCover{{90, 100, 150, 160, 150, 100}, {396, 390, 390, 396, 405, 405}, {90, 390, 160, 405}, 4});
  const PageLayout layout = ethos::pdf::layout_page(m.page);
  CHECK((shown_texts(layout) == std::vector<std::string>{"partly", "under"}));
  CHECK((warned_spans(layout, true) == std::vector<std::pair<std::string, std::string>>{{"covered_by_shape", "covered"}}));
  // The white page is not what lies under the third word: white text there is not judged by colour.
  PageMaker white(1);
  white.text(100, 400, 10, U"under", {0, 0, 0xFFFFFFFFu});
  for (auto& c : white.page.chars) c.paint_order = 5;
  white.page.covers.push_back(m.page.covers.back());
  CHECK(ethos::pdf::layout_page(white.page).warnings.empty());
}

void test_hidden_and_off_page_text() {
  PageMaker m(1);
  m.text(72, 100, 10, U"visible words");
  m.newline();
  m.text(72, 130, 10, U"invisible", {0, 3});
  m.newline();
  m.text(72, 160, 10, U"white", {0, 0, 0xffffffffu});
  m.newline();
  m.text(-300, 100, 10, U"offpage");
  m.newline();
  // An invisible OCR layer over a scanned page (an image over half of it) is what the image
  // shows: kept. Over a small image (a logo) invisible text is hidden like anywhere else.
  m.page.images.push_back({{100, 300, 600, 792}});
  m.text(310, 350, 10, U"ocr layer", {0, 3});
  m.newline();
  m.page.images.push_back({{20, 200, 60, 240}});
  m.text(25, 220, 10, U"logo", {0, 3});
  const PageLayout layout = ethos::pdf::layout_page(m.page);
  CHECK((shown_texts(layout) == std::vector<std::string>{"visible words", "ocr layer"}));
  CHECK((warned_spans(layout, false) == std::vector<std::pair<std::string, std::string>>{
             {"hidden_text_detected", "invisible"}, {"hidden_text_detected", "logo"}, {"hidden_text_detected", "white"},
             {"off_page_text_detected", "offpage"}}));
  for (const auto& w : layout.warnings) CHECK(layout.spans[static_cast<std::size_t>(w.span)].element == -1);
  // Each hidden span names how it is hidden; off-page text has no technique.
  std::vector<std::string> techniques;
  for (const auto& w : layout.warnings) techniques.push_back(w.technique);
  CHECK((techniques ==
         std::vector<std::string>{"invisible_render_mode", "invisible_render_mode", "same_colour_as_background", ""}));
}

void test_page_warnings() {
  PageMaker m(1);
  m.page.images.push_back({{0, 0, 612, 792}});
  m.page.annotations.push_back({2, {10, 10, 50, 20}, "https://example.com"});
  const PageLayout layout = ethos::pdf::layout_page(m.page);
  std::vector<std::string> codes;
  for (const auto& w : layout.warnings) codes.push_back(w.code);
  CHECK((codes == std::vector<std::string>{"annotations_present", "external_links_present", "image_only_page"}));
  // A link that runs an action (PDFium: 0 unsupported, JavaScript among them; 4 Launch) is
  // reported; one that goes to a page (1) is not.
  for (const std::int32_t action : {0, 1, 4}) {
    PageMaker linked(1);
    linked.page.images.push_back({{0, 0, 612, 792}});
    linked.page.annotations.push_back({2, {10, 10, 50, 20}, "", action});
    std::vector<std::string> found;
    for (const auto& w : ethos::pdf::layout_page(linked.page).warnings) found.push_back(w.code);
    const bool reported = std::find(found.begin(), found.end(), "unsupported_annotation") != found.end();
    CHECK(reported == (action != 1));
  }
  // No text anywhere in the selection: OCR would be needed.
  const std::string envelope = error_envelope([&] { ethos::pdf::assemble_document({layout}, inputs()); });
  CHECK(envelope.find("\"code\":\"ocr_required\"") != std::string::npos);
}

// Three pages with the same running header and a page number at the bottom.
std::vector<RawPage> three_pages() {
  std::vector<RawPage> pages;
  for (int i = 1; i <= 3; ++i) {
    PageMaker m(i);
    m.text(72, 30, 9, U"ACME Annual Report");
    m.newline();
    m.text(72, 100, 10, U"Body of page " + std::u32string(1, static_cast<char32_t>(U'0' + i)) + U" has text.");
    m.newline();
    m.text(300, 770, 9, std::u32string(1, static_cast<char32_t>(U'0' + i)));
    m.page.label = i == 1 ? "i" : "";
    pages.push_back(m.page);
  }
  return pages;
}

void test_assemble_headers_and_determinism() {
  std::vector<PageLayout> layouts;
  for (const RawPage& page : three_pages()) layouts.push_back(ethos::pdf::layout_page(page));
  const std::string document = ethos::pdf::assemble_document(layouts, inputs());
  check_document_invariants(document);
  // Workers may return pages in any grouping and order; the pipe codec must be lossless.
  std::vector<PageLayout> shuffled;
  for (std::size_t i : {2u, 0u, 1u}) {
    shuffled.push_back(ethos::pdf::decode_page_layout(ethos::pdf::encode_page_layout(layouts[i])));
  }
  CHECK(ethos::pdf::assemble_document(shuffled, inputs()) == document);
  for (const PageLayout& layout : layouts) {
    const std::string once = ethos::pdf::encode_page_layout(layout);
    CHECK(ethos::pdf::encode_page_layout(ethos::pdf::decode_page_layout(once)) == once);
  }
  // The strict loader accepts it (shape, references, hashes).
  const auto source = ethos::load_native_document(document);
  CHECK(source->pages.size() == 3 && source->pages[0].label && *source->pages[0].label == "i");
  CHECK(!source->pages[1].label);
  const json doc = json::parse(document);
  const json& payload = doc.at("payload");
  std::vector<std::string> types;
  for (const json& e : payload.at("elements")) types.push_back(e.at("type").get<std::string>());
  CHECK((types == std::vector<std::string>{"header", "text_block", "footer", "header", "text_block", "footer", "header",
                                           "text_block", "footer"}));
  CHECK(payload.at("elements")[0].at("id") == "e000001" && payload.at("elements")[8].at("id") == "e000009");
  CHECK(payload.at("pages")[2].at("id") == "p0003");
  // Chunks leave running headers and footers out.
  CHECK(payload.at("chunks").size() == 1);
  CHECK(payload.at("chunks")[0].at("text") == "Body of page 1 has text.\n\nBody of page 2 has text.\n\nBody of page 3 has text.");
  const std::size_t body_scalars = std::string("Body of page 1 has text.").size();
  CHECK(payload.at("chunks")[0].at("token_estimate").at("count") == (3 * body_scalars + 2 * 2 + 3) / 4);
  CHECK(doc.at("parser").at("name") == "ethos" && doc.at("profile").at("id") == "ethos-deterministic-v1");
  // Renderings: Markdown omits headers and footers and marks page breaks; text keeps every element.
  const std::string markdown = ethos::pdf::render_markdown(document);
  CHECK(markdown.find("ACME") == std::string::npos);
  CHECK(markdown.find("<!-- page 2 -->\n\nBody of page 2 has text.") != std::string::npos);
  const std::string text = ethos::pdf::render_text(document);
  CHECK(text.rfind("ACME Annual Report\n\nBody of page 1 has text.\n\n1\n\n", 0) == 0);
  // A single page has no running header.
  const std::string single = ethos::pdf::assemble_document({layouts[0]}, inputs());
  CHECK(json::parse(single).at("payload").at("elements")[0].at("type") == "text_block");
}

// Heading levels ranked by size over the whole document; Markdown renders them and tables.
void test_assemble_levels_and_markdown() {
  PageMaker a(1);
  a.text(72, 60, 24, U"Main Title");
  a.newline();
  a.text(72, 100, 10, U"Some body text here.");
  PageMaker b(2);
  b.text(72, 60, 16, U"Sub Section");
  b.newline();
  b.text(72, 100, 10, U"More body text here.");
  b.newline();
  const std::vector<std::vector<std::u32string>> rows = {{U"k", U"v", U"w"}, {U"a|b", U"1", U"2"}, {U"c", U"3", U"4"}};
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const double y = 200 + 14.0 * static_cast<double>(r);
    b.text(72, y, 10, rows[r][0]);
    b.text(200, y, 10, rows[r][1]);
    b.text(330, y, 10, rows[r][2]);
    b.newline();
  }
  const std::string document =
      ethos::pdf::assemble_document({ethos::pdf::layout_page(a.page), ethos::pdf::layout_page(b.page)}, inputs());
  check_document_invariants(document);
  const json payload = json::parse(document).at("payload");
  CHECK(payload.at("elements")[0].at("heading_level") == 1);
  CHECK(payload.at("elements")[2].at("heading_level") == 2);
  CHECK(payload.at("tables").size() == 1 && payload.at("tables")[0].at("id") == "t0001");
  CHECK(payload.at("elements")[4].at("table_ref") == "t0001");
  // A heading starts a new chunk.
  CHECK(payload.at("chunks").size() == 2);
  const std::string markdown = ethos::pdf::render_markdown(document);
  CHECK(markdown ==
        "<!-- page 1 -->\n\n# Main Title\n\nSome body text here.\n\n<!-- page 2 -->\n\n## Sub Section\n\nMore body text here.\n\n"
        "| k | v | w |\n| --- | --- | --- |\n| a\\|b | 1 | 2 |\n| c | 3 | 4 |\n");
}

// Highlight boxes from advances: a range across a line break gives one rectangle per line.
void test_glyph_boxes() {
  PageMaker m(1);
  m.text(72, 100, 10, U"abcdef");
  m.newline();
  m.text(72, 112, 10, U"ghijkl");
  const std::string document = ethos::pdf::assemble_document({ethos::pdf::layout_page(m.page)}, inputs());
  const auto source = ethos::load_native_document(document);
  CHECK(source->elements.size() == 1 && source->elements[0].text && *source->elements[0].text == "abcdef ghijkl");
  CHECK((source->elements[0].line_breaks == std::vector<std::int64_t>{6}));
  // "def ghi": chars 3..10 -> "def" on line one, "ghi" on line two.
  const auto boxes = ethos::boxes_for_range(*source, 0, 3, 10);
  CHECK(boxes.size() == 2);
  if (boxes.size() != 2) return;
  CHECK(boxes[0].page == "p0001" && boxes[0].bbox.x0 == 7200 + 3 * 500 && boxes[0].bbox.x1 == 7200 + 6 * 500);
  CHECK(boxes[0].bbox.y0 == q(92) && boxes[0].bbox.y1 == q(102));
  CHECK(boxes[1].bbox.x0 == 7200 && boxes[1].bbox.x1 == 7200 + 3 * 500 && boxes[1].bbox.y0 == q(104));
  CHECK(ethos::boxes_for_range(*source, 0, 4, 4).empty());
}

// The strict loader's checks of the extension fields, each naming its JSON path.
void test_loader_extension_fields() {
  PageMaker m(1);
  m.text(72, 100, 10, U"abc");
  m.newline();
  m.text(72, 112, 10, U"def");
  const json good = json::parse(ethos::pdf::assemble_document({ethos::pdf::layout_page(m.page)}, inputs()));
  const auto load_error = [](const json& doc) {
    return error_envelope([&] { ethos::load_native_document(ethos::to_c14n(doc)); });
  };
  json doc = good;
  doc["payload"]["elements"][0]["line_breaks"] = {3, 3};
  std::string error = load_error(doc);
  CHECK(error.find("sorted and unique") != std::string::npos && error.find("$.payload.elements[0].line_breaks[1]") != std::string::npos);
  doc = good;
  doc["payload"]["elements"][0]["hyphen_breaks"] = {7};
  error = load_error(doc);
  CHECK(error.find("offset outside the text") != std::string::npos && error.find("$.payload.elements[0].hyphen_breaks[0]") != std::string::npos);
  doc = good;
  doc["payload"]["spans"][0]["advances"] = {500, 500};
  error = load_error(doc);
  CHECK(error.find("one advance per character") != std::string::npos && error.find("\"$.payload.spans[0].advances\"") != std::string::npos);
  doc = good;
  doc["payload"]["spans"][0]["advances"] = {500, -1, 500};
  error = load_error(doc);
  CHECK(error.find("$.payload.spans[0].advances[1]") != std::string::npos);
  doc = good;
  doc["payload"]["pages"][0]["label"] = 5;
  error = load_error(doc);
  CHECK(error.find("$.payload.pages[0].label") != std::string::npos);
  // Unchanged, it loads; with the fields intact the hashes still hold.
  CHECK(load_error(good).empty());
}

}  // namespace

int main() {
  test_polygon_covers();
  test_faithful_paragraph();
  test_hyphen_markers();
  test_columns_are_not_tables();
  test_plots_are_not_tables();
  test_codec_rejects_garbage();
  test_invariants_and_broken_numbers();
  test_random_pages();
  test_key_description_rows();
  test_centred_title_and_indent();
  test_turned_text();
  test_section_titles();
  test_spans_follow_fonts();
  test_two_columns();
  test_columns_with_facing_headings();
  test_rotated_page();
  test_element_types();
  test_cjk_wrap();
  test_ruled_table();
  test_whitespace_table();
  test_hidden_and_off_page_text();
  test_page_warnings();
  test_assemble_headers_and_determinism();
  test_assemble_levels_and_markdown();
  test_glyph_boxes();
  test_loader_extension_fields();
  return ethos_test::finish("pdf_layout_tests");
}
