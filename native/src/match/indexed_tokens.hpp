// indexed_tokens.hpp - a near-miss index's tokens as parallel arrays: key id and kind, start, and a one-byte length.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "match/align.hpp"

namespace ethos::match {

// One token of an index: its key's id (and its kind, in the top two bits) and its original
// scalars [start, end).
struct IndexedToken {
  std::uint32_t key_and_kind = 0, start = 0, end = 0;
  std::uint32_t key() const { return key_of(key_and_kind); }
  TokenKind kind() const { return kind_of(key_and_kind); }
  // The one place the bits are read (IndexedTokens reads its array through these too).
  static constexpr std::uint32_t kKeyMask = (std::uint32_t{1} << 30) - 1;
  static std::uint32_t key_of(std::uint32_t key_and_kind) { return key_and_kind & kKeyMask; }
  static TokenKind kind_of(std::uint32_t key_and_kind) { return static_cast<TokenKind>(key_and_kind >> 30); }
};

// A document's index holds every token of the document, so a token is kept in 9 bytes instead of
// an IndexedToken's 12 (docs/matching.md "Index"): the key id and kind and the start in arrays of
// their own, and the length in original scalars in one byte. A token of kLongLength scalars or
// more (a long number or URL: rare) keeps its length in a side list of (token, length), in token
// order, found by binary search.
class IndexedTokens {
 public:
  static constexpr std::uint32_t kLongLength = 0xFF;

  std::size_t size() const { return start_.size(); }
  bool empty() const { return start_.empty(); }
  void reserve(std::size_t count) {
    key_and_kind_.reserve(count);
    start_.reserve(count);
    length_.reserve(count);
  }
  void push_back(const IndexedToken& token) {
    const std::uint32_t length = token.end - token.start;
    if (length >= kLongLength) long_.emplace_back(static_cast<std::uint32_t>(size()), length);
    key_and_kind_.push_back(token.key_and_kind);
    start_.push_back(token.start);
    length_.push_back(static_cast<std::uint8_t>(std::min(length, kLongLength)));
  }
  // Drops spare capacity when it is large (a copy holds a second array while it runs: a document's
  // builder reserves about the right count).
  void shrink_when_spare() {
    if (start_.capacity() - start_.size() <= start_.size() / 8) return;
    key_and_kind_.shrink_to_fit();
    start_.shrink_to_fit();
    length_.shrink_to_fit();
  }

  std::uint32_t key(std::size_t i) const { return IndexedToken::key_of(key_and_kind_[i]); }
  TokenKind kind(std::size_t i) const { return IndexedToken::kind_of(key_and_kind_[i]); }
  std::uint32_t start(std::size_t i) const { return start_[i]; }
  std::uint32_t end(std::size_t i) const {
    if (length_[i] != kLongLength) return start_[i] + length_[i];
    const auto at = std::lower_bound(long_.begin(), long_.end(), std::make_pair(static_cast<std::uint32_t>(i), std::uint32_t{0}));
    return start_[i] + at->second;
  }
  IndexedToken operator[](std::size_t i) const { return IndexedToken{key_and_kind_[i], start(i), end(i)}; }

  std::size_t memory_bytes() const {
    return (key_and_kind_.capacity() + start_.capacity()) * sizeof(std::uint32_t) + length_.capacity() +
           long_.capacity() * sizeof(std::pair<std::uint32_t, std::uint32_t>);
  }

 private:
  std::vector<std::uint32_t> key_and_kind_, start_;
  std::vector<std::uint8_t> length_;                         // end - start, kLongLength: see long_
  std::vector<std::pair<std::uint32_t, std::uint32_t>> long_;  // (token, length) of the long ones
};

}  // namespace ethos::match
