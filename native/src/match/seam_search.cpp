// seam_search.cpp - tier-by-tier search of a joined text over a window of reading positions around its seam.
#include "match/seam_search.hpp"

#include <algorithm>
#include <string_view>

#include "match/find_all.hpp"
#include "match/tokens.hpp"

namespace ethos::match {
namespace {

// matcher.cpp's alignment rule: an occurrence must not split what one original scalar (or a
// collapsed run) produced. (The randomized test against search_ladder keeps the two in step.)
bool aligned(const Reading& reading, std::size_t pos, std::size_t len) {
  const std::size_t last = pos + len - 1;
  if (pos > 0 && reading.end[pos - 1] > reading.start[pos]) return false;
  if (last + 1 < reading.text.size() && reading.start[last + 1] < reading.end[last]) return false;
  return true;
}

}  // namespace

LadderResult search_ladder_near(const Ladder& target, const Ladder& expected, const Policy& policy, std::uint32_t seam) {
  LadderResult result;
  for (Tier tier : policy.tiers) {
    const std::u32string& needle = expected.at(tier).front().text;
    if (needle.empty()) return result;
    const std::size_t m = needle.size();
    std::optional<Located> whole, clipped;
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
      std::size_t count = 0, clipped_count = 0;
      for (std::size_t offset : find_all(window, std::u32string_view(needle))) {
        const std::size_t pos = lo + offset;
        if (!aligned(reading, pos, m)) continue;
        const std::uint32_t start = reading.start[pos];
        const std::uint32_t end = reading.end[pos + m - 1];
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
