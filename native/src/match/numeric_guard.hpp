// numeric_guard.hpp - the figures a stretch of tokens states (value, sign, scale, unit, dates)
// and the numeric guard: does a near miss state the same figures as its source span?
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "match/align.hpp"
#include "match/guard.hpp"

namespace ethos::match {

// One figure: its possible exact values (two when the digit grouping is ambiguous: "1,234" is
// 1234 in English and 1.234 in European notation), its unit (percent, points, basis_points,
// permille, a currency code, date, or empty) and its tokens as written (case tier).
struct NumericMention {
  std::vector<std::string> values;  // canonical decimals "[-]digits[eExponent]", or date literals
  std::string unit;
  std::string text;
  // "one" or "uno" alone (no unit, no scale, no other numeral beside it): as often a pronoun or an
  // article ("Moreover, one may specify", "Uno de los ...") as a figure, so it is compared with a
  // figure in its place but never added or dropped on its own.
  bool pronoun = false;
};

// Numbers with their sign (leading or accounting parentheses), grouping convention, scale word
// (thousand, million, bn, k, ...) and unit (%, points, bp, currency symbols and codes), spelled-out
// numbers (one..twenty, tens, hundred), dates and times, and month names, in text order.
std::vector<NumericMention> numeric_mentions(const std::vector<Token>& tokens, std::size_t begin, std::size_t end);

bool same_figure(const NumericMention& a, const NumericMention& b);

// Blocks when the quote's figures differ from the source span's (added, dropped or changed:
// value, decimal shift, sign, scale, unit, currency, date); passes when they agree. A pronoun
// "one" that only one side has is no figure added or dropped.
Guard numeric_guard(const std::vector<NumericMention>& quote, const std::vector<NumericMention>& source);

}  // namespace ethos::match
