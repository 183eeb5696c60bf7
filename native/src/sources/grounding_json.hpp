// grounding_json.hpp - the strict Grounding JSON v1 loader (`ethos.grounding.v1`, CONTRACTS.md §2.13).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/source.hpp"

namespace ethos::sources {

// One validation failure with a frozen code (invalid_json ... limit_exceeded) and the JSON path
// of the offending value.
struct GroundingFailure {
  std::string code;
  std::string path;
};

// The outcome of validating one artifact: a source, or the first failure in document order.
struct GroundingValidation {
  std::shared_ptr<Source> source;
  std::optional<GroundingFailure> failure;
  std::string representation_sha256;  // "sha256:" + hex of the exact bytes
  std::string source_sha256;          // the artifact's declared source.sha256 (valid artifacts)
};

GroundingValidation validate_grounding_json(std::string_view bytes);

// The fixed correction sentence of a failure code.
const char* grounding_failure_message(const std::string& code);

// Loader for `--grounding ethos-grounding-json`: a failure becomes invalid_input (exit 2) whose
// message is "ethos-grounding-json adapter: <code>" and whose details carry the path and code.
std::shared_ptr<Source> load_grounding_json(std::string_view bytes);

// `grounding check`: the ethos.grounding_validation.v1 report (canonical JSON). options_json is
// "" or {"source_artifact_sha256": "sha256:..."} (the hash of --source-artifact's bytes).
std::string grounding_check(std::string_view bytes, std::string_view options_json);

}  // namespace ethos::sources
