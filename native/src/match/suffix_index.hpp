// suffix_index.hpp - a suffix array over one tier reading, so a quote costs about its length times
// log(text) instead of a scan (DESIGN.md §6); used for scoped (page range, document) searches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ethos::match {

// CharT: char32_t, or char16_t for a reading whose scalars all lie in the BMP (half the memory).
template <typename CharT>
class BasicSuffixIndex {
 public:
  using Text = std::basic_string<CharT>;
  // Builds the suffix array of text by prefix doubling with counting sorts (O(n log n)). The
  // text must outlive the index. depth > 0 sorts the suffixes by their first `depth` characters
  // only (at most log2(depth) rounds however long the text's repeats): lookups of longer needles
  // then verify each candidate of that prefix. 0 sorts them completely.
  explicit BasicSuffixIndex(const Text& text, std::size_t depth = 0);

  // Start positions of every occurrence of needle in the text, ascending.
  std::vector<std::size_t> find_all(const Text& needle) const;

  std::size_t memory_bytes() const { return suffixes_.size() * sizeof(std::uint32_t); }

 private:
  const Text* text_;
  std::size_t depth_;
  std::vector<std::uint32_t> suffixes_;
};

using SuffixIndex = BasicSuffixIndex<char32_t>;
using SuffixIndex16 = BasicSuffixIndex<char16_t>;

extern template class BasicSuffixIndex<char32_t>;
extern template class BasicSuffixIndex<char16_t>;

}  // namespace ethos::match
