// guard_explain.hpp - the `ethos explain` sentences for stitched quotations, near misses and guards.
#pragma once

#include <nlohmann/json.hpp>

#include "match/policy.hpp"

namespace ethos::match {

// Appends one sentence per assumption of the elision, near-miss and guard settings.
void append_guard_assumptions(const Policy& policy, nlohmann::json& assumptions);

}  // namespace ethos::match
