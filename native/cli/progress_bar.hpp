// progress_bar.hpp - the progress of long commands on stderr: a one-line bar on a terminal, a
// machine-readable line per step on $ETHOS_PROGRESS_FD (the ethos command draws it), else nothing.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace ethos::cli {

class ProgressBar {
 public:
  // `unit` names what is counted ("pages"). Nothing is ever shown with `quiet` (--quiet), nor
  // when stderr is not a terminal and $ETHOS_PROGRESS_FD is unset.
  ProgressBar(std::string label, std::string unit, bool quiet);
  ~ProgressBar() { clear(); }
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  bool enabled() const { return mode_ != Mode::kOff; }

  // `done` of `total` steps; redrawn at most ten times a second (and always at the last step).
  void update(std::uint64_t done, std::uint64_t total) noexcept;

  // Erases the bar, so that what stderr shows next (an error envelope) starts on a clean line.
  void clear() noexcept;

  // The bar's text for a terminal `width` columns wide (exposed for the tests).
  static std::string render(const std::string& label, const std::string& unit, std::uint64_t done, std::uint64_t total,
                            double elapsed_seconds, int width);

 private:
  enum class Mode { kOff, kTerminal, kFd };
  Mode mode_ = Mode::kOff;
  int fd_ = -1;
  std::string label_;
  std::string unit_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_draw_{};
};

}  // namespace ethos::cli
