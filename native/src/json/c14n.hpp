// c14n.hpp - canonical JSON (c14n v1, CONTRACTS.md §2.1): the only way the core serializes JSON.
#pragma once

#include <string>

#include <nlohmann/json.hpp>
#include <simdjson.h>

namespace ethos {

// No whitespace, keys sorted by code point (std::map byte order = code point order for UTF-8),
// minimal escaping, integers only. Throws EthosError(internal_error) for floats or bad UTF-8.
std::string to_c14n(const nlohmann::json& value);
std::string to_c14n(simdjson::dom::element value);

}  // namespace ethos
