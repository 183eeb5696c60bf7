// find_all.hpp - every occurrence of a needle in a UTF-16/UTF-32 text: the scan behind match searches.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace ethos::match {

// Start positions of every occurrence of needle in text (overlapping ones included), ascending:
// what calling text.find(needle, pos + 1) from each hit on would give, found with Horspool's
// skips instead. The standard library's find for char16_t/char32_t text compares at every
// position where the needle's first scalar occurs (most of them, in prose), and element texts
// are searched once per claim and tier. The skip table is indexed by a scalar's low byte, each
// entry the smallest skip of the needle's scalars sharing it, so no occurrence is skipped.
template <typename CharT>
std::vector<std::size_t> find_all(std::basic_string_view<CharT> text, std::basic_string_view<CharT> needle) {
  std::vector<std::size_t> out;
  const std::size_t n = text.size(), m = needle.size();
  if (m == 0) {
    for (std::size_t pos = 0; pos <= n; ++pos) out.push_back(pos);
    return out;
  }
  if (n < m) return out;
  std::size_t skip[256];
  for (std::size_t& entry : skip) entry = m;
  for (std::size_t i = 0; i + 1 < m; ++i) skip[static_cast<std::size_t>(needle[i]) & 0xFFu] = m - 1 - i;
  const CharT last = needle[m - 1];
  for (std::size_t pos = 0; pos + m <= n;) {
    const CharT c = text[pos + m - 1];
    if (c == last && text.compare(pos, m - 1, needle.substr(0, m - 1)) == 0) out.push_back(pos);
    pos += skip[static_cast<std::size_t>(c) & 0xFFu];
  }
  return out;
}

}  // namespace ethos::match
