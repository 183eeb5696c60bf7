// footnote_markers.cpp - footnote markers glued to a word and listing line numbers, from span geometry (footnote_markers.hpp).
#include "core/footnote_markers.hpp"

#include <cstddef>

#include "text/normalize.hpp"
#include "text/unicode_props.hpp"
#include "text/utf8.hpp"

namespace ethos {
namespace {

bool is_marker_symbol(char32_t c) {
  return c == U'*' || c == 0x2020 || c == 0x2021 || c == 0x00A7 || c == 0x00B6 || c == 0x2016;
}

bool is_closing_punctuation(char32_t c) {
  return c == U'.' || c == U',' || c == U';' || c == U':' || c == U'"' || c == U'\'' || c == 0x201D || c == 0x2019 ||
         c == U'!' || c == U'?';
}

// One to three digits, or a note symbol.
bool marker_text(const std::string& text) {
  std::u32string scalars;
  for (std::size_t pos = 0; pos < text.size();) scalars.push_back(utf8::next(text, pos));
  if (scalars.empty() || scalars.size() > 3) return false;
  bool digits = true, symbols = true;
  for (char32_t c : scalars) {
    digits = digits && c >= U'0' && c <= U'9';
    symbols = symbols && is_marker_symbol(c);
  }
  return digits || symbols;
}

// Smaller and raised against the text it touches: at most nine tenths as tall, and its box ends
// a quarter of that text's height above the text's bottom. Page boxes grow downwards.
bool raised_and_smaller(const Bbox& text, const Bbox& marker) {
  const std::int64_t height = text.y1 - text.y0;
  const std::int64_t marker_height = marker.y1 - marker.y0;
  if (height <= 0 || marker_height <= 0) return false;
  return marker_height * 10 <= height * 9 && (text.y1 - marker.y1) * 4 >= height;
}

}  // namespace

bool is_leading_note_marker(const Span& marker, const Span& after, const std::u32string& text_before) {
  if (!marker.bbox || !after.bbox || !marker_text(marker.text) || after.text.empty()) return false;
  if (!text_before.empty() && !is_unicode_white_space(text_before.back())) return false;
  std::size_t pos = 0;
  const char32_t first = utf8::next(after.text, pos);
  if (!unicode::is_word_char(first) || unicode::is_decimal_digit(first)) return false;
  return raised_and_smaller(*after.bbox, *marker.bbox);
}

bool is_listing_line_number(const Span& label, const Span& after, bool line_start) {
  if (!line_start || !label.bbox || !after.bbox || after.text.empty()) return false;
  // One to five digits, then white space only (the space the parser put before the code).
  std::size_t pos = 0, digits = 0;
  while (pos < label.text.size()) {
    const char32_t c = utf8::next(label.text, pos);
    if (c >= U'0' && c <= U'9') {
      ++digits;
      continue;
    }
    if (!is_unicode_white_space(c)) return false;
    while (pos < label.text.size()) {
      if (!is_unicode_white_space(utf8::next(label.text, pos))) return false;
    }
  }
  if (digits == 0 || digits > 5) return false;
  const Bbox& number = *label.bbox;
  const Bbox& text = *after.bbox;
  const std::int64_t height = text.y1 - text.y0;
  const std::int64_t number_height = number.y1 - number.y0;
  if (height <= 0 || number_height <= 0 || number_height * 100 > height * 85) return false;
  // On the text's line: its bottom is not raised by a quarter of the text's height (a note's
  // label is), nor below the text's bottom by as much (a subscript).
  const std::int64_t rise = text.y1 - number.y1;
  if (rise * 4 >= height || -rise * 4 >= height) return false;
  return (text.x0 - number.x1) * 3 >= height;
}

bool is_footnote_marker_span(const Span& before, const Span& marker, const std::u32string& text_before) {
  if (!before.bbox || !marker.bbox || text_before.empty()) return false;
  std::u32string scalars;
  for (std::size_t pos = 0; pos < marker.text.size();) scalars.push_back(utf8::next(marker.text, pos));
  if (scalars.empty() || scalars.size() > 3) return false;
  bool digits = true, symbols = true;
  for (char32_t c : scalars) {
    digits = digits && c >= U'0' && c <= U'9';
    symbols = symbols && is_marker_symbol(c);
  }
  if (!digits && !symbols) return false;
  // Smaller and raised: the marker's box ends above the word's baseline region (a quarter of the
  // word's height up) and is at most nine tenths as tall. Page boxes grow downwards.
  const std::int64_t height = before.bbox->y1 - before.bbox->y0;
  const std::int64_t marker_height = marker.bbox->y1 - marker.bbox->y0;
  if (height <= 0 || marker_height <= 0) return false;
  if (marker_height * 10 > height * 9) return false;
  if ((before.bbox->y1 - marker.bbox->y1) * 4 < height) return false;
  // What it is glued to: closing punctuation, or a word of three letters or more.
  const char32_t last = text_before.back();
  if (is_closing_punctuation(last)) return true;
  std::size_t letters = 0;
  for (std::size_t i = text_before.size(); i > 0 && unicode::is_word_char(text_before[i - 1]); --i) {
    if (unicode::is_decimal_digit(text_before[i - 1])) return false;  // "H2O", "105": a figure's part
    ++letters;
  }
  return letters >= 3;
}

}  // namespace ethos
