// tier_search.hpp - the tier-by-tier loop every ladder search shares: occurrences sorted into whole-token and clipped, tightest tier first.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/verify_deadline.hpp"
#include "match/ladder.hpp"
#include "match/matcher.hpp"
#include "match/policy.hpp"
#include "match/scalar_text.hpp"
#include "match/tokens.hpp"

namespace ethos::match {

// One tier's occurrences, fed reading by reading in original-text offsets. The first occurrence
// of each kind is kept; its count is the best single reading's, because several hyphenation
// readings can hold the same occurrence.
class TierTally {
 public:
  TierTally(Tier tier, ScalarView original, bool whole_tokens)
      : tier_(tier), original_(original), whole_tokens_(whole_tokens) {}

  // An aligned occurrence [start, end): whole-token unless the policy wants whole tokens and an
  // end cuts one.
  void add(std::uint32_t start, std::uint32_t end) {
    if (!whole_tokens_ || (is_token_boundary(original_, start) && is_token_boundary(original_, end))) {
      ++count_;
      if (!whole_) whole_ = Located{tier_, start, end, 0};
    } else {
      ++clipped_count_;
      if (!clipped_) clipped_ = Located{tier_, start, end, 0};
    }
  }

  // A reading equal to the needle as a whole (values and cells): one occurrence, never clipped.
  void add_whole_reading(std::uint32_t start, std::uint32_t end) {
    if (!whole_) whole_ = Located{tier_, start, end, 1};
  }

  // Closes one reading's counts.
  void end_reading() {
    if (whole_) whole_->occurrences = std::max(whole_->occurrences, count_);
    if (clipped_) clipped_->occurrences = std::max(clipped_->occurrences, clipped_count_);
    count_ = clipped_count_ = 0;
  }

  const std::optional<Located>& whole() const { return whole_; }
  const std::optional<Located>& clipped() const { return clipped_; }

 private:
  Tier tier_;
  ScalarView original_;
  bool whole_tokens_;
  std::optional<Located> whole_, clipped_;
  std::size_t count_ = 0, clipped_count_ = 0;
};

// Runs search_tier(tier, needle, tally) for each of the policy's tiers in order (search_tier
// feeds the tally and closes each reading) and stops at the first tier with a whole-token
// occurrence; the tightest tier's clipped occurrence is kept too. An expected text that
// normalizes to empty never matches.
template <typename SearchTier>
LadderResult search_tiers(const Ladder& expected, const Policy& policy, ScalarView original,
                          SearchTier&& search_tier) {
  LadderResult result;
  for (Tier tier : policy.tiers) {
    const std::u32string& needle = expected.at(tier).front().text;
    if (needle.empty()) return result;
    check_verify_deadline();  // --max-verify-ms, once per tier searched
    TierTally tally(tier, original, policy.whole_tokens);
    search_tier(tier, needle, tally);
    if (tally.clipped() && !result.clipped) result.clipped = tally.clipped();
    if (tally.whole()) {
      result.whole = tally.whole();
      return result;
    }
  }
  return result;
}

}  // namespace ethos::match
