// scalar_text.hpp - a read-only view of a text's scalars, held in 2 bytes each (every scalar in the BMP) or in 4.
#pragma once

#include <cstddef>
#include <string>

namespace ethos::match {

// A document's running text is held in 2 bytes per scalar when it has no scalar beyond the BMP
// (nearly every document) and in 4 otherwise (docs/matching.md "Index"); the code that reads it
// (token boundaries, stitching, near-miss diffs) takes this view, which reads either. The viewed
// string must outlive the view.
class ScalarView {
 public:
  ScalarView() = default;
  // Implicit on purpose: a caller holding either string passes it as is.
  ScalarView(const std::u32string& text) : data_(text.data()), size_and_width_(text.size() << 1) {}
  ScalarView(const std::u16string& text) : data_(text.data()), size_and_width_((text.size() << 1) | 1U) {}

  std::size_t size() const { return size_and_width_ >> 1; }
  bool empty() const { return size() == 0; }
  bool narrow() const { return (size_and_width_ & 1U) != 0; }
  // The scalars, when narrow() (wide() otherwise).
  const char16_t* narrow_data() const { return static_cast<const char16_t*>(data_); }
  const char32_t* wide_data() const { return static_cast<const char32_t*>(data_); }
  char32_t operator[](std::size_t pos) const { return narrow() ? static_cast<char32_t>(narrow_data()[pos]) : wide_data()[pos]; }
  // Scalars [pos, pos + count) as 32-bit scalars (count clipped to the end).
  std::u32string substr(std::size_t pos, std::size_t count) const {
    if (pos >= size()) return {};
    if (count > size() - pos) count = size() - pos;
    if (!narrow()) return std::u32string(wide_data() + pos, count);
    return std::u32string(narrow_data() + pos, narrow_data() + pos + count);  // widened scalar by scalar
  }

 private:
  // Two words, so a view is passed in registers: the scalars, and their count shifted left by
  // one with the low bit set when they are 2 bytes each.
  const void* data_ = nullptr;
  std::size_t size_and_width_ = 0;
};

}  // namespace ethos::match
