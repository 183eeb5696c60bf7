// test_check.hpp - the CHECK macro and failure count every native test program shares.
#pragma once

#include <cstdio>

namespace ethos_test {

// Test programs keep going after a failed check so one run reports every failure.
inline int failures = 0;

inline void check(bool condition, const char* what, int line) {
  if (!condition) {
    std::fprintf(stderr, "FAILED line %d: %s\n", line, what);
    ++failures;
  }
}

// The end of every test program's main: the verdict on stderr (ctest shows it on failure) and the
// exit status ctest reads.
inline int finish(const char* program) {
  if (failures != 0) {
    std::fprintf(stderr, "%s: %d check(s) failed\n", program, failures);
    return 1;
  }
  std::printf("%s: all checks passed\n", program);
  return 0;
}

}  // namespace ethos_test

#define CHECK(cond) ::ethos_test::check((cond), #cond, __LINE__)
