// unicode_props.hpp - Unicode properties the matching ladder needs, from generated tables.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ethos::unicode {

// Full canonical decomposition of c appended to out (c itself when it has none; Hangul too).
void append_canonical_decomposition(char32_t c, std::u32string& out);

// Canonical combining class (0 for starters).
std::uint8_t combining_class(char32_t c);

// The primary composite of (first, second), or 0 when the pair does not compose.
char32_t compose_pair(char32_t first, char32_t second);

// Canonical composition (NFC) in place on scalars, with a parallel range per scalar that is
// merged (min start, max end) whenever scalars compose or are reordered among each other.
struct ScalarRange32 {
  std::uint32_t start, end;
};
void to_nfc(std::u32string& text, std::vector<ScalarRange32>& ranges);

// The table lookups behind the inline tests below (scalars at or above U+0080).
bool is_word_char_table(char32_t c);
bool is_decimal_digit_table(char32_t c);
bool is_cjk_ideograph_or_kana_range(char32_t c);
bool is_cjk_context_range(char32_t c);

// The tests below are inline with an ASCII answer first: the index build and the tokenizer ask
// them several times per scalar of a document, nearly always about ASCII, and a call per question
// cost more than the answer.

// Letters, marks and numbers (general categories L*, M*, N*): the characters words are made of.
inline bool is_word_char(char32_t c) {
  if (c < 0x80) return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
  return is_word_char_table(c);
}

// Decimal digits (general category Nd).
inline bool is_decimal_digit(char32_t c) {
  if (c < 0x80) return c >= '0' && c <= '9';
  return is_decimal_digit_table(c);
}

// Han ideographs, Hiragana and Katakana: scripts written without spaces, one token per character.
inline bool is_cjk_ideograph_or_kana(char32_t c) { return c >= 0x3040 && is_cjk_ideograph_or_kana_range(c); }

// CJK characters and CJK punctuation: a line-wrap space between two of these is not a word space.
inline bool is_cjk_context(char32_t c) { return c >= 0x3000 && is_cjk_context_range(c); }

// The Unicode version of the generated tables.
const char* tables_version();

}  // namespace ethos::unicode
