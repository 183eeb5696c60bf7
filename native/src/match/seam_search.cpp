// seam_search.cpp - tier-by-tier search of a joined text over a window of reading positions around its seam.
#include "match/seam_search.hpp"

#include <algorithm>
#include <string_view>

#include "match/find_all.hpp"
#include "match/tier_search.hpp"

namespace ethos::match {

LadderResult search_ladder_near(const Ladder& target, const Ladder& expected, const Policy& policy, std::uint32_t seam) {
  return search_tiers(expected, policy, target.original, [&](Tier tier, const std::u32string& needle, TierTally& tally) {
    const std::size_t m = needle.size();
    for (const Reading& reading : target.at(tier)) {
      const std::size_t n = reading.text.size();
      if (n < m) continue;
      // The first reading position at or after the seam; starts ascend with the positions.
      const auto at_seam = std::partition_point(reading.start.begin(), reading.start.end(),
                                                [seam](std::uint32_t start) { return start < seam; });
      const std::size_t b = static_cast<std::size_t>(at_seam - reading.start.begin());
      // Occurrences [pos, pos + m) with pos + m > b - margin and pos < b + margin.
      const std::size_t lo = b > m + kSeamMargin ? b - m - kSeamMargin : 0;
      const std::size_t hi = std::min(n, b + kSeamMargin + m);
      if (hi < lo + m) continue;
      const std::u32string_view window = std::u32string_view(reading.text).substr(lo, hi - lo);
      for (std::size_t offset : find_all(window, std::u32string_view(needle))) {
        const std::size_t pos = lo + offset;
        if (aligned(reading, pos, m)) tally.add(reading.start[pos], reading.end[pos + m - 1]);
      }
      tally.end_reading();
    }
  });
}

}  // namespace ethos::match
