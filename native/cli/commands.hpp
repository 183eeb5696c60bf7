// commands.hpp - the ethos-core program: its flag table and the commands behind it.
#pragma once

#include "args.hpp"

namespace ethos::cli {

// The one definition of every command, option and help text of ethos-core (docs/cli.md).
const ProgramSpec& program_spec();

}  // namespace ethos::cli
