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
  // Appends the next normalized scalar, standing for original [start, end). Inline: index
  // builds call it once per scalar of every reading, and nearly every call only extends the
  // last segment.
  void push(std::uint32_t start, std::uint32_t end) {
    if (!segments_.empty()) {
      const Segment& last = segments_.back();
      const bool extends = last.end == kIdentity
                               ? end == start + 1 && start == last.start + (size_ - last.pos)
                               : start == last.start && end == last.end;
      if (extends) {
        ++size_;
        return;
      }
    }
    push_segment(start, end);
  }
  // Appends one normalized scalar per unit of [first, last), unit k standing for original
  // [k->start + shift, k->end + shift): the map push gives unit by unit, in one pass that extends
  // an open identity segment with the segment's state in registers (an index build appends every
  // scalar of every tier reading through this).
  template <typename It>
  void push_all(It first, It last, std::uint32_t shift) {
    while (first != last) {
      if (!segments_.empty() && segments_.back().end == kIdentity) {
        const Segment& open = segments_.back();
        auto next = static_cast<std::uint32_t>(open.start + (size_ - open.pos));  // push's test, as push computes it
        std::size_t size = size_;
        for (; first != last; ++first, ++next, ++size) {
          const std::uint32_t start = first->start + shift, end = first->end + shift;
          if (!(end == start + 1 && start == next)) break;
        }
        size_ = size;
        if (first == last) return;
      }
      push(first->start + shift, first->end + shift);
      ++first;
    }
  }
  // Appends `count` scalars standing for original [start, start + count), one for one.
  void push_identity(std::uint32_t start, std::size_t count);

  std::uint32_t start(std::size_t pos) const;
  std::uint32_t end(std::size_t pos) const;
  std::size_t size() const { return size_; }
  // The first position whose start is >= original (size() when none); starts never decrease.
  std::size_t first_at_or_after(std::uint32_t original) const;
  std::size_t memory_bytes() const { return segments_.capacity() * sizeof(Segment); }
  // Calls f(pos, start, end) for every position in [from, to), in order (one walk, not one
  // lookup per position).
  template <typename F>
  void for_each(std::size_t from, std::size_t to, F f) const {
    if (from >= to) return;
    std::size_t index = static_cast<std::size_t>(&segment_of(from) - segments_.data());
    for (std::size_t pos = from; pos < to; ++pos) {
      while (index + 1 < segments_.size() && segments_[index + 1].pos <= pos) ++index;
      const Segment& segment = segments_[index];
      const auto k = static_cast<std::uint32_t>(pos - segment.pos);
      if (segment.end == kIdentity) {
        f(pos, segment.start + k, segment.start + k + 1);
      } else {
        f(pos, segment.start, segment.end);
      }
    }
  }
  void shrink() { segments_.shrink_to_fit(); }

 private:
  static constexpr std::uint32_t kIdentity = std::numeric_limits<std::uint32_t>::max();
  struct Segment {
    std::uint32_t pos, start, end;  // end == kIdentity: identity segment
  };
  const Segment& segment_of(std::size_t pos) const;
  void push_segment(std::uint32_t start, std::uint32_t end);

  std::vector<Segment> segments_;
  std::size_t size_ = 0;
};

}  // namespace ethos::match
