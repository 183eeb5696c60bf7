// document_projection.hpp - a validated native document's payload, read back as a JSON tree for
// the artifacts derived from it (chunks export, security report).
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

namespace ethos {

// Opens bytes through the strict native loader (every usage error of a verify) and returns the
// whole document as a JSON tree; the loader has already checked ids, references and hashes.
nlohmann::json load_validated_document(std::string_view bytes);

}  // namespace ethos
