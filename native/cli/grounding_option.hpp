// grounding_option.hpp - the `--grounding ID` option shared by verify, verify-batch and evidence anchor.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ethos::cli {

// Every loader id of the registry (sources/registry.cpp), the option's accepted values.
std::vector<std::string_view> grounding_choices();

// The option's help text (one wording for every command).
extern const char* const kGroundingHelp;

// The open options for the core: {"grounding": ID} when the option was given, else empty, so the
// core chooses (Grounding JSON by its artifact_type, else an Ethos native document).
std::string grounding_open_options(const std::string* grounding);

}  // namespace ethos::cli
