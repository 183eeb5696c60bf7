// error.cpp - the stable error-code table, the messages that say what to do, and the JSON error envelope.
#include "core/error.hpp"

#include <array>

#include "json/c14n.hpp"

namespace ethos {
namespace {

// One row per public code; the exit statuses are part of the compatibility contract. Each
// message says what to do next; error_message() makes it specific from the details.
constexpr std::array<ErrorCodeInfo, 15> kErrorCodes = {{
    {"invalid_arguments", 2, "the command line arguments are invalid: run the command with --help to see its usage"},
    {"invalid_input", 2, "an input does not match its contract: correct the field at details.path"},
    {"host_io", 2, "a file could not be read or written: check the path and its permissions"},
    {"input_limit_exceeded", 2, "an input exceeds a configured limit: split the input or raise the limit named in details"},
    {"source_mismatch", 2, "the inputs do not belong to the same source: give the document, PDF and requests of one source"},
    {"invalid_pdf", 3, "the input is not a PDF file (no %PDF- header in its first 1024 bytes): give the PDF itself"},
    {"corrupt_pdf", 4, "the PDF file is corrupt and cannot be opened: repair it (re-save it with a PDF tool) or use another copy"},
    {"password_protected", 5, "the PDF file is password protected: give its password with --password, --password-file or ETHOS_PDF_PASSWORD"},
    {"page_limit_exceeded", 6, "the PDF file has more pages than allowed: raise --max-pages"},
    {"file_too_large", 7, "an input file is larger than allowed: use a smaller file, or raise --max-file-bytes for a PDF"},
    {"ocr_required", 8, "the selected pages contain no extractable text (scanned or blank pages): OCR the PDF first (e.g. with ocrmypdf) or select other pages with --pages"},
    {"unsupported_pdf_feature", 9, "the PDF file uses an unsupported security handler: save a copy without that protection and parse the copy"},
    {"parse_timeout", 10, "parsing exceeded the time limit: raise --max-parse-ms or parse fewer pages with --pages"},
    {"memory_limit_exceeded", 11, "the work exceeded the memory limit: raise --max-memory-mib or parse fewer pages with --pages"},
    {"internal_error", 12, "an internal error occurred: this is a bug in Ethos; please report it with the command that failed (ETHOS_DEBUG=1 adds a traceback to ethos)"},
}};

// A value from details as it may appear in a message: strings as they are, numbers in decimal.
std::string detail_text(const nlohmann::json& details, const char* key) {
  if (!details.is_object()) return std::string();
  const auto it = details.find(key);
  if (it == details.end()) return std::string();
  if (it->is_string()) return it->get<std::string>();
  if (it->is_number_integer() || it->is_number_unsigned()) return it->dump();
  return std::string();
}

bool is_metavar(const std::string& argument) {
  if (argument.empty()) return false;
  for (const char c : argument) {
    if (!((c >= 'A' && c <= 'Z') || c == '_')) return false;
  }
  return true;
}

std::string invalid_arguments_message(const nlohmann::json& details) {
  const std::string argument = detail_text(details, "argument");
  const std::string page_count = detail_text(details, "page_count");
  if (argument == "--pages" && !page_count.empty()) {
    return "--pages names a page the PDF does not have: it has " + page_count + (page_count == "1" ? " page" : " pages");
  }
  if (argument == "COMMAND") return "the command is missing or unknown: run with --help to list the commands";
  if (argument.size() > 1 && argument[0] == '-') {
    return "the option " + argument + " is missing, unknown or has an invalid value: run the command with --help to see its options";
  }
  if (is_metavar(argument)) {
    return "the argument " + argument + " is missing or invalid: run the command with --help to see its usage";
  }
  if (!argument.empty()) {
    return "unexpected argument \"" + argument + "\": run the command with --help to see its usage";
  }
  return find_error_code("invalid_arguments")->default_message;
}

std::string host_io_message(const nlohmann::json& details) {
  const std::string argument = detail_text(details, "argument");
  const std::string path = detail_text(details, "path");
  const std::string reason = detail_text(details, "reason");
  std::string what = "a file";
  if (!path.empty()) what = "\"" + path + "\"";
  if (!argument.empty()) what += " (" + argument + ")";
  if (reason == "not_found") return "cannot find " + what + ": check the path";
  if (reason == "is_directory") return what + " is a directory: give a file";
  if (reason == "permission_denied") return "permission denied for " + what + ": check its permissions";
  if (reason == "no_writer") {
    return what + " is a named pipe nothing wrote to within 5 seconds: start its writer first, or give a regular file";
  }
  return "cannot read or write " + what + ": check the path, its permissions and the free disk space";
}

}  // namespace

std::string error_message(const ErrorCodeInfo& info, const nlohmann::json& details) {
  const std::string code = info.code;
  if (code == "invalid_arguments") return invalid_arguments_message(details);
  if (code == "host_io") return host_io_message(details);
  if (code == "file_too_large") {
    const std::string argument = detail_text(details, "argument");
    const std::string max_bytes = detail_text(details, "max_bytes");
    if (!max_bytes.empty()) {
      std::string message = (argument.empty() ? std::string("an input file") : argument) + " is larger than " + max_bytes +
                            " bytes: use a smaller file";
      if (argument == "PDF" || argument == "DOC") message += ", or raise --max-file-bytes";
      return message;
    }
  }
  if (code == "input_limit_exceeded") {
    const std::string limit = detail_text(details, "max_verify_ms");
    if (!limit.empty()) {
      return "verifying took longer than " + limit +
             " ms: raise --max-verify-ms (max_verify_ms in Python), or verify fewer or shorter claims per call";
    }
  }
  if (code == "corrupt_pdf" && detail_text(details, "reason") == "no_pages") {
    return "the PDF file has no pages, so there is nothing to parse: give a PDF with at least one page";
  }
  if (code == "page_limit_exceeded") {
    const std::string max_pages = detail_text(details, "max_pages");
    if (!max_pages.empty()) return "the PDF file has more than " + max_pages + " pages: raise --max-pages";
  }
  if (code == "parse_timeout") {
    const std::string limit = detail_text(details, "max_parse_ms");
    if (!limit.empty()) return "parsing took longer than " + limit + " ms: raise --max-parse-ms or parse fewer pages with --pages";
  }
  if (code == "memory_limit_exceeded") {
    const std::string limit = detail_text(details, "max_memory_mib");
    if (!limit.empty()) {
      return "the parse workers together needed more than " + limit +
             " MiB: raise --max-memory-mib, use fewer --workers or parse fewer pages with --pages";
    }
  }
  if (code == "internal_error") {
    if (detail_text(details, "stream") == "stdout") {
      return "the output could not be written to stdout (closed pipe or full disk): check where the output goes";
    }
    const std::string reason = detail_text(details, "reason");
    if (reason == "core_unavailable") return "ethos-core could not be run: reinstall ethos-verify";
    if (reason == "core_failed") return "ethos-core stopped without reporting why: this is a bug in Ethos; please report it";
  }
  return info.default_message;
}


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
