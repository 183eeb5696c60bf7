// gram_index.hpp - a q-gram index over one tier reading, built in linear time by one counting
// sort: a scoped (page range, document) search verifies the positions of the needle's rarest gram.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ethos::match {

// CharT: char32_t, or char16_t for a reading whose scalars all lie in the BMP. Every position of
// the text that starts a gram of kGram scalars is filed under a hash bucket of that gram, in
// ascending order (a stable counting sort), so a lookup walks one bucket and compares the
// needle at each candidate: the positions come out ascending, exactly the occurrences.
template <typename CharT>
class BasicGramIndex {
 public:
  using Text = std::basic_string<CharT>;
  static constexpr std::size_t kGram = 4;

  // Two passes over the text. The text must outlive the index.
  explicit BasicGramIndex(const Text& text);

  // Start positions of every occurrence of needle in the text, ascending (a needle shorter than
  // a gram is looked for by scanning the text).
  std::vector<std::size_t> find_all(const Text& needle) const;

  std::size_t memory_bytes() const { return (positions_.capacity() + starts_.capacity()) * sizeof(std::uint32_t); }

 private:
  // A gram's key: its scalars as the digits of a polynomial in kMultiplier (mod 2^64), so the
  // next gram's key follows from this one's in constant time; its bucket: the key mixed.
  static constexpr std::uint64_t kMultiplier = 0x100000001B3ULL;
  static constexpr std::uint64_t kLeadingFactor = kMultiplier * kMultiplier * kMultiplier;  // the first scalar's weight
  static_assert(kGram == 4, "kLeadingFactor is kMultiplier to the power kGram - 1");
  static std::uint64_t key_of(const CharT* gram);
  std::size_t bucket_of_key(std::uint64_t key) const;
  std::size_t bucket_of(const CharT* gram) const;

  const Text* text_;
  unsigned shift_ = 64;                  // a gram's bucket: the top bits of its mixed hash
  std::vector<std::uint32_t> starts_;    // bucket b holds positions_[starts_[b], starts_[b + 1])
  std::vector<std::uint32_t> positions_;
};

using GramIndex = BasicGramIndex<char32_t>;
using GramIndex16 = BasicGramIndex<char16_t>;

extern template class BasicGramIndex<char32_t>;
extern template class BasicGramIndex<char16_t>;

}  // namespace ethos::match
