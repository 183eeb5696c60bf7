// pdf_password.cpp - where an encrypted PDF's password comes from (docs/cli.md "doc parse").
#include "pdf_password.hpp"

#include <cstdlib>

#include "host_io.hpp"

namespace ethos::cli {

std::vector<OptionSpec> pdf_password_options() {
  return {
      {"--password", "P", false, {}, "Password of an encrypted PDF (visible to other users in the process list: prefer --password-file or $ETHOS_PDF_PASSWORD)."},
      {"--password-file", "FILE", false, {}, "Read the password of an encrypted PDF from FILE (one trailing newline is dropped)."},
  };
}

// The password stays off the command line, where every user of the machine can read it, when it
// comes from --password-file or $ETHOS_PDF_PASSWORD; --password still works and wins.
std::optional<std::string> pdf_password(const ParsedArgs& args) {
  const std::string* inline_password = args.value("--password");
  const std::string* file = args.value("--password-file");
  if (inline_password != nullptr && file != nullptr) {
    throw host_error("invalid_arguments", {{"argument", "--password-file"}});
  }
  if (inline_password != nullptr) return *inline_password;
  if (file != nullptr) {
    std::string text = read_input_file(*file, "--password-file");
    if (!text.empty() && text.back() == '\n') text.pop_back();
    if (!text.empty() && text.back() == '\r') text.pop_back();
    return text;
  }
  if (const char* env = std::getenv("ETHOS_PDF_PASSWORD")) return std::string(env);
  return std::nullopt;
}

}  // namespace ethos::cli
