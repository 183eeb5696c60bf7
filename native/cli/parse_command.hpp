// parse_command.hpp - `doc parse PDF` and `fingerprint FILE.pdf`: checks, cache, supervised parse,
// assembly and output.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "args.hpp"

namespace ethos::cli {

// The options shared by `doc parse` and `fingerprint` (everything but --format and --out).
std::vector<OptionSpec> parse_options();

int run_doc_parse(const ParsedArgs& args);

// One SOURCE file as read for a command that also takes PDFs (check-answer).
struct ReadSource {
  std::string bytes;  // the file, or for a PDF the native document `doc parse` writes
  bool parsed_pdf = false;
};

// Reads each path with the parse options of `args` (parse_options()): a PDF (by its .pdf name or
// its %PDF- header) is parsed, or read from the parse cache, exactly as `fingerprint` does; any
// other file is returned as it is. The parse options are checked before the first file is read.
std::vector<ReadSource> read_sources(const ParsedArgs& args, const std::vector<std::string>& paths,
                                     std::string_view argument);

// `fingerprint FILE`: a PDF (by its .pdf name or its %PDF- header) is parsed (or read from the
// cache) and described; anything else is opened as a native document JSON as before.
int run_fingerprint(const ParsedArgs& args);

}  // namespace ethos::cli
