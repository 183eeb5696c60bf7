// tiers.hpp - the normalization tiers of the matching ladder, in order, with their soundness.
#pragma once

#include <optional>
#include <string_view>

namespace ethos::match {

// Cumulative: each tier applies everything the tiers before it do (DESIGN.md §5.1).
enum class Tier : int { exact = 0, whitespace = 1, typography = 2, case_folded = 3, skeleton = 4 };
constexpr int kTierCount = 5;

const char* tier_name(Tier tier);
std::optional<Tier> tier_from_name(std::string_view name);

// A sound tier forgives presentation only; skeleton drops punctuation, which can change meaning.
constexpr bool tier_is_sound(Tier tier) { return tier != Tier::skeleton; }

}  // namespace ethos::match
