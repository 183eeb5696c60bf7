// strict_json.cpp - a SAX handler over nlohmann::json that builds the DOM while enforcing c14n rules.
#include "json/strict_json.hpp"

#include <cstdint>
#include <vector>

#include "core/error.hpp"

namespace ethos {
namespace {

using json = nlohmann::json;

constexpr std::int64_t kMaxSafeInteger = 9007199254740991;  // 2^53 - 1: exact in every JSON reader

// Builds the DOM like nlohmann's own dom parser, but knows where it is (for error paths) and
// refuses what the contracts forbid instead of silently keeping the last duplicate or a float.
class StrictDomBuilder final : public nlohmann::json_sax<json> {
 public:
  StrictDomBuilder(json& root, const char* what, std::size_t max_depth)
      : root_(root), what_(what), max_depth_(max_depth) {}

  bool null() override { return put(json(nullptr)); }
  bool boolean(bool value) override { return put(json(value)); }
  bool number_integer(number_integer_t value) override {
    if (value > kMaxSafeInteger || value < -kMaxSafeInteger) fail("integer out of range");
    return put(json(value));
  }
  bool number_unsigned(number_unsigned_t value) override {
    if (value > static_cast<number_unsigned_t>(kMaxSafeInteger)) fail("integer out of range");
    // Store non-negative integers as signed so equal values compare and serialize identically.
    return put(json(static_cast<number_integer_t>(value)));
  }
  bool number_float(number_float_t, const string_t&) override {
    fail("number is not an integer");
    return false;
  }
  bool string(string_t& value) override { return put(json(std::move(value))); }
  bool binary(binary_t&) override {
    fail("invalid JSON syntax");
    return false;
  }
  bool start_object(std::size_t) override { return open(json::object()); }
  bool key(string_t& key) override {
    json& object = *stack_.back().value;
    if (object.contains(key)) {
      stack_.back().key = key;
      stack_.back().has_key = true;
      fail("duplicate key");
    }
    stack_.back().key = std::move(key);
    stack_.back().has_key = true;
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(json::array()); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& error) override {
    const std::string text = error.what();
    const bool utf8 = text.find("UTF-8") != std::string::npos || text.find("surrogate") != std::string::npos;
    throw invalid_input(utf8 ? "invalid UTF-8" : "invalid JSON syntax", path(),
                        {{"input", what_}, {"offset", static_cast<std::int64_t>(position)}});
  }

 private:
  struct Frame {
    json* value;
    std::string key;  // current key when value is an object
    bool has_key;     // false until the object's first key is read
  };

  // Inserts a finished value where the parser is and returns a pointer to the stored copy.
  json* insert(json&& value) {
    if (stack_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    Frame& top = stack_.back();
    if (top.value->is_array()) {
      top.value->push_back(std::move(value));
      return &top.value->back();
    }
    json& slot = (*top.value)[top.key];
    slot = std::move(value);
    return &slot;
  }
  bool put(json&& value) {
    insert(std::move(value));
    return true;
  }
  bool open(json&& container) {
    if (stack_.size() >= max_depth_) fail("nesting too deep", {{"limit", static_cast<std::int64_t>(max_depth_)}});
    json* stored = insert(std::move(container));
    stack_.push_back(Frame{stored, std::string(), false});
    return true;
  }
  bool close() {
    stack_.pop_back();
    return true;
  }

  // JSONPath-like location of the value being parsed: $.claims[0].citation.page
  std::string path() const {
    std::string out = "$";
    for (std::size_t depth = 0; depth < stack_.size(); ++depth) {
      const Frame& frame = stack_[depth];
      if (frame.value->is_array()) {
        // An open child container was already appended; a scalar is appended after its checks.
        const bool child_open = depth + 1 < stack_.size();
        out += "[" + std::to_string(frame.value->size() - (child_open ? 1 : 0)) + "]";
      } else if (frame.has_key) {
        out += "." + frame.key;
      }
    }
    return out;
  }
  [[noreturn]] void fail(const char* message, json extra = json::object()) {
    extra["input"] = what_;
    throw invalid_input(message, path(), std::move(extra));
  }

  json& root_;
  const char* what_;
  std::size_t max_depth_;
  std::vector<Frame> stack_;
};

}  // namespace

json parse_strict(std::string_view bytes, const char* what, const JsonLimits& limits) {
  if (bytes.size() > limits.max_bytes) {
    throw EthosError("input_limit_exceeded", "an input exceeds a configured limit",
                     {{"input", what}, {"limit_bytes", static_cast<std::int64_t>(limits.max_bytes)}});
  }
  // nlohmann skips a byte order mark silently; the contracts reject it.
  if (bytes.size() >= 3 && static_cast<unsigned char>(bytes[0]) == 0xEF &&
      static_cast<unsigned char>(bytes[1]) == 0xBB && static_cast<unsigned char>(bytes[2]) == 0xBF) {
    throw invalid_input("byte order mark not allowed", "$", {{"input", what}});
  }
  json root;
  StrictDomBuilder builder(root, what, limits.max_depth);
  json::sax_parse(bytes.begin(), bytes.end(), &builder, nlohmann::detail::input_format_t::json, true, false);
  return root;
}

}  // namespace ethos
