// parse_command.hpp - `doc parse PDF` and `fingerprint FILE.pdf`: checks, cache, supervised parse,
// assembly and output.
#pragma once

#include <vector>

#include "args.hpp"

namespace ethos::cli {

// The options shared by `doc parse` and `fingerprint` (everything but --format and --out).
std::vector<OptionSpec> parse_options();

int run_doc_parse(const ParsedArgs& args);

// `fingerprint FILE`: a PDF (by its .pdf name or its %PDF- header) is parsed (or read from the
// cache) and described; anything else is opened as a native document JSON as before.
int run_fingerprint(const ParsedArgs& args);

}  // namespace ethos::cli
