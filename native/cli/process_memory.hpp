// process_memory.hpp - a child's resident memory from /proc/<pid>/statm: what the parse
// supervisor polls to enforce the real memory limit.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include <sys/types.h>

namespace ethos::cli {

// The resident page count (second field) of a statm line; nullopt when malformed.
std::optional<std::uint64_t> statm_resident_pages(std::string_view statm);

// Resident bytes of process `pid`; nullopt when it is gone or unreadable.
std::optional<std::uint64_t> resident_bytes(pid_t pid);

}  // namespace ethos::cli
