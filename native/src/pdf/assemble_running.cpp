// assemble_running.cpp - running header/footer detection: page-edge text that recurs on nearby pages or is a page number.
#include "pdf/assemble_running.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>

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

bool is_ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Text worth comparing across pages: at least one letter (any non-ASCII byte counts, so CJK
// headers qualify). Lone punctuation such as "}" at the top of two code pages is not a header.
bool has_letter(const std::string& text) {
  return std::any_of(text.begin(), text.end(), [](char c) { return is_ascii_letter(c) || static_cast<unsigned char>(c) >= 0x80; });
}

// Decoration around a page number: "- 12 -", "[12]", "| 12 |", "– 12 –", "· 12 ·".
std::string_view strip_decoration(std::string_view s) {
  static constexpr std::string_view kMarks[] = {"\xE2\x80\x93", "\xE2\x80\x94", "\xC2\xB7", "\xE2\x80\xA2", "-", "|", "[", "]",
                                                "(", ")", "<", ">", "*", "~", " ", "\t", "\n"};
  for (bool changed = true; changed && !s.empty();) {
    changed = false;
    for (std::string_view mark : kMarks) {
      if (s.size() >= mark.size() && s.substr(0, mark.size()) == mark) {
        s.remove_prefix(mark.size());
        changed = true;
      }
      if (s.size() >= mark.size() && s.substr(s.size() - mark.size()) == mark) {
        s.remove_suffix(mark.size());
        changed = true;
      }
    }
  }
  return s;
}

// The value of a roman numeral in canonical form, all lower or all upper case ("xiv", "XIV").
std::optional<std::int64_t> roman_value(std::string_view s) {
  if (s.empty() || s.size() > 12) return std::nullopt;
  const bool upper = s[0] >= 'A' && s[0] <= 'Z';
  std::string lower;
  for (char c : s) {
    if (upper != (c >= 'A' && c <= 'Z')) return std::nullopt;
    lower.push_back(ascii_lower(c));
  }
  static constexpr std::pair<std::int64_t, std::string_view> kNumerals[] = {
      {1000, "m"}, {900, "cm"}, {500, "d"}, {400, "cd"}, {100, "c"}, {90, "xc"}, {50, "l"},
      {40, "xl"},  {10, "x"},   {9, "ix"},  {5, "v"},    {4, "iv"},  {1, "i"}};
  std::int64_t value = 0;
  std::string_view rest = lower;
  for (const auto& [amount, numeral] : kNumerals) {
    int repeats = 0;
    while (rest.substr(0, numeral.size()) == numeral) {
      rest.remove_prefix(numeral.size());
      value += amount;
      if (++repeats > 3) return std::nullopt;
    }
  }
  return rest.empty() && value > 0 ? std::optional<std::int64_t>(value) : std::nullopt;
}

std::optional<std::int64_t> arabic_value(std::string_view s) {
  if (s.empty() || s.size() > 5) return std::nullopt;
  std::int64_t value = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

std::string lowered(std::string_view s) {
  std::string out;
  for (char c : s) out.push_back(ascii_lower(c));
  return out;
}

// What a page-number element says: the number, and whether it spelled itself out as one
// ("Page 12", "12 of 40", "12/40": unambiguous) or is a bare numeral ("12", "- xii -").
struct PageNumber {
  std::int64_t value = 0;
  bool roman = false;
  bool spelled = false;
};

std::optional<PageNumber> page_number(const std::string& text) {
  std::string_view s = strip_decoration(text);
  if (s.empty()) return std::nullopt;
  // "Page 12", "p. 12", "pg 12", "Seite 12" (+ "of 40"): the word says what the number is.
  bool spelled = false;
  const std::string low = lowered(s);
  for (std::string_view word : {"page ", "page", "pg. ", "pg ", "p. ", "seite ", "s. ", "p\xC3\xA1gina ", "pagina "}) {
    if (low.size() > word.size() && std::string_view(low).substr(0, word.size()) == word) {
      s.remove_prefix(word.size());
      spelled = true;
      break;
    }
  }
  // "12 of 40", "12 / 40", "12/40", "12 von 40": the tail is the page count.
  for (std::string_view sep : {" of ", " / ", "/", " von ", " de "}) {
    const std::size_t at = lowered(s).find(sep);
    if (at == std::string_view::npos) continue;
    if (!arabic_value(s.substr(at + sep.size()))) return std::nullopt;
    s = s.substr(0, at);
    spelled = true;
    break;
  }
  if (const auto value = arabic_value(s)) return PageNumber{*value, false, spelled};
  if (const auto value = roman_value(s)) return PageNumber{*value, true, spelled};
  return std::nullopt;
}

// The page number a running line starts or ends with ("5 An Introduction to R",
// "Chapter 2: R Basics 7"), when the rest of the line is text.
std::optional<std::int64_t> edge_number(const std::string& text) {
  const std::string_view s = strip_decoration(text);
  const std::size_t first_space = s.find(' '), last_space = s.rfind(' ');
  if (first_space == std::string_view::npos) return std::nullopt;
  if (const auto value = arabic_value(s.substr(last_space + 1))) return value;
  return arabic_value(s.substr(0, first_space));
}

// Edit-distance similarity of two keys in percent (bytes; keys are short, bounded by kMaxRunningBytes).
std::int64_t similarity_percent(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return 0;
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  const std::size_t longest = std::max(a.size(), b.size());
  return static_cast<std::int64_t>((longest - row[b.size()]) * 100 / longest);
}

struct Candidate {
  std::size_t page, element;
  int zone;        // 0 = top band (header), 1 = bottom band (footer)
  std::int64_t y;  // distance of its outer edge from its page edge, in quanta
  std::string key;
  std::optional<PageNumber> number;
  std::int64_t page_index;
  std::int64_t font_size_q;
};

// Same band, about the same height, about the same type size (a 20 pt title on the first page is
// not the 9 pt running header below it on the next), on another page near enough.
bool same_place(const Candidate& a, const Candidate& b) {
  const std::int64_t size_gap = std::abs(a.font_size_q - b.font_size_q) * 100;
  return a.zone == b.zone && a.page != b.page && std::abs(a.y - b.y) <= kSameHeight &&
         size_gap <= std::max(a.font_size_q, b.font_size_q) * kRunningSizeTolerancePercent &&
         std::abs(a.page_index - b.page_index) <= static_cast<std::int64_t>(kRunningWindowPages);
}

std::vector<Candidate> collect_candidates(const std::vector<PageLayout>& pages) {
  std::vector<Candidate> out;
  for (std::size_t p = 0; p < pages.size(); ++p) {
    const PageLayout& page = pages[p];
    for (std::size_t e = 0; e < page.elements.size(); ++e) {
      const LayoutElement& element = page.elements[e];
      if (element.text.empty() || element.type == "table" || element.type == "region") continue;
      if (element.line_breaks.size() + 1 > kMaxRunningLines || element.text.size() > kMaxRunningBytes) continue;
      Candidate c{p, e, 0, 0, running_key(element.text), page_number(element.text), page.index, element.font_size_q};
      if (element.bbox.y1 * 100 <= page.height * kEdgeBandPercent) {
        c.y = element.bbox.y0;
      } else if (element.bbox.y0 * 100 >= page.height * (100 - kEdgeBandPercent)) {
        c.zone = 1;
        c.y = page.height - element.bbox.y1;
      } else {
        continue;
      }
      out.push_back(std::move(c));
    }
  }
  return out;
}

// A bare numeral is a page number when it is the page's label, or its offset from the page
// index (numbering starts late, front matter) is the offset of another bare numeral at the same
// place on a nearby page: "12" alone proves nothing, "12" then "13" (or "14") does.
bool bare_numeral_is_page_number(const Candidate& c, const std::vector<Candidate>& all, const PageLayout& page) {
  if (!page.label.empty() && strip_decoration(page.elements[c.element].text) == page.label) return true;
  if (!c.number->roman && c.number->value == c.page_index) return true;
  for (const Candidate& other : all) {
    if (!other.number || other.number->spelled || other.number->roman != c.number->roman || !same_place(c, other)) continue;
    if (other.number->value - other.page_index == c.number->value - c.page_index) return true;
  }
  return false;
}

bool recurs_nearby(const Candidate& c, const std::vector<Candidate>& all) {
  if (!has_letter(c.key)) return false;
  for (const Candidate& other : all) {
    if (!same_place(c, other)) continue;
    if (other.key == c.key || similarity_percent(other.key, c.key) >= kRunningSimilarityPercent) return true;
  }
  return false;
}

}  // namespace

void mark_running_headers_and_footers(std::vector<PageLayout>& pages) {
  const std::vector<Candidate> candidates = collect_candidates(pages);
  std::vector<bool> running(candidates.size(), false);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    if (c.number) {
      running[i] = c.number->spelled || bare_numeral_is_page_number(c, candidates, pages[c.page]);
    } else {
      running[i] = recurs_nearby(c, candidates);
    }
  }
  // A line with the page number at one end ("Chapter 3: Vectors 9", "10   An Introduction to R")
  // is running furniture when a line of the same band at the same place on a nearby page carries
  // its own page's number the same way (the same offset from the page index): the one page of a
  // chapter whose title no other page repeats, next to the other parity's header. Decided from
  // the candidates alone, so the outcome does not depend on the order pages are visited in.
  std::vector<std::optional<std::int64_t>> offset(candidates.size());
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    if (c.number && !c.number->roman) {
      offset[i] = c.number->value - c.page_index;
    } else if (!c.number && has_letter(c.key)) {
      if (const auto number = edge_number(pages[c.page].elements[c.element].text)) offset[i] = *number - c.page_index;
    }
  }
  std::vector<bool> numbered(candidates.size(), false);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (running[i] || candidates[i].number || !offset[i]) continue;
    for (std::size_t j = 0; j < candidates.size() && !numbered[i]; ++j) {
      numbered[i] = j != i && offset[j] == offset[i] && same_place(candidates[i], candidates[j]);
    }
  }
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (!running[i] && !numbered[i]) continue;
    LayoutElement& element = pages[candidates[i].page].elements[candidates[i].element];
    element.type = candidates[i].zone == 0 ? "header" : "footer";
    element.heading_level = 0;
  }
}

}  // namespace ethos::pdf
