// cache_command.hpp - `cache info` and `cache clear`: the parse cache's size and its removal.
#pragma once

#include "args.hpp"

namespace ethos::cli {

CommandSpec cache_info_command();
CommandSpec cache_clear_command();

}  // namespace ethos::cli
