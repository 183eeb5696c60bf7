// error.hpp - EthosError: the one exception type of the core, rendered as the JSON error envelope.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ethos {

// Stable error codes of CONTRACTS.md §1.4 with their exit statuses (error_codes.cpp).
struct ErrorCodeInfo {
  const char* code;
  int exit_code;
  const char* default_message;  // what to do, used when the details make nothing more specific
};

// Looks up a code; returns nullptr for an unknown code.
const ErrorCodeInfo* find_error_code(std::string_view code);

// The message of a failure reported by its code: the code's default, made specific (the option,
// path, limit or page count to act on) from `details`. The one source of these messages, so
// ethos-core and the Python CLI (via ethos_error_envelope) print the same bytes.
std::string error_message(const ErrorCodeInfo& info, const nlohmann::json& details);

class EthosError : public std::runtime_error {
 public:
  // message says what to do (error_message() for the CLI's own failures); details carry the specifics.
  EthosError(std::string code, std::string message, nlohmann::json details = nlohmann::json::object());

  const std::string& code() const { return code_; }
  const nlohmann::json& details() const { return details_; }
  int exit_code() const;

  // {"error":{"code","details"?,"message"}} as canonical JSON (details omitted when empty).
  std::string envelope() const;

 private:
  std::string code_;
  nlohmann::json details_;
};

// Shorthands for the usage-error family (exit 2).
EthosError invalid_input(std::string message, const std::string& json_path,
                         nlohmann::json extra = nlohmann::json::object());

}  // namespace ethos
