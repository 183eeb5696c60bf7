// answer_words.cpp - word edges and words of a normalized answer or source text (answer coverage).
#include "match/answer_words.hpp"

#include "match/tokens.hpp"
#include "match/unsegmented_scripts.hpp"
#include "text/unicode_props.hpp"

namespace ethos::match {
namespace {

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
