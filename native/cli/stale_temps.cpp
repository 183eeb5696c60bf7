// stale_temps.cpp - --out temp file names carrying the writer's pid; removal of those whose writer is dead.
#include "stale_temps.hpp"

#include <cerrno>
#include <csignal>
#include <ctime>
#include <string_view>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ethos::cli {
namespace {

constexpr std::string_view kPrefix = ".ethos-out-";

// The writer's pid of a name ".ethos-out-<pid>-<suffix>" (pid: 1 to 10 digits; suffix: the 6 to 8
// letters, digits or '_' that mkstemp (6) or Python's tempfile (8) chose), or 0 for any other name.
long pid_of_temp_name(std::string_view name) {
  if (name.substr(0, kPrefix.size()) != kPrefix) return 0;
  name.remove_prefix(kPrefix.size());
  const std::size_t dash = name.find('-');
  if (dash == 0 || dash == std::string_view::npos || dash > 10) return 0;
  const std::string_view suffix = name.substr(dash + 1);
  if (suffix.size() < 6 || suffix.size() > 8) return 0;
  for (char c : suffix) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return 0;
  }
  long pid = 0;
  for (std::size_t i = 0; i < dash; ++i) {
    if (name[i] < '0' || name[i] > '9') return 0;
    pid = pid * 10 + (name[i] - '0');
  }
  return pid;
}

bool process_gone(long pid) { return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH; }

}  // namespace

std::string out_temp_template(const std::string& directory) {
  return directory + "/" + std::string(kPrefix) + std::to_string(static_cast<long>(::getpid())) + "-XXXXXX";
}

void remove_stale_out_temps(const std::string& directory) noexcept {
  DIR* dir = ::opendir(directory.c_str());
  if (dir == nullptr) return;
  const int dir_fd = ::dirfd(dir);
  const std::time_t now = std::time(nullptr);
  while (const dirent* entry = ::readdir(dir)) {
    const long pid = pid_of_temp_name(entry->d_name);
    if (pid <= 0 || pid > 2147483647L || pid == static_cast<long>(::getpid())) continue;  // pid_t: 32 bits
    struct stat st {};
    if (::fstatat(dir_fd, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (!S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) continue;
    if (now - st.st_mtime < kStaleTempSeconds || !process_gone(pid)) continue;
    ::unlinkat(dir_fd, entry->d_name, 0);
  }
  ::closedir(dir);
}

}  // namespace ethos::cli
