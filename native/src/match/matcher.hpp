// matcher.hpp - finds a claim text in a target text along the ladder, keeping whole-token matches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "match/ladder.hpp"
#include "match/policy.hpp"

namespace ethos::match {

// Quotes are contained in the target; values and cells equal the whole target (CONTRACTS §3.4).
enum class TextRule { contains, equals };

// One located match: the tier it was found at, where it sits in the original target text
// (Unicode-scalar offsets, end exclusive) and how many occurrences of its kind (whole-token, or
// clipped) that tier has.
struct Located {
  Tier tier = Tier::exact;
  std::uint32_t start = 0, end = 0;
  std::size_t occurrences = 0;
};

// What the ladder found for one claim in one target.
struct LadderResult {
  std::optional<Located> whole;    // tightest tier with a whole-token occurrence
  std::optional<Located> clipped;  // tightest tier with an occurrence that cuts a token
};

// Searches the policy's tiers in order; stops at the first tier with a whole-token occurrence.
// An expected text that normalizes to empty never matches.
LadderResult search_ladder(const Ladder& target, const Ladder& expected, TextRule rule, const Policy& policy);

}  // namespace ethos::match
