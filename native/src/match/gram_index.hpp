// gram_index.hpp - a sampled q-gram index over one tier reading, built in linear time by one
// counting sort: a scoped (page range, document) search verifies the candidates of rare grams.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ethos::match {

// CharT: char32_t, or char16_t for a reading whose scalars all lie in the BMP. Every kStride-th
// position of the text that starts a gram of kGram scalars is filed under a hash bucket of that
// gram, in ascending order (a stable counting sort). An occurrence of a needle at least
// kGram + kStride - 1 long holds a filed gram at an offset of each residue class mod kStride
// (which class depends on where the occurrence starts), so a lookup walks, per class, the bucket
// of that class's rarest needle gram and compares the needle at each candidate: the union is
// exactly the occurrences. Filing a quarter of the positions makes the build (a scattered write
// per filed position, the cost that mattered) and the index a quarter of what filing all costs.
template <typename CharT>
class BasicGramIndex {
 public:
  using Text = std::basic_string<CharT>;
  static constexpr std::size_t kGram = 4;
  static constexpr std::size_t kStride = 4;

  // Two passes over the text. The text must outlive the index.
  explicit BasicGramIndex(const Text& text);

  // Start positions of every occurrence of needle in the text, ascending (a needle shorter than
  // kGram + kStride - 1 is looked for by scanning the text).
  std::vector<std::size_t> find_all(std::basic_string_view<CharT> needle) const;

  // How many candidates find_all would compare in full for needle (the text's length for a
  // needle too short for the index, which is scanned for): a caller searching a window of the
  // text scans the window instead when that costs less (docs/reliability.md, repetition).
  std::size_t candidates(std::basic_string_view<CharT> needle) const;

  std::size_t memory_bytes() const { return (positions_.capacity() + starts_.capacity()) * sizeof(std::uint32_t); }

 private:
  // A gram's key: its scalars as the digits of a polynomial in kMultiplier (mod 2^64); its
  // bucket: the key mixed.
  static constexpr std::uint64_t kMultiplier = 0x100000001B3ULL;
  static std::uint64_t key_of(const CharT* gram);
  std::size_t bucket_of_key(std::uint64_t key) const;
  std::size_t bucket_of(const CharT* gram) const;
  // Per residue class: the needle offset of its rarest gram and that gram's bucket.
  std::array<std::pair<std::size_t, std::size_t>, kStride> lookup_plan(std::basic_string_view<CharT> needle) const;

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
