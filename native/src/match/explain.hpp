// explain.hpp - a policy with every assumption it makes written out (`ethos explain`).
#pragma once

#include <string>

#include "match/policy.hpp"

namespace ethos::match {

// Canonical JSON {assumptions[], policy, policy_fingerprint, unicode_version}; the assumptions
// are fixed sentences chosen by the policy's fields, in ladder order.
std::string explain_policy_json(const Policy& policy);

}  // namespace ethos::match
