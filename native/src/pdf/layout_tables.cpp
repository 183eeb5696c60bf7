// layout_tables.cpp - ruled-grid and whitespace-grid detection and the assignment of text to cells.
#include "pdf/layout_tables.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <numeric>
#include <optional>
#include <string>

#include "pdf/layout_params.hpp"

namespace ethos::pdf {
namespace {

using params::kMaxColumnSkew;
using params::kMaxWordsPerCell;
using params::kMinPartGapGutters;
using params::kMinLeaderEntries;
using params::kLeaderTailGlyphs;
using params::kMinColumnWords;
using params::kMaxCardGutterCrossings;
using params::kMinCardColumnPercent;
using params::kMinCardLineWidthRatioPercent;
using params::kMaxFigureMarkGlyphs;
using params::kMinCardColumnHeightPercent;
using params::kMinCellExtent;
using params::kMaxGridLines;
using params::kMinRuleLength;
using params::kRuleTolerance;

struct Segment {
  std::int64_t at = 0, from = 0, to = 0;  // horizontal: y, x0..x1; vertical: x, y0..y1
};

struct UnionFind {
  std::vector<std::size_t> parent;
  explicit UnionFind(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), std::size_t{0}); }
  std::size_t find(std::size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  }
  void unite(std::size_t a, std::size_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);  // smallest index is the root: deterministic
  }
};

// Sorted positions with neighbours closer than the tolerance merged (their mean kept).
std::vector<std::int64_t> distinct_positions(std::vector<std::int64_t> values) {
  std::sort(values.begin(), values.end());
  std::vector<std::int64_t> out;
  for (std::int64_t v : values) {
    if (out.empty() || v - out.back() > kMinCellExtent) out.push_back(v);
  }
  return out;
}

bool covers(const std::vector<Segment>& rules, std::int64_t at, std::int64_t point) {
  return std::any_of(rules.begin(), rules.end(), [&](const Segment& r) {
    return std::abs(r.at - at) <= kRuleTolerance && point >= r.from - kRuleTolerance && point <= r.to + kRuleTolerance;
  });
}

bool inside(const Bbox& box, std::int64_t x, std::int64_t y) { return x >= box.x0 && x <= box.x1 && y >= box.y0 && y <= box.y1; }

// The grid of one cluster of rules, or a grid with no cells when the rules do not form one.
Grid grid_from_rules(const std::vector<Segment>& horizontal, const std::vector<Segment>& vertical) {
  Grid grid;
  std::vector<std::int64_t> xs_raw, ys_raw;
  for (const Segment& v : vertical) xs_raw.push_back(v.at);
  for (const Segment& h : horizontal) ys_raw.push_back(h.at);
  const std::vector<std::int64_t> xs = distinct_positions(xs_raw), ys = distinct_positions(ys_raw);
  if (xs.size() < 3 && ys.size() < 3) return grid;  // a single framed box is not a table
  if (xs.size() < 2 || ys.size() < 2) return grid;
  if (xs.size() > kMaxGridLines || ys.size() > kMaxGridLines) return grid;  // a plot or a pattern
  const std::size_t rows = ys.size() - 1, cols = xs.size() - 1;
  UnionFind groups(rows * cols);
  for (std::size_t r = 0; r < rows; ++r) {
    const std::int64_t y_mid = (ys[r] + ys[r + 1]) / 2;
    for (std::size_t c = 1; c < cols; ++c) {
      if (!covers(vertical, xs[c], y_mid)) groups.unite(r * cols + c - 1, r * cols + c);
    }
  }
  for (std::size_t c = 0; c < cols; ++c) {
    const std::int64_t x_mid = (xs[c] + xs[c + 1]) / 2;
    for (std::size_t r = 1; r < rows; ++r) {
      if (!covers(horizontal, ys[r], x_mid)) groups.unite((r - 1) * cols + c, r * cols + c);
    }
  }
  // A group becomes one spanning cell when it is a full rectangle; otherwise its base cells stay.
  std::vector<std::size_t> r_min(rows * cols, rows), r_max(rows * cols, 0), c_min(rows * cols, cols),
      c_max(rows * cols, 0), size(rows * cols, 0);
  for (std::size_t i = 0; i < rows * cols; ++i) {
    const std::size_t g = groups.find(i), r = i / cols, c = i % cols;
    r_min[g] = std::min(r_min[g], r);
    r_max[g] = std::max(r_max[g], r);
    c_min[g] = std::min(c_min[g], c);
    c_max[g] = std::max(c_max[g], c);
    ++size[g];
  }
  for (std::size_t i = 0; i < rows * cols; ++i) {
    const std::size_t g = groups.find(i), r = i / cols, c = i % cols;
    const bool rectangle = size[g] == (r_max[g] - r_min[g] + 1) * (c_max[g] - c_min[g] + 1);
    GridCell cell;
    if (rectangle) {
      if (r != r_min[g] || c != c_min[g]) continue;  // the group's top-left base cell stands for it
      cell.row_span = static_cast<std::int64_t>(r_max[g] - r + 1);
      cell.col_span = static_cast<std::int64_t>(c_max[g] - c + 1);
    }
    cell.row = static_cast<std::int64_t>(r);
    cell.col = static_cast<std::int64_t>(c);
    cell.bbox = {xs[c], ys[r], xs[c + static_cast<std::size_t>(cell.col_span)], ys[r + static_cast<std::size_t>(cell.row_span)]};
    grid.cells.push_back(std::move(cell));
  }
  grid.n_rows = static_cast<std::int64_t>(rows);
  grid.n_cols = static_cast<std::int64_t>(cols);
  grid.bbox = {xs.front(), ys.front(), xs.back(), ys.back()};
  return grid;
}

// Lines of a cell in reading order: top to bottom, left to right within a visual line.
void order_cell_lines(std::vector<Line>& lines) {
  std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
    if (same_band(a.bbox, b.bbox)) return a.bbox.x0 < b.bbox.x0;
    return a.bbox.y0 < b.bbox.y0;
  });
}

// One visual line from two pieces of it: the right piece after the left, with a generated word
// gap between them (it owns the horizontal gap, like PDFium's own gap spaces).
Line join_pieces(const Line& left, const Line& right) {
  Line joined = left;
  Glyph gap = left.glyphs.back();
  gap.codepoint = U' ';
  gap.generated = true;
  gap.line_end_hyphen = false;
  joined.glyphs.push_back(gap);
  joined.glyphs.insert(joined.glyphs.end(), right.glyphs.begin(), right.glyphs.end());
  joined.bbox = unite(left.bbox, right.bbox);
  joined.order = std::min(left.order, right.order);
  return joined;
}

