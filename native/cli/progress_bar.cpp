// progress_bar.cpp - draws, throttles and erases the progress bar of long commands.
#include "progress_bar.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace ethos::cli {
namespace {

constexpr auto kRedrawInterval = std::chrono::milliseconds(100);

void write_fd(int fd, const std::string& text) noexcept {
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // a progress display is never worth failing a command for
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

int terminal_width() {
  winsize size {};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col >= 20) return size.ws_col;
  return 80;
}

std::string duration_text(double seconds) {
  const long total = static_cast<long>(seconds + 0.5);
  char text[32];
  if (total >= 3600) {
    std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", total / 3600, total / 60 % 60, total % 60);
  } else {
    std::snprintf(text, sizeof text, "%02ld:%02ld", total / 60, total % 60);
  }
  return text;
}

// $ETHOS_PROGRESS_FD: a descriptor the ethos command opened for us; anything else is ignored.
int progress_fd() {
  const char* text = std::getenv("ETHOS_PROGRESS_FD");
  if (text == nullptr || *text == '\0') return -1;
  char* end = nullptr;
  const long fd = std::strtol(text, &end, 10);
  if (*end != '\0' || fd < 3 || fd > 1 << 20 || ::fcntl(static_cast<int>(fd), F_GETFD) < 0) return -1;
  return static_cast<int>(fd);
}

}  // namespace

ProgressBar::ProgressBar(std::string label, std::string unit, bool quiet)
    : label_(std::move(label)), unit_(std::move(unit)) {
  if (quiet) return;
  fd_ = progress_fd();
  if (fd_ >= 0) {
    mode_ = Mode::kFd;
  } else if (::isatty(STDERR_FILENO) == 1) {
    mode_ = Mode::kTerminal;
  }
}

std::string ProgressBar::render(const std::string& label, const std::string& unit, std::uint64_t done,
                                std::uint64_t total, double elapsed, int width) {
  const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0.0;
  char tail[160];
  if (rate > 0 && total >= done) {
    std::snprintf(tail, sizeof tail, " %llu/%llu %s [%s<%s, %.1f %s/s]", static_cast<unsigned long long>(done),
                  static_cast<unsigned long long>(total), unit.c_str(), duration_text(elapsed).c_str(),
                  duration_text(static_cast<double>(total - done) / rate).c_str(), rate, unit.c_str());
  } else {
    std::snprintf(tail, sizeof tail, " %llu/%llu %s [%s<?, ? %s/s]", static_cast<unsigned long long>(done),
                  static_cast<unsigned long long>(total), unit.c_str(), duration_text(elapsed).c_str(), unit.c_str());
  }
  const int percent = total > 0 ? static_cast<int>(100 * std::min(done, total) / total) : 0;
  std::string head = label + ": " + (percent < 10 ? "  " : percent < 100 ? " " : "") + std::to_string(percent) + "%|";
  const int bar = std::max(0, width - 1 - static_cast<int>(head.size()) - 1 - static_cast<int>(std::string(tail).size()));
  const int filled = total > 0 ? static_cast<int>(static_cast<std::uint64_t>(bar) * std::min(done, total) / total) : 0;
  return head + std::string(static_cast<std::size_t>(filled), '#') + std::string(static_cast<std::size_t>(bar - filled), ' ') +
         "|" + tail;
}

void ProgressBar::update(std::uint64_t done, std::uint64_t total) noexcept {
  if (mode_ == Mode::kOff) return;
  try {
    const auto now = std::chrono::steady_clock::now();
    if (mode_ == Mode::kFd) {
      write_fd(fd_, "progress " + unit_ + " " + std::to_string(done) + " " + std::to_string(total) + "\n");
      return;
    }
    if (drawn_ && done < total && now - last_draw_ < kRedrawInterval) return;
    last_draw_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    write_fd(STDERR_FILENO, "\r" + render(label_, unit_, done, total, elapsed, terminal_width()) + "\x1b[K");
    drawn_ = true;
  } catch (...) {
    // Out of memory while formatting a progress line: skip the line.
  }
}

void ProgressBar::clear() noexcept {
  if (mode_ != Mode::kTerminal || !drawn_) return;
  write_fd(STDERR_FILENO, "\r\x1b[K");
  drawn_ = false;
}

}  // namespace ethos::cli
