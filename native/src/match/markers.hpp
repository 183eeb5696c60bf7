// markers.hpp - a policy's marker_pattern: the parser markers (`[[HEADING_CANDIDATE]]`) a model
// never saw, found by RE2 (linear time over untrusted text) and read as one separating space.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace re2 {
class RE2;
}

namespace ethos::match {

// Half-open scalar ranges [first, second) of the markers in a text, in order, never overlapping.
using MarkerRanges = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

class MarkerPattern {
 public:
  // Compiles `pattern` (RE2 syntax, UTF-8). A pattern RE2 refuses, one longer than 1,024 bytes,
  // or one that matches empty text is an invalid_input error at `path` naming the reason.
  static std::shared_ptr<const MarkerPattern> compile(std::string_view pattern, const std::string& path);
  ~MarkerPattern();
  MarkerPattern(const MarkerPattern&) = delete;
  MarkerPattern& operator=(const MarkerPattern&) = delete;

  const std::string& pattern() const { return pattern_; }

  // The markers of a text (scalars), leftmost first; a match of no characters (possible in some
  // contexts, "\b" say) is never a marker.
  MarkerRanges find(std::u32string_view text) const;
  // The same over UTF-8 bytes (an element's text), in scalar offsets.
  MarkerRanges find_utf8(std::string_view text) const;

 private:
  explicit MarkerPattern(std::string pattern);
  std::string pattern_;
  std::unique_ptr<re2::RE2> compiled_;
};

}  // namespace ethos::match
