// gram_index.cpp - counting-sort construction of the q-gram index and rarest-gram lookup.
#include "match/gram_index.hpp"

#include <string_view>

#include "match/find_all.hpp"

namespace ethos::match {

template <typename CharT>
BasicGramIndex<CharT>::BasicGramIndex(const Text& text) : text_(&text) {
  const std::size_t n = text.size();
  const std::size_t grams = n >= kGram ? n - kGram + 1 : 0;
  // About one bucket per 32 positions (at most 1/4 byte per scalar): a bucket holds its grams.
  // occurrences and a few colliding positions, which a lookup rejects by comparing.
  unsigned bits = 0;
  while (bits < 32 && (std::size_t{1} << bits) * 32 < grams) ++bits;
  shift_ = 64 - bits;
  starts_.assign((std::size_t{1} << bits) + 1, 0);
  // Each pass rolls the gram's key along the text (drop the leaving scalar's term, shift, add
  // the entering one: the same key key_of computes) instead of rehashing every gram from scratch.
  const auto each_bucket = [&](auto visit) {
    if (grams == 0) return;
    std::uint64_t key = key_of(text.data());
    for (std::size_t p = 0;; ++p) {
      visit(p, bucket_of_key(key));
      if (p + 1 == grams) break;
      key = (key - static_cast<std::uint64_t>(text[p]) * kLeadingFactor) * kMultiplier +
            static_cast<std::uint64_t>(text[p + kGram]);
    }
  };
  each_bucket([&](std::size_t, std::size_t bucket) { ++starts_[bucket + 1]; });
  for (std::size_t b = 1; b < starts_.size(); ++b) starts_[b] += starts_[b - 1];
  positions_.resize(grams);
  std::vector<std::uint32_t> next(starts_.begin(), starts_.end() - 1);
  each_bucket([&](std::size_t p, std::size_t bucket) { positions_[next[bucket]++] = static_cast<std::uint32_t>(p); });
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
std::vector<std::size_t> BasicGramIndex<CharT>::find_all(const Text& needle) const {
  const Text& text = *text_;
  const std::size_t m = needle.size();
  if (m == 0) return {};
  if (m < kGram) return match::find_all(std::basic_string_view<CharT>(text), std::basic_string_view<CharT>(needle));
  // The needle's gram with the smallest bucket: every occurrence of the needle puts that gram at
  // its own start + offset, so that bucket's positions, shifted back, are the only candidates.
  std::size_t offset = 0, bucket = bucket_of(needle.data());
  for (std::size_t o = 1; o + kGram <= m; ++o) {
    const std::size_t b = bucket_of(needle.data() + o);
    if (starts_[b + 1] - starts_[b] < starts_[bucket + 1] - starts_[bucket]) {
      offset = o;
      bucket = b;
    }
  }
  std::vector<std::size_t> out;
  for (std::uint32_t i = starts_[bucket]; i < starts_[bucket + 1]; ++i) {
    const std::size_t p = positions_[i];
    if (p < offset) continue;
    const std::size_t start = p - offset;
    if (start + m <= text.size() && text.compare(start, m, needle) == 0) out.push_back(start);
  }
  return out;
}

template class BasicGramIndex<char32_t>;
template class BasicGramIndex<char16_t>;

}  // namespace ethos::match