// A line's characters (generated gaps included), to compare lines by their text.
std::u32string glyph_text(const Line& line) {
  std::u32string text;
  for (const Glyph& g : line.glyphs) text += g.codepoint;
  return text;
}

// Leader dots: at least three periods in a row, each at most one space from the next
// (`. . . .` or `....`), as a table of contents runs a title out to its page number.
bool has_leader(const Line& line) {
  std::size_t dots = 0, spaces = 0;
  for (const Glyph& g : line.glyphs) {
    if (g.codepoint == U'.') {
      if (++dots >= 3) return true;
      spaces = 0;
    } else if (g.codepoint == U' ' && dots > 0 && spaces == 0) {
      spaces = 1;
    } else {
      dots = spaces = 0;
    }
  }
  return false;
}

// Leader dots among a line's last params::kLeaderTailGlyphs glyphs: the line runs out in leaders
// to its page number (or to the page number's piece beside it), as a contents or index entry
// does. Reads only the line's tail: it is asked of every line of a page.
bool ends_in_leader(const Line& line) {
  const std::size_t n = line.glyphs.size();
  // Most lines end in a letter: an entry ends in its leaders or its page number.
  const char32_t last = n == 0 ? U' ' : line.glyphs.back().codepoint;
  if (last != U'.' && !(last >= U'0' && last <= U'9') && last != U'i' && last != U'v' && last != U'x') return false;
  const std::size_t from = n > kLeaderTailGlyphs ? n - kLeaderTailGlyphs : 0;
  std::size_t dots = 0, spaces = 0;
  for (std::size_t k = from; k < n; ++k) {
    const char32_t c = line.glyphs[k].codepoint;
    if (c == U'.') {
      if (++dots >= 3) return true;
      spaces = 0;
    } else if (c == U' ' && dots > 0 && spaces == 0) {
      spaces = 1;
    } else {
      dots = spaces = 0;
    }
  }
  return false;
}

std::size_t word_count(const Line& line) {
  std::size_t words = 1;
  for (const Glyph& g : line.glyphs) words += (g.codepoint == U' ') ? 1 : 0;
  return words;
}

}  // namespace

std::vector<Grid> find_ruled_tables(const RawPage& page, std::vector<Glyph>& glyphs) {
  std::vector<Segment> horizontal, vertical;
  for (const RawRule& rule : page.rules) {
    const Bbox b{quantize(rule.box.x0), quantize(rule.box.y0), quantize(rule.box.x1), quantize(rule.box.y1)};
    // Very short strokes are the pieces of curves and marks (plots draw thousands), not borders.
    if (std::max(b.x1 - b.x0, b.y1 - b.y0) < kMinRuleLength) continue;
    if (rule.horizontal) {
      horizontal.push_back({(b.y0 + b.y1) / 2, std::min(b.x0, b.x1), std::max(b.x0, b.x1)});
    } else {
      vertical.push_back({(b.x0 + b.x1) / 2, std::min(b.y0, b.y1), std::max(b.y0, b.y1)});
    }
  }
  // Cluster rules that touch (within tolerance); horizontal rules are 0..H-1, vertical H...
  const std::size_t h_count = horizontal.size();
  UnionFind clusters(h_count + vertical.size());
  for (std::size_t i = 0; i < h_count; ++i) {
    for (std::size_t j = 0; j < vertical.size(); ++j) {
      const Segment& h = horizontal[i];
      const Segment& v = vertical[j];
      if (v.at >= h.from - kRuleTolerance && v.at <= h.to + kRuleTolerance && h.at >= v.from - kRuleTolerance &&
          h.at <= v.to + kRuleTolerance) {
        clusters.unite(i, h_count + j);
      }
    }
  }
  // One pass to gather each cluster's rules (keyed by its root, the smallest member index).
  std::map<std::size_t, std::pair<std::vector<Segment>, std::vector<Segment>>> members;
  for (std::size_t i = 0; i < h_count + vertical.size(); ++i) {
    auto& [hs, vs] = members[clusters.find(i)];
    if (i < h_count) {
      hs.push_back(horizontal[i]);
    } else {
      vs.push_back(vertical[i - h_count]);
    }
  }
  std::vector<Grid> grids;
  for (const auto& [root, rules] : members) {
    const auto& [hs, vs] = rules;
    if (hs.size() < 2 || vs.size() < 2) continue;
    Grid grid = grid_from_rules(hs, vs);
    if (!grid.cells.empty()) grids.push_back(std::move(grid));
  }
  if (grids.empty()) return grids;
  // Glyphs move into the cell that holds their centre; a generated space follows its predecessor.
  std::vector<std::vector<std::vector<Glyph>>> cell_glyphs(grids.size());
  for (std::size_t t = 0; t < grids.size(); ++t) cell_glyphs[t].resize(grids[t].cells.size());
  std::vector<Glyph> rest;
  std::vector<Glyph>* last_target = &rest;
  for (const Glyph& g : glyphs) {
    if (g.generated) {
      last_target->push_back(g);
      continue;
    }
    const std::int64_t cx = (g.x0 + g.x1) / 2, cy = (g.y0 + g.y1) / 2;
    last_target = &rest;
    for (std::size_t t = 0; t < grids.size() && last_target == &rest; ++t) {
      if (!inside(grids[t].bbox, cx, cy)) continue;
      for (std::size_t c = 0; c < grids[t].cells.size(); ++c) {
        if (inside(grids[t].cells[c].bbox, cx, cy)) {
          last_target = &cell_glyphs[t][c];
          break;
        }
      }
    }
    last_target->push_back(g);
  }
  std::vector<Grid> with_text;
  for (std::size_t t = 0; t < grids.size(); ++t) {
    bool any_text = false;
    for (std::size_t c = 0; c < grids[t].cells.size(); ++c) {
      grids[t].cells[c].lines = build_lines(cell_glyphs[t][c]);
      order_cell_lines(grids[t].cells[c].lines);
      any_text = any_text || !grids[t].cells[c].lines.empty();
    }
    if (any_text) {
      with_text.push_back(std::move(grids[t]));
    } else {
      // A ruled grid with no text (a chart's frame, a form) is no table; its glyphs (only
      // generated spaces, if any) stay in the page flow.
      for (auto& cell : cell_glyphs[t]) rest.insert(rest.end(), cell.begin(), cell.end());
    }
  }
  std::stable_sort(rest.begin(), rest.end(), [](const Glyph& a, const Glyph& b) { return a.order < b.order; });
  glyphs = std::move(rest);
  return with_text;
}

