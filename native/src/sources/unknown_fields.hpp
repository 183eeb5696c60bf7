// unknown_fields.hpp - turns the fields a foreign loader did not know into report warnings.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ethos {
class Source;
}

namespace ethos::sources {

// At most this many distinct unknown-field warnings per source: a producer that adds a field to
// every element names it once ($.elements[*].confidence), and a report stays small whatever
// the input holds.
constexpr std::size_t kMaxUnknownFieldWarnings = 16;

// A JSON path with every array index written [*]: "$.kids[3].kids[0].x" -> "$.kids[*].kids[*].x".
std::string wildcard_indexes(std::string_view path);

// Fills source.warnings with "unknown_field:<path>" for each distinct wildcarded path of
// source.unknown_fields, sorted, at most kMaxUnknownFieldWarnings of them.
void record_unknown_field_warnings(Source& source);

}  // namespace ethos::sources
