// occurrence_guards.hpp - the guards on an occurrence the ladder found but did not accept: a
// clipped one (boundary) or one at a looser tier than the policy accepts (numeric, polarity).
#pragma once

#include <optional>
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
std::optional<Guard> negation_before(std::string_view target_utf8, const Located& where);

}  // namespace ethos::match
