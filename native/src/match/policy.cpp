// policy.cpp - strict policy reading, the three presets, and policy fingerprints.
#include "match/policy.hpp"

#include <map>

#include "core/error.hpp"
#include "json/c14n.hpp"
#include "json/reader.hpp"
#include "json/sha256.hpp"

namespace ethos::match {
namespace {

constexpr std::string_view kPolicyVersion = "1.0.0";

// Presets differ only in name and accept_up_to; every one searches the whole ladder so a report
// can say which looser tier would have matched, and every one recognises stitched quotations,
// locates near misses and runs both guards (none of which ever grounds a claim).
std::string preset_source(std::string_view name, std::string_view accept_up_to) {
  return std::string(R"({"accept_up_to":")") + std::string(accept_up_to) +
         R"(","boundaries":{"cjk_wrap_spaces":true,"whole_tokens":true},)"
         R"("elision":{"enabled":true,"window_chars":400},"guards":{"numeric":true,"polarity":true},)"
         R"("hyphenation":{"hyphenated_reading":true,"joined_reading":true},"name":")" +
         std::string(name) +
         R"(","near_miss":{"enabled":true,"max_candidates":8,"max_quote_tokens":256,"min_score_bp":6000},)"
         R"("policy_version":"1.0.0",)"
         R"("tiers":["exact","whitespace","typography","case","skeleton"]})";
}

}  // namespace

Policy read_policy(JsonValue value, const std::string& path) {
  Policy policy;
  ObjectReader top(value, path);
  if (top.required_string("policy_version") != kPolicyVersion) {
    throw invalid_input("unsupported schema version", top.child_path("policy_version"));
  }
  policy.name = top.required_string("name");
  if (policy.name.empty() || policy.name.size() > 64) throw invalid_input("invalid value", top.child_path("name"));
  {
    const std::string tiers_path = top.child_path("tiers");
    const simdjson::dom::array tiers = expect_array(top.required("tiers"), tiers_path);
    if (tiers.size() == 0) throw invalid_input("list must not be empty", tiers_path);
    std::size_t i = 0;
    for (JsonValue item : tiers) {
      const std::string item_path = index_path(tiers_path, i++);
      const auto tier = tier_from_name(expect_string(item, item_path));
      if (!tier) throw invalid_input("invalid value", item_path);
      // Tiers are cumulative, so they can only be listed in ladder order, each once.
      if (!policy.tiers.empty() && static_cast<int>(*tier) <= static_cast<int>(policy.tiers.back())) {
        throw invalid_input("tiers must follow the ladder order", item_path);
      }
      policy.tiers.push_back(*tier);
    }
  }
  {
    const std::string accept = top.required_string("accept_up_to");
    const auto tier = tier_from_name(accept);
    bool listed = false;
    for (Tier t : policy.tiers) listed = listed || (tier && t == *tier);
    if (!listed) throw invalid_input("accept_up_to must name a listed tier", top.child_path("accept_up_to"));
    policy.accept_up_to = *tier;
  }
  {
    ObjectReader boundaries(top.required("boundaries"), top.child_path("boundaries"));
    policy.ladder.cjk_wrap_spaces = boundaries.required_bool("cjk_wrap_spaces");
    policy.whole_tokens = boundaries.required_bool("whole_tokens");
    boundaries.finish();
  }
  {
    ObjectReader hyphenation(top.required("hyphenation"), top.child_path("hyphenation"));
    policy.ladder.hyphenated_reading = hyphenation.required_bool("hyphenated_reading");
    policy.ladder.joined_reading = hyphenation.required_bool("joined_reading");
    hyphenation.finish();
  }
  {
    ObjectReader guards(top.required("guards"), top.child_path("guards"));
    policy.numeric_guard = guards.required_bool("numeric");
    policy.polarity_guard = guards.required_bool("polarity");
    guards.finish();
  }
  {
    ObjectReader near_miss(top.required("near_miss"), top.child_path("near_miss"));
    policy.near_miss = near_miss.required_bool("enabled");
    policy.near_miss_min_score_bp = near_miss.required_int("min_score_bp", 0, 10000);
    policy.near_miss_max_quote_tokens = near_miss.required_int("max_quote_tokens", 1, 4096);
    policy.near_miss_max_candidates = near_miss.required_int("max_candidates", 1, 256);
    near_miss.finish();
  }
  // Optional, so every policy written before it keeps its bytes and its fingerprint.
  if (const auto pattern = top.optional_string("marker_pattern")) {
    policy.ladder.markers = MarkerPattern::compile(*pattern, top.child_path("marker_pattern"));
  }
  {
    ObjectReader elision(top.required("elision"), top.child_path("elision"));
    policy.elision = elision.required_bool("enabled");
    policy.elision_window_chars = elision.required_int("window_chars", 0, 1000000);
    elision.finish();
  }
  top.finish();
  policy.canonical_json = to_c14n(value);
  policy.fingerprint = policy_fingerprint_of(policy.canonical_json);
  return policy;
}

Policy load_policy(std::string_view bytes) {
  const ParsedJson parsed = parse_strict(bytes, "policy");
  return read_policy(parsed.root(), "$");
}

const std::vector<std::string>& preset_names() {
  static const std::vector<std::string> kNames = {"strict", "default", "permissive"};
  return kNames;
}

const Policy* preset_policy(std::string_view name) {
  // Parsed once from their JSON by the same reader as user policies (one definition of a policy).
  static const std::map<std::string, Policy, std::less<>> kPresets = [] {
    std::map<std::string, Policy, std::less<>> presets;
    presets.emplace("strict", load_policy(preset_source("strict", "whitespace")));
    presets.emplace("default", load_policy(preset_source("default", "case")));
    presets.emplace("permissive", load_policy(preset_source("permissive", "skeleton")));
    return presets;
  }();
  auto it = kPresets.find(name);
  return it == kPresets.end() ? nullptr : &it->second;
}

std::string public_config_policy_json(std::string_view text_normalization, bool case_sensitive) {
  return to_c14n(nlohmann::json{{"policy_version", std::string(kPolicyVersion)},
                                {"public_config",
                                 {{"case_sensitive", case_sensitive},
                                  {"text_normalization", std::string(text_normalization)}}}});
}

std::string policy_fingerprint_of(std::string_view canonical_json) { return "sha256:" + sha256_hex(canonical_json); }

}  // namespace ethos::match
