// verify_deadline.hpp - the verify time budget (max_verify_ms): a deadline for this thread's verify call, checked between claims and in the matcher's long loops.
#pragma once

#include <chrono>
#include <cstdint>

namespace ethos {

// The largest max_verify_ms accepted (about 35 years: only bounds the arithmetic).
constexpr std::int64_t kMaxVerifyMs = std::int64_t{1} << 40;

// A wall-clock budget of `ms` milliseconds from construction. check() throws
// input_limit_exceeded, details {"argument":"--max-verify-ms","max_verify_ms":ms}, once it has
// passed. It does not depend on the config or the policy, so reports stay what they were: a call
// either ends in time with its report or ends in that error, never with part of a report.
class VerifyDeadline {
 public:
  explicit VerifyDeadline(std::int64_t ms);
  void check() const;
  std::int64_t ms() const { return ms_; }

 private:
  std::int64_t ms_;
  std::chrono::steady_clock::time_point at_;
};

// Installs a deadline (or none) for the calling thread for the scope's lifetime. A verify call
// installs its own; a batch's helper thread installs its caller's (core/batch_verify.cpp).
class DeadlineScope {
 public:
  explicit DeadlineScope(const VerifyDeadline* deadline);
  ~DeadlineScope();
  DeadlineScope(const DeadlineScope&) = delete;
  DeadlineScope& operator=(const DeadlineScope&) = delete;

 private:
  const VerifyDeadline* previous_;
};

// The deadline installed on this thread, or nullptr.
const VerifyDeadline* current_deadline();

// Throws when this thread's deadline has passed; nothing when none is installed.
void check_verify_deadline();

}  // namespace ethos
