// offset_map.hpp - a compact map from the scalars of one normalized reading back to the original
// scalars they stand for, stored as runs instead of two integers per scalar.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace ethos::match {

// Most normalized scalars stand for exactly the next original scalar, so a reading's map is a
// list of segments: an identity segment maps its k-th scalar to [start + k, start + k + 1); a
// constant segment maps every scalar to the same [start, end) (a collapsed run, the letters of a
// ligature). Real text needs a few segments per hundred scalars instead of 8 bytes per scalar.
class OffsetMap {
 public:
  // Appends the next normalized scalar, standing for original [start, end).
  void push(std::uint32_t start, std::uint32_t end);

  std::uint32_t start(std::size_t pos) const;
  std::uint32_t end(std::size_t pos) const;
  std::size_t size() const { return size_; }
  // The first position whose start is >= original (size() when none); starts never decrease.
  std::size_t first_at_or_after(std::uint32_t original) const;
  std::size_t memory_bytes() const { return segments_.capacity() * sizeof(Segment); }
  void shrink() { segments_.shrink_to_fit(); }

 private:
  static constexpr std::uint32_t kIdentity = std::numeric_limits<std::uint32_t>::max();
  struct Segment {
    std::uint32_t pos, start, end;  // end == kIdentity: identity segment
  };
  const Segment& segment_of(std::size_t pos) const;

  std::vector<Segment> segments_;
  std::size_t size_ = 0;
};

}  // namespace ethos::match
