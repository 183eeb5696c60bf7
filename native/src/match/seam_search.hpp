// seam_search.hpp - the ladder search of a joined text, restricted to occurrences near the seam of the join.
#pragma once

#include <cstddef>
#include <cstdint>

#include "match/ladder.hpp"
#include "match/matcher.hpp"
#include "match/policy.hpp"

namespace ethos::match {

// Reading positions searched on each side of the seam beyond the needle's own length. Every
// normalization step and the token-boundary and alignment rules look at most a few scalars
// around a position (a whitespace run is one reading position), so an occurrence that ends this
// far before the seam, or starts this far after it, reads the same as in its element alone.
constexpr std::size_t kSeamMargin = 32;

// search_ladder(target, expected, TextRule::contains, policy) where only occurrences that reach
// within kSeamMargin reading positions of `seam` count: `seam` is the original scalar offset in
// target where the second joined text (or the joiner) begins. Cross-element joins (§3.5) call it
// only after the quote missed both elements alone at every accepted tier, with no parser
// hyphenation artifacts on either: then any occurrence at an accepted tier, and any occurrence
// at a tier before the first whole one of either element, crosses the seam, so `whole` is the
// full search's whenever it is at an accepted tier, and unaccepted or absent exactly when the
// full search's is. `clipped` counts the window's occurrences only.
LadderResult search_ladder_near(const Ladder& target, const Ladder& expected, const Policy& policy, std::uint32_t seam);

}  // namespace ethos::match
