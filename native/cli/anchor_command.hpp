// anchor_command.hpp - `evidence anchor SOURCE --evidence-refs FILE`: the ethos-core command.
#pragma once

#include "args.hpp"

namespace ethos::cli {

// The command's spec (flags, help) and its runner, appended to the program's table.
CommandSpec evidence_anchor_command();

}  // namespace ethos::cli
