// tokens.hpp - whole-token boundaries in original text: where a match may start and end.
#pragma once

#include <cstddef>
#include <string>

#include "match/scalar_text.hpp"

namespace ethos::match {

// True when position `pos` (0..text.size()) of the original scalars separates two tokens, so a
// match may start or end there. Not a boundary: inside a word (letters, marks, digits), inside a
// number (digit [.,:/-] digit: decimals, grouped digits, times, dates), between a sign and its
// digits, between digits and a percent sign. Han, Hiragana and Katakana characters are tokens
// of their own (those scripts put no spaces between words), and so are the characters of Thai,
// Lao, Myanmar and Khmer, each with the signs that belong to it.
bool is_token_boundary(ScalarView text, std::size_t pos);

}  // namespace ethos::match
