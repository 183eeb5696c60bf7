// reader.cpp - field-by-field strict JSON access with JSON-path error locations.
#include "json/reader.hpp"

#include <type_traits>

#include "core/error.hpp"

namespace ethos {

using simdjson::dom::element_type;

simdjson::dom::object expect_object(JsonValue value, const std::string& path) {
  if (value.type() != element_type::OBJECT) throw invalid_input("expected an object", path);
  return value.get_object().value_unsafe();
}

simdjson::dom::array expect_array(JsonValue value, const std::string& path) {
  if (value.type() != element_type::ARRAY) throw invalid_input("expected an array", path);
  return value.get_array().value_unsafe();
}

std::string_view expect_string(JsonValue value, const std::string& path) {
  if (value.type() != element_type::STRING) throw invalid_input("expected a string", path);
  return value.get_string().value_unsafe();
}

std::int64_t expect_int(JsonValue value, const std::string& path, std::int64_t min, std::int64_t max) {
  // parse_strict already rejected floats and integers beyond ±(2^53-1), so INT64 is the only kind.
  if (value.type() != element_type::INT64) throw invalid_input("expected an integer", path);
  const std::int64_t number = value.get_int64().value_unsafe();
  if (number < min || number > max) {
    throw invalid_input("value out of range", path, {{"minimum", min}, {"maximum", max}});
  }
  return number;
}

bool expect_bool(JsonValue value, const std::string& path) {
  if (value.type() != element_type::BOOL) throw invalid_input("expected a boolean", path);
  return value.get_bool().value_unsafe();
}

std::string index_path(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

namespace {
template <typename Step>
std::string step_path(const std::string& parent, Step step) {
  if constexpr (std::is_integral_v<Step>) {
    return index_path(parent, step);
  } else {
    return parent + "." + std::string(step);
  }
}
}  // namespace

template <typename Step>
std::int64_t expect_int_at(JsonValue value, const std::string& parent, Step step, std::int64_t min, std::int64_t max) {
  if (value.type() != element_type::INT64) throw invalid_input("expected an integer", step_path(parent, step));
  const std::int64_t number = value.get_int64().value_unsafe();
  if (number < min || number > max) {
    throw invalid_input("value out of range", step_path(parent, step), {{"minimum", min}, {"maximum", max}});
  }
  return number;
}
template std::int64_t expect_int_at(JsonValue, const std::string&, std::size_t, std::int64_t, std::int64_t);
template std::int64_t expect_int_at(JsonValue, const std::string&, const char*, std::int64_t, std::int64_t);

std::string_view expect_string_at(JsonValue value, const std::string& parent, std::size_t index) {
  if (value.type() != element_type::STRING) throw invalid_input("expected a string", index_path(parent, index));
  return value.get_string().value_unsafe();
}

ObjectReader::ObjectReader(JsonValue value, std::string path)
    : object_(expect_object(value, path)), path_(std::move(path)) {
  index_fields();
}

void ObjectReader::index_fields() {
  for (auto field : object_) {
    if (field_count_ == fields_.size()) {
      many_fields_ = true;  // unknown fields will be reported by finish(); lookups use the tape
      return;
    }
    fields_[field_count_++] = Field{field.key, field.value};
  }
}

ObjectReader::ObjectReader(JsonValue value, const std::string& parent_path, std::size_t index)
    : parent_path_(&parent_path), index_(index) {
  if (value.type() != element_type::OBJECT) throw invalid_input("expected an object", path());
  object_ = value.get_object().value_unsafe();
  index_fields();
}

ObjectReader::ObjectReader(JsonValue value, const ObjectReader& parent, const char* key)
    : parent_reader_(&parent), parent_key_(key) {
  if (value.type() != element_type::OBJECT) throw invalid_input("expected an object", path());
  object_ = value.get_object().value_unsafe();
  index_fields();
}

std::string ObjectReader::path() const {
  if (parent_reader_) return parent_reader_->child_path(parent_key_);
  return parent_path_ ? index_path(*parent_path_, index_) : path_;
}

std::optional<JsonValue> ObjectReader::optional(const char* key) {
  if (seen_count_ == seen_.size()) throw EthosError("internal_error", "too many fields read from one object");
  seen_[seen_count_++] = key;
  JsonValue value;
  bool present = false;
  if (many_fields_) {
    present = object_.at_key(key).get(value) == simdjson::SUCCESS;
  } else {
    const std::string_view wanted(key);
    for (std::size_t i = 0; i < field_count_ && !present; ++i) {
      if (fields_[i].key == wanted) {
        value = fields_[i].value;
        present = true;
      }
    }
  }
  if (!present) return std::nullopt;
  ++found_;
  // Absent and null are not the same in our contracts: optional fields are omitted, never null.
  if (value.is_null()) throw invalid_input("null is not allowed", child_path(key));
  return value;
}

JsonValue ObjectReader::required(const char* key) {
  const std::optional<JsonValue> value = optional(key);
  if (!value) throw invalid_input("missing required field", child_path(key));
  return *value;
}

// The typed getters check first and build the error path only on failure: reading a large
// document touches millions of fields, and a path string per field would dominate the load.
std::string ObjectReader::required_string(const char* key) {
  const JsonValue value = required(key);
  if (value.type() != element_type::STRING) throw invalid_input("expected a string", child_path(key));
  return std::string(value.get_string().value_unsafe());
}

std::optional<std::string> ObjectReader::optional_string(const char* key) {
  const std::optional<std::string_view> text = optional_string_view(key);
  if (!text) return std::nullopt;
  return std::string(*text);
}

std::optional<std::string_view> ObjectReader::optional_string_view(const char* key) {
  const std::optional<JsonValue> value = optional(key);
  if (!value) return std::nullopt;
  if (value->type() != element_type::STRING) throw invalid_input("expected a string", child_path(key));
  return value->get_string().value_unsafe();
}

std::int64_t ObjectReader::required_int(const char* key, std::int64_t min, std::int64_t max) {
  const JsonValue value = required(key);
  if (value.type() == element_type::INT64) {
    const std::int64_t number = value.get_int64().value_unsafe();
    if (number >= min && number <= max) return number;
  }
  return expect_int_at(value, path(), key, min, max);  // throws, with the spelled-out path
}

std::optional<std::int64_t> ObjectReader::optional_int(const char* key, std::int64_t min, std::int64_t max) {
  const std::optional<JsonValue> value = optional(key);
  if (!value) return std::nullopt;
  if (value->type() == element_type::INT64) {
    const std::int64_t number = value->get_int64().value_unsafe();
    if (number >= min && number <= max) return number;
  }
  return expect_int_at(*value, path(), key, min, max);  // throws, with the spelled-out path
}

bool ObjectReader::required_bool(const char* key) {
  const JsonValue value = required(key);
  if (value.type() != element_type::BOOL) throw invalid_input("expected a boolean", child_path(key));
  return value.get_bool().value_unsafe();
}

std::optional<bool> ObjectReader::optional_bool(const char* key) {
  const std::optional<JsonValue> value = optional(key);
  if (!value) return std::nullopt;
  if (value->type() != element_type::BOOL) throw invalid_input("expected a boolean", child_path(key));
  return value->get_bool().value_unsafe();
}

void ObjectReader::finish() const {
  // Keys are unique (parse_strict), so when every field was asked for there is nothing unknown.
  if (found_ == object_.size()) return;
  for (auto field : object_) {
    bool asked = false;
    for (std::size_t i = 0; i < seen_count_; ++i) asked = asked || field.key == seen_[i];
    if (!asked) throw invalid_input("unknown field", child_path(field.key));
  }
}

void ObjectReader::finish(std::vector<std::string>* unknown) const {
  if (found_ == object_.size()) return;
  for (auto field : object_) {
    bool asked = false;
    for (std::size_t i = 0; i < seen_count_; ++i) asked = asked || field.key == seen_[i];
    if (!asked) unknown->push_back(child_path(field.key));
  }
}

}  // namespace ethos
