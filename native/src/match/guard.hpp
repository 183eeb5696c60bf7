// guard.hpp - one guard's verdict on a near miss or a stitched quotation (CONTRACTS §4 `guards`).
#pragma once

#include <string>

namespace ethos::match {

struct Guard {
  const char* name = "";  // numeric | polarity | boundary
  bool block = false;     // true: the change (or elision) alters a figure or the polarity
  std::string detail;     // what the guard saw, for a person reading the report
};

}  // namespace ethos::match
