// pages_spec.cpp - parsing, normalising and resolving --pages selections.
#include "pages_spec.hpp"

#include <algorithm>

#include "host_io.hpp"

namespace ethos::cli {
namespace {

// Far above any page limit, small enough that first..last arithmetic never overflows.
constexpr std::int64_t kMaxPageNumber = 1'000'000'000;

EthosError pages_error() { return host_error("invalid_arguments", {{"argument", "--pages"}}); }

std::int64_t parse_number(std::string_view digits) {
  if (digits.empty() || digits.size() > 10) throw pages_error();
  std::int64_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') throw pages_error();
    value = value * 10 + (c - '0');
  }
  if (value < 1 || value > kMaxPageNumber) throw pages_error();
  return value;
}

}  // namespace

PageSelection PageSelection::parse(std::string_view spec) {
  std::vector<PageRange> ranges;
  std::size_t begin = 0;
  while (true) {
    std::size_t comma = spec.find(',', begin);
    std::string_view item = spec.substr(begin, comma == std::string_view::npos ? spec.npos : comma - begin);
    std::size_t dash = item.find('-');
    PageRange range;
    if (dash == std::string_view::npos) {
      range.first = range.last = parse_number(item);
    } else {
      range.first = parse_number(item.substr(0, dash));
      std::string_view tail = item.substr(dash + 1);
      range.last = tail.empty() ? 0 : parse_number(tail);
      if (range.last != 0 && range.last < range.first) throw pages_error();
    }
    ranges.push_back(range);
    if (comma == std::string_view::npos) break;
    begin = comma + 1;
  }

  // Merge: sort by first page, then fold overlapping or adjacent ranges (open ranges absorb all
  // that follow them).
  std::sort(ranges.begin(), ranges.end(), [](const PageRange& a, const PageRange& b) {
    return a.first != b.first ? a.first < b.first : (a.last == 0 ? kMaxPageNumber + 1 : a.last) < (b.last == 0 ? kMaxPageNumber + 1 : b.last);
  });
  PageSelection selection;
  for (const PageRange& range : ranges) {
    if (!selection.ranges_.empty()) {
      PageRange& back = selection.ranges_.back();
      if (back.last == 0) break;
      if (range.first <= back.last + 1) {
        back.last = range.last == 0 ? 0 : std::max(back.last, range.last);
        continue;
      }
    }
    selection.ranges_.push_back(range);
  }
  if (selection.ranges_.size() == 1 && selection.ranges_[0].first == 1 && selection.ranges_[0].last == 0) {
    selection.ranges_.clear();
  }
  for (const PageRange& range : selection.ranges_) {
    if (!selection.normalized_.empty()) selection.normalized_ += ',';
    selection.normalized_ += std::to_string(range.first);
    if (range.last == 0) {
      selection.normalized_ += '-';
    } else if (range.last != range.first) {
      selection.normalized_ += '-' + std::to_string(range.last);
    }
  }
  return selection;
}

std::vector<int> PageSelection::resolve(std::int64_t page_count) const {
  std::vector<int> pages;
  if (ranges_.empty()) {
    for (std::int64_t p = 0; p < page_count; ++p) pages.push_back(static_cast<int>(p));
    return pages;
  }
  for (const PageRange& range : ranges_) {
    const std::int64_t last = range.last == 0 ? page_count : range.last;
    if (range.first > page_count || last > page_count) {
      // The page count goes into the details so the message can say which pages there are.
      throw host_error("invalid_arguments", {{"argument", "--pages"}, {"page_count", page_count}});
    }
    for (std::int64_t p = range.first; p <= last; ++p) pages.push_back(static_cast<int>(p - 1));
  }
  return pages;
}

}  // namespace ethos::cli
