// vacuous_quote.hpp - whether a grounded quote says too little to show that a claim is sourced.
#pragma once

#include <string_view>

namespace ethos {

// True when the quote holds at most one word (letters, marks and digits; each Han, Hiragana or
// Katakana character is a word of its own): "not", "2", "(a)", "—". Such a quote grounds wherever
// the word occurs, so its check carries the warning vacuous_quote (issue 23, item 7).
bool is_vacuous_quote(std::string_view quote_utf8);

}  // namespace ethos
