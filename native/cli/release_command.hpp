// release_command.hpp - `release REPORT --question TEXT --claims FILE`: the app answer release decision.
#pragma once

#include <vector>

#include "args.hpp"

namespace ethos::cli {

// The options of `release` (the flag table entry lives in commands.cpp).
std::vector<OptionSpec> release_options();

int run_release(const ParsedArgs& args);

}  // namespace ethos::cli
