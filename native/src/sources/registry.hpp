// registry.hpp - the grounding loaders by id (`--grounding ID`) and the choice made without one.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/source.hpp"

namespace ethos::sources {

// Every id `--grounding` accepts, in the order the CLIs list them.
const std::vector<std::string>& grounding_ids();

// Loads bytes with the named loader. Without a name: a JSON object whose top-level artifact_type
// is "ethos.grounding.v1" opens as Grounding JSON, anything else as an Ethos native document.
// An unknown name is invalid_arguments; a loader's own rejection is invalid_input (exit 2).
std::shared_ptr<Source> load_source(const std::optional<std::string>& grounding, std::string_view bytes);

}  // namespace ethos::sources
