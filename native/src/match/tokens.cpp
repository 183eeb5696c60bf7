// tokens.cpp - the token boundary rule of docs/matching.md (words, numbers, signs, CJK, Thai and its neighbours).
#include "match/tokens.hpp"

#include "match/unsegmented_scripts.hpp"
#include "text/unicode_props.hpp"

namespace ethos::match {
namespace {

// Characters that continue a number when digits stand on both sides: 12.5, 1,000, 10:30,
// 2024-01-05, 05/01/2024, 1 000 is not covered (a space separates tokens).
bool is_number_joiner(char32_t c) { return c == U'.' || c == U',' || c == U':' || c == U'/' || c == U'-' || c == 0x2212; }

bool is_sign(char32_t c) { return c == U'-' || c == U'+' || c == 0x2212 || c == 0x00B1; }

bool is_percent(char32_t c) { return c == U'%' || c == 0x2030 || c == 0x2031 || c == 0xFF05; }

// The rule on scalars of one width (the view's width is tested once per call, not per read).
template <typename CharT>
bool boundary_at(const CharT* text, std::size_t size, std::size_t pos) {
  if (pos == 0 || pos >= size) return true;
  const auto before = static_cast<char32_t>(text[pos - 1]);
  const auto after = static_cast<char32_t>(text[pos]);
  using unicode::is_decimal_digit;
  using unicode::is_word_char;
  if (unicode::is_cjk_ideograph_or_kana(before) || unicode::is_cjk_ideograph_or_kana(after)) return true;
  // Thai, Lao, Myanmar and Khmer write no spaces between words either, and finding their words
  // takes a dictionary: each character is a token with the signs that belong to it (a vowel sign
  // or tone mark after it; a vowel written before its consonant, or a stacking sign, binds to the
  // character after it), as each Han character is.
  if (is_unsegmented_letter(before) || is_unsegmented_letter(after)) {
    return !is_dependent_sign(after) && !binds_to_next(before);
  }
  if (is_word_char(before) && is_word_char(after)) return false;
  if (is_decimal_digit(before) && is_number_joiner(after) && pos + 1 < size && is_decimal_digit(static_cast<char32_t>(text[pos + 1]))) {
    return false;
  }
  if (is_number_joiner(before) && is_decimal_digit(after) && pos >= 2 && is_decimal_digit(static_cast<char32_t>(text[pos - 2]))) return false;
  // A sign belongs to its number when it does not follow a word ("-5" but not "pre-5G").
  if (is_sign(before) && is_decimal_digit(after) && (pos < 2 || !is_word_char(static_cast<char32_t>(text[pos - 2])))) return false;
  if (is_decimal_digit(before) && is_percent(after)) return false;
  return true;
}

}  // namespace

bool is_token_boundary(ScalarView text, std::size_t pos) {
  return text.narrow() ? boundary_at(text.narrow_data(), text.size(), pos) : boundary_at(text.wide_data(), text.size(), pos);
}

}  // namespace ethos::match
