// batch_command.hpp - `verify-batch SOURCE --citations-ndjson FILE`: the ethos-core command.
#pragma once

#include "args.hpp"

namespace ethos::cli {

// The command's spec (flags, help) and its runner, appended to the program's table.
CommandSpec verify_batch_command();

}  // namespace ethos::cli
