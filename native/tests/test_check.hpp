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

}  // namespace ethos_test

#define CHECK(cond) ::ethos_test::check((cond), #cond, __LINE__)
