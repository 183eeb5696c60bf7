// config.cpp - verification config loading (1.0.0 and 1.1.0) and the built-in default-v1.
#include "core/config.hpp"

#include <algorithm>
#include <set>

#include "core/error.hpp"
#include "json/c14n.hpp"
#include "json/reader.hpp"
#include "json/sha256.hpp"
#include "json/strict_json.hpp"

namespace ethos {
namespace {

using json = nlohmann::json;
constexpr std::int64_t kMaxInt = 9007199254740991;

VerificationConfig read_config(JsonValue document) {
  VerificationConfig config;
  ObjectReader top(document, "$");
  config.schema_version = top.required_string("schema_version");
  if (config.schema_version != "1.0.0" && config.schema_version != "1.1.0") {
    throw invalid_input("unsupported schema version", "$.schema_version");
  }
  config.config_version = top.required_string("config_version");
  {
    const simdjson::dom::array kinds = expect_array(top.required("claim_kinds"), "$.claim_kinds");
    if (kinds.size() == 0) throw invalid_input("list must not be empty", "$.claim_kinds");
    static const std::set<std::string> kVerifiable = {"quote", "value", "presence", "table_cell"};
    std::size_t i = 0;
    for (JsonValue item : kinds) {
      const std::string kind(expect_string(item, index_path("$.claim_kinds", i)));
      if (kVerifiable.count(kind) == 0) throw invalid_input("invalid value", index_path("$.claim_kinds", i));
      if (std::find(config.claim_kinds.begin(), config.claim_kinds.end(), kind) != config.claim_kinds.end()) {
        throw invalid_input("duplicate list entry", index_path("$.claim_kinds", i));
      }
      config.claim_kinds.push_back(kind);
      ++i;
    }
  }
  {
    ObjectReader matching(top.required("matching"), "$.matching");
    const std::string normalization = matching.required_string("text_normalization");
    if (normalization == "none") {
      config.normalization.profile = NormalizationProfile::none;
    } else if (normalization == "collapse_whitespace") {
      config.normalization.profile = NormalizationProfile::collapse_whitespace;
    } else if (normalization == "unicode_compat_v1") {
      config.normalization.profile = NormalizationProfile::unicode_compat_v1;
    } else {
      throw invalid_input("invalid value", "$.matching.text_normalization");
    }
    config.normalization.lowercase = !matching.required_bool("case_sensitive");
    config.bbox_containment_tolerance_q = matching.optional_int("bbox_containment_tolerance_q", 0, kMaxInt).value_or(50);
    config.adjacency_gap_tolerance_q = matching.optional_int("adjacency_gap_tolerance_q", 0, kMaxInt).value_or(0);
    config.text_normalization = normalization;
    if (const std::optional<JsonValue> policy = matching.optional("policy")) {
      // Extension: a preset name or a whole policy object; the ladder then decides text matches.
      const std::string path = "$.matching.policy";
      if (policy->is_string()) {
        config.use_policy(named_policy(expect_string(*policy, path), path));
      } else {
        config.use_policy(match::read_policy(*policy, path));
      }
    }
    matching.finish();
  }
  {
    ObjectReader staleness(top.required("staleness"), "$.staleness");
    config.require_fingerprint_match = staleness.required_bool("require_fingerprint_match");
    staleness.finish();
  }
  {
    ObjectReader limits(top.required("limits"), "$.limits");
    config.max_checks = limits.required_int("max_checks", 1, kMaxInt);
    limits.finish();
  }
  if (const std::optional<JsonValue> evidence = top.optional("evidence")) {
    ObjectReader reader(*evidence, "$.evidence");
    config.include_text = reader.optional_bool("include_text").value_or(false);
    config.include_crops = reader.optional_bool("include_crops").value_or(false);
    reader.finish();
  }
  if (const std::optional<JsonValue> hardening = top.optional("hardening")) {
    if (config.schema_version != "1.1.0") throw invalid_input("field requires schema version 1.1.0", "$.hardening");
    ObjectReader reader(*hardening, "$.hardening");
    config.hardening.include_provenance = reader.optional_bool("include_provenance").value_or(false);
    config.hardening.include_context_echo = reader.optional_bool("include_context_echo").value_or(false);
    config.hardening.include_dispersion = reader.optional_bool("include_dispersion").value_or(false);
    config.hardening.include_nearest_match = reader.optional_bool("include_nearest_match").value_or(false);
    config.hardening.context_window_chars = reader.optional_int("context_window_chars", 0, 4096).value_or(80);
    reader.finish();
  }
  top.finish();
  config.sha256 = sha256_hex(to_c14n(document));
  if (!config.policy) {
    config.policy_json = match::public_config_policy_json(config.text_normalization, !config.normalization.lowercase);
    config.policy_fingerprint = match::policy_fingerprint_of(config.policy_json);
  }
  return config;
}

}  // namespace

void VerificationConfig::use_policy(const match::Policy& chosen) {
  policy = chosen;
  policy_json = chosen.canonical_json;
  policy_fingerprint = chosen.fingerprint;
}

const match::Policy& named_policy(std::string_view name, const std::string& json_path) {
  const match::Policy* preset = match::preset_policy(name);
  if (preset == nullptr) throw invalid_input("unknown policy", json_path);
  return *preset;
}

bool VerificationConfig::allows_kind(std::string_view kind) const {
  return std::find(claim_kinds.begin(), claim_kinds.end(), kind) != claim_kinds.end();
}

VerificationConfig load_config(std::string_view bytes) {
  const ParsedJson parsed = parse_strict(bytes, "config");
  return read_config(parsed.root());
}

std::string_view default_config_source() {
  // Exactly the public default-v1; its c14n hashes to 4bb224166a04…e4983d0b0 (tested).
  return R"({"claim_kinds":["quote","value","presence","table_cell"],"config_version":"default-v1",)"
         R"("evidence":{"include_crops":false,"include_text":true},"limits":{"max_checks":256},)"
         R"("matching":{"bbox_containment_tolerance_q":50,"case_sensitive":true,"text_normalization":"collapse_whitespace"},)"
         R"("schema_version":"1.0.0","staleness":{"require_fingerprint_match":true}})";
}

VerificationConfig default_config() {
  // Parsed once: every verify call without a config uses it.
  static const VerificationConfig kDefault = load_config(default_config_source());
  return kDefault;
}

}  // namespace ethos
