// strict_json.cpp - strict parsing: simdjson plus a rule walk, and a nlohmann SAX twin for DOMs and error locations.
#include "json/strict_json.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/error.hpp"
#include "json/inline_stack.hpp"

namespace ethos {
namespace {

using json = nlohmann::json;

constexpr std::int64_t kMaxSafeInteger = 9007199254740991;  // 2^53 - 1: exact in every JSON reader

thread_local std::uint64_t thread_key_comparisons = 0;

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

// Size limit and byte order mark: checked before either parser sees the bytes (both would
// otherwise accept a BOM silently or fail with a less helpful message).
void check_envelope(std::string_view bytes, const char* what, const JsonLimits& limits) {
  if (bytes.size() > limits.max_bytes) {
    throw EthosError("input_limit_exceeded", find_error_code("input_limit_exceeded")->default_message,
                     {{"input", what}, {"limit_bytes", static_cast<std::int64_t>(limits.max_bytes)}});
  }
  if (bytes.size() >= 3 && static_cast<unsigned char>(bytes[0]) == 0xEF &&
      static_cast<unsigned char>(bytes[1]) == 0xBB && static_cast<unsigned char>(bytes[2]) == 0xBF) {
    throw invalid_input("byte order mark not allowed", "$", {{"input", what}});
  }
  // A PDF where its parsed document belongs is the most common first mistake: say what to run.
  const std::string_view name(what);
  if ((name == "source" || name == "document") && bytes.substr(0, 1024 + 5).find("%PDF-") < 1024) {
    const std::size_t first = bytes.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || (bytes[first] != '{' && bytes[first] != '[')) {
      throw invalid_input("this is a PDF: run `ethos doc parse` first and give the document JSON it writes", "$",
                          {{"input", what}});
    }
  }
}

// The rules of the contracts over a simdjson DOM, visiting values in document order so the first
// violation reported is the one the streaming (nlohmann) reader would report first.
class RuleWalk {
 public:
  RuleWalk(const char* what, std::size_t max_depth) : what_(what), max_depth_(max_depth) {}
  // Counted once per walk (not per key): the hot loop only bumps a member.
  ~RuleWalk() { thread_key_comparisons += comparisons_; }

  void walk(JsonValue value) {
    switch (value.type()) {
      case simdjson::dom::element_type::OBJECT: {
        if (depth_ >= max_depth_) fail("nesting too deep", {{"limit", static_cast<std::int64_t>(max_depth_)}});
        ++depth_;
        const simdjson::dom::object object = value.get_object().value_unsafe();
        // Objects are small; a linear scan beats sorting until they are not. The keys of an
        // object of at most kFewKeys members are kept on the stack (no allocation per object).
        // A larger object is checked once, before its values are walked: its keys sorted
        // (n log n, deterministic, no hash an attacker can flood) give the position of the
        // first key that repeats an earlier one, which fails when the walk reaches it, so the
        // first violation in document order is still the one reported.
        constexpr std::size_t kFewKeys = 32;
        std::string_view few[kFewKeys];
        std::size_t few_count = 0;
        const bool large = object.size() > kFewKeys;  // size() saturates, so never too small
        const std::size_t first_duplicate = large ? first_duplicate_position(object) : kNoDuplicate;
        std::size_t position = 0;
        for (auto field : object) {
          push_segment(Segment{field.key, 0, true});
          bool duplicate = false;
          if (!large) {
            comparisons_ += few_count;
            duplicate = std::find(few, few + few_count, field.key) != few + few_count;
            few[few_count++] = field.key;
          } else {
            duplicate = position == first_duplicate;
          }
          if (duplicate) fail("duplicate key");
          walk(field.value);
          pop_segment();
          ++position;
        }
        --depth_;
        return;
      }
      case simdjson::dom::element_type::ARRAY: {
        if (depth_ >= max_depth_) fail("nesting too deep", {{"limit", static_cast<std::int64_t>(max_depth_)}});
        ++depth_;
        std::size_t index = 0;
        const simdjson::dom::array array = value.get_array().value_unsafe();  // named: the result is a temporary
        for (JsonValue item : array) {
          push_segment(Segment{std::string_view(), index++, false});
          walk(item);
          pop_segment();
        }
        --depth_;
        return;
      }
      case simdjson::dom::element_type::INT64: {
        const std::int64_t number = value.get_int64().value_unsafe();
        if (number > kMaxSafeInteger || number < -kMaxSafeInteger) fail("integer out of range");
        return;
      }
      case simdjson::dom::element_type::UINT64:
        fail("integer out of range");  // simdjson uses UINT64 only above INT64_MAX
      case simdjson::dom::element_type::DOUBLE:
        fail("number is not an integer");
      default:
        return;
    }
  }

