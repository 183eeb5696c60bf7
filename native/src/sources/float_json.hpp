// float_json.hpp - reading third-party JSON that carries floats: duplicate keys and numbers, per adapter.
#pragma once

#include <cstdint>
#include <string>

#include "json/strict_json.hpp"

namespace ethos::sources {

// Parses syntax and UTF-8 only (floats allowed) and rejects duplicate keys and nesting deeper than
// 256. Failures are invalid_input "<adapter> adapter: <reason>" with the path.
ParsedJson parse_float_json(std::string_view bytes, const std::string& adapter);

// [[noreturn]] invalid_input "<adapter> adapter: <reason>" at path.
[[noreturn]] void adapter_fail(const std::string& adapter, const char* reason, const std::string& path);

// A finite JSON number (integer or float) as a double.
double json_number(JsonValue value, const std::string& path, const std::string& adapter);

// Points to quanta (1/100 pt), rounded half away from zero (CONTRACTS §2.1).
std::int64_t to_quanta(double points, const std::string& path, const std::string& adapter);

}  // namespace ethos::sources
