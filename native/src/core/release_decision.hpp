// release_decision.hpp - the app answer release decision (CONTRACTS.md §2.9, schema 1.1.0).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ethos {

// The scalar inputs of a decision besides the proof and the claims.
struct ReleaseOptions {
  std::string question;
  std::string verification_report_ref = "verification_report.json";
  std::vector<std::string> notes;
};

// Decides, claim by claim, what an app may show. `proof` is a proof summary, a verification
// report or a proof Statement (the last two are summarized first); `claims` is the array of
// app-labelled claims. The caller owns every judgement label; nothing here guesses one. Every
// validation failure is an invalid_input error whose details name the input, the JSON path, the
// field and (once known) the claim id.
nlohmann::json release_decision(const nlohmann::json& proof, const nlohmann::json& claims, const ReleaseOptions& options);

// The options object of the C ABI: {"question", "verification_report_ref"?, "notes"?}.
ReleaseOptions read_release_options(const nlohmann::json& options);

// The C ABI / CLI entry: each input as JSON bytes (strictly parsed; errors name "report", "claims"
// or "options"), the decision as canonical JSON without a trailing newline.
std::string release_decision_json(std::string_view proof, std::string_view claims, std::string_view options_json);

}  // namespace ethos
