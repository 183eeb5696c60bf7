// layout_order.cpp - recursive XY-cut: widest projection gap first, leaves in top-down line order.
#include "pdf/layout_order.hpp"

#include <algorithm>

#include "pdf/layout_lines.hpp"

namespace ethos::pdf {
namespace {

struct Gap {
  std::int64_t width = -1;
  std::int64_t at = 0;  // items starting at or after this coordinate lie past the gap
};

// The widest gap in the projection of the items onto one axis (x when vertical_cut).
Gap widest_gap(const std::vector<Bbox>& boxes, const std::vector<std::size_t>& items, bool vertical_cut) {
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
  ranges.reserve(items.size());
  for (std::size_t i : items) {
    const Bbox& b = boxes[i];
    ranges.emplace_back(vertical_cut ? b.x0 : b.y0, vertical_cut ? b.x1 : b.y1);
  }
  std::sort(ranges.begin(), ranges.end());
  Gap best;
  std::int64_t reach = ranges.front().second;
  for (const auto& [from, to] : ranges) {
    if (from > reach && from - reach > best.width) best = {from - reach, from};
    reach = std::max(reach, to);
  }
  return best;
}

void order_leaf(const std::vector<Bbox>& boxes, std::vector<std::size_t> items, std::vector<std::size_t>& out) {
  std::stable_sort(items.begin(), items.end(), [&](std::size_t a, std::size_t b) {
    if (boxes[a].y0 != boxes[b].y0) return boxes[a].y0 < boxes[b].y0;
    return boxes[a].x0 < boxes[b].x0;
  });
  // Within one visual line (bands overlap), left to right.
  std::size_t begin = 0;
  while (begin < items.size()) {
    std::size_t end = begin + 1;
    while (end < items.size() && same_band(boxes[items[begin]], boxes[items[end]])) ++end;
    std::stable_sort(items.begin() + static_cast<std::ptrdiff_t>(begin), items.begin() + static_cast<std::ptrdiff_t>(end),
                     [&](std::size_t a, std::size_t b) { return boxes[a].x0 < boxes[b].x0; });
    out.insert(out.end(), items.begin() + static_cast<std::ptrdiff_t>(begin), items.begin() + static_cast<std::ptrdiff_t>(end));
    begin = end;
  }
}

}  // namespace

std::vector<std::size_t> reading_order(const std::vector<Bbox>& boxes, std::int64_t min_gutter) {
  std::vector<std::size_t> out;
  if (boxes.empty()) return out;
  std::vector<std::size_t> all(boxes.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  // Explicit stack instead of recursion: a page of thousands of lines must not exhaust the stack.
  std::vector<std::vector<std::size_t>> stack{std::move(all)};
  while (!stack.empty()) {
    std::vector<std::size_t> items = std::move(stack.back());
    stack.pop_back();
    if (items.size() < 2) {
      out.insert(out.end(), items.begin(), items.end());
      continue;
    }
    const Gap x_gap = widest_gap(boxes, items, true);
    const Gap y_gap = widest_gap(boxes, items, false);
    const bool cut_x = x_gap.width >= min_gutter && x_gap.width >= y_gap.width;
    const bool cut_y = !cut_x && y_gap.width > 0;
    if (!cut_x && !cut_y) {
      order_leaf(boxes, std::move(items), out);
      continue;
    }
    std::vector<std::size_t> before, after;
    for (std::size_t i : items) {
      const std::int64_t start = cut_x ? boxes[i].x0 : boxes[i].y0;
      (start >= (cut_x ? x_gap.at : y_gap.at) ? after : before).push_back(i);
    }
    stack.push_back(std::move(after));  // popped second
    stack.push_back(std::move(before));
  }
  return out;
}

}  // namespace ethos::pdf
