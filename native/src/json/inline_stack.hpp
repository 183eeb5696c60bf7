// inline_stack.hpp - a stack whose first N items live in the object itself and deeper ones in a vector.
#pragma once

#include <cstddef>
#include <vector>

namespace ethos {

// The open levels of a JSON writer and the path of a strict walk: a request or a report nests a
// handful deep, and verify-batch makes one of each per line, so the usual depths cost no
// allocation; any depth still works.
template <typename T, std::size_t N>
class InlineStack {
 public:
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Pushes item and returns where it now lives (valid until the next push or pop).
  T& push(const T& item) {
    if (size_ < N) {
      inline_[size_] = item;
      return inline_[size_++];
    }
    deeper_.push_back(item);
    ++size_;
    return deeper_.back();
  }
  void pop() {
    --size_;
    if (size_ >= N) deeper_.pop_back();
  }
  // The innermost item (the stack is not empty).
  T& top() { return size_ <= N ? inline_[size_ - 1] : deeper_.back(); }
  const T& operator[](std::size_t i) const { return i < N ? inline_[i] : deeper_[i - N]; }

 private:
  T inline_[N];
  std::vector<T> deeper_;
  std::size_t size_ = 0;
};

}  // namespace ethos
