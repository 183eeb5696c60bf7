// reader.cpp - field-by-field strict JSON access with JSON-path error locations.
#include "json/reader.hpp"

#include "core/error.hpp"

namespace ethos {

using json = nlohmann::json;

const json& expect_object(const json& value, const std::string& path) {
  if (!value.is_object()) throw invalid_input("expected an object", path);
  return value;
}

const json& expect_array(const json& value, const std::string& path) {
  if (!value.is_array()) throw invalid_input("expected an array", path);
  return value;
}

const std::string& expect_string(const json& value, const std::string& path) {
  if (!value.is_string()) throw invalid_input("expected a string", path);
  return value.get_ref<const std::string&>();
}

std::int64_t expect_int(const json& value, const std::string& path, std::int64_t min, std::int64_t max) {
  if (!value.is_number_integer()) throw invalid_input("expected an integer", path);
  const std::int64_t number = value.get<std::int64_t>();
  if (number < min || number > max) {
    throw invalid_input("value out of range", path, {{"minimum", min}, {"maximum", max}});
  }
  return number;
}

bool expect_bool(const json& value, const std::string& path) {
  if (!value.is_boolean()) throw invalid_input("expected a boolean", path);
  return value.get<bool>();
}

std::string index_path(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

ObjectReader::ObjectReader(const json& value, std::string path)
    : object_(expect_object(value, path)), path_(std::move(path)) {}

const json* ObjectReader::optional(const char* key) {
  seen_.push_back(key);
  auto it = object_.find(key);
  if (it == object_.end()) return nullptr;
  // Absent and null are not the same in our contracts: optional fields are omitted, never null.
  if (it->is_null()) throw invalid_input("null is not allowed", child_path(key));
  return &*it;
}

const json& ObjectReader::required(const char* key) {
  const json* value = optional(key);
  if (value == nullptr) throw invalid_input("missing required field", child_path(key));
  return *value;
}

std::string ObjectReader::required_string(const char* key) { return expect_string(required(key), child_path(key)); }

std::optional<std::string> ObjectReader::optional_string(const char* key) {
  const json* value = optional(key);
  if (value == nullptr) return std::nullopt;
  return expect_string(*value, child_path(key));
}

std::int64_t ObjectReader::required_int(const char* key, std::int64_t min, std::int64_t max) {
  return expect_int(required(key), child_path(key), min, max);
}

std::optional<std::int64_t> ObjectReader::optional_int(const char* key, std::int64_t min, std::int64_t max) {
  const json* value = optional(key);
  if (value == nullptr) return std::nullopt;
  return expect_int(*value, child_path(key), min, max);
}

bool ObjectReader::required_bool(const char* key) { return expect_bool(required(key), child_path(key)); }

std::optional<bool> ObjectReader::optional_bool(const char* key) {
  const json* value = optional(key);
  if (value == nullptr) return std::nullopt;
  return expect_bool(*value, child_path(key));
}

void ObjectReader::finish() const {
  for (auto it = object_.begin(); it != object_.end(); ++it) {
    bool asked = false;
    for (const char* name : seen_) asked = asked || it.key() == name;
    if (!asked) throw invalid_input("unknown field", child_path(it.key().c_str()));
  }
}

}  // namespace ethos
