// config.hpp - the verification config (CONTRACTS.md §2.5): typed, strict, hashed as parsed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "match/policy.hpp"
#include "text/normalize.hpp"

namespace ethos {

struct HardeningOptions {
  bool include_provenance = false;
  bool include_context_echo = false;
  bool include_dispersion = false;
  bool include_nearest_match = false;
  std::int64_t context_window_chars = 80;
  bool any() const { return include_provenance || include_context_echo || include_dispersion || include_nearest_match; }
};

struct VerificationConfig {
  std::string schema_version;
  std::string config_version;
  std::vector<std::string> claim_kinds;
  NormalizationOptions normalization;  // profile + lowercase (case_sensitive=false)
  std::int64_t bbox_containment_tolerance_q = 50;
  std::int64_t adjacency_gap_tolerance_q = 0;
  bool require_fingerprint_match = true;
  std::int64_t max_checks = 256;
  bool include_text = false;
  bool include_crops = false;
  HardeningOptions hardening;
  // Runtime only (not part of the config or its hash): verify --crop-dir, so every evidence gets
  // its crop_ref and the source counts as crop-capable (CONTRACTS §2.11).
  bool crop_refs = false;
  std::string crop_document_fingerprint;  // the identity crop refs are named after (crop_identity)
  std::string sha256;  // verification_config_sha256 = sha256(c14n(config as parsed))
  // The matching policy (extension, CONTRACTS §4): set when the ladder decides text matches
  // (config.matching.policy, a --policy, or no config at all); unset when the public
  // text_normalization/case_sensitive rule does. policy_json/policy_fingerprint always describe
  // what decides, so every report can carry the fingerprint.
  std::optional<match::Policy> policy;
  std::string text_normalization = "collapse_whitespace";  // as named in the config
  std::string policy_json;
  std::string policy_fingerprint;

  void use_policy(const match::Policy& chosen);

  bool allows_kind(std::string_view kind) const;
  bool exact_profile() const { return normalization.profile == NormalizationProfile::none && !normalization.lowercase; }
};

// Parses a config (bytes) strictly. Throws EthosError(invalid_input) naming the JSON path.
VerificationConfig load_config(std::string_view bytes);

// Resolves a policy name (a preset) or throws invalid_input at json_path.
const match::Policy& named_policy(std::string_view name, const std::string& json_path);

// The built-in default-v1 config (hash 4bb22416…e4983d0b0) as canonical JSON and as a config.
std::string_view default_config_source();
VerificationConfig default_config();

}  // namespace ethos
