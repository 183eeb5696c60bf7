// contents_reading.cpp - the contents-page reading without entry page numbers (contents_reading.hpp).
#include "core/contents_reading.hpp"

#include <cstdint>
#include <string>
#include <utility>

#include "core/glyph_boxes.hpp"
#include "match/document_index.hpp"
#include "text/normalize.hpp"
#include "text/utf8.hpp"

namespace ethos {
namespace {

bool is_roman(char32_t c) {
  switch (c | 0x20) {
    case U'i': case U'v': case U'x': case U'l': case U'c': case U'd': case U'm': return true;
    default: return false;
  }
}

// One to four digits, or a roman numeral of at most eight letters all in one case.
bool is_page_number(const std::u32string& token) {
  if (token.empty()) return false;
  bool digits = true, upper = true, lower = true;
  for (char32_t c : token) {
    digits = digits && c >= U'0' && c <= U'9';
    upper = upper && c < 0x80 && is_roman(c) && c < U'a';
    lower = lower && c < 0x80 && is_roman(c) && c >= U'a';
  }
  return (digits && token.size() <= 4) || ((upper || lower) && token.size() <= 8);
}

bool is_letter(char32_t c) { return c < 0x80 ? ((c | 0x20) >= U'a' && (c | 0x20) <= U'z') : !is_unicode_white_space(c); }

struct Line {
  std::uint32_t start = 0, end = 0;        // scalars of the element's text
  std::uint32_t number = 0, kept_end = 0;  // where its last token starts; where the kept text ends
  std::uint32_t word = 0;                  // where the token before the number starts
  bool ends_in_number = false, leader = false, has_word = false;
};

// The lines of an element's text (its line breaks are the separators between them), each with
// its last token read.
std::vector<Line> lines_of(const std::u32string& text, const std::vector<std::int64_t>& breaks) {
  std::vector<Line> lines;
  std::uint32_t start = 0;
  const auto close = [&](std::uint32_t end) {
    Line line{start, end, end, end};
    std::uint32_t e = end;
    while (e > start && is_unicode_white_space(text[e - 1])) --e;
    std::uint32_t b = e;
    while (b > start && !is_unicode_white_space(text[b - 1])) --b;
    line.ends_in_number = b < e && is_page_number(text.substr(b, e - b));
    line.number = b;
    std::uint32_t k = b;
    while (k > start && is_unicode_white_space(text[k - 1])) --k;
    line.kept_end = k;
    line.word = k;
    while (line.word > start && !is_unicode_white_space(text[line.word - 1])) --line.word;
    // Leader dots: at least three full stops among the last scalars before the number, spaced or not.
    std::uint32_t dots = 0;
    for (std::uint32_t i = k; i > start && (text[i - 1] == U'.' || text[i - 1] == U' ' || text[i - 1] == 0x2026); --i) {
      dots += text[i - 1] == U'.' ? 1 : text[i - 1] == 0x2026 ? 3 : 0;
    }
    line.leader = dots >= 3;
    for (std::uint32_t i = start; i < k && !line.has_word; ++i) line.has_word = is_letter(text[i]);
    lines.push_back(line);
  };
  for (std::int64_t at : breaks) {
    if (at < start || at >= static_cast<std::int64_t>(text.size())) continue;
    close(static_cast<std::uint32_t>(at));
    start = static_cast<std::uint32_t>(at) + 1;
  }
  close(static_cast<std::uint32_t>(text.size()));
  return lines;
}

// Whether the line's number stands apart from the word before it, as a right-aligned or tabbed
// page number does: a gap of at least 1.2 times the number's height (a justified line's widest
// word space stays well under it).
bool set_apart(const Source& source, std::size_t element, const Line& line) {
  if (line.word >= line.kept_end) return false;
  const std::vector<PageBox> number = boxes_for_range(source, element, line.number, line.number + 1);
  const std::vector<PageBox> word = boxes_for_range(source, element, line.kept_end - 1, line.kept_end);
  if (number.empty() || word.empty()) return false;
  const Bbox& n = number.front().bbox;
  const Bbox& w = word.back().bbox;
  const std::int64_t height = n.y1 - n.y0;
  return height > 0 && (n.x0 - w.x1) * 10 >= height * 12;
}

}  // namespace

std::optional<StreamReading> contents_reading(const Source& source, const std::vector<std::size_t>& pages) {
  const match::DocumentIndex& index = source.match_index();
  StreamReading out;
  out.name = "contents_numbers_dropped";
  std::uint32_t scalars = 0;
  bool dropped = false;
  std::u32string text;
  for (std::size_t page : pages) {
    if (page >= source.pages.size()) continue;
    for (std::size_t element : source.elements_on_page(source.pages[page].id)) {
      if (index.running_number(element) == match::DocumentIndex::npos) continue;
      const Element& owner = source.elements[element];
      text.clear();
      for (std::size_t pos = 0; pos < owner.text->size();) text.push_back(utf8::next(*owner.text, pos));
      std::vector<Line> lines = lines_of(text, owner.line_breaks);
      // A contents list: two lines or more, each ending in a number after a word, one of them
      // at least set apart from its word. Lines of body text that end in figures are not one.
      bool contents_list = lines.size() >= 2, any_apart = false;
      std::vector<bool> apart(lines.size(), false);
      for (std::size_t l = 0; l < lines.size(); ++l) {
        contents_list = contents_list && lines[l].ends_in_number && lines[l].has_word;
        if (lines[l].ends_in_number && lines[l].has_word) apart[l] = set_apart(source, element, lines[l]);
        any_apart = any_apart || apart[l];
      }
      contents_list = contents_list && any_apart;
      // The pieces of this element: [from, to) ranges of its text, in order.
      std::vector<std::pair<std::uint32_t, std::uint32_t>> keep;
      std::uint32_t from = 0;
      for (std::size_t l = 0; l < lines.size(); ++l) {
        const Line& line = lines[l];
        if (!(line.ends_in_number && line.has_word && (contents_list || line.leader || apart[l]))) continue;
        if (line.kept_end > from) keep.emplace_back(from, line.kept_end);
        from = line.end;  // the number and the white space before it go; the separator after it too
        dropped = true;
      }
      if (from < text.size()) keep.emplace_back(from, static_cast<std::uint32_t>(text.size()));
      for (std::size_t k = 0; k < keep.size(); ++k) {
        const auto [first, last] = keep[k];
        if (!out.pieces.empty()) {
          out.text += k == 0 ? '\n' : ' ';  // elements as in the running text; lines by a space
          ++scalars;
        }
        for (std::int64_t h : owner.hyphen_breaks) {
          if (h >= first && h < last) out.hyphen_breaks.push_back(scalars + static_cast<std::uint32_t>(h - first));
        }
        out.pieces.push_back({scalars, scalars + (last - first), element, first});
        for (std::uint32_t i = first; i < last; ++i) utf8::append(out.text, text[i]);
        scalars += last - first;
      }
    }
  }
  if (!dropped) return std::nullopt;
  return out;
}

}  // namespace ethos
