// gram_index.cpp - counting-sort construction of the sampled q-gram index and rarest-gram lookup.
#include "match/gram_index.hpp"

#include <algorithm>
#include <array>
#include <utility>
#include <string_view>

#include "match/find_all.hpp"

namespace ethos::match {

template <typename CharT>
BasicGramIndex<CharT>::BasicGramIndex(const Text& text) : text_(&text) {
  const std::size_t n = text.size();
  const std::size_t grams = n >= kGram ? n - kGram + 1 : 0;
  const std::size_t filed = (grams + kStride - 1) / kStride;  // positions 0, kStride, 2 kStride, ...
  // About one bucket per 8 filed positions (one per 32 positions of text, at most 1/8 byte per
  // scalar): a bucket holds a gram's filed occurrences and a few colliding positions, which a
  // lookup rejects by comparing.
  unsigned bits = 0;
  while (bits < 32 && (std::size_t{1} << bits) * 8 < filed) ++bits;
  shift_ = 64 - bits;
  starts_.assign((std::size_t{1} << bits) + 1, 0);
  // A filed gram's key is computed in full (kGram multiply-adds): rolling it along the text
  // would cost as much per position, and only every kStride-th position is visited.
  for (std::size_t p = 0; p < grams; p += kStride) ++starts_[bucket_of(text.data() + p) + 1];
  for (std::size_t b = 1; b < starts_.size(); ++b) starts_[b] += starts_[b - 1];
  positions_.resize(filed);
  std::vector<std::uint32_t> next(starts_.begin(), starts_.end() - 1);
  for (std::size_t p = 0; p < grams; p += kStride) positions_[next[bucket_of(text.data() + p)]++] = static_cast<std::uint32_t>(p);
}

template <typename CharT>
std::uint64_t BasicGramIndex<CharT>::key_of(const CharT* gram) {
  std::uint64_t key = 0;
  for (std::size_t i = 0; i < kGram; ++i) key = key * kMultiplier + static_cast<std::uint64_t>(gram[i]);
  return key;
}

template <typename CharT>
std::size_t BasicGramIndex<CharT>::bucket_of_key(std::uint64_t key) const {
  key ^= key >> 31;
  key *= 0x9E3779B97F4A7C15ULL;  // Fibonacci hashing: the top bits depend on every scalar
  return shift_ >= 64 ? 0 : static_cast<std::size_t>(key >> shift_);
}

template <typename CharT>
std::size_t BasicGramIndex<CharT>::bucket_of(const CharT* gram) const {
  return bucket_of_key(key_of(gram));
}

template <typename CharT>
std::array<std::pair<std::size_t, std::size_t>, BasicGramIndex<CharT>::kStride> BasicGramIndex<CharT>::lookup_plan(
    std::basic_string_view<CharT> needle) const {
  // An occurrence at s has a filed gram at needle offset o exactly when (s + o) % kStride == 0:
  // for each residue class of o, the class's gram with the smallest bucket sees, shifted back by
  // its offset, every occurrence whose start lies in the matching class of s (and no other).
  std::array<std::pair<std::size_t, std::size_t>, kStride> plan{};
  const std::size_t m = needle.size();
  for (std::size_t cls = 0; cls < kStride; ++cls) {
    std::size_t offset = cls, bucket = bucket_of(needle.data() + cls);
    for (std::size_t o = cls + kStride; o + kGram <= m; o += kStride) {
      const std::size_t b = bucket_of(needle.data() + o);
      if (starts_[b + 1] - starts_[b] < starts_[bucket + 1] - starts_[bucket]) {
        offset = o;
        bucket = b;
      }
    }
    plan[cls] = {offset, bucket};
  }
  return plan;
}

template <typename CharT>
std::size_t BasicGramIndex<CharT>::candidates(std::basic_string_view<CharT> needle) const {
  const std::size_t m = needle.size();
  if (m < kGram + kStride - 1) return text_->size();
  std::size_t total = 0;
  for (const auto& [offset, bucket] : lookup_plan(needle)) total += starts_[bucket + 1] - starts_[bucket];
  return total;
}

template <typename CharT>
std::vector<std::size_t> BasicGramIndex<CharT>::find_all(std::basic_string_view<CharT> needle) const {
  const Text& text = *text_;
  const std::size_t m = needle.size();
  if (m == 0) return {};
  if (m < kGram + kStride - 1) {
    return match::find_all(std::basic_string_view<CharT>(text), needle);
  }
  const auto plan = lookup_plan(needle);
  std::size_t total = 0;
  for (const auto& [offset, bucket] : plan) total += starts_[bucket + 1] - starts_[bucket];
  // Each candidate is compared in full (up to the needle's length): on a repetitive text
  // ("a a a ..." and a needle of its grams) nearly every filed position is a candidate that
  // matches almost to the end, O(text x needle). Past the budget a linear scan of the text
  // gives the same occurrences.
  if (total > compare_budget(text.size(), m) / m) {
    return match::find_all(std::basic_string_view<CharT>(text), needle);
  }
  t_search_work += total * m;
  std::vector<std::size_t> out;
  for (const auto& [offset, bucket] : plan) {
    for (std::uint32_t i = starts_[bucket]; i < starts_[bucket + 1]; ++i) {
      const std::size_t p = positions_[i];
      if (p < offset) continue;
      const std::size_t start = p - offset;
      if (start + m <= text.size() && text.compare(start, m, needle) == 0) out.push_back(start);
    }
  }
  // Each class's starts ascend; the classes interleave. Sorting the (few) occurrences once gives
  // the ascending order a scan gives; no start is found twice (one class per start).
  std::sort(out.begin(), out.end());
  return out;
}

template class BasicGramIndex<char32_t>;
template class BasicGramIndex<char16_t>;

}  // namespace ethos::match
