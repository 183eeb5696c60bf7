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

// Letters, marks and numbers (general categories L*, M*, N*): the characters words are made of.
bool is_word_char(char32_t c);

// Decimal digits (general category Nd).
bool is_decimal_digit(char32_t c);

// Han ideographs, Hiragana and Katakana: scripts written without spaces, one token per character.
bool is_cjk_ideograph_or_kana(char32_t c);

// CJK characters and CJK punctuation: a line-wrap space between two of these is not a word space.
bool is_cjk_context(char32_t c);

// The Unicode version of the generated tables.
const char* tables_version();

}  // namespace ethos::unicode
