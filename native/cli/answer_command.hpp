// answer_command.hpp - `check-answer SOURCE (--answer TEXT | --answer-file FILE|-)`: the ethos-core command.
#pragma once

#include "args.hpp"

namespace ethos::cli {

// The command's spec (flags, help) and its runner, appended to the program's table.
CommandSpec check_answer_command();

}  // namespace ethos::cli
