// grounding_option.cpp - the `--grounding ID` option shared by verify, verify-batch and evidence anchor.
#include "grounding_option.hpp"

#include <nlohmann/json.hpp>

#include "sources/registry.hpp"

namespace ethos::cli {

const char* const kGroundingHelp =
    "Source loader (default: ethos-grounding-json for an ethos.grounding.v1 artifact, else ethos-native; "
    "docs/sources.md).";

std::vector<std::string_view> grounding_choices() {
  std::vector<std::string_view> out;
  for (const std::string& id : sources::grounding_ids()) out.emplace_back(id);
  return out;
}

std::string grounding_open_options(const std::string* grounding) {
  return grounding ? nlohmann::json{{"grounding", *grounding}}.dump() : std::string();
}

}  // namespace ethos::cli
