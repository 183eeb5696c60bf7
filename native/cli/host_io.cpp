// host_io.cpp - POSIX file and stream I/O for ethos-core, every failure mapped to an error envelope.
#include "host_io.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stale_temps.hpp"

namespace ethos::cli {
namespace {

// The errno → reason mapping of docs/cli.md §5.1; the Python CLI uses the same table.
const char* io_reason(int err) {
  switch (err) {
    case ENOENT:
    case ENOTDIR:
      return "not_found";
    case EISDIR:
      return "is_directory";
    case EACCES:
    case EPERM:
    case EROFS:
      return "permission_denied";
    case ETIMEDOUT:  // a named pipe without a writer (read_input_file)
      return "no_writer";
    default:
      return "io_error";
  }
}

// The path goes into the details (and so the message) when it is UTF-8, as JSON requires; the
// Python CLI applies the same rule, so both print the same envelope.
EthosError io_error(const std::string& argument, int err, const std::string& path) {
  nlohmann::json details{{"argument", argument}, {"reason", io_reason(err)}};
  try {
    (void)nlohmann::json(path).dump();
    details["path"] = path;
  } catch (const nlohmann::json::exception&) {
  }
  return host_error("host_io", std::move(details));
}

EthosError too_large(const std::string& argument, std::uint64_t max_bytes) {
  return host_error("file_too_large", {{"argument", argument}, {"max_bytes", max_bytes}});
}

// Closes fd on scope exit unless released; keeps every early throw from leaking descriptors.
class FdGuard {
 public:
  explicit FdGuard(int fd) : fd_(fd) {}
  FdGuard(const FdGuard&) = delete;
  FdGuard& operator=(const FdGuard&) = delete;
  ~FdGuard() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  // Closes now and reports the result: close() can surface a deferred write error.
  int close_now() {
    int rc = ::close(fd_);
    fd_ = -1;
    return rc;
  }

 private:
  int fd_;
};

// Writes everything, retrying short writes and EINTR. Returns 0 or the errno of the failure.
int write_all(int fd, std::string_view bytes) {
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return 0;
}

std::string dirname_of(const std::string& path) {
  std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// The mode a plain open(O_CREAT, 0666) would give; mkstemp alone would leave 0600.
mode_t default_file_mode() {
  mode_t mask = ::umask(0);
  ::umask(mask);
  return static_cast<mode_t>(0666 & ~mask);
}

}  // namespace

EthosError host_error(const std::string& code, nlohmann::json details) {
  const ErrorCodeInfo* info = find_error_code(code);
  // Every code passed here is a literal from the table; a miss is our bug, reported as such.
  if (info == nullptr) return EthosError("internal_error", find_error_code("internal_error")->default_message);
  std::string message = error_message(*info, details);
  return EthosError(code, std::move(message), std::move(details));
}

std::string read_input_file(const std::string& path, const std::string& argument) {
  return read_input_file(path, argument, kMaxInputBytes);
}

std::string read_input_file(const std::string& path, const std::string& argument, std::uint64_t max_bytes) {
  // stat first: a directory or an oversized file is rejected without opening or reading it.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw io_error(argument, errno, path);
  if (S_ISDIR(st.st_mode)) throw io_error(argument, EISDIR, path);
  const bool regular = S_ISREG(st.st_mode);
  if (regular && static_cast<std::uint64_t>(st.st_size) > max_bytes) throw too_large(argument, max_bytes);

  // A named pipe is opened without waiting for a writer (open would block until one comes, for
  // ever when none does), then given kFifoWriterWaitMs to produce data or be closed.
  const bool fifo = S_ISFIFO(st.st_mode);
  int raw = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | (fifo ? O_NONBLOCK : 0));
  if (raw < 0) throw io_error(argument, errno, path);
  FdGuard fd(raw);
  if (fifo) {
    pollfd wait{fd.get(), POLLIN, 0};
    int ready = 0;
    do {
      ready = ::poll(&wait, 1, kFifoWriterWaitMs);
    } while (ready < 0 && errno == EINTR);
    if (ready < 0) throw io_error(argument, errno, path);
    if (ready == 0) throw io_error(argument, ETIMEDOUT, path);
    const int flags = ::fcntl(fd.get(), F_GETFL);
    if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK) != 0) throw io_error(argument, errno, path);
  }

  std::string data;
  if (regular) data.reserve(static_cast<std::size_t>(st.st_size));
  std::vector<char> buffer(1 << 16);
  for (;;) {
    ssize_t n = ::read(fd.get(), buffer.data(), buffer.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw io_error(argument, errno, path);
    }
    if (n == 0) break;
    data.append(buffer.data(), static_cast<std::size_t>(n));
    // Pipes and devices have no size to stat, and a regular file may grow while we read.
    if (data.size() > max_bytes) throw too_large(argument, max_bytes);
  }
  return data;
}

void write_file_atomic(const std::string& path, std::string_view bytes, const std::string& argument) {
  // A device or pipe (--out /dev/null, --out /dev/stdout, a FIFO) is written in place: renaming a
  // file over it would replace the device node itself, and nothing partial can be left on one.
  struct stat target {};
  if (::stat(path.c_str(), &target) == 0 && !S_ISREG(target.st_mode) && !S_ISDIR(target.st_mode)) {
    FdGuard fd(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
    if (fd.get() < 0) throw io_error(argument, errno, path);
    int err = write_all(fd.get(), bytes);
    if (fd.close_now() != 0 && err == 0) err = errno;
    if (err != 0) throw io_error(argument, err, path);
    return;
  }
  // The temp file lives next to the target so rename() stays within one filesystem (atomic). Its
  // name carries our pid: what a killed writer left there is removed first (stale_temps.hpp).
  remove_stale_out_temps(dirname_of(path));
  std::string temp = out_temp_template(dirname_of(path));
  int raw = ::mkstemp(temp.data());
  if (raw < 0) throw io_error(argument, errno, path);
  FdGuard fd(raw);

  int err = 0;
  if (::fchmod(fd.get(), default_file_mode()) != 0) err = errno;
  if (err == 0) err = write_all(fd.get(), bytes);
  // fsync before rename: otherwise a crash can leave the new name pointing at empty data.
  if (err == 0 && ::fsync(fd.get()) != 0) err = errno;
  if (fd.close_now() != 0 && err == 0) err = errno;
  if (err == 0 && ::rename(temp.c_str(), path.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlink(temp.c_str());
    throw io_error(argument, err, path);
  }

  // Persist the directory entry too. The new file is already in place, so a failure here cannot
  // be undone and is not reported.
  int dir = ::open(dirname_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

void write_stdout(std::string_view bytes) {
  if (write_all(STDOUT_FILENO, bytes) != 0) throw host_error("internal_error", {{"stream", "stdout"}});
}

void write_stderr(std::string_view bytes) noexcept { (void)write_all(STDERR_FILENO, bytes); }

}  // namespace ethos::cli
