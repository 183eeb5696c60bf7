// unsegmented_scripts.hpp - the South-East Asian scripts written without spaces between words
// (Thai, Lao, Myanmar, Khmer) and the signs that belong to the character before them.
#pragma once

#include "text/unicode_props.hpp"

namespace ethos::match {

// Thai and Lao (U+0E00-U+0EFF), Myanmar (U+1000-U+109F), Khmer (U+1780-U+17FF).
inline bool is_unsegmented_script(char32_t c) {
  return (c >= 0x0E00 && c <= 0x0EFF) || (c >= 0x1000 && c <= 0x109F) || (c >= 0x1780 && c <= 0x17FF);
}

// A letter or sign of those scripts (their digits are digits: a number there is one token).
inline bool is_unsegmented_letter(char32_t c) {
  return is_unsegmented_script(c) && unicode::is_word_char(c) && !unicode::is_decimal_digit(c);
}

// The combining signs of those scripts (vowel signs above and below, tone marks) and the general
// combining diacritics: they belong to the character before them.
inline bool is_dependent_sign(char32_t c) {
  if (c >= 0x0300 && c <= 0x036F) return true;
  if (c == 0x0E31 || (c >= 0x0E34 && c <= 0x0E3A) || (c >= 0x0E47 && c <= 0x0E4E)) return true;  // Thai
  if (c == 0x0EB1 || (c >= 0x0EB4 && c <= 0x0EBC) || (c >= 0x0EC8 && c <= 0x0ECD)) return true;  // Lao
  if (c >= 0x102B && c <= 0x103E) return true;                                                    // Myanmar
  return c >= 0x17B6 && c <= 0x17D3;                                                              // Khmer
}

// A character that binds to the one after it: Thai and Lao vowels written before the consonant
// they follow in speech (เ แ โ ใ ไ, ເ ແ ໂ ໃ ໄ), and the signs that stack the next consonant
// under the one before (Khmer coeng U+17D2, Myanmar virama U+1039).
inline bool binds_to_next(char32_t c) {
  return (c >= 0x0E40 && c <= 0x0E44) || (c >= 0x0EC0 && c <= 0x0EC4) || c == 0x17D2 || c == 0x1039;
}

}  // namespace ethos::match
