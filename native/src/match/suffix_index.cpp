// suffix_index.cpp - prefix-doubling suffix array construction and binary-search lookup.
#include "match/suffix_index.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace ethos::match {

template <typename CharT>
BasicSuffixIndex<CharT>::BasicSuffixIndex(const Text& text, std::size_t depth)
    : text_(&text), depth_(depth == 0 ? text.size() + 1 : depth) {
  const std::size_t n = text.size();
  suffixes_.resize(n);
  if (n == 0) return;
  std::vector<std::uint32_t>& sa = suffixes_;
  std::vector<std::uint32_t> rank(n), next_rank(n), by_second(n);
  // Round 0: rank = dense rank of the first character (one sort of packed character/position keys).
  if constexpr (sizeof(CharT) == 2) {
    // 2-byte characters: one counting sort over the 65,536 possible values.
    std::vector<std::uint32_t> starts(std::size_t{1} << 16, 0);
    for (std::size_t i = 0; i < n; ++i) ++starts[static_cast<std::size_t>(text[i])];
    std::uint32_t sum = 0;
    for (std::uint32_t& start : starts) sum += std::exchange(start, sum);
    for (std::size_t i = 0; i < n; ++i) sa[starts[static_cast<std::size_t>(text[i])]++] = static_cast<std::uint32_t>(i);
  } else {
    std::vector<std::uint64_t> keys(n);
    for (std::size_t i = 0; i < n; ++i) keys[i] = (static_cast<std::uint64_t>(text[i]) << 32) | i;
    std::sort(keys.begin(), keys.end());
    for (std::size_t j = 0; j < n; ++j) sa[j] = static_cast<std::uint32_t>(keys[j]);
  }
  rank[sa[0]] = 0;
  for (std::size_t j = 1; j < n; ++j) rank[sa[j]] = rank[sa[j - 1]] + (text[sa[j]] != text[sa[j - 1]] ? 1U : 0U);
  std::vector<std::size_t> counts;
  // Sorted by the first k characters after the round with k; a depth-limited index stops once
  // k reaches its depth (lookups compare only that many characters, then verify).
  for (std::size_t k = 1; rank[sa[n - 1]] + 1 < n && k < depth_; k <<= 1) {
    // Order by the second key (rank at i+k; suffixes shorter than k first), then a stable
    // counting sort by the first key gives the order by (rank[i], rank[i+k]).
    std::size_t filled = 0;
    for (std::size_t i = n - std::min(k, n); i < n; ++i) by_second[filled++] = static_cast<std::uint32_t>(i);
    for (std::size_t j = 0; j < n; ++j) {
      if (sa[j] >= k) by_second[filled++] = static_cast<std::uint32_t>(sa[j] - k);
    }
    counts.assign(static_cast<std::size_t>(rank[sa[n - 1]]) + 2, 0);
    for (std::size_t i = 0; i < n; ++i) ++counts[rank[i] + 1];
    for (std::size_t r = 1; r < counts.size(); ++r) counts[r] += counts[r - 1];
    for (std::size_t j = 0; j < n; ++j) sa[counts[rank[by_second[j]]]++] = by_second[j];
    const auto second = [&](std::uint32_t i) -> std::int64_t { return i + k < n ? static_cast<std::int64_t>(rank[i + k]) : -1; };
    next_rank[sa[0]] = 0;
    for (std::size_t j = 1; j < n; ++j) {
      const bool same = rank[sa[j]] == rank[sa[j - 1]] && second(sa[j]) == second(sa[j - 1]);
      next_rank[sa[j]] = next_rank[sa[j - 1]] + (same ? 0U : 1U);
    }
    rank.swap(next_rank);
  }
}

template <typename CharT>
std::vector<std::size_t> BasicSuffixIndex<CharT>::find_all(const Text& needle) const {
  std::vector<std::size_t> positions;
  if (needle.empty()) return positions;
  const Text& text = *text_;
  // Compares the suffix at i, cut to the needle's length, with the needle.
  const std::size_t key = std::min(needle.size(), depth_);  // the suffixes are sorted this deep
  // Compares the suffix at i, cut to the key's length, with the needle's key.
  const auto compare = [&](std::uint32_t i) {
    const std::size_t length = std::min(key, text.size() - i);
    const int order = text.compare(i, length, needle, 0, length);
    if (order != 0) return order;
    return length < key ? -1 : 0;
  };
  const auto lower = std::partition_point(suffixes_.begin(), suffixes_.end(), [&](std::uint32_t i) { return compare(i) < 0; });
  const auto upper = std::partition_point(lower, suffixes_.end(), [&](std::uint32_t i) { return compare(i) == 0; });
  if (key == needle.size()) {
    positions.assign(lower, upper);
  } else {
    for (auto it = lower; it != upper; ++it) {
      if (text.size() - *it >= needle.size() && text.compare(*it, needle.size(), needle) == 0) positions.push_back(*it);
    }
  }
  std::sort(positions.begin(), positions.end());
  return positions;
}

template class BasicSuffixIndex<char32_t>;
template class BasicSuffixIndex<char16_t>;

}  // namespace ethos::match
