// matcher.cpp - tier-by-tier search with scalar-aligned, whole-token occurrences.
#include "match/matcher.hpp"

#include "match/find_all.hpp"
#include "match/tokens.hpp"

namespace ethos::match {
namespace {

// A normalized occurrence [pos, pos+len) must not split what one original scalar (or collapsed
// run) produced, e.g. the "i" of an "ﬁ" ligature.
bool aligned(const Reading& reading, std::size_t pos, std::size_t len) {
  const std::size_t last = pos + len - 1;
  if (pos > 0 && reading.end[pos - 1] > reading.start[pos]) return false;
  if (last + 1 < reading.text.size() && reading.start[last + 1] < reading.end[last]) return false;
  return true;
}

// Start positions of needle in one reading: through the reading's gram index when the ladder
// is indexed (built here on first use), else by scanning.
std::vector<std::size_t> positions_of(const Ladder& ladder, Tier tier, std::size_t reading_index, const std::u32string& needle) {
  const Reading& reading = ladder.at(tier)[reading_index];
  if (ladder.indexed) {
    auto& slots = ladder.indexes[static_cast<int>(tier)];
    if (slots.size() < ladder.at(tier).size()) slots.resize(ladder.at(tier).size());
    if (!slots[reading_index]) slots[reading_index] = std::make_unique<GramIndex>(reading.text);
    return slots[reading_index]->find_all(needle);
  }
  return find_all(std::u32string_view(reading.text), std::u32string_view(needle));
}

}  // namespace

LadderResult search_ladder(const Ladder& target, const Ladder& expected, TextRule rule, const Policy& policy) {
  LadderResult result;
  for (Tier tier : policy.tiers) {
    const std::u32string& needle = expected.at(tier).front().text;
    if (needle.empty()) return result;
    std::optional<Located> whole, clipped;
    for (std::size_t reading_index = 0; reading_index < target.at(tier).size(); ++reading_index) {
      const Reading& reading = target.at(tier)[reading_index];
      if (rule == TextRule::equals) {
        if (reading.text != needle) continue;
        Located found{tier, reading.start.front(), reading.end.back(), 1};
        if (!whole) whole = found;
        continue;
      }
      std::size_t count = 0, clipped_count = 0;
      for (std::size_t pos : positions_of(target, tier, reading_index, needle)) {
        if (!aligned(reading, pos, needle.size())) continue;
        const std::uint32_t start = reading.start[pos];
        const std::uint32_t end = reading.end[pos + needle.size() - 1];
        const bool whole_tokens = !policy.whole_tokens ||
                                  (is_token_boundary(target.original, start) && is_token_boundary(target.original, end));
        if (whole_tokens) {
          ++count;
          if (!whole) whole = Located{tier, start, end, 0};
        } else {
          ++clipped_count;
          if (!clipped) clipped = Located{tier, start, end, 0};
        }
      }
      // Several hyphenation readings can hold the same occurrence: count the readings' best.
      if (whole) whole->occurrences = std::max(whole->occurrences, count);
      if (clipped) clipped->occurrences = std::max(clipped->occurrences, clipped_count);
    }
    if (clipped && !result.clipped) result.clipped = clipped;
    if (whole) {
      result.whole = whole;
      return result;
    }
  }
  return result;
}

}  // namespace ethos::match
