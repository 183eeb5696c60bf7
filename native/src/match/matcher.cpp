// matcher.cpp - tier-by-tier search with scalar-aligned, whole-token occurrences.
#include "match/matcher.hpp"

#include "match/find_all.hpp"
#include "match/tier_search.hpp"

namespace ethos::match {
namespace {

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
  return search_tiers(expected, policy, target.original, [&](Tier tier, const std::u32string& needle, TierTally& tally) {
    for (std::size_t reading_index = 0; reading_index < target.at(tier).size(); ++reading_index) {
      const Reading& reading = target.at(tier)[reading_index];
      if (rule == TextRule::equals) {
        if (reading.text == needle) tally.add_whole_reading(reading.start.front(), reading.end.back());
        continue;
      }
      for (std::size_t pos : positions_of(target, tier, reading_index, needle)) {
        if (aligned(reading, pos, needle.size())) tally.add(reading.start[pos], reading.end[pos + needle.size() - 1]);
      }
      tally.end_reading();
    }
  });
}

}  // namespace ethos::match
