// error.cpp - the stable error-code table (CONTRACTS.md §1.4) and the JSON error envelope.
#include "core/error.hpp"

#include <array>

#include "json/c14n.hpp"

namespace ethos {
namespace {

// One row per public code; the exit statuses are part of the compatibility contract.
constexpr std::array<ErrorCodeInfo, 15> kErrorCodes = {{
    {"invalid_arguments", 2, "the command line arguments are invalid"},
    {"invalid_input", 2, "an input does not match its contract"},
    {"host_io", 2, "a file could not be read or written"},
    {"input_limit_exceeded", 2, "an input exceeds a configured limit"},
    {"source_mismatch", 2, "the inputs do not belong to the same source"},
    {"invalid_pdf", 3, "the input is not a PDF file"},
    {"corrupt_pdf", 4, "the PDF file is corrupt"},
    {"password_protected", 5, "the PDF file is password protected"},
    {"page_limit_exceeded", 6, "the PDF file has more pages than allowed"},
    {"file_too_large", 7, "an input file is larger than allowed"},
    {"ocr_required", 8, "the selected pages contain no extractable text"},
    {"unsupported_pdf_feature", 9, "the PDF file uses an unsupported security handler"},
    {"parse_timeout", 10, "parsing exceeded the time limit"},
    {"memory_limit_exceeded", 11, "parsing exceeded the memory limit"},
    {"internal_error", 12, "an internal error occurred"},
}};

}  // namespace

const ErrorCodeInfo* find_error_code(std::string_view code) {
  for (const auto& info : kErrorCodes) {
    if (code == info.code) return &info;
  }
  return nullptr;
}

EthosError::EthosError(std::string code, std::string message, nlohmann::json details)
    : std::runtime_error(message), code_(std::move(code)), details_(std::move(details)) {}

int EthosError::exit_code() const {
  const ErrorCodeInfo* info = find_error_code(code_);
  return info ? info->exit_code : 12;
}

std::string EthosError::envelope() const {
  nlohmann::json inner = {{"code", code_}, {"message", std::string(what())}};
  if (details_.is_object() && !details_.empty()) inner["details"] = details_;
  return to_c14n(nlohmann::json{{"error", std::move(inner)}});
}

EthosError invalid_input(std::string message, const std::string& json_path, nlohmann::json extra) {
  if (!extra.is_object()) extra = nlohmann::json::object();
  extra["path"] = json_path;
  return EthosError("invalid_input", std::move(message), std::move(extra));
}

}  // namespace ethos