namespace {

std::size_t median(std::vector<std::size_t> values) {
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2), values.end());
  return values[values.size() / 2];
}

// Whether the lines left of a gap are the keys of the descriptions right of it: far narrower
// (mean width under params::kMinCardLineWidthRatioPercent of theirs), their rows starting on one
// x (at most one line in ten elsewhere that has no line on that x beside it) and row by row
// beside them - most lines of each side share a visual
// line with a line across the gap. Two page columns are alike in width; a column of contents
// entries and their page numbers starts on many x; notes in a margin are narrow but most body
// lines have none beside them.
bool keys_beside(const std::vector<Bbox>& left, const std::vector<Bbox>& reaching, const std::vector<Bbox>& right) {
  const auto mean_width = [](const std::vector<Bbox>& boxes) {
    std::int64_t sum = 0;
    for (const Bbox& b : boxes) sum += b.x1 - b.x0;
    return sum / static_cast<std::int64_t>(boxes.size());
  };
  if (left.empty() || right.empty()) return false;
  const std::int64_t right_mean = mean_width(right);
  if (mean_width(left) * 100 >= right_mean * kMinCardLineWidthRatioPercent) return false;
  std::vector<std::int64_t> starts;
  for (const Bbox& b : left) starts.push_back(b.x0);
  std::nth_element(starts.begin(), starts.begin() + static_cast<std::ptrdiff_t>(starts.size() / 2), starts.end());
  const std::int64_t key_x = starts[starts.size() / 2];
  const auto on_key_x = [key_x](const Bbox& b) { return std::abs(b.x0 - key_x) <= kMaxColumnSkew; };
  // A key set in pieces (`++ x  (-- x)`, `* / \ .*  ./ .\`): a narrow piece (no wider than the
  // keys are beside the descriptions) that follows a piece on the key x within two line heights
  // is the rest of that key. A description is wider; a table of contents' page number stands far
  // from its entry.
  const auto off = static_cast<std::size_t>(std::count_if(left.begin(), left.end(), [&](const Bbox& b) {
    if (on_key_x(b)) return false;
    if ((b.x1 - b.x0) * 100 >= right_mean * kMinCardLineWidthRatioPercent) return true;
    return std::none_of(left.begin(), left.end(), [&](const Bbox& o) {
      return on_key_x(o) && same_band(b, o) && b.x0 >= o.x1 && b.x0 - o.x1 <= 2 * (o.y1 - o.y0);
    });
  }));
  const auto beside = [](const std::vector<Bbox>& boxes, const std::vector<Bbox>& across) {
    return static_cast<std::size_t>(std::count_if(boxes.begin(), boxes.end(), [&](const Bbox& box) {
      return std::any_of(across.begin(), across.end(), [&](const Bbox& other) { return same_band(box, other); });
    }));
  };
  const std::size_t right_beside = beside(right, left);
  // Keys set in columns of their own (a function table's name and argument columns, centred):
  // they start on many x, but every description has its row's keys beside it - all but one line
  // in ten (the widest key reaches into the gap, and is counted too) - and the descriptions end
  // where their words end, fewer than half of them on the right side's edge. A page column beside
  // a contents column or margin notes runs on past them, on baselines of its own, or is justified
  // (most of its lines end on one x).
  std::vector<Bbox> keys = left;
  keys.insert(keys.end(), reaching.begin(), reaching.end());
  std::int64_t right_edge = 0;
  for (const Bbox& b : right) right_edge = std::max(right_edge, b.x1);
  const auto on_edge = static_cast<std::size_t>(
      std::count_if(right.begin(), right.end(), [right_edge](const Bbox& b) { return b.x1 + kMaxColumnSkew >= right_edge; }));
  const bool every_row_keyed = (right.size() - beside(right, keys)) * 10 <= right.size() && on_edge * 2 < right.size();
  if (off * 10 > left.size() && !every_row_keyed) return false;
  return beside(left, right) * 2 > left.size() && right_beside * 2 > right.size();
}

// A line of figures: it holds a digit, and at most one character in five (spaces aside) is
// neither a digit nor a number's sign, point, separator or bracket (`296.21661`, `-.01360`,
// `2451665.5 (1)`, `6.25±5`).
bool figures(const Line& line) {
  std::size_t digits = 0, other = 0;
  for (const Glyph& g : line.glyphs) {
    const char32_t c = g.codepoint;
    if (c >= U'0' && c <= U'9') {
      ++digits;
    } else if (c == U' ' || c == U'\u00a0' || c == U'.' || c == U',' || c == U'-' || c == U'+' || c == U'\u2212' || c == U'\u00b1' ||
               c == U'(' || c == U')' || c == U'%') {
      continue;
    } else {
      ++other;
    }
  }
  return digits > 0 && other * 5 <= digits + other;
}

