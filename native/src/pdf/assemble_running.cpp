// assemble_running.cpp - header/footer detection across pages by normalised text and position.
#include "pdf/assemble_running.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "pdf/layout_params.hpp"

namespace ethos::pdf {
namespace {

using namespace params;

// Digit runs become one '#', whitespace runs one space: "Page 3 of 10" == "Page 4 of 10".
std::string running_key(const std::string& text) {
  std::string key;
  bool in_digits = false, in_space = false;
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      if (!in_digits) key.push_back('#');
      in_digits = true;
      in_space = false;
      continue;
    }
    in_digits = false;
    if (c == ' ' || c == '\t' || c == '\n') {
      if (!in_space && !key.empty()) key.push_back(' ');
      in_space = true;
      continue;
    }
    in_space = false;
    key.push_back(c);
  }
  while (!key.empty() && key.back() == ' ') key.pop_back();
  return key;
}

struct Candidate {
  std::size_t page, element;
  std::int64_t y;
};

}  // namespace

void mark_running_headers_and_footers(std::vector<PageLayout>& pages) {
  if (pages.size() < 2) return;
  const std::size_t needed = std::max<std::size_t>(2, (pages.size() * kMinSharePercent + 99) / 100);
  // (zone, key) -> candidates; zone 0 = top (header), 1 = bottom (footer).
  std::map<std::pair<int, std::string>, std::vector<Candidate>> groups;
  for (std::size_t p = 0; p < pages.size(); ++p) {
    const PageLayout& page = pages[p];
    for (std::size_t e = 0; e < page.elements.size(); ++e) {
      const LayoutElement& element = page.elements[e];
      if (element.text.empty() || element.type == "table" || element.type == "region") continue;
      if (element.bbox.y1 * 100 <= page.height * kEdgeBandPercent) {
        groups[{0, running_key(element.text)}].push_back({p, e, element.bbox.y0});
      } else if (element.bbox.y0 * 100 >= page.height * (100 - kEdgeBandPercent)) {
        groups[{1, running_key(element.text)}].push_back({p, e, element.bbox.y1 - page.height});
      }
    }
  }
  for (const auto& [zone_key, candidates] : groups) {
    for (const Candidate& c : candidates) {
      std::set<std::size_t> pages_alike;
      for (const Candidate& other : candidates) {
        if (std::abs(other.y - c.y) <= kSameHeight) pages_alike.insert(other.page);
      }
      if (pages_alike.size() < needed) continue;
      LayoutElement& element = pages[c.page].elements[c.element];
      element.type = zone_key.first == 0 ? "header" : "footer";
      element.heading_level = 0;
    }
  }
}

}  // namespace ethos::pdf
