// reader.hpp - typed, strict access to parsed JSON: every field read is checked and located.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/strict_json.hpp"

namespace ethos {

// Reads one JSON object field by field. finish() rejects any field nobody asked for, so an
// unknown field anywhere is an invalid_input error naming its path (CONTRACTS.md §2.4, §2.5).
class ObjectReader {
 public:
  ObjectReader(JsonValue value, std::string path);
  // The object at item `index` of the array at `parent_path`: its own path is only spelled out
  // when an error needs it (large documents have hundreds of thousands of items).
  ObjectReader(JsonValue value, const std::string& parent_path, std::size_t index);
  // The object at member `key` of `parent`'s object, its path likewise spelled out only for an
  // error (verify-batch reads a claim and its citation per request line); parent must outlive it.
  ObjectReader(JsonValue value, const ObjectReader& parent, const char* key);

  std::string path() const;
  std::string child_path(std::string_view key) const { return path() + "." + std::string(key); }

  std::optional<JsonValue> optional(const char* key);  // absent → nullopt; null values are rejected
  JsonValue required(const char* key);                 // missing → "missing required field"

  std::string required_string(const char* key);
  std::optional<std::string> optional_string(const char* key);
  // The same as a view into the parsed document (valid while it is): verify-batch assigns it
  // into the previous line's string, reusing its capacity.
  std::optional<std::string_view> optional_string_view(const char* key);
  std::int64_t required_int(const char* key, std::int64_t min, std::int64_t max);
  std::optional<std::int64_t> optional_int(const char* key, std::int64_t min, std::int64_t max);
  bool required_bool(const char* key);
  std::optional<bool> optional_bool(const char* key);

  void finish() const;
  // The same for producers that may add fields (foreign sources, issue 23 item 8): each unknown
  // field's path is appended to `unknown` instead of being rejected.
  void finish(std::vector<std::string>* unknown) const;

 private:
  void index_fields();  // one pass over the object: lookups then scan a flat array, not the tape

  simdjson::dom::object object_;
  struct Field {
    std::string_view key;
    JsonValue value;
  };
  std::array<Field, 32> fields_{};      // the object's members (objects we read have fewer)
  std::size_t field_count_ = 0;
  bool many_fields_ = false;            // more members than fields_ holds: fall back to at_key
  std::string path_;                  // own path, or empty when given as parent + index
  const std::string* parent_path_ = nullptr;
  std::size_t index_ = 0;
  const ObjectReader* parent_reader_ = nullptr;  // with parent_key_: the path is the parent's child path
  const char* parent_key_ = nullptr;
  std::array<const char*, 32> seen_{};  // field names asked for (literals; no object has more)
  std::size_t seen_count_ = 0;
  std::size_t found_ = 0;               // how many asked-for fields were present
};

// Standalone checks used for array items and nested values (each throws invalid_input at path).
simdjson::dom::object expect_object(JsonValue value, const std::string& path);
simdjson::dom::array expect_array(JsonValue value, const std::string& path);
std::string_view expect_string(JsonValue value, const std::string& path);
std::int64_t expect_int(JsonValue value, const std::string& path, std::int64_t min, std::int64_t max);
bool expect_bool(JsonValue value, const std::string& path);
std::string index_path(const std::string& path, std::size_t index);

// The same checks for the child `step` (an array index or a key) of `parent`, building the path
// string only when the check fails (hot loops over array items use these).
template <typename Step>
std::int64_t expect_int_at(JsonValue value, const std::string& parent, Step step, std::int64_t min, std::int64_t max);
std::string_view expect_string_at(JsonValue value, const std::string& parent, std::size_t index);

}  // namespace ethos