// Whether a gap is a table's, between two of its columns set row by row (`left` and `right`: the
// lines of the column on either side of it). Over the height both columns share, all but one
// line in ten of one column share a visual line with a line of the other, and at least half of
// the other's lines do (a column of figures may leave every other row empty, as a report's
// second line of a row does); and one of the two is a column of figures (of_figures below). A
// report printed in a monospaced font has no running text, and its widest column gap passed for
// the gutter between two columns of a card. Page columns of an index or a card may stand on one
// baseline grid, but their entries are words; a table of symbols set as pairs of columns side by
// side (a symbol and its command) stays read pair by pair.
bool rows_across(const std::vector<const Line*>& left, const std::vector<const Line*>& right) {
  if (left.empty() || right.empty()) return false;
  const auto extent = [](const std::vector<const Line*>& lines) {
    std::pair<std::int64_t, std::int64_t> out{lines.front()->bbox.y0, lines.front()->bbox.y1};
    for (const Line* line : lines) out = {std::min(out.first, line->bbox.y0), std::max(out.second, line->bbox.y1)};
    return out;
  };
  const auto [left_y0, left_y1] = extent(left);
  const auto [right_y0, right_y1] = extent(right);
  const std::int64_t top = std::max(left_y0, right_y0), bottom = std::min(left_y1, right_y1);
  const auto shared = [&](const std::vector<const Line*>& lines) {
    std::vector<const Line*> out;
    for (const Line* line : lines) {
      if (line->bbox.y1 > top && line->bbox.y0 < bottom) out.push_back(line);
    }
    return out;
  };
  const std::vector<const Line*> l = shared(left), r = shared(right);
  if (l.empty() || r.empty()) return false;
  // A column of figures: from its first figure down (the column's head stands above it), at least
  // half its lines are figures, and all but one in ten of the others are a short mark in a
  // figure's place (`.` for zero, `-Inf`, `n/a`, a dash).
  const auto of_figures = [](const std::vector<const Line*>& lines) {
    std::optional<std::int64_t> head;
    for (const Line* line : lines) {
      if (figures(*line) && (!head || line->bbox.y0 < *head)) head = line->bbox.y0;
    }
    if (!head) return false;
    std::size_t counted = 0, numbers = 0, marks = 0;
    for (const Line* line : lines) {
      if (line->bbox.y0 < *head) continue;
      ++counted;
      if (figures(*line)) {
        ++numbers;
      } else if (std::count_if(line->glyphs.begin(), line->glyphs.end(), [](const Glyph& g) { return g.codepoint != U' '; }) <=
                 kMaxFigureMarkGlyphs) {
        ++marks;
      }
    }
    return numbers * 2 >= counted && (counted - numbers - marks) * 10 <= counted;
  };
  if (!of_figures(l) && !of_figures(r)) return false;
  const auto beside = [](const std::vector<const Line*>& lines, const std::vector<const Line*>& across) {
    return static_cast<std::size_t>(std::count_if(lines.begin(), lines.end(), [&](const Line* line) {
      return std::any_of(across.begin(), across.end(), [&](const Line* other) { return same_band(line->bbox, other->bbox); });
    }));
  };
  const std::size_t left_beside = beside(l, r), right_beside = beside(r, l);
  const bool left_in_rows = (l.size() - left_beside) * 10 <= l.size(), right_in_rows = (r.size() - right_beside) * 10 <= r.size();
  return (left_in_rows && right_beside * 2 >= r.size()) || (right_in_rows && left_beside * 2 >= l.size());
}

