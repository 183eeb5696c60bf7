// verify_deadline.cpp - the per-thread verify deadline and its input_limit_exceeded error.
#include "core/verify_deadline.hpp"

#include "core/error.hpp"

namespace ethos {
namespace {

thread_local const VerifyDeadline* t_deadline = nullptr;

}  // namespace

VerifyDeadline::VerifyDeadline(std::int64_t ms)
    : ms_(ms), at_(std::chrono::steady_clock::now() + std::chrono::milliseconds(ms)) {}

void VerifyDeadline::check() const {
  if (std::chrono::steady_clock::now() < at_) return;
  const nlohmann::json details = {{"argument", "--max-verify-ms"}, {"max_verify_ms", ms_}};
  throw EthosError("input_limit_exceeded", error_message(*find_error_code("input_limit_exceeded"), details), details);
}

DeadlineScope::DeadlineScope(const VerifyDeadline* deadline) : previous_(t_deadline) { t_deadline = deadline; }

DeadlineScope::~DeadlineScope() { t_deadline = previous_; }

const VerifyDeadline* current_deadline() { return t_deadline; }

void check_verify_deadline() {
  if (t_deadline != nullptr) t_deadline->check();
}

}  // namespace ethos
