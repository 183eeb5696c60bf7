// reader.hpp - typed, strict access to parsed JSON: every field read is checked and located.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ethos {

// Reads one JSON object field by field. finish() rejects any field nobody asked for, so an
// unknown field anywhere is an invalid_input error naming its path (CONTRACTS.md §2.4, §2.5).
class ObjectReader {
 public:
  ObjectReader(const nlohmann::json& value, std::string path);

  const std::string& path() const { return path_; }
  std::string child_path(const char* key) const { return path_ + "." + key; }

  const nlohmann::json* optional(const char* key);  // nullptr if absent; null values are rejected
  const nlohmann::json& required(const char* key);  // missing → "missing required field"

  std::string required_string(const char* key);
  std::optional<std::string> optional_string(const char* key);
  std::int64_t required_int(const char* key, std::int64_t min, std::int64_t max);
  std::optional<std::int64_t> optional_int(const char* key, std::int64_t min, std::int64_t max);
  bool required_bool(const char* key);
  std::optional<bool> optional_bool(const char* key);

  void finish() const;

 private:
  const nlohmann::json& object_;
  std::string path_;
  std::vector<const char*> seen_;  // field names asked for (literals; objects have few fields)
};

// Standalone checks used for array items and nested values (each throws invalid_input at path).
const nlohmann::json& expect_object(const nlohmann::json& value, const std::string& path);
const nlohmann::json& expect_array(const nlohmann::json& value, const std::string& path);
const std::string& expect_string(const nlohmann::json& value, const std::string& path);
std::int64_t expect_int(const nlohmann::json& value, const std::string& path, std::int64_t min, std::int64_t max);
bool expect_bool(const nlohmann::json& value, const std::string& path);
std::string index_path(const std::string& path, std::size_t index);

}  // namespace ethos
