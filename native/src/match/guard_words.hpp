// guard_words.hpp - lookups in the guards' word lists (negators, qualifiers, antonyms, numerals,
// scale words, units, months), generated from native/data/guard_words.json.
#pragma once

#include <optional>
#include <string_view>

namespace ethos::match::guard_words {

// Words are case-tier tokens: lowercase, typography folded (straight apostrophe), UTF-8.
bool is_negation(std::string_view word);  // the lists plus the n't suffix and French n' prefix
bool is_qualifier(std::string_view word);
bool are_antonyms(std::string_view a, std::string_view b);  // either order
std::optional<long long> spelled_number(std::string_view word);
std::optional<int> scale_exponent(std::string_view word);  // thousand -> 3, bn -> 9
std::optional<std::string_view> unit_of(std::string_view word);  // "%" -> percent, "$" -> USD
std::optional<int> month_of(std::string_view word);

// spelled_number, scale_exponent and month_of of one word in one lookup (the numeric guard asks
// all three of every word of a quote and its near miss): nullptr when the word is none of them.
struct NumericWord {
  std::optional<long long> spelled;
  std::optional<int> scale, month;
};
const NumericWord* numeric_word(std::string_view word);

}  // namespace ethos::match::guard_words