// Page column gutters: x-ranges at least `min_gutter` wide that (almost) no line crosses, with a
// real share of the lines on each side. Table columns are not gutters: the page's other lines
// cross them. Returned as the x where each gutter starts, ascending.
//
// A gutter qualifies in one of two ways. (1) At least one side holds running text (lines of
// several words): between two narrow columns of short entries the gap is a table's, not the
// page's. (2) Nothing but a title or a footer crosses it, the lines on each side reach over at
// least half the text's height (a small table under short lines has a column only as tall as
// itself), and both columns it separates are
// wide - each at least a quarter of the page's text width (to where its own lines end, even inside
// the gap), measured between the gutters already
// accepted, widest gutter first: a reference card set in three or four columns of short
// key/description entries has no running text, yet its columns are the page's; a key column
// beside its descriptions is far narrower, a gap between two columns of a table of figures has
// their rows running on across it (rows_across), and a table's column groups have the page's running
// text above and below them, crossing their gaps. Two more conditions keep tables out: the lines
// reaching into the gap leave at least `min_gutter` of it open, and the mean line width of each
// side is at least params::kMinCardLineWidthRatioPercent of the other's (one long key beside its
// descriptions makes the key column wide, not its lines).
std::vector<std::int64_t> page_gutters(const std::vector<Line>& lines, std::int64_t min_gutter) {
  std::vector<std::int64_t> out;
  if (lines.size() < 6) return out;
  std::vector<std::pair<std::int64_t, int>> events;  // (x, +1 line starts / -1 line ends)
  std::int64_t text_x0 = lines.front().bbox.x0, text_x1 = lines.front().bbox.x1;
  std::int64_t text_y0 = lines.front().bbox.y0, text_y1 = lines.front().bbox.y1;
  for (const Line& line : lines) {
    events.emplace_back(line.bbox.x0, 1);
    events.emplace_back(line.bbox.x1, -1);
    text_x0 = std::min(text_x0, line.bbox.x0);
    text_x1 = std::max(text_x1, line.bbox.x1);
    text_y0 = std::min(text_y0, line.bbox.y0);
    text_y1 = std::max(text_y1, line.bbox.y1);
  }
  std::sort(events.begin(), events.end());
  const std::size_t crossing_allowed = std::max<std::size_t>(1, lines.size() / 20);
  const std::size_t side_needed = std::max<std::size_t>(3, lines.size() / 10);
  struct Candidate {
    std::int64_t start = 0, end = 0;
    bool running_text = false;
    std::size_t crossings = 0;  // lines reaching into the gutter from both sides
    bool tall = false;          // the lines on each side reach over at least half the text height
    std::int64_t left_reach = 0, right_reach = 0;  // where the text on each side ends (left) and starts (right)
    std::int64_t left_mean = 0, right_mean = 0;    // mean width of the lines on each side
    bool keys = false;  // a key column beside its descriptions, row by row (see keys_beside)
    std::vector<Bbox> left_boxes, right_boxes;  // the lines wholly on each side
    std::vector<Bbox> reaching_boxes;           // lines from the left reaching into the gap, not across it
  };
  std::vector<Candidate> candidates;
  std::size_t open = 0;
  std::int64_t run_start = 0;
  bool in_run = false;
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (events[i].second > 0) {
      ++open;
    } else {
      --open;
    }
    const bool last_at_x = i + 1 == events.size() || events[i + 1].first != events[i].first;
    if (!last_at_x) continue;
    if (open <= crossing_allowed && !in_run && i + 1 < events.size()) {
      in_run = true;
      run_start = events[i].first;
    } else if (open > crossing_allowed && in_run) {
      in_run = false;
      const std::int64_t run_end = events[i].first;
      if (run_end - run_start < min_gutter) continue;
      std::vector<std::size_t> left, right;
      std::vector<Bbox> left_boxes, right_boxes, reaching_boxes;
      std::size_t crossings = 0;
      std::int64_t left_y0 = text_y1, left_y1 = text_y0, right_y0 = text_y1, right_y1 = text_y0;
      // A column's own text may reach into the gap (the few lines the gap tolerates, an index's
      // longest entries): its width is measured to where its lines end, not to where the gap starts.
      std::int64_t left_reach = run_start, right_reach = run_end;
      std::int64_t left_widths = 0, right_widths = 0;
      // A line centred in the gap that overlaps a line reaching into it from the other side (a
      // short page title centred over the two columns of a contents page, ending past where the
      // right column's chapter lines start) stands over the gutter as a line crossing it does: it
      // is no column's line reaching into the gap, else the title would close the gutter it is
      // centred on. The other side's reach is measured by the lines centred on that side.
      const auto centre_of = [](const Bbox& b) { return (b.x0 + b.x1) / 2; };
      std::int64_t left_inside = run_start, right_inside = run_end;
      for (const Line& line : lines) {
        const Bbox& b = line.bbox;
        if (b.x0 < run_start && b.x1 <= run_end && centre_of(b) < run_start) left_inside = std::max(left_inside, b.x1);
        if (b.x1 > run_end && b.x0 >= run_start && centre_of(b) > run_end) right_inside = std::min(right_inside, b.x0);
      }
      for (const Line& line : lines) {
        const std::int64_t centre = centre_of(line.bbox);
        const bool centred_over = centre >= run_start && centre <= run_end &&
                                  ((line.bbox.x0 < run_start && line.bbox.x1 > right_inside) ||
                                   (line.bbox.x1 > run_end && line.bbox.x0 < left_inside));
        const bool crosses = (line.bbox.x0 < run_start && line.bbox.x1 > run_end) || centred_over;
        if (!crosses && line.bbox.x0 < run_start) left_reach = std::max(left_reach, line.bbox.x1);
        if (!crosses && line.bbox.x0 < run_start && line.bbox.x1 > run_start) reaching_boxes.push_back(line.bbox);
        if (!crosses && line.bbox.x1 > run_end) right_reach = std::min(right_reach, line.bbox.x0);
        if (line.bbox.x1 <= run_start) {
          left.push_back(word_count(line));
          left_boxes.push_back(line.bbox);
          left_widths += line.bbox.x1 - line.bbox.x0;
          left_y0 = std::min(left_y0, line.bbox.y0);
          left_y1 = std::max(left_y1, line.bbox.y1);
        }
        if (line.bbox.x0 >= run_end) {
          right.push_back(word_count(line));
          right_boxes.push_back(line.bbox);
          right_widths += line.bbox.x1 - line.bbox.x0;
          right_y0 = std::min(right_y0, line.bbox.y0);
          right_y1 = std::max(right_y1, line.bbox.y1);
        }
        if (crosses) ++crossings;
      }
      if (left.size() >= side_needed && right.size() >= side_needed) {
        const std::int64_t height = text_y1 - text_y0;
        candidates.push_back({run_start, run_end, median(left) >= kMinColumnWords || median(right) >= kMinColumnWords,
                              crossings,
                              (left_y1 - left_y0) * 100 >= height * kMinCardColumnHeightPercent &&
                                  (right_y1 - right_y0) * 100 >= height * kMinCardColumnHeightPercent,
                              left_reach, right_reach, left_widths / static_cast<std::int64_t>(left.size()),
                              right_widths / static_cast<std::int64_t>(right.size()), false,
                              std::move(left_boxes), std::move(right_boxes), std::move(reaching_boxes)});
      }
    }
  }
  // Descriptions are judged on the column next to the gap: where further page columns follow (a
  // reference card's key column, its descriptions, then the card's next column), the lines of
  // those would outvote the descriptions beside the keys, and the running text of a later column
  // would make the gap between keys and descriptions pass for a page gutter - which then leaves
  // the card's first column too narrow to be cut from its second, and their entries are read
  // across both. The right side stops at the next candidate gap; the left keeps every line (a
  // column of page numbers right of a table of contents is no key column: its entries start on
  // many x).
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    Candidate& c = candidates[i];
    std::vector<Bbox> right;
    for (const Bbox& b : c.right_boxes) {
      if (i + 1 == candidates.size() || b.x0 < candidates[i + 1].start) right.push_back(b);
    }
    c.keys = keys_beside(c.left_boxes, c.reaching_boxes, right);
  }
  std::vector<std::pair<std::int64_t, std::int64_t>> accepted;  // (start, end), ascending
  for (const Candidate& c : candidates) {
    if (c.running_text && !c.keys) accepted.emplace_back(c.start, c.end);
  }
  // Whether candidate i lies between two columns of a table (see rows_across). The columns on
  // either side of the gap, a line reaching into it counted with its column: left, the lines
  // ending in or before it, after the previous candidate gap; right, the lines starting in or
  // after it, before the next.
  const auto between_table_columns = [&](std::size_t i) {
    const Candidate& c = candidates[i];
    std::vector<const Line*> left_column, right_column;
    for (const Line& line : lines) {
      const Bbox& b = line.bbox;
      if (b.x0 < c.start && b.x1 <= c.end && (i == 0 || b.x1 > candidates[i - 1].end)) left_column.push_back(&line);
      if (b.x0 >= c.start && b.x1 > c.end && (i + 1 == candidates.size() || b.x0 < candidates[i + 1].start)) right_column.push_back(&line);
    }
    return rows_across(left_column, right_column);
  };
  std::vector<std::size_t> by_width(candidates.size());
  std::iota(by_width.begin(), by_width.end(), std::size_t{0});
  std::stable_sort(by_width.begin(), by_width.end(), [&](std::size_t a, std::size_t b) {
    return candidates[a].end - candidates[a].start > candidates[b].end - candidates[b].start;
  });
  const std::int64_t text_width = text_x1 - text_x0;
  for (std::size_t index : by_width) {
    const Candidate& c = candidates[index];
    if (c.running_text || c.crossings > kMaxCardGutterCrossings || !c.tall) continue;
    std::int64_t left_edge = text_x0, right_edge = text_x1;
    for (const auto& [start, end] : accepted) {
      if (end <= c.start) left_edge = std::max(left_edge, end);
      if (start >= c.end) right_edge = std::min(right_edge, start);
    }
    // The lines reaching into the gap must leave a gutter open: a column whose lines nearly
    // touch the next is one group of a table set across the page, not a page column.
    if (c.end - c.left_reach < min_gutter || c.right_reach - c.start < min_gutter) continue;
    // A key column beside its descriptions (one long key may reach far into the gap) is made of
    // far narrower lines than the descriptions; page columns of a card or an index are alike.
    if (std::min(c.left_mean, c.right_mean) * 100 < std::max(c.left_mean, c.right_mean) * kMinCardLineWidthRatioPercent) continue;
    const std::int64_t left_width = c.left_reach - left_edge, right_width = right_edge - c.right_reach;
    if (left_width * 100 < text_width * kMinCardColumnPercent || right_width * 100 < text_width * kMinCardColumnPercent) continue;
    // A table's column gap is no gutter, however wide: its rows run on across it. (Judged last:
    // it reads every line of the page.)
    if (between_table_columns(index)) continue;
    accepted.emplace_back(c.start, c.end);
    std::sort(accepted.begin(), accepted.end());
  }
  for (const auto& gutter : accepted) out.push_back(gutter.first);
  std::sort(out.begin(), out.end());
  return out;
}

