// proof_summary.hpp - the derived proof summary (CONTRACTS.md §2.7) and the summary text (§1.5).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ethos {

// Accepts a report or a grounding Statement (the report is its predicate); anything else is an
// invalid_input error, so a wrapper is never mistaken for an unverified report.
const nlohmann::json& report_of(const nlohmann::json& report_or_statement);

nlohmann::json proof_summary(const nlohmann::json& report);

std::string render_summary_text(const nlohmann::json& report);

}  // namespace ethos
