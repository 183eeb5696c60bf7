// polarity_guard.hpp - the polarity guard: a near miss that adds or drops a negation (English,
// German, French, Spanish) or swaps a direction word for its antonym (rose/fell, above/below).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "match/align.hpp"
#include "match/guard.hpp"

namespace ethos::match {

// Negators among tokens [begin, end), in order.
std::vector<std::string> negations_in(const std::vector<Token>& tokens, std::size_t begin, std::size_t end);

// Qualifiers (only, except, all, never ...) among tokens [begin, end), in order.
std::vector<std::string> qualifiers_in(const std::vector<Token>& tokens, std::size_t begin, std::size_t end);

// Compares the negators of the whole quote with those of the aligned source span, and looks for
// antonym pairs across each replaced run of the alignment.
Guard polarity_guard(const std::vector<Token>& quote, const std::vector<Token>& source, const Alignment& alignment);

}  // namespace ethos::match
