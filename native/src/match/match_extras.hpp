// match_extras.hpp - the per-check detail of quotes the ladder did not ground: a stitched
// quotation's fragments, or a near miss's score and diff, and the guards' verdicts.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "match/guard.hpp"
#include "match/near_miss.hpp"
#include "match/stitch.hpp"

namespace ethos::match {

// Offsets (fragments' `found`) are original scalars of the check's target text.
struct MatchExtras {
  std::vector<FragmentMatch> fragments;  // stitched quotations
  std::optional<std::int64_t> score_bp;  // near misses
  std::vector<DiffEntry> diff;           // near misses
  std::vector<Guard> guards;
};

}  // namespace ethos::match
