// stitch.hpp - stitched quotations: a quote split at elision marks (..., …, [...], (...)) whose
// fragments are located in order, each within the policy's elision window of the one before.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "match/guard.hpp"
#include "match/matcher.hpp"
#include "match/policy.hpp"
#include "match/scalar_text.hpp"
#include "match/tokens.hpp"

namespace ethos::match {

// The quote's fragments between elision marks ("...", "…", ". . .", "[...]", "[…]", "(...)",
// "(…)"), trimmed, empty ones dropped. Empty when fewer than two fragments remain: a mark only at
// the start or the end marks truncation, not stitching (strip_truncation).
std::vector<std::string> split_at_elisions(std::string_view quote);

// The quote without the elision marks (and white space) at its start and end: "… the rest of it"
// and "the start of it …" quote a part of a sentence. The quote itself when nothing would remain
// or it has no such mark.
std::string_view strip_truncation(std::string_view quote);

struct FragmentMatch {
  std::string quote;               // the fragment as the claim wrote it
  std::optional<Located> found;    // where it is (original scalars of the target), if found
  std::optional<std::string> elided;  // the source text between the previous found fragment and this one
};

struct StitchResult {
  std::vector<FragmentMatch> fragments;
  std::optional<Located> span;  // from the first found fragment to the last, at the loosest tier used
  std::vector<Guard> guards;    // what the elisions removed: figures (numeric), negations and qualifiers (polarity)
};

// Each fragment is searched at the policy's accepted tiers, whole tokens only; the chain that
// places the most fragments in order (each starting at most window_chars after the previous
// one's end) wins, earliest first on ties.
StitchResult locate_fragments(const Ladder& target, const std::vector<std::string>& fragments, const Policy& policy);

// Occurrences kept per fragment: the first this many distinct (start, end) found, tier by tier.
constexpr std::size_t kMaxFragmentCandidates = 256;

// A fragment's occurrences in a target: whole-token (when the policy asks) occurrences at the
// policy's accepted tiers, each (start, end) once at the tightest tier that has it, by position,
// at most kMaxFragmentCandidates (fragment_occurrences on a ladder; DocumentIndex::
// fragment_occurrences on a range of a document's running text).
using FragmentOccurrences = std::function<std::vector<Located>(const std::string& fragment)>;
std::vector<Located> fragment_occurrences(const Ladder& target, const std::string& fragment, const Policy& policy);

// The collection both fragment_occurrences share: for each accepted tier in policy order whose
// needle (the fragment's reading there) is not empty, occurrences_at(tier, needle, keep) calls
// keep(start, end) for every aligned occurrence, reading by reading and position by position, and
// stops when keep returns false (the cap is reached). keep drops what is not whole-token (when
// the policy asks), then keeps each (start, end) at the first (tightest) tier that gives it.
template <typename OccurrencesAt>
std::vector<Located> collect_fragment_occurrences(const Ladder& fragment, ScalarView target_original,
                                                  const Policy& policy, OccurrencesAt occurrences_at) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, Tier> found;
  for (Tier tier : policy.tiers) {
    if (!policy.accepts(tier)) break;
    const std::u32string& needle = fragment.at(tier).front().text;
    if (needle.empty()) continue;
    occurrences_at(tier, needle, [&](std::uint32_t start, std::uint32_t end) {
      if (found.size() >= kMaxFragmentCandidates) return false;
      if (policy.whole_tokens &&
          !(is_token_boundary(target_original, start) && is_token_boundary(target_original, end))) {
        return true;
      }
      found.emplace(std::make_pair(start, end), tier);  // keeps the tighter tier seen first
      return true;
    });
  }
  std::vector<Located> out;
  out.reserve(found.size());
  for (const auto& [range, tier] : found) out.push_back(Located{tier, range.first, range.second, 1});
  return out;
}
// locate_fragments with the occurrences from `occurrences_of`, in offsets of `original` (the
// target's scalars: the elided text between two fragments is read from it).
StitchResult stitch_fragments(ScalarView original, const std::vector<std::string>& fragments,
                              const Policy& policy, const FragmentOccurrences& occurrences_of);

}  // namespace ethos::match
