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

// CJK punctuation (U+3001-U+303F) and the full-width punctuation CJK text sets (、。「」（）［］｛｝
// ！，．：；？ and the half-width forms U+FF5F-U+FF65): it carries its own spacing, so white space
// beside it is a line wrap or an extractor's, never a word space.
inline bool is_cjk_punctuation(char32_t c) {
  if (c < 0x3001) return false;
  if (c <= 0x303F) return true;
  switch (c) {
    case 0xFF01: case 0xFF08: case 0xFF09: case 0xFF0C: case 0xFF0E: case 0xFF1A: case 0xFF1B: case 0xFF1F:
    case 0xFF3B: case 0xFF3D: case 0xFF5B: case 0xFF5D: return true;
    default: return c >= 0xFF5F && c <= 0xFF65;
  }
}

// The Unicode version of the generated tables.
const char* tables_version();

}  // namespace ethos::unicode
