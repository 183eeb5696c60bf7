// strict_json.hpp - strict JSON loading: every input of the core is parsed here, never leniently.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ethos {

struct JsonLimits {
  std::size_t max_bytes = 256u * 1024u * 1024u;  // file_too_large is checked by hosts; this guards the ABI
  std::size_t max_depth = 64;
};

// Parses bytes into a DOM, rejecting (as invalid_input with the JSON path in details.path): a
// UTF-8 byte order mark, invalid UTF-8, syntax errors, duplicate keys, floats and exponents
// (c14n holds integers only), integers beyond ±(2^53-1), nesting deeper than max_depth.
// `what` names the input in details ("citations", "config", "document", ...).
nlohmann::json parse_strict(std::string_view bytes, const char* what, const JsonLimits& limits = {});

}  // namespace ethos