// The part of the page each line lies in (0 at the top): the page is split at every horizontal
// white band across the whole page at least params::kMinPartGapGutters times `min_gutter` high
// (far more than the space around a heading in running text). `count` is the number of parts.
std::vector<std::size_t> page_parts(const std::vector<Line>& lines, std::int64_t min_gutter, std::size_t& count) {
  std::vector<std::pair<std::int64_t, std::size_t>> by_top;  // (top, line): sorted, ties by line
  by_top.reserve(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) by_top.emplace_back(lines[i].bbox.y0, i);
  std::sort(by_top.begin(), by_top.end());
  std::vector<std::size_t> part_of(lines.size(), 0);
  count = lines.empty() ? 0 : 1;
  std::int64_t reach = lines.empty() ? 0 : lines[by_top.front().second].bbox.y1;
  for (const auto& [top, i] : by_top) {
    if (top - reach >= min_gutter * kMinPartGapGutters) ++count;
    part_of[i] = count - 1;
    reach = std::max(reach, lines[i].bbox.y1);
  }
  return part_of;
}

// Per part of the page (page_parts()), the gutters of page_gutters() that have at least
// params::kMinLeaderEntries entries (`entry`: lines run out in leader dots) on each side - the
// columns of a contents or an index; none for any other part.
std::vector<std::vector<std::int64_t>> contents_gutters(const std::vector<Line>& lines, const std::vector<bool>& entry,
                                                        const std::vector<std::size_t>& part_of, std::size_t count,
                                                        std::int64_t min_gutter) {
  std::vector<std::size_t> leaders(count, 0);
  for (std::size_t i = 0; i < lines.size() && count >= 2; ++i) {
    if (entry[i]) ++leaders[part_of[i]];
  }
  std::vector<std::vector<std::int64_t>> out(count);
  for (std::size_t p = 0; p < count && count >= 2; ++p) {
    // Cheap tests first (page_gutters reads every line once per gap): enough leader entries,
    // and a gap at least `min_gutter` wide between some of them across the page.
    if (leaders[p] < 2 * kMinLeaderEntries) continue;
    std::vector<Line> part;
    std::vector<std::pair<std::int64_t, std::int64_t>> leader_spans;
    std::vector<bool> part_entry;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (part_of[i] != p) continue;
      part.push_back(lines[i]);
      part_entry.push_back(entry[i]);
      if (entry[i]) leader_spans.emplace_back(lines[i].bbox.x0, lines[i].bbox.x1);
    }
    std::sort(leader_spans.begin(), leader_spans.end());
    std::int64_t reach = leader_spans.front().second;
    bool apart = false;
    for (const auto& [x0, x1] : leader_spans) {
      apart = apart || x0 - reach >= min_gutter;
      reach = std::max(reach, x1);
    }
    if (!apart) continue;
    std::vector<std::int64_t> gutters = page_gutters(part, min_gutter);
    const bool entries_beside = std::all_of(gutters.begin(), gutters.end(), [&](std::int64_t gutter) {
      std::size_t left = 0, right = 0;
      for (std::size_t k = 0; k < part.size(); ++k) {
        if (part_entry[k]) ++((part[k].bbox.x0 + part[k].bbox.x1) / 2 < gutter ? left : right);
      }
      return left >= kMinLeaderEntries && right >= kMinLeaderEntries;
    });
    if (entries_beside) out[p] = std::move(gutters);
  }
  return out;
}

std::vector<Grid> whitespace_tables_in(std::vector<Line>& lines);

}  // namespace

std::vector<Grid> find_whitespace_tables(std::vector<Line>& lines, std::int64_t min_gutter) {
  // Each page column on its own, so that lines of neighbouring columns never form table rows.
  std::vector<std::vector<std::int64_t>> part_gutters{page_gutters(lines, min_gutter)};
  std::vector<std::size_t> part_of;  // empty: the page is one part
  std::size_t entries = 0;
  for (std::size_t i = 0; i < lines.size() && part_gutters.front().empty() && entries < 2 * kMinLeaderEntries; ++i) {
    entries += ends_in_leader(lines[i]) ? 1 : 0;
  }
  if (part_gutters.front().empty() && entries >= 2 * kMinLeaderEntries) {
    // No gutter runs down the whole page; one may run down a part of it, set off by a wide white
    // band across the page: the end of a two-column contents over a one-column list whose lines
    // cross the gutter. Its parts are looked at on their own where a part's gutter has entries
    // run out in leader dots on both sides (kMinLeaderEntries at least), as the columns of a
    // contents or an index have; a part of a page is as often a table set off by white, the
    // groups of its columns alike in width and taken for a card's columns, read in pieces.
    std::vector<bool> entry(lines.size(), false);
    for (std::size_t i = 0; i < lines.size(); ++i) entry[i] = ends_in_leader(lines[i]);
    std::size_t count = 0;
    std::vector<std::size_t> parts = page_parts(lines, min_gutter, count);
    std::vector<std::vector<std::int64_t>> gutters = contents_gutters(lines, entry, parts, count, min_gutter);
    if (std::any_of(gutters.begin(), gutters.end(), [](const auto& g) { return !g.empty(); })) {
      part_gutters = std::move(gutters);
      part_of = std::move(parts);
    }
  }
  // The columns of every part, part after part.
  std::vector<std::size_t> first_column(part_gutters.size(), 0);
  for (std::size_t p = 1; p < part_gutters.size(); ++p) first_column[p] = first_column[p - 1] + part_gutters[p - 1].size() + 1;
  std::vector<std::vector<Line>> columns(first_column.back() + part_gutters.back().size() + 1);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::size_t part = part_of.empty() ? 0 : part_of[i];
    const std::vector<std::int64_t>& gutters = part_gutters[part];
    const std::int64_t centre = (lines[i].bbox.x0 + lines[i].bbox.x1) / 2;
    const auto column = static_cast<std::size_t>(std::upper_bound(gutters.begin(), gutters.end(), centre) - gutters.begin());
    columns[first_column[part] + column].push_back(std::move(lines[i]));
  }
  lines.clear();
  std::vector<Grid> grids;
  for (std::vector<Line>& column : columns) {
    for (Grid& grid : whitespace_tables_in(column)) grids.push_back(std::move(grid));
    for (Line& line : column) lines.push_back(std::move(line));
  }
  // Back in content order, as build_lines made them.
  std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.order < b.order; });
  return grids;
}

