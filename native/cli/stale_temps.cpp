// stale_temps.cpp - --out temp files and --crop-dir staging directories named with the writer's pid; removal of those whose writer is dead.
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

constexpr std::string_view kOutPrefix = ".ethos-out-";
constexpr std::string_view kCropsPrefix = ".ethos-crops-";

// The writer's pid of a name "<prefix><pid>-<suffix>" (pid: 1 to 10 digits; suffix: the 6 to 8
// letters, digits or '_' that mkstemp/mkdtemp (6) or Python's tempfile (8) chose), or 0 for any
// other name.
long pid_of_temp_name(std::string_view name, std::string_view prefix) {
  if (name.substr(0, prefix.size()) != prefix) return 0;
  name.remove_prefix(prefix.size());
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

// Removes the regular files of this user directly inside the staging directory `name` (opened
// without following links, so a link put there cannot aim the removal elsewhere), then the
// directory; anything else inside keeps it. Best effort.
void remove_staging_directory(int parent_fd, const char* name) noexcept {
  const int fd = ::openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  DIR* dir = ::fdopendir(fd);
  if (dir == nullptr) {
    ::close(fd);
    return;
  }
  while (const dirent* entry = ::readdir(dir)) {
    struct stat st {};
    if (::fstatat(fd, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (S_ISREG(st.st_mode) && st.st_uid == ::geteuid()) ::unlinkat(fd, entry->d_name, 0);
  }
  ::closedir(dir);
  ::unlinkat(parent_fd, name, AT_REMOVEDIR);
}

// Calls remove(dir_fd, name) for every entry of `directory` named "<prefix><pid>-<suffix>" of
// this user, of the given file type, whose writer is gone and that has not changed for
// kStaleTempSeconds.
template <typename Remove>
void remove_stale(const std::string& directory, std::string_view prefix, mode_t type, Remove remove) noexcept {
  DIR* dir = ::opendir(directory.c_str());
  if (dir == nullptr) return;
  const int dir_fd = ::dirfd(dir);
  const std::time_t now = std::time(nullptr);
  while (const dirent* entry = ::readdir(dir)) {
    const long pid = pid_of_temp_name(entry->d_name, prefix);
    if (pid <= 0 || pid > 2147483647L || pid == static_cast<long>(::getpid())) continue;  // pid_t: 32 bits
    struct stat st {};
    if (::fstatat(dir_fd, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if ((st.st_mode & S_IFMT) != type || st.st_uid != ::geteuid()) continue;
    if (now - st.st_mtime < kStaleTempSeconds || !process_gone(pid)) continue;
    remove(dir_fd, entry->d_name);
  }
  ::closedir(dir);
}

}  // namespace

std::string out_temp_template(const std::string& directory) {
  return directory + "/" + std::string(kOutPrefix) + std::to_string(static_cast<long>(::getpid())) + "-XXXXXX";
}

std::string crop_staging_template(const std::string& directory) {
  return directory + "/" + std::string(kCropsPrefix) + std::to_string(static_cast<long>(::getpid())) + "-XXXXXX";
}

void remove_stale_out_temps(const std::string& directory) noexcept {
  remove_stale(directory, kOutPrefix, S_IFREG, [](int dir_fd, const char* name) { ::unlinkat(dir_fd, name, 0); });
}

void remove_stale_crop_staging(const std::string& directory) noexcept {
  remove_stale(directory, kCropsPrefix, S_IFDIR, remove_staging_directory);
}

}  // namespace ethos::cli
