// assemble_running.cpp - running header/footer detection: page-edge text that recurs on nearby pages or is a page number.
#include "pdf/assemble_running.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pdf/layout_params.hpp"
#include "text/utf8.hpp"

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

// A letter or ideograph: ASCII letters, and every non-ASCII scalar outside the punctuation, symbol
// and dingbat blocks (so CJK and accented headers qualify, while a bullet or a dash does not).
bool is_letter(char32_t c) {
  if (c < 0x80) return is_ascii_letter(static_cast<char>(c));
  const bool punctuation = (c >= 0xA0 && c <= 0xBF) || c == 0xD7 || c == 0xF7 || (c >= 0x2000 && c <= 0x2BFF) ||
                           (c >= 0x3000 && c <= 0x303F) || (c >= 0xFF00 && c <= 0xFF0F) || c == 0xFFFD;
  return !punctuation;
}

// The letters of a text, in order: what two keys are compared on for "nearly the same text"
// (dot leaders, digits and spacing say nothing about whether two lines are the same header).
std::u32string letters_of(const std::string& text) {
  std::u32string out;
  for (std::size_t pos = 0; pos < text.size();) {
    const char32_t c = utf8::next(text, pos);
    if (is_letter(c)) out.push_back(c);
  }
  return out;
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

// Edit-distance similarity of two letter sequences in percent (short: bounded by kMaxRunningBytes).
std::int64_t similarity_percent(const std::u32string& a, const std::u32string& b) {
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
  std::u32string letters;
  bool heading;
  bool sentence;
};

// Keys of the short elements that are not candidates (the body of the page): (page index, type size).
using BodyKeys = std::map<std::string, std::vector<std::pair<std::int64_t, std::int64_t>>>;

// Same band, about the same height, about the same type size (a 20 pt title on the first page is
// not the 9 pt running header below it on the next), on another page near enough.
bool same_spot(const Candidate& a, const Candidate& b) {
  const std::int64_t size_gap = std::abs(a.font_size_q - b.font_size_q) * 100;
  return a.zone == b.zone && a.page != b.page && std::abs(a.y - b.y) <= kSameHeight &&
         size_gap <= std::max(a.font_size_q, b.font_size_q) * kRunningSizeTolerancePercent;
}

bool same_place(const Candidate& a, const Candidate& b) {
  return same_spot(a, b) && std::abs(a.page_index - b.page_index) <= static_cast<std::int64_t>(kRunningWindowPages);
}

// The candidates of the pages within kRunningWindowPages of c's, as [first, last) indices:
// candidates are collected page by page in index order, so the window is one contiguous run.
std::pair<std::size_t, std::size_t> window_of(const Candidate& c, const std::vector<Candidate>& all) {
  const std::int64_t reach = static_cast<std::int64_t>(kRunningWindowPages);
  const auto first = std::lower_bound(all.begin(), all.end(), c.page_index - reach,
                                      [](const Candidate& x, std::int64_t index) { return x.page_index < index; });
  const auto last = std::upper_bound(first, all.end(), c.page_index + reach,
                                     [](std::int64_t index, const Candidate& x) { return index < x.page_index; });
  return {static_cast<std::size_t>(first - all.begin()), static_cast<std::size_t>(last - all.begin())};
}

// Six words or more closed by a sentence mark: text, not a label.
bool is_sentence(const std::string& text) {
  std::string_view s = text;
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n')) s.remove_suffix(1);
  if (s.empty() || std::string_view(".:;!?").find(s.back()) == std::string_view::npos) return false;
  std::size_t words = 0;
  bool in_word = false;
  for (char ch : s) {
    const bool space = ch == ' ' || ch == '\n' || ch == '\t';
    if (!space && !in_word) ++words;
    in_word = !space;
  }
  return words >= 6;
}

// The two smallest values of `values` (the second is what every element but the smallest sees).
std::pair<std::int64_t, std::int64_t> two_smallest(const std::vector<std::int64_t>& values) {
  std::int64_t first = INT64_MAX, second = INT64_MAX;
  for (std::int64_t v : values) {
    if (v < first) {
      second = first;
      first = v;
    } else if (v < second) {
      second = v;
    }
  }
  return {first, second};
}

// Is the element in the top (zone 0) or bottom (zone 1) band: the outer kEdgeBandPercent of the
// page height, or - for the outermost elements, with nothing of the page wholly beyond them - the
// outer kOuterBandPercent, where pages with wide margins (a LaTeX page on A4) put their numbers.
std::optional<int> edge_zone(const PageLayout& page, const LayoutElement& element, std::pair<std::int64_t, std::int64_t> tops,
                             std::pair<std::int64_t, std::int64_t> bottoms) {
  const Bbox& b = element.bbox;
  if (b.y1 * 100 <= page.height * kEdgeBandPercent) return 0;
  if (b.y0 * 100 >= page.height * (100 - kEdgeBandPercent)) return 1;
  // tops: the two smallest y1 of the page's elements; nothing lies wholly above this element when
  // it starts above every other element's bottom. bottoms: the same for -y0, below.
  const std::int64_t others_bottom = b.y1 == tops.first ? tops.second : tops.first;
  if (b.y1 * 100 <= page.height * kOuterBandPercent && b.y0 < others_bottom) return 0;
  const std::int64_t others_top = -b.y0 == bottoms.first ? -bottoms.second : -bottoms.first;
  if (b.y0 * 100 >= page.height * (100 - kOuterBandPercent) && b.y1 > others_top) return 1;
  return std::nullopt;
}

std::vector<Candidate> collect_candidates(const std::vector<PageLayout>& pages, BodyKeys& body) {
  std::vector<Candidate> out;
  for (std::size_t p = 0; p < pages.size(); ++p) {
    const PageLayout& page = pages[p];
    std::vector<std::int64_t> bottoms_of, tops_of;  // every element's y1, and -y0
    for (const LayoutElement& element : page.elements) {
      bottoms_of.push_back(element.bbox.y1);
      tops_of.push_back(-element.bbox.y0);
    }
    const auto tops = two_smallest(bottoms_of), bottoms = two_smallest(tops_of);
    for (std::size_t e = 0; e < page.elements.size(); ++e) {
      const LayoutElement& element = page.elements[e];
      if (element.text.empty() || element.type == "table" || element.type == "region") continue;
      if (element.line_breaks.size() + 1 > kMaxRunningLines || element.text.size() > kMaxRunningBytes) continue;
      const std::optional<int> zone = edge_zone(page, element, tops, bottoms);
      if (!zone) {
        body[running_key(element.text)].emplace_back(page.index, element.font_size_q);
        continue;
      }
      Candidate c{p, e, *zone, 0, running_key(element.text), page_number(element.text), page.index, element.font_size_q,
                  letters_of(element.text), element.type == "heading", is_sentence(element.text)};
      c.y = *zone == 0 ? element.bbox.y0 : page.height - element.bbox.y1;
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
  const auto [first, last] = window_of(c, all);
  for (std::size_t k = first; k < last; ++k) {
    const Candidate& other = all[k];
    if (!other.number || other.number->spelled || other.number->roman != c.number->roman || !same_place(c, other)) continue;
    if (other.number->value - other.page_index == c.number->value - c.page_index) return true;
  }
  return false;
}

bool in_body_nearby(const Candidate& c, const BodyKeys& body) {
  const auto it = body.find(c.key);
  if (it == body.end()) return false;
  return std::any_of(it->second.begin(), it->second.end(), [&](const std::pair<std::int64_t, std::int64_t>& seen) {
    return std::abs(seen.first - c.page_index) <= static_cast<std::int64_t>(kRunningWindowPages) &&
           std::abs(seen.second - c.font_size_q) * 100 <= std::max(seen.second, c.font_size_q) * kRunningSizeTolerancePercent;
  });
}

// Rule 1. Text that also stands in the body of a nearby page at the same type size ("Comments" or
// "Example:" opening and closing the sections of a reference manual) is body text that happens to
// open or close pages, not a running header. Nearly-the-same text (letters compared,
// >= kRunningSimilarityPercent alike) is only for non-headings: "Appendix A" / "Appendix B"
// opening two pages are two headings.
bool recurs_nearby(const Candidate& c, const std::vector<Candidate>& all, const BodyKeys& body) {
  // Text worth comparing holds a letter: "}" atop two code pages, or a bullet, is no header.
  if (c.letters.empty() || in_body_nearby(c, body)) return false;
  // Furniture is a label; a sentence (six words or more closed by . : ; ! ?) that two pages
  // of a reference manual happen to end with is not, unless it recurs on two other pages.
  const std::size_t needed = c.sentence ? 2 : 1;
  std::vector<std::int64_t> alike;
  const auto [first, last] = window_of(c, all);
  for (std::size_t k = first; k < last; ++k) {
    const Candidate& other = all[k];
    if (!same_place(c, other)) continue;
    if (other.key == c.key ||
        (!c.heading && !other.heading && similarity_percent(other.letters, c.letters) >= kRunningSimilarityPercent)) {
      if (std::find(alike.begin(), alike.end(), other.page_index) == alike.end()) alike.push_back(other.page_index);
      if (alike.size() >= needed) return true;
    }
  }
  return false;
}

// Rule 2. A label (not a heading, not a sentence) at the same place in the same band on
// kDocumentRepeatPages pages or more anywhere in the document, the same text (digit runs as one
// digit), and never in the body at that type size: running furniture however far apart its pages
// are - "(continued from previous page)" atop the few pages a listing runs over onto, a note a
// document sets at the foot of a page now and then. `group`: the candidates of c's band and key.
bool recurs_across_document(const Candidate& c, const std::vector<Candidate>& all, const std::vector<std::size_t>& group,
                            const BodyKeys& body) {
  if (c.letters.empty() || c.heading || c.sentence || group.size() < kDocumentRepeatPages) return false;
  if (const auto it = body.find(c.key); it != body.end()) {
    for (const auto& [page_index, size] : it->second) {
      if (std::abs(size - c.font_size_q) * 100 <= std::max(size, c.font_size_q) * kRunningSizeTolerancePercent) return false;
    }
  }
  std::vector<std::int64_t> pages{c.page_index};
  for (std::size_t k : group) {
    const Candidate& other = all[k];
    if (other.heading || !same_spot(c, other)) continue;
    if (std::find(pages.begin(), pages.end(), other.page_index) == pages.end()) pages.push_back(other.page_index);
    if (pages.size() >= kDocumentRepeatPages) return true;
  }
  return false;
}

}  // namespace

void mark_running_headers_and_footers(std::vector<PageLayout>& pages) {
  BodyKeys body;
  const std::vector<Candidate> candidates = collect_candidates(pages, body);
  std::vector<bool> running(candidates.size(), false);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    if (c.number) {
      running[i] = c.number->spelled || bare_numeral_is_page_number(c, candidates, pages[c.page]);
    } else {
      running[i] = recurs_nearby(c, candidates, body);
    }
  }
  std::map<std::pair<int, std::string>, std::vector<std::size_t>> groups;  // (band, key) -> candidates
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (!candidates[i].number) groups[{candidates[i].zone, candidates[i].key}].push_back(i);
  }
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    if (running[i] || c.number) continue;
    running[i] = recurs_across_document(c, candidates, groups[{c.zone, c.key}], body);
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
    } else if (!c.number && !c.letters.empty()) {
      if (const auto number = edge_number(pages[c.page].elements[c.element].text)) offset[i] = *number - c.page_index;
    }
  }
  std::vector<bool> numbered(candidates.size(), false);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (running[i] || candidates[i].number || !offset[i]) continue;
    const auto [first, last] = window_of(candidates[i], candidates);
    for (std::size_t j = first; j < last && !numbered[i]; ++j) {
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
