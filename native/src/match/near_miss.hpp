// near_miss.hpp - locates the best source span for a quote that no accepted tier matched: seeds
// from a token index of the target, bounded token alignment, similarity score, token diff, guards.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "match/align.hpp"
#include "match/guard.hpp"
#include "match/policy.hpp"

namespace ethos::match {

// The target's case-tier tokens and, per word or number, where it occurs (token indices).
// Built once per target text, only when a quote in it misses.
struct NearMissIndex {
  std::u32string original;
  std::vector<Token> tokens;
  std::unordered_map<std::string, std::vector<std::uint32_t>> postings;
};

NearMissIndex build_near_miss_index(std::string_view utf8_text, const LadderOptions& options);

// One run of the token diff, with the quote's and the document's own characters.
struct DiffEntry {
  EditOp op = EditOp::equal;
  std::string quote, source;
};

struct NearMiss {
  std::uint32_t start = 0, end = 0;  // the best span, original scalars of the target text
  std::int64_t score_bp = 0;         // similarity 0..10000 (10000: the same tokens)
  std::vector<DiffEntry> diff;
  std::vector<Guard> guards;         // the guards the policy enables, in order numeric, polarity
  const char* reason = "near_miss";  // numeric_guard or polarity_guard when one blocks
};

// The best span scoring at least policy.near_miss_min_score_bp, or nothing (also for quotes
// longer than policy.near_miss_max_quote_tokens). At most policy.near_miss_max_candidates
// windows of about twice the quote's length are aligned, so the cost does not grow with the
// target beyond one pass over the seed tokens' occurrence lists.
std::optional<NearMiss> find_near_miss(const NearMissIndex& index, std::string_view quote_utf8, const Policy& policy);

}  // namespace ethos::match
