// strict_json.hpp - strict JSON loading: every input of the core is parsed here, never leniently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>
#include <simdjson.h>

namespace ethos {

struct JsonLimits {
  std::size_t max_bytes = 256u * 1024u * 1024u;  // file_too_large is checked by hosts; this guards the ABI
  std::size_t max_depth = 64;
};

using JsonValue = simdjson::dom::element;

// A parsed input: the root value and the parser that owns its memory (values borrow from it).
class ParsedJson {
 public:
  ParsedJson();
  ~ParsedJson();
  ParsedJson(ParsedJson&&) noexcept;
  ParsedJson& operator=(ParsedJson&&) noexcept;
  JsonValue root() const { return root_; }

 private:
  friend ParsedJson parse_syntax(std::string_view, const char*, const JsonLimits&);
  std::unique_ptr<simdjson::dom::parser> parser_;
  JsonValue root_;
};

// Parses input bytes with simdjson (the fast path every input takes), then enforces the rules
// of the contracts in one walk: no duplicate keys, no floats or exponents (c14n holds integers
// only), integers within ±(2^53-1), nesting at most max_depth; a UTF-8 byte order mark and
// invalid UTF-8 are rejected too. Errors are invalid_input envelopes whose details name the
// input (`what`) and the JSON path of the first offending value in document order; a syntax
// error is located by re-reading the input with nlohmann::json (slow path, errors only).
ParsedJson parse_strict(std::string_view bytes, const char* what, const JsonLimits& limits = {});

// parse_strict into a parser the caller keeps and reuses (verify-batch parses one request line
// after another on each thread: a parser per input allocated and freed its buffers every time).
// The value borrows from `parser` and is valid until its next parse.
JsonValue parse_strict(simdjson::dom::parser& parser, std::string_view bytes, const char* what,
                       const JsonLimits& limits = {});

// parse_strict in two halves, for a caller that overlaps the rule walk with other reading of the
// same parse: parse_syntax (syntax and UTF-8; on failure the same envelope parse_strict gives)
// and enforce_rules. Nothing read from the parse may be reported before enforce_rules returned.
ParsedJson parse_syntax(std::string_view bytes, const char* what, const JsonLimits& limits = {});
void enforce_rules(const ParsedJson& parsed, const char* what, const JsonLimits& limits = {});

// The same rules, building a nlohmann::json DOM (for reports read back by the summary commands
// and host-supplied error details, where a DOM is convenient and speed does not matter).
nlohmann::json parse_strict_dom(std::string_view bytes, const char* what, const JsonLimits& limits = {});

// Key comparisons the duplicate-key checks of this thread's strict parses made so far: a
// complexity test reads it around parses of growing inputs (it must grow near-linearly, an
// operation count rather than a wall time, so a quadratic check fails on any machine).
std::uint64_t strict_key_comparisons();

}  // namespace ethos
