// find_all.hpp - every occurrence of a needle in a UTF-16/UTF-32 text: the scan behind match searches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
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
  // One byte per entry, skips capped at 255 (a shorter skip is always safe): the table is set
  // with one memset instead of 256 word stores, which cost more than the scan of an element's
  // text (a search runs once per claim and tier).
  std::uint8_t skip[256];
  const std::size_t most = m < 255 ? m : 255;
  std::memset(skip, static_cast<int>(most), sizeof skip);
  for (std::size_t i = 0; i + 1 < m; ++i) {
    const std::size_t s = m - 1 - i;
    skip[static_cast<std::size_t>(needle[i]) & 0xFFu] = static_cast<std::uint8_t>(s < most ? s : most);
  }
  const CharT last = needle[m - 1];
  for (std::size_t pos = 0; pos + m <= n;) {
    const CharT c = text[pos + m - 1];
    if (c == last && text.compare(pos, m - 1, needle.substr(0, m - 1)) == 0) out.push_back(pos);
    pos += skip[static_cast<std::size_t>(c) & 0xFFu];
  }
  return out;
}

}  // namespace ethos::match
