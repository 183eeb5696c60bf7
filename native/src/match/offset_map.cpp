// offset_map.cpp - run-length offset maps: appending scalars and looking up their original ranges.
#include "match/offset_map.hpp"

#include <algorithm>

namespace ethos::match {

void OffsetMap::push_segment(std::uint32_t start, std::uint32_t end) {
  segments_.push_back(Segment{static_cast<std::uint32_t>(size_), start, end == start + 1 ? kIdentity : end});
  ++size_;
}

void OffsetMap::push_identity(std::uint32_t start, std::size_t count) {
  if (count == 0) return;
  push(start, start + 1);  // extends the last segment when it can, as push does
  size_ += count - 1;      // an identity segment's later scalars are implied by its start
}

const OffsetMap::Segment& OffsetMap::segment_of(std::size_t pos) const {
  const auto after = std::upper_bound(segments_.begin(), segments_.end(), pos,
                                      [](std::size_t p, const Segment& segment) { return p < segment.pos; });
  return *(after - 1);
}

std::uint32_t OffsetMap::start(std::size_t pos) const {
  const Segment& segment = segment_of(pos);
  return segment.end == kIdentity ? segment.start + static_cast<std::uint32_t>(pos - segment.pos) : segment.start;
}

std::uint32_t OffsetMap::end(std::size_t pos) const {
  const Segment& segment = segment_of(pos);
  return segment.end == kIdentity ? segment.start + static_cast<std::uint32_t>(pos - segment.pos) + 1 : segment.end;
}

std::size_t OffsetMap::first_at_or_after(std::uint32_t original) const {
  // First segment whose last scalar's start reaches `original`, then the position inside it.
  const auto last_start = [&](std::size_t i) {
    const Segment& segment = segments_[i];
    const std::size_t next = i + 1 < segments_.size() ? segments_[i + 1].pos : size_;
    return segment.end == kIdentity ? segment.start + static_cast<std::uint32_t>(next - 1 - segment.pos) : segment.start;
  };
  std::size_t low = 0, high = segments_.size();
  while (low < high) {
    const std::size_t mid = (low + high) / 2;
    if (last_start(mid) < original) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  if (low == segments_.size()) return size_;
  const Segment& segment = segments_[low];
  if (segment.end != kIdentity || segment.start >= original) return segment.pos;
  return segment.pos + (original - segment.start);
}

}  // namespace ethos::match
