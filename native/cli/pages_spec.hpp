// pages_spec.hpp - the --pages selection ("1-3,7,10-"): syntax, normal form, and the pages it
// picks from a document once its page count is known.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ethos::cli {

struct PageRange {
  std::int64_t first = 1;  // 1-based, inclusive
  std::int64_t last = 0;   // inclusive; 0 = open ("10-": to the last page)
};

class PageSelection {
 public:
  // All pages.
  PageSelection() = default;
  // Throws invalid_arguments for --pages on bad syntax: empty items, zero, non-digits, spaces,
  // reversed ranges ("5-3"), numbers too large.
  static PageSelection parse(std::string_view spec);

  // Sorted, overlapping and adjacent ranges merged; "" when every page is selected ("1-" too).
  // Equal selections have equal normal forms, so it is what the cache key and the document use.
  const std::string& normalized() const { return normalized_; }

  // The 0-based page indices selected from a document of `page_count` pages, ascending. Throws
  // invalid_arguments for --pages when a named page does not exist.
  std::vector<int> resolve(std::int64_t page_count) const;

 private:
  std::vector<PageRange> ranges_;  // merged; empty = all pages
  std::string normalized_;
};

}  // namespace ethos::cli
