// unknown_fields.cpp - unknown fields of a foreign source as stable report warning codes.
#include "sources/unknown_fields.hpp"

#include <set>

#include "core/source.hpp"

namespace ethos::sources {

std::string wildcard_indexes(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '[') {
      std::size_t j = i + 1;
      while (j < path.size() && path[j] >= '0' && path[j] <= '9') ++j;
      if (j > i + 1 && j < path.size() && path[j] == ']') {
        out += "[*]";
        i = j;
        continue;
      }
    }
    out += path[i];
  }
  return out;
}

void record_unknown_field_warnings(Source& source) {
  std::set<std::string> distinct;
  for (const std::string& path : source.unknown_fields) distinct.insert(wildcard_indexes(path));
  for (const std::string& path : distinct) {
    if (source.warnings.size() >= kMaxUnknownFieldWarnings) break;
    source.warnings.push_back("unknown_field:" + path);
  }
  source.unknown_fields.clear();
  source.unknown_fields.shrink_to_fit();
}

}  // namespace ethos::sources
