// answer_words.cpp - word edges and words of a normalized answer or source text (answer coverage).
#include "match/answer_words.hpp"

#include "match/tokens.hpp"
#include "text/unicode_props.hpp"

namespace ethos::match {
namespace {

// South-East Asian scripts written without spaces between words.
bool is_unsegmented_script(char32_t c) {
  return (c >= 0x0E00 && c <= 0x0EFF)      // Thai, Lao
         || (c >= 0x1000 && c <= 0x109F)   // Myanmar
         || (c >= 0x1780 && c <= 0x17FF);  // Khmer
}

// The combining signs of those scripts (vowel signs above and below, tone marks) and the
// general combining diacritics: they belong to the character before them.
bool is_dependent_sign(char32_t c) {
  if (c >= 0x0300 && c <= 0x036F) return true;
  if (c == 0x0E31 || (c >= 0x0E34 && c <= 0x0E3A) || (c >= 0x0E47 && c <= 0x0E4E)) return true;  // Thai
  if (c == 0x0EB1 || (c >= 0x0EB4 && c <= 0x0EBC) || (c >= 0x0EC8 && c <= 0x0ECD)) return true;  // Lao
  if (c >= 0x102B && c <= 0x103E) return true;                                                    // Myanmar
  return c >= 0x17B6 && c <= 0x17D3;                                                              // Khmer
}

bool is_letter(char32_t c) { return unicode::is_word_char(c) && !unicode::is_decimal_digit(c); }

bool is_apostrophe(char32_t c) { return c == U'\'' || c == 0x2019; }

}  // namespace

bool is_word_edge(ScalarView text, std::size_t pos) {
  const std::size_t size = text.size();
  if (pos == 0 || pos >= size) return true;
  const char32_t before = text[pos - 1], after = text[pos];
  if (is_unsegmented_script(before) || is_unsegmented_script(after)) {
    // Inside those scripts every character is a word; a dependent sign stays with its base.
    if (is_dependent_sign(after)) return false;
    if (is_unsegmented_script(before) && is_unsegmented_script(after)) return true;
  }
  if (is_apostrophe(before) && pos >= 2 && is_letter(text[pos - 2]) && is_letter(after) &&
      !is_unsegmented_script(after)) {
    return false;
  }
  if (is_apostrophe(after) && pos + 1 < size && is_letter(before) && is_letter(text[pos + 1]) &&
      !is_unsegmented_script(before)) {
    return false;
  }
  if (is_unsegmented_script(before) != is_unsegmented_script(after) && unicode::is_word_char(before) &&
      unicode::is_word_char(after)) {
    return true;  // a Thai letter beside a Latin one: two words
  }
  return is_token_boundary(text, pos);
}

std::vector<WordSpan> answer_words(ScalarView text) {
  std::vector<WordSpan> words;
  std::size_t start = 0;
  bool has_word_char = false;
  for (std::size_t pos = 0; pos < text.size(); ++pos) {
    if (pos > start && is_word_edge(text, pos)) {
      if (has_word_char) words.push_back({start, pos});
      start = pos;
      has_word_char = false;
    }
    if (unicode::is_word_char(text[pos])) has_word_char = true;
  }
  if (has_word_char) words.push_back({start, text.size()});
  return words;
}

}  // namespace ethos::match
