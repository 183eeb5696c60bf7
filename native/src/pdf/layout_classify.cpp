// layout_classify.cpp - the character patterns behind list items, captions and numbered headings.
#include "pdf/layout_classify.hpp"

#include <array>
#include <string>

#include "text/utf8.hpp"

namespace ethos::pdf {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_alpha(char c) { return is_lower(c) || (c >= 'A' && c <= 'Z'); }
bool is_roman(char c) { return c == 'i' || c == 'v' || c == 'x' || c == 'I' || c == 'V' || c == 'X'; }

// Bullet glyphs, including the Symbol/Wingdings private-use bullets common in office PDFs.
constexpr std::array<char32_t, 16> kBullets = {0x2022, 0x2023, 0x25E6, 0x2043, 0x2219, 0x00B7, 0x25AA, 0x25AB,
                                               0x25CF, 0x25CB, 0x25A0, 0x25A1, 0x27A2, 0x2713, 0xF0B7, 0xF0A7};
// Dash-like markers count only when a space follows (else they are part of a word or number).
constexpr std::array<char32_t, 5> kDashMarkers = {U'-', U'*', 0x2013, 0x2014, 0x2212};

template <std::size_t N>
bool one_of(char32_t c, const std::array<char32_t, N>& set) {
  for (char32_t s : set) {
    if (s == c) return true;
  }
  return false;
}

bool space_at(std::string_view text, std::size_t i) { return i < text.size() && (text[i] == ' ' || text[i] == '\t'); }

}  // namespace

bool is_bullet(char32_t c) { return one_of(c, kBullets); }

bool starts_with_list_marker(std::string_view text) {
  if (text.empty()) return false;
  std::size_t pos = 0;
  const char32_t first = utf8::next(text, pos);
  if (one_of(first, kBullets)) return pos < text.size();
  if (one_of(first, kDashMarkers)) return space_at(text, pos);
  // Enumerators: "12." "12)" "a." "a)" "iv." and the same in parentheses.
  std::size_t i = 0;
  const bool parenthesised = text[0] == '(';
  if (parenthesised) i = 1;
  const std::size_t start = i;
  while (i < text.size() && is_digit(text[i]) && i - start < 3) ++i;
  if (i == start) {
    while (i < text.size() && is_roman(text[i]) && i - start < 5) ++i;
    if (i == start && i < text.size() && is_alpha(text[i])) ++i;
  }
  if (i == start || i >= text.size()) return false;
  if (parenthesised) return text[i] == ')' && space_at(text, i + 1);
  return (text[i] == '.' || text[i] == ')') && space_at(text, i + 1);
}

bool starts_with_caption_label(std::string_view text) {
  for (std::string_view label : {"Figure", "FIGURE", "Fig.", "FIG.", "Fig", "Table", "TABLE", "Tab.", "Chart", "Exhibit"}) {
    if (text.substr(0, label.size()) != label) continue;
    std::size_t i = label.size();
    if (space_at(text, i)) ++i;
    if (i < text.size() && (is_digit(text[i]) || (is_roman(text[i]) && text[i] >= 'A' && text[i] <= 'Z'))) return true;
  }
  return false;
}

std::int64_t section_number_depth(std::string_view text) {
  std::size_t i = 0;
  std::int64_t depth = 0;
  while (i < text.size()) {
    const std::size_t start = i;
    while (i < text.size() && is_digit(text[i]) && i - start < 3) ++i;
    // The first component may be an appendix letter or a Roman numeral ("A.1", "IV.2"), always
    // followed by a dot.
    if (i == start && depth == 0) {
      while (i < text.size() && (text[i] == 'I' || text[i] == 'V' || text[i] == 'X') && i - start < 4) ++i;
      if (i == start && i < text.size() && text[i] >= 'A' && text[i] <= 'Z') ++i;
      if (i == start || i >= text.size() || text[i] != '.') return 0;
    }
    if (i == start) return 0;
    ++depth;
    if (i < text.size() && text[i] == '.') {
      ++i;
      if (space_at(text, i)) break;  // "2. Title"
      continue;
    }
    break;
  }
  if (depth == 0 || !space_at(text, i) || depth > 9) return 0;
  while (space_at(text, i)) ++i;
  return i < text.size() ? depth : 0;
}

bool upper_case_title(std::string_view text) {
  std::size_t letters = 0;
  for (char c : text) {
    if (c >= 'a' && c <= 'z') return false;
    if (c >= 'A' && c <= 'Z') ++letters;
  }
  return letters >= 3;
}

}  // namespace ethos::pdf
