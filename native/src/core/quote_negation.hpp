// quote_negation.hpp - the polarity guard's "negation right before the quote" check, reading only the text just before it.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "match/guard.hpp"
#include "match/matcher.hpp"

namespace ethos {

// match::negation_before(target_utf8, where), given only the part of the target from the ASCII
// space before the word that precedes the quote (and its white space) on: that check reads the
// white space before the quote and the one word before it, and a word never reaches across an
// ASCII space, so the answer is the same; a grounded quote then does not decode its element's
// text from the beginning. (native/tests/quote_negation_tests.cpp compares the two.)
// start_byte, when given, receives the byte offset of where.start in target_utf8 (counted here anyway).
// ascii: the caller knows target_utf8 is ASCII only, so that offset is where.start, not counted.
std::optional<match::Guard> negation_before_quote(std::string_view target_utf8, const match::Located& where,
                                                  std::size_t* start_byte = nullptr, bool ascii = false);

// match::negation_after(target_utf8, where) (a negating suffix after the hyphen right after the
// quote: "sugar" from "sugar-free"), reading only the scalar before the quote's end and the few
// after it. start_byte: the byte offset of where.start (negation_before_quote gives it); ascii as there.
std::optional<match::Guard> negation_after_quote(std::string_view target_utf8, const match::Located& where,
                                                 std::size_t start_byte, bool ascii = false);

}  // namespace ethos