 private:
  struct Segment {
    std::string_view key;
    std::size_t index;
    bool is_key;
  };

  static constexpr std::size_t kNoDuplicate = static_cast<std::size_t>(-1);

  // Position (in document order) of the first key equal to an earlier key of `object`, or
  // kNoDuplicate: the keys sorted by (key, position), the second of each run of equal keys is a
  // repeat, and the smallest such position is the first the walk meets.
  std::size_t first_duplicate_position(const simdjson::dom::object& object) {
    std::vector<std::pair<std::string_view, std::size_t>> keys;
    for (auto field : object) keys.emplace_back(field.key, keys.size());
    std::sort(keys.begin(), keys.end(), [this](const auto& a, const auto& b) {
      ++comparisons_;
      const int order = a.first.compare(b.first);
      return order != 0 ? order < 0 : a.second < b.second;
    });
    std::size_t first = kNoDuplicate;
    for (std::size_t i = 1; i < keys.size(); ++i) {
      if (keys[i].first == keys[i - 1].first) {
        first = std::min(first, keys[i].second);
      }
    }
    comparisons_ += keys.size();
    return first;
  }

  [[noreturn]] void fail(const char* message, json extra = json::object()) {
    std::string path = "$";
    for (std::size_t i = 0; i < path_.size(); ++i) {
      const Segment& segment = path_[i];
      path += segment.is_key ? "." + std::string(segment.key) : "[" + std::to_string(segment.index) + "]";
    }
    extra["input"] = what_;
    throw invalid_input(message, path, std::move(extra));
  }

  void push_segment(const Segment& segment) { path_.push(segment); }
  void pop_segment() { path_.pop(); }

  const char* what_;
  std::size_t max_depth_;
  std::size_t depth_ = 0;
  std::uint64_t comparisons_ = 0;  // key comparisons of the duplicate check (see strict_key_comparisons)
  // The path (spelled out only for an error): verify-batch walks a request of depth 4 per line.
  InlineStack<Segment, 16> path_;
};

}  // namespace

std::uint64_t strict_key_comparisons() { return thread_key_comparisons; }

ParsedJson::ParsedJson() = default;
ParsedJson::~ParsedJson() = default;
ParsedJson::ParsedJson(ParsedJson&&) noexcept = default;
ParsedJson& ParsedJson::operator=(ParsedJson&&) noexcept = default;

namespace {

// Syntax and UTF-8 (simdjson) into `parser`; on failure the envelope the streaming reader gives.
JsonValue parse_syntax_into(simdjson::dom::parser& parser, std::string_view bytes, const char* what,
                            const JsonLimits& limits) {
  check_envelope(bytes, what, limits);
  JsonValue root;
  // simdjson reads up to SIMDJSON_PADDING bytes past the end; `true` lets it copy into a padded
  // buffer (the parser's own, reused by its next parse) since our inputs are caller-owned views.
  const auto error = parser.parse(bytes.data(), bytes.size(), true).get(root);
  if (error) {
    // Let the streaming reader find and name the first problem (syntax, UTF-8, or a rule
    // violation that comes before the syntax error); it throws in every case simdjson rejects.
    parse_strict_dom(bytes, what, limits);
    throw invalid_input("invalid JSON syntax", "$", {{"input", what}});
  }
  return root;
}

}  // namespace

ParsedJson parse_syntax(std::string_view bytes, const char* what, const JsonLimits& limits) {
  ParsedJson parsed;
  parsed.parser_ = std::make_unique<simdjson::dom::parser>();
  parsed.root_ = parse_syntax_into(*parsed.parser_, bytes, what, limits);
  return parsed;
}

void enforce_rules(const ParsedJson& parsed, const char* what, const JsonLimits& limits) {
  RuleWalk(what, limits.max_depth).walk(parsed.root());
}

ParsedJson parse_strict(std::string_view bytes, const char* what, const JsonLimits& limits) {
  ParsedJson parsed = parse_syntax(bytes, what, limits);
  enforce_rules(parsed, what, limits);
  return parsed;
}

JsonValue parse_strict(simdjson::dom::parser& parser, std::string_view bytes, const char* what,
                       const JsonLimits& limits) {
  const JsonValue root = parse_syntax_into(parser, bytes, what, limits);
  RuleWalk(what, limits.max_depth).walk(root);
  return root;
}

json parse_strict_dom(std::string_view bytes, const char* what, const JsonLimits& limits) {
  check_envelope(bytes, what, limits);
  json root;
  StrictDomBuilder builder(root, what, limits.max_depth);
  json::sax_parse(bytes.begin(), bytes.end(), &builder, nlohmann::detail::input_format_t::json, true, false);
  return root;
}

}  // namespace ethos
