// layout_order.cpp - recursive XY-cut: widest projection gap first, leaves in top-down line order.
#include "pdf/layout_order.hpp"

#include <algorithm>

#include "pdf/layout_lines.hpp"
#include "pdf/layout_params.hpp"

namespace ethos::pdf {
namespace {

using params::kMaxColumnSkew;
using params::kMaxInColumnGapGutters;
using params::kMaxListKeyPercent;
using params::kMaxRowFieldGapGutters;
using params::kMaxRowFieldPercent;
using params::kMinListKeys;

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

std::int64_t extent_x(const std::vector<Bbox>& boxes, const std::vector<std::size_t>& items) {
  std::int64_t x0 = boxes[items.front()].x0, x1 = boxes[items.front()].x1;
  for (std::size_t i : items) {
    x0 = std::min(x0, boxes[i].x0);
    x1 = std::max(x1, boxes[i].x1);
  }
  return x1 - x0;
}

// Whether `keys` (left of the gap) are the keys of a list whose descriptions stand in `wide`:
// at least `min_keys` pieces, each a bulleted line sharing its visual line with exactly one piece
// of `wide` (an entity and its meaning, an option and what it does). Such a list reads row by row
// although its keys are wider than row fields usually are; a page column of bulleted lines has
// lines of its own, or sits beside a column as wide as itself.
bool list_keys(const std::vector<Bbox>& boxes, const std::vector<bool>& bulleted, const std::vector<std::size_t>& keys,
               const std::vector<std::size_t>& wide, std::size_t min_keys) {
  if (keys.size() < min_keys) return false;
  return std::all_of(keys.begin(), keys.end(), [&](std::size_t k) {
    return bulleted[k] && std::count_if(wide.begin(), wide.end(), [&](std::size_t w) { return same_band(boxes[k], boxes[w]); }) == 1;
  });
}

// Whether a vertical cut into `before` and `after` separates the fields of rows rather than
// columns: the narrower side (at most a quarter of the other's width) holds only pieces that each
// share a visual line with a piece across the gap - section numbers, titles and page numbers of a
// table of contents, a key and its value -, the gap is at most params::kMaxRowFieldGapGutters
// gutter widths, and every further vertical gap of the wider side
// (at least `min_gutter`) separates row fields in the same way. A page column has lines of its
// own and is wider than that; and where the wider side holds page columns (the key column of a
// reference card beside the rest of the card), the region's rows would mix them, so the cut stays.
// A wider key side (up to params::kMaxListKeyPercent) splits rows only as a list of keys
// (list_keys()). `in_rows`: the region is a group of rows of a region read row by row, and its
// narrow side may be as wide as it is (see reading_order()).
bool splits_rows(const std::vector<Bbox>& boxes, const std::vector<bool>& bulleted, std::vector<std::size_t> before,
                 std::vector<std::size_t> after, std::int64_t min_gutter, std::int64_t gap_width, bool in_rows) {
  while (true) {
    // Fields of a row are set close together; a wider gap is a gutter between page columns.
    if (gap_width > min_gutter * kMaxRowFieldGapGutters) return false;
    const bool before_narrow = extent_x(boxes, before) < extent_x(boxes, after);
    const std::vector<std::size_t>& narrow = before_narrow ? before : after;
    std::vector<std::size_t> wide = before_narrow ? after : before;
    const std::int64_t narrow_width = extent_x(boxes, narrow), wide_width = extent_x(boxes, wide);
    if (!in_rows && narrow_width * 100 > wide_width * kMaxRowFieldPercent &&
        (narrow_width * 100 > wide_width * kMaxListKeyPercent || !before_narrow || !list_keys(boxes, bulleted, narrow, wide, kMinListKeys))) {
      return false;
    }
    const bool paired = std::all_of(narrow.begin(), narrow.end(), [&](std::size_t n) {
      return std::any_of(wide.begin(), wide.end(), [&](std::size_t w) { return same_band(boxes[n], boxes[w]); });
    });
    if (!paired) return false;
    if (wide.size() < 2) return true;
    const Gap gap = widest_gap(boxes, wide, true);
    if (gap.width < min_gutter) return true;
    gap_width = gap.width;
    before.clear();
    after.clear();
    for (std::size_t i : wide) (boxes[i].x0 >= gap.at ? after : before).push_back(i);
  }
}

// Whether the horizontal gap `y_gap` lies inside page columns rather than between two parts of
// the page: the items above it and the items below it both stand on either side of the vertical
// gutter `x_gap`, the gap is at most params::kMaxInColumnGapGutters times the gutter's width,
// neither side is narrower than params::kMaxRowFieldPercent of the other, neither has a gutter
// (at least `min_gutter`) of its own - exactly two page columns - and the sides are not in rows
// (fewer than half the lines of the side with fewer lines share a visual line across the
// gutter). The space around a heading of one column that faces a heading of the other (or a
// paragraph break in both) is such a gap; cutting there would read both columns' tops before
// either column's rest. A title over one column only, or a wide gap between two parts of the
// page, keeps the horizontal cut.
bool gap_within_columns(const std::vector<Bbox>& boxes, const std::vector<std::size_t>& items, const Gap& x_gap,
                        const Gap& y_gap, std::int64_t min_gutter) {
  if (y_gap.width > x_gap.width * kMaxInColumnGapGutters) return false;
  bool left_above = false, right_above = false, left_below = false, right_below = false;
  for (std::size_t i : items) {
    const bool right = boxes[i].x0 >= x_gap.at;
    if (boxes[i].y0 >= y_gap.at) {
      (right ? right_below : left_below) = true;
    } else {
      (right ? right_above : left_above) = true;
    }
  }
  if (!(left_above && right_above && left_below && right_below)) return false;
  // Page columns are alike in width; a narrow side (axis labels beside a plot, keys beside
  // values) is no page column, and its rows are read across the gap.
  std::vector<std::size_t> left, right;
  for (std::size_t i : items) (boxes[i].x0 >= x_gap.at ? right : left).push_back(i);
  const std::int64_t narrow = std::min(extent_x(boxes, left), extent_x(boxes, right));
  const std::int64_t wide = std::max(extent_x(boxes, left), extent_x(boxes, right));
  if (narrow * 100 <= wide * kMaxRowFieldPercent) return false;
  // Two page columns, neither with a gutter of its own: the columns of a table drawn without
  // rules (three or more, a cell's lines spaced by the row padding) are read row by row.
  if (widest_gap(boxes, left, true).width >= min_gutter || widest_gap(boxes, right, true).width >= min_gutter) return false;
  // Page columns filled to their right edge - two lines in three of each side end on one x, as
  // an index's entries run out in leader dots to their page numbers, or justified text does -
  // are page columns even where they stand on one baseline grid; the fields of rows end where
  // their words end.
  const auto filled = [&](const std::vector<std::size_t>& side) {
    std::int64_t edge = boxes[side.front()].x1;
    for (std::size_t i : side) edge = std::max(edge, boxes[i].x1);
    const auto on_edge = std::count_if(side.begin(), side.end(), [&](std::size_t i) { return boxes[i].x1 + kMaxColumnSkew >= edge; });
    return on_edge >= 3 && static_cast<std::size_t>(on_edge) * 3 >= side.size() * 2;
  };
  if (narrow * 2 >= wide && filled(left) && filled(right)) return true;
  // Page columns run on their own baselines; where most lines of one side share their visual
  // line with a line across the gutter, the sides are the fields of rows (the keys and
  // descriptions of a reference card, the two columns of a table), read row by row.
  const std::vector<std::size_t>& fewer = left.size() <= right.size() ? left : right;
  const std::vector<std::size_t>& more = left.size() <= right.size() ? right : left;
  const auto paired = std::count_if(fewer.begin(), fewer.end(), [&](std::size_t f) {
    return std::any_of(more.begin(), more.end(), [&](std::size_t m) { return same_band(boxes[f], boxes[m]); });
  });
  return static_cast<std::size_t>(paired) * 2 < fewer.size();
}

}  // namespace

std::vector<std::size_t> reading_order(const std::vector<Bbox>& boxes, const std::vector<bool>& bulleted, std::int64_t min_gutter) {
  std::vector<std::size_t> out;
  if (boxes.empty()) return out;
  std::vector<std::size_t> all(boxes.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  // Explicit stack instead of recursion: a page of thousands of lines must not exhaust the stack.
  // A region flagged `rows` is a group of rows of a region read row by row (its vertical gap
  // refused as one between the fields of rows, splits_rows()): the horizontal cuts between those
  // rows leave groups whose right-hand sides may be short (a grammar's names beside two short
  // rules), and the group keeps the verdict, whatever the width of its sides, as long as its
  // fields still pair row by row. Flagged `list` as well, it lies in a list of keys
  // (list_keys()), whose groups may have fewer keys, each still a bulleted line.
  struct Region {
    std::vector<std::size_t> items;
    bool list = false;
    bool rows = false;
  };
  std::vector<Region> stack{{std::move(all), false, false}};
  while (!stack.empty()) {
    Region region = std::move(stack.back());
    stack.pop_back();
    std::vector<std::size_t>& items = region.items;
    if (items.size() < 2) {
      out.insert(out.end(), items.begin(), items.end());
      continue;
    }
    const Gap x_gap = widest_gap(boxes, items, true);
    const Gap y_gap = widest_gap(boxes, items, false);
    bool cut_x = x_gap.width >= min_gutter &&
                 (x_gap.width >= y_gap.width || gap_within_columns(boxes, items, x_gap, y_gap, min_gutter));
    bool list = region.list, rows = region.rows;
    std::vector<std::size_t> before, after;
    if (cut_x) {
      for (std::size_t i : items) (boxes[i].x0 >= x_gap.at ? after : before).push_back(i);
      if ((region.list && list_keys(boxes, bulleted, before, after, 1)) ||
          splits_rows(boxes, bulleted, before, after, min_gutter, x_gap.width, region.rows)) {
        list = list || list_keys(boxes, bulleted, before, after, kMinListKeys);
        rows = true;
        cut_x = false;
        before.clear();
        after.clear();
      }
    }
    const bool cut_y = !cut_x && y_gap.width > 0;
    if (!cut_x && !cut_y) {
      order_leaf(boxes, std::move(items), out);
      continue;
    }
    if (cut_y) {
      for (std::size_t i : items) (boxes[i].y0 >= y_gap.at ? after : before).push_back(i);
    }
    // Groups of rows stay rows (a list's stay a list's); the columns of a vertical cut start afresh.
    stack.push_back({std::move(after), cut_y && list, cut_y && rows});  // popped second
    stack.push_back({std::move(before), cut_y && list, cut_y && rows});
  }
  return out;
}

}  // namespace ethos::pdf
