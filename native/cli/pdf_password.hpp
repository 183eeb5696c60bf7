// pdf_password.hpp - the password of an encrypted PDF from --password, --password-file or
// $ETHOS_PDF_PASSWORD, shared by `doc parse`/`fingerprint` and the crop renderers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "args.hpp"

namespace ethos::cli {

// The two options, with their help texts (the same on every command that takes them).
std::vector<OptionSpec> pdf_password_options();

// --password, else --password-file's contents (one trailing newline dropped), else
// $ETHOS_PDF_PASSWORD, else nullopt. Both options at once is ambiguous: invalid_arguments for
// --password-file. Reads the password file, so call it while the arguments are checked.
std::optional<std::string> pdf_password(const ParsedArgs& args);

}  // namespace ethos::cli
