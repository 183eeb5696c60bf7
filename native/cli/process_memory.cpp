// process_memory.cpp - reads and parses /proc/<pid>/statm without allocating (it runs every few ms).
#include "process_memory.hpp"

#include <cerrno>
#include <cstdio>

#include <fcntl.h>
#include <unistd.h>

namespace ethos::cli {

std::optional<std::uint64_t> statm_resident_pages(std::string_view statm) {
  std::size_t i = 0;
  auto skip_number = [&]() {
    std::size_t start = i;
    while (i < statm.size() && statm[i] >= '0' && statm[i] <= '9') ++i;
    return i > start;
  };
  if (!skip_number() || i >= statm.size() || statm[i] != ' ') return std::nullopt;
  ++i;
  std::uint64_t pages = 0;
  std::size_t start = i;
  while (i < statm.size() && statm[i] >= '0' && statm[i] <= '9') {
    if (i - start >= 18) return std::nullopt;  // would not fit: not a real statm
    pages = pages * 10 + static_cast<std::uint64_t>(statm[i] - '0');
    ++i;
  }
  if (i == start || (i < statm.size() && statm[i] != ' ' && statm[i] != '\n')) return std::nullopt;
  return pages;
}

std::optional<std::uint64_t> resident_bytes(pid_t pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/statm", static_cast<int>(pid));
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  char buffer[256];
  ssize_t n;
  do {
    n = ::read(fd, buffer, sizeof buffer);
  } while (n < 0 && errno == EINTR);
  ::close(fd);
  if (n <= 0) return std::nullopt;
  auto pages = statm_resident_pages(std::string_view(buffer, static_cast<std::size_t>(n)));
  if (!pages) return std::nullopt;
  return *pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

}  // namespace ethos::cli
