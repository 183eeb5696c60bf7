// policy.hpp - a matching policy as data (CONTRACTS.md §4): tiers, acceptance, boundaries,
// hyphenation readings, guards, near misses and elision, with its canonical JSON and fingerprint.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "json/strict_json.hpp"
#include "match/ladder.hpp"
#include "match/tiers.hpp"

namespace ethos::match {

struct Policy {
  std::string name;
  std::vector<Tier> tiers;  // searched in this (ladder) order
  Tier accept_up_to = Tier::case_folded;
  bool whole_tokens = true;
  LadderOptions ladder;  // cjk_wrap_spaces and the two hyphenation readings
  // Quotes the ladder does not ground: stitched quotations (elision), near misses located by
  // bounded alignment, and the guards that name a changed figure or a flipped polarity.
  bool numeric_guard = false, polarity_guard = false, near_miss = false, elision = false;
  std::int64_t near_miss_min_score_bp = 8000;
  std::int64_t near_miss_max_quote_tokens = 256;  // longer quotes get no alignment (cost bound)
  std::int64_t near_miss_max_candidates = 8;      // source windows aligned per missing quote
  std::int64_t elision_window_chars = 400;

  std::string canonical_json;  // c14n of the policy as parsed (every field is required)
  std::string fingerprint;     // "sha256:" + sha256(canonical_json)

  bool accepts(Tier tier) const { return static_cast<int>(tier) <= static_cast<int>(accept_up_to); }
};

// Reads a policy object strictly at `path` (unknown fields, missing fields, bad values -> invalid_input).
Policy read_policy(JsonValue value, const std::string& path);

// Parses policy bytes (a policy JSON file); errors name the input "policy".
Policy load_policy(std::string_view bytes);

// The presets strict, default and permissive; nullptr for any other name.
const Policy* preset_policy(std::string_view name);

// Names of the presets, in the order `ethos explain` lists them.
const std::vector<std::string>& preset_names();

// What stands for the policy when an explicit public config decides matching (no ladder): its
// text_normalization and case_sensitive, as canonical JSON, and that JSON's fingerprint.
std::string public_config_policy_json(std::string_view text_normalization, bool case_sensitive);
std::string policy_fingerprint_of(std::string_view canonical_json);

}  // namespace ethos::match
