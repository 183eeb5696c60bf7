// tiers.cpp - tier names as they appear in policies and reports.
#include "match/tiers.hpp"

namespace ethos::match {

const char* tier_name(Tier tier) {
  switch (tier) {
    case Tier::exact: return "exact";
    case Tier::whitespace: return "whitespace";
    case Tier::typography: return "typography";
    case Tier::case_folded: return "case";
    case Tier::skeleton: return "skeleton";
  }
  return "exact";
}

std::optional<Tier> tier_from_name(std::string_view name) {
  for (int i = 0; i < kTierCount; ++i) {
    const Tier tier = static_cast<Tier>(i);
    if (name == tier_name(tier)) return tier;
  }
  return std::nullopt;
}

}  // namespace ethos::match