namespace {

std::vector<Grid> whitespace_tables_in(std::vector<Line>& lines) {
  // Visual rows: line pieces sharing a band, top to bottom.
  std::vector<std::size_t> by_top(lines.size());
  std::iota(by_top.begin(), by_top.end(), std::size_t{0});
  std::stable_sort(by_top.begin(), by_top.end(), [&](std::size_t a, std::size_t b) {
    if (lines[a].bbox.y0 != lines[b].bbox.y0) return lines[a].bbox.y0 < lines[b].bbox.y0;
    return lines[a].bbox.x0 < lines[b].bbox.x0;
  });
  std::vector<std::vector<std::size_t>> rows;
  for (std::size_t i : by_top) {
    if (!lines[i].horizontal) continue;
    if (!rows.empty() && same_band(lines[rows.back().front()].bbox, lines[i].bbox)) {
      rows.back().push_back(i);
    } else {
      rows.push_back({i});
    }
  }
  for (auto& row : rows) {
    std::sort(row.begin(), row.end(), [&](std::size_t a, std::size_t b) { return lines[a].bbox.x0 < lines[b].bbox.x0; });
  }
  // Gutters of a set of rows: the gaps in the union of their pieces' x-ranges.
  const auto gutters = [&](std::size_t first, std::size_t last) {
    std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
    for (std::size_t r = first; r <= last; ++r) {
      for (std::size_t i : rows[r]) ranges.emplace_back(lines[i].bbox.x0, lines[i].bbox.x1);
    }
    std::sort(ranges.begin(), ranges.end());
    std::vector<std::pair<std::int64_t, std::int64_t>> gaps;
    std::int64_t reach = ranges.front().second;
    for (const auto& [x0, x1] : ranges) {
      if (x0 > reach) gaps.emplace_back(reach, x0);
      reach = std::max(reach, x1);
    }
    return gaps;
  };
  const auto usable = [&](std::size_t r) {
    if (rows[r].size() < 2) return false;
    return std::all_of(rows[r].begin(), rows[r].end(), [&](std::size_t i) { return word_count(lines[i]) <= kMaxWordsPerCell; });
  };
  // Rows of one grid follow each other closely: at most two row heights apart.
  const auto close = [&](std::size_t above, std::size_t below) {
    std::int64_t bottom = 0, height = 0;
    for (std::size_t i : rows[above]) {
      bottom = std::max(bottom, lines[i].bbox.y1);
      height = std::max(height, lines[i].height());
    }
    return lines[rows[below].front()].bbox.y0 - bottom <= 2 * height;
  };
  std::vector<Grid> grids;
  std::vector<Line> merged_rows;
  std::vector<bool> used(lines.size(), false);
  const auto aligned = [](std::int64_t x, std::int64_t at) { return std::abs(x - at) <= kMaxColumnSkew; };
  // A row of two pieces whose key starts at `key_x` and whose description starts at `text_x`.
  const auto key_row = [&](std::size_t row, std::int64_t key_x, std::int64_t text_x) {
    // The description may be a long sentence; the key is short (a cell's words at most). A
    // table of contents' entry (a title run out in leader dots to its page number) is no
    // description: those entries stay rows.
    return rows[row].size() == 2 && word_count(lines[rows[row][0]]) <= kMaxWordsPerCell && aligned(lines[rows[row][0]].bbox.x0, key_x) &&
           aligned(lines[rows[row][1]].bbox.x0, text_x) && !has_leader(lines[rows[row][0]]) && !has_leader(lines[rows[row][1]]);
  };
  // A row holding only a description's wrapped line: one short piece starting at `text_x`, or
  // indented from it by at most params::kMaxWrapIndentEms ems - reference cards set a wrapped
  // description with a hanging indent (octave's card: "getenv (string)  return value of named
  // environment" / "      variable"), and the entries after it are still the table's.
  const auto wrapped_row = [&](std::size_t row, std::int64_t text_x) {
    if (rows[row].size() != 1) return false;
    const Line& line = lines[rows[row][0]];
    const bool indented = line.bbox.x0 > text_x && line.bbox.x0 - text_x <= params::kMaxWrapIndentEms * line.font_size_q;
    return (aligned(line.bbox.x0, text_x) || indented) && word_count(line) <= kMaxWordsPerCell;
  };
  // Key/description rows from row `first`: at least three close rows of a key and its
  // description, keys aligned on one x and descriptions on another (a description may wrap onto
  // rows of its own, aligned with the descriptions), the keys clearly narrower (total width at
  // most two thirds of the descriptions': a method table, a reference card's entries; a table of
  // contents, whose narrow page numbers stand right, stays rows). The last row of the run, if any.
  const auto key_description_end = [&](std::size_t first) -> std::optional<std::size_t> {
    if (rows[first].size() != 2) return std::nullopt;
    const std::int64_t key_x = lines[rows[first][0]].bbox.x0, text_x = lines[rows[first][1]].bbox.x0;
    if (!key_row(first, key_x, text_x)) return std::nullopt;
    std::size_t end = first, last_key_row = first, key_rows = 1;
    std::int64_t key_width = 0, text_width = 0;
    const auto add_widths = [&](std::size_t row) {
      key_width += lines[rows[row][0]].bbox.x1 - lines[rows[row][0]].bbox.x0;
      text_width += lines[rows[row][1]].bbox.x1 - lines[rows[row][1]].bbox.x0;
    };
    add_widths(first);
    while (end + 1 < rows.size() && close(end, end + 1)) {
      if (key_row(end + 1, key_x, text_x)) {
        ++key_rows;
        last_key_row = end + 1;
        add_widths(end + 1);
      } else if (!wrapped_row(end + 1, text_x)) {
        break;
      }
      ++end;
    }
    if (key_rows < 3 || key_width * 3 > text_width * 2) return std::nullopt;
    // Keys name their rows, each its own: a column repeating a mark (a bullet, `*` or `!!`
    // opening the lines of a code comment, a circled list number, a footnote number beside
    // running text) is a list's, a listing's or a page's margin, no key column.
    std::vector<std::u32string> keys;
    for (std::size_t row = first; row <= last_key_row; ++row) {
      if (rows[row].size() == 2) keys.push_back(glyph_text(lines[rows[row][0]]));
    }
    std::sort(keys.begin(), keys.end());
    const auto distinct = static_cast<std::size_t>(std::unique(keys.begin(), keys.end()) - keys.begin());
    if (distinct < key_rows) return std::nullopt;
    // A line after the last key row could as well be a paragraph set at the description indent:
    // it joins the last description only while the line above it runs out to the descriptions'
    // right edge (within two ems), as a description that wraps does.
    std::int64_t text_right = 0;
    for (std::size_t row = first; row <= last_key_row; ++row) text_right = std::max(text_right, lines[rows[row].back()].bbox.x1);
    std::size_t last = last_key_row;
    while (last < end) {
      const Line& above = lines[rows[last].back()];
      if (above.bbox.x1 + 2 * above.font_size_q < text_right) break;
      ++last;
    }
    return last;
  };
  // The grid of key/description rows first..last: a row per key, a description's wrapped lines
  // in its cell.
  const auto key_description_grid = [&](std::size_t first, std::size_t last) {
    Grid grid;
    grid.n_cols = 2;
    grid.bbox = lines[rows[first][0]].bbox;
    for (std::size_t row = first; row <= last; ++row) {
      if (rows[row].size() == 2) {
        for (std::size_t col = 0; col < 2; ++col) {
          GridCell cell;
          cell.row = grid.n_rows;
          cell.col = static_cast<std::int64_t>(col);
          cell.bbox = lines[rows[row][col]].bbox;
          cell.lines.push_back(lines[rows[row][col]]);
          grid.cells.push_back(std::move(cell));
        }
        ++grid.n_rows;
      } else {
        GridCell& text = grid.cells.back();
        text.bbox = unite(text.bbox, lines[rows[row][0]].bbox);
        text.lines.push_back(lines[rows[row][0]]);
      }
      for (std::size_t i : rows[row]) {
        grid.bbox = unite(grid.bbox, lines[i].bbox);
        used[i] = true;
      }
    }
    return grid;
  };
  std::size_t r = 0;
  while (r < rows.size()) {
    // Key/description rows from row r become a table of two columns, and r moves past them.
    const auto take_key_rows = [&]() {
      const auto rows_end = key_description_end(r);
      if (rows_end) {
        grids.push_back(key_description_grid(r, *rows_end));
        r = *rows_end + 1;
      }
      return rows_end.has_value();
    };
    if (!usable(r)) {
      // A key row whose description is longer than a cell's words still starts key/description rows.
      if (!take_key_rows()) ++r;
      continue;
    }
    std::size_t end = r;  // inclusive
    while (end + 1 < rows.size() && usable(end + 1) && close(end, end + 1) && gutters(r, end + 1).size() >= 2) ++end;
    const auto gaps = gutters(r, end);
    const bool wide = std::any_of(rows.begin() + static_cast<std::ptrdiff_t>(r), rows.begin() + static_cast<std::ptrdiff_t>(end) + 1,
                                  [](const std::vector<std::size_t>& row) { return row.size() >= 3; });
    if (end - r + 1 < 3 || gaps.size() < 2 || !wide) {
      // Not a grid of three columns; a key/description table is one of two.
      if (take_key_rows()) continue;
      // Three or more close rows of exactly two pieces sharing one gap are a
      // key/description list (a reference card, a glossary, a table of contents): each row is
      // read as one line, so the reading order does not take every key before every description.
      std::size_t pairs_end = r;
      while (rows[r].size() == 2 && pairs_end + 1 < rows.size() && rows[pairs_end + 1].size() == 2 && usable(pairs_end + 1) &&
             close(pairs_end, pairs_end + 1) && !gutters(r, pairs_end + 1).empty()) {
        ++pairs_end;
      }
      // One side is clearly narrower (keys, or a table of contents' page numbers); two columns
      // of similar width are page columns instead.
      std::int64_t left_width = 0, right_width = 0;
      for (std::size_t row = r; row <= pairs_end; ++row) {
        left_width += lines[rows[row][0]].bbox.x1 - lines[rows[row][0]].bbox.x0;
        right_width += lines[rows[row][1]].bbox.x1 - lines[rows[row][1]].bbox.x0;
      }
      if (pairs_end - r + 1 >= 3 && std::min(left_width, right_width) * 3 <= std::max(left_width, right_width) * 2) {
        for (std::size_t row = r; row <= pairs_end; ++row) {
          merged_rows.push_back(join_pieces(lines[rows[row][0]], lines[rows[row][1]]));
          used[rows[row][0]] = used[rows[row][1]] = true;
        }
        r = pairs_end + 1;
        continue;
      }
      r = std::max(end, r) + 1;
      continue;
    }
    Grid grid;
    grid.n_rows = static_cast<std::int64_t>(end - r + 1);
    grid.n_cols = static_cast<std::int64_t>(gaps.size() + 1);
    bool first_piece = true;
    for (std::size_t row = r; row <= end; ++row) {
      std::vector<GridCell> cells(gaps.size() + 1);
      for (std::size_t i : rows[row]) {
        std::size_t col = 0;
        while (col < gaps.size() && lines[i].bbox.x0 >= gaps[col].second) ++col;
        GridCell& cell = cells[col];
        cell.bbox = cell.lines.empty() ? lines[i].bbox : unite(cell.bbox, lines[i].bbox);
        cell.lines.push_back(lines[i]);
        grid.bbox = first_piece ? lines[i].bbox : unite(grid.bbox, lines[i].bbox);
        first_piece = false;
        used[i] = true;
      }
      for (std::size_t col = 0; col < cells.size(); ++col) {
        if (cells[col].lines.empty()) continue;  // no text: no cell (its box would be invented)
        cells[col].row = static_cast<std::int64_t>(row - r);
        cells[col].col = static_cast<std::int64_t>(col);
        grid.cells.push_back(std::move(cells[col]));
      }
    }
    grids.push_back(std::move(grid));
    r = end + 1;
  }
  std::vector<Line> rest = std::move(merged_rows);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!used[i]) rest.push_back(std::move(lines[i]));
  }
  lines = std::move(rest);
  return grids;
}

}  // namespace

}  // namespace ethos::pdf
