// occurrence_guards.hpp - the guards on an occurrence the ladder found but did not accept: a
// clipped one (boundary) or one at a looser tier than the policy accepts (numeric, polarity).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "match/guard.hpp"
#include "match/matcher.hpp"
#include "match/policy.hpp"

namespace ethos::match {

struct OccurrenceGuards {
  std::vector<Guard> list;        // boundary (clipped only), then the guards the policy enables
  // numeric_guard or polarity_guard when one blocks an unaccepted-tier occurrence; nullptr keeps
  // the reason (always for a clipped occurrence: token_boundary says it first).
  const char* reason = nullptr;
};

// target_utf8: the check's target text; where: the occurrence in its scalars.
OccurrenceGuards guard_occurrence(std::string_view target_utf8, std::string_view quote_utf8, const Located& where,
                                  bool clipped, const Policy& policy);

// A polarity block when the word right before an occurrence (only white space between, same
// sentence) is a negator: the quote dropped it ("Not all X" quoted as "all X").
// Also a block when the occurrence starts right after the hyphen of a compound whose part before
// it negates ("negative real entries" from "non-negative real entries": non, un, in, anti, dis, de,
// counter ...) or, before a digit, bounds a figure ("2020 levels" from "pre-2020 levels").
std::optional<Guard> negation_before(std::string_view target_utf8, const Located& where);

// A polarity block when the occurrence ends right before the hyphen of a compound whose part after
// it negates the part before ("contains sugar" from "contains sugar-free syrup": free, less).
std::optional<Guard> negation_after(std::string_view target_utf8, const Located& where);
// The same on decoded scalars, `end` the occurrence's end (what the windowed check reads).
std::optional<Guard> negation_after_end(const std::u32string& text, std::size_t end);

}  // namespace ethos::match
