// main.cpp - ethos-core entry point: runs one command and turns every failure into one envelope line.
#include <csignal>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "commands.hpp"
#include "core/error.hpp"
#include "host_io.hpp"

namespace {

int fail(const ethos::EthosError& error) {
  ethos::cli::write_stderr(error.envelope() + "\n");
  return error.exit_code();
}

// Reports a failure that is not an EthosError. Building the envelope allocates, so under memory
// pressure it can throw again; the last resort is the exit code alone.
int fail_with(const char* code) noexcept {
  try {
    return fail(ethos::cli::host_error(code));
  } catch (...) {
    return 12;
  }
}

}  // namespace

int main(int argc, char** argv) {
  // A closed stdout pipe must become an internal_error envelope (docs/cli.md §5.1), not a silent
  // death by SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  try {
    std::vector<std::string> tokens(argv + (argc > 0 ? 1 : 0), argv + argc);
    return ethos::cli::dispatch(ethos::cli::program_spec(), tokens);
  } catch (const ethos::EthosError& error) {
    try {
      return fail(error);
    } catch (...) {
      return fail_with("internal_error");
    }
  } catch (const std::bad_alloc&) {
    return fail_with("memory_limit_exceeded");
  } catch (...) {
    return fail_with("internal_error");
  }
}
