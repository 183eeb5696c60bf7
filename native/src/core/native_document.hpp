// native_document.hpp - strict loader of the Ethos native document 1.0.0 (CONTRACTS.md §2.2).
#pragma once

#include <memory>
#include <string_view>

#include "core/source.hpp"

namespace ethos {

// Parses, validates (shape, ids, references, geometry) and integrity-checks (payload_sha256 and
// fingerprint recomputed) a native document, then indexes it. Throws EthosError(invalid_input).
std::shared_ptr<Source> load_native_document(std::string_view bytes);

}  // namespace ethos
