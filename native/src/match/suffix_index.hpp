// suffix_index.hpp - a suffix array over one tier reading, so a quote costs about its length times
// log(text) instead of a scan (DESIGN.md §6); used for scoped (page range, document) searches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ethos::match {

class SuffixIndex {
 public:
  // Builds the suffix array of text by prefix doubling with counting sorts (O(n log n)). The
  // text must outlive the index. depth > 0 sorts the suffixes by their first `depth` characters
  // only (at most log2(depth) rounds however long the text's repeats): lookups of longer needles
  // then verify each candidate of that prefix. 0 sorts them completely.
  explicit SuffixIndex(const std::u32string& text, std::size_t depth = 0);

  // Start positions of every occurrence of needle in the text, ascending.
  std::vector<std::size_t> find_all(const std::u32string& needle) const;

  std::size_t memory_bytes() const { return suffixes_.size() * sizeof(std::uint32_t); }

 private:
  const std::u32string* text_;
  std::size_t depth_;
  std::vector<std::uint32_t> suffixes_;
};

}  // namespace ethos::match
