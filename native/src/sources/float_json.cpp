// float_json.cpp - shared reading helpers of the adapters whose inputs carry floats (ODL, Docling).
#include "sources/float_json.hpp"

#include <cmath>
#include <optional>
#include <unordered_set>

#include "core/error.hpp"
#include "json/reader.hpp"

namespace ethos::sources {
namespace {

using simdjson::dom::element_type;

constexpr std::size_t kMaxDepth = 256;
constexpr double kMaxQuanta = 9007199254740991.0;

void reject_duplicate_keys(JsonValue value, const std::string& path, std::size_t depth, const std::string& adapter) {
  if (depth > kMaxDepth) adapter_fail(adapter, "nesting too deep", path);
  if (value.type() == element_type::OBJECT) {
    std::unordered_set<std::string_view> keys;
    const simdjson::dom::object object = value.get_object().value_unsafe();
    for (auto field : object) {
      if (!keys.insert(field.key).second) adapter_fail(adapter, "duplicate key", path + "." + std::string(field.key));
      if (field.value.is_object() || field.value.is_array()) {
        reject_duplicate_keys(field.value, path + "." + std::string(field.key), depth + 1, adapter);
      }
    }
  } else if (value.type() == element_type::ARRAY) {
    const simdjson::dom::array array = value.get_array().value_unsafe();
    std::size_t i = 0;
    for (JsonValue item : array) {
      if (item.is_object() || item.is_array()) reject_duplicate_keys(item, index_path(path, i), depth + 1, adapter);
      ++i;
    }
  }
}

}  // namespace

void adapter_fail(const std::string& adapter, const char* reason, const std::string& path) {
  throw EthosError("invalid_input", adapter + " adapter: " + reason, {{"path", path}});
}

ParsedJson parse_float_json(std::string_view bytes, const std::string& adapter) {
  std::optional<ParsedJson> parsed;
  try {
    parsed.emplace(parse_syntax(bytes, "source"));
  } catch (const EthosError& error) {
    if (error.code() != "invalid_input") throw;
    adapter_fail(adapter, "invalid JSON", error.details().value("path", std::string("$")));
  }
  if (parsed->root().type() != element_type::OBJECT) adapter_fail(adapter, "expected an object", "$");
  reject_duplicate_keys(parsed->root(), "$", 0, adapter);
  return std::move(*parsed);
}

double json_number(JsonValue value, const std::string& path, const std::string& adapter) {
  double out = 0;
  switch (value.type()) {
    case element_type::DOUBLE:
      out = value.get_double().value_unsafe();
      break;
    case element_type::INT64:
      out = static_cast<double>(value.get_int64().value_unsafe());
      break;
    case element_type::UINT64:
      out = static_cast<double>(value.get_uint64().value_unsafe());
      break;
    default:
      adapter_fail(adapter, "expected a number", path);
  }
  if (!std::isfinite(out)) adapter_fail(adapter, "expected a finite number", path);
  return out;
}

std::int64_t to_quanta(double points, const std::string& path, const std::string& adapter) {
  const double scaled = points * 100.0;
  if (!(std::fabs(scaled) <= kMaxQuanta)) adapter_fail(adapter, "number out of range", path);
  return static_cast<std::int64_t>(std::llround(scaled));
}

}  // namespace ethos::sources
