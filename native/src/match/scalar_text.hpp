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
  ScalarView(const std::u32string& text) : wide_(text.data()), size_(text.size()) {}
  ScalarView(const std::u16string& text) : narrow_(text.data()), size_(text.size()), is_narrow_(true) {}

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool narrow() const { return is_narrow_; }
  char32_t operator[](std::size_t pos) const {
    return is_narrow_ ? static_cast<char32_t>(narrow_[pos]) : wide_[pos];
  }
  // Scalars [pos, pos + count) as 32-bit scalars (count clipped to the end).
  std::u32string substr(std::size_t pos, std::size_t count) const {
    if (pos >= size_) return {};
    if (count > size_ - pos) count = size_ - pos;
    if (!is_narrow_) return std::u32string(wide_ + pos, count);
    std::u32string out(count, U'\0');
    for (std::size_t k = 0; k < count; ++k) out[k] = static_cast<char32_t>(narrow_[pos + k]);
    return out;
  }

 private:
  const char32_t* wide_ = nullptr;
  const char16_t* narrow_ = nullptr;
  std::size_t size_ = 0;
  bool is_narrow_ = false;
};

}  // namespace ethos::match
