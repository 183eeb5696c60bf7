// junction_reading.cpp - white space at font junctions and URL wraps (junction_reading.hpp).
#include "match/junction_reading.hpp"

#include <algorithm>
#include <utility>

#include "match/tokens.hpp"
#include "text/normalize.hpp"
#include "text/unicode_props.hpp"

namespace ethos::match {
namespace {

bool is_ascii_letter_or_digit(char32_t c) {
  return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z') || (c >= U'0' && c <= U'9');
}

bool contains(const std::vector<std::uint32_t>& sorted, std::uint32_t value) {
  return std::binary_search(sorted.begin(), sorted.end(), value);
}

// A reading's scalars other than spaces, each with its index in the reading and whether a space
// stood before it.
struct Dense {
  std::u32string text;
  std::vector<std::size_t> index;
  std::vector<bool> space_before;
};

Dense dense_of(const Reading& reading) {
  Dense dense;
  bool space = false;
  for (std::size_t i = 0; i < reading.text.size(); ++i) {
    if (reading.text[i] == U' ') {
      space = true;
      continue;
    }
    dense.text.push_back(reading.text[i]);
    dense.index.push_back(i);
    dense.space_before.push_back(space && dense.index.size() > 1);
    space = false;
  }
  return dense;
}

// Circled and negative circled numbers: the callout markers set at the start of a line beside a
// listing (auto-multiple-choice's "②") or in a margin.
bool is_callout_glyph(char32_t c) {
  return (c >= 0x2460 && c <= 0x2473) || c == 0x24EA || (c >= 0x24F5 && c <= 0x24FF) || (c >= 0x2776 && c <= 0x2793) ||
         (c >= 0x3251 && c <= 0x325F) || (c >= 0x32B1 && c <= 0x32BF);
}

}  // namespace

bool is_callout_marker(const std::u32string& text, const std::vector<std::uint32_t>& line_breaks, std::size_t pos) {
  if (pos >= text.size() || !is_callout_glyph(text[pos])) return false;
  const bool line_start = pos == 0 || text[pos - 1] == U'\n' || contains(line_breaks, static_cast<std::uint32_t>(pos - 1));
  return line_start && pos + 1 < text.size() && is_unicode_white_space(text[pos + 1]);
}

bool is_url_wrap(const std::u32string& text, std::size_t pos) {
  if (pos == 0 || pos + 1 >= text.size() || !is_unicode_white_space(text[pos])) return false;
  const char32_t before = text[pos - 1];
  std::size_t after = pos;
  while (after < text.size() && is_unicode_white_space(text[after])) ++after;
  if (after >= text.size()) return false;
  const char32_t next = text[after];
  if (!is_ascii_letter_or_digit(next) && next != U'/' && next != U'.' && next != U'_' && next != U'-' && next != U'~' &&
      next != U'%' && next != U'#') {
    return false;
  }
  std::size_t begin = pos;
  while (begin > 0 && !is_unicode_white_space(text[begin - 1])) --begin;
  // Leading punctuation of the run ("(https://", "<www.") is not part of the URL.
  while (begin < pos && (text[begin] == U'(' || text[begin] == U'<' || text[begin] == U'[' || text[begin] == U'"' ||
                         text[begin] == U'\'')) {
    ++begin;
  }
  const std::u32string run = text.substr(begin, pos - begin);
  const bool url = run.find(U"://") != std::u32string::npos || run.rfind(U"www.", 0) == 0;
  if (url) return before == U'/' || before == U'-' || before == U'.' || before == U'_' || before == U'=' || before == U'&' ||
                  before == U'?' || before == U'#';
  if (before != U'/') return false;
  const bool path_start = run.rfind(U"/", 0) == 0 || run.rfind(U"~/", 0) == 0 || run.rfind(U"./", 0) == 0;
  return path_start && std::count(run.begin(), run.end(), U'/') >= 2;
}

std::optional<Located> find_across_junctions(const JunctionText& region, const std::string& quote, const Policy& policy) {
  if (region.text.empty()) return std::nullopt;
  // Callout markers read as white space (same length: offsets do not move).
  std::u32string text = region.text;
  std::vector<std::uint32_t> markers;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] >= 0x2460 && is_callout_marker(region.text, region.line_breaks, i)) {
      markers.push_back(static_cast<std::uint32_t>(i));
      text[i] = U' ';
    }
  }
  for (std::uint32_t p : region.separators) {
    if (p < text.size()) {
      markers.push_back(p);
      text[p] = U' ';
    }
  }
  // A footnote marker read as white space; one right after the quote's end counts as read too.
  std::vector<std::uint32_t> marker_starts;
  for (const auto& [begin, end] : region.footnote_markers) {
    if (begin >= end || end > text.size()) continue;
    marker_starts.push_back(begin);
    for (std::uint32_t p = begin; p < end; ++p) {
      markers.push_back(p);
      text[p] = U' ';
    }
  }
  std::sort(markers.begin(), markers.end());
  std::sort(marker_starts.begin(), marker_starts.end());
  const ScalarView view(text);
  // Nothing to read otherwise (a source without spans, wraps in URLs, markers or line-end hyphens): no work.
  bool wraps = false;
  for (std::uint32_t b : region.line_breaks) wraps = wraps || is_url_wrap(text, b);
  const bool spaces = wraps || !region.junctions.empty() || !markers.empty();
  if (!spaces && region.hyphen_breaks.empty()) return std::nullopt;
  const auto search_tier = [&](Tier tier) -> std::optional<Located> {
    const Reading claim = normalize_for_tier(quote, tier, policy.ladder);
    const Dense q = dense_of(claim);
    if (q.text.empty()) return std::nullopt;
    // (with the recorded hyphens' readings, line-end hyphens as printed: itself a liberty)
    std::vector<std::pair<bool, std::vector<Reading>>> readings;
    if (spaces) {
      readings.emplace_back(false, build_tier(text, tier, policy.ladder,
                                              region.hyphen_breaks.empty() ? nullptr : &region.hyphen_breaks));
    }
    if (!region.hyphen_breaks.empty() && tier >= Tier::typography) {
      readings.emplace_back(true, build_tier(text, tier, policy.ladder, nullptr));
    }
    for (const auto& [as_printed, each] : readings) {
      for (const Reading& reading : each) {
        const Dense d = dense_of(reading);
        for (std::size_t k = d.text.find(q.text); k != std::u32string::npos; k = d.text.find(q.text, k + 1)) {
          bool ok = true, liberty = as_printed;
          for (std::size_t i = 1; i < q.text.size() && ok; ++i) {
            const bool qs = q.space_before[i];
            const bool ds = d.space_before[k + i];
            if (qs == ds) continue;
            liberty = true;
            const std::size_t prev = d.index[k + i - 1];
            const std::size_t cur = d.index[k + i];
            if (qs) {
              // The quote has white space where the text has none: a font junction, never inside a number.
              const std::uint32_t p = reading.end[prev];
              ok = reading.start[cur] == p && contains(region.junctions, p) &&
                   !(unicode::is_decimal_digit(text[p - 1]) && unicode::is_decimal_digit(text[p]));
            } else {
              // The text has white space the quote lacks: a line wrap inside a URL or a path.
              const std::size_t space = cur - 1;
              ok = false;
              for (std::uint32_t s = reading.start[space]; s < reading.end[space] && !ok; ++s) {
                ok = contains(region.line_breaks, s) && is_url_wrap(text, s);
              }
            }
          }
          if (!ok) continue;
          const std::size_t first = d.index[k];
          const std::size_t last = d.index[k + q.text.size() - 1];
          if (!aligned(reading, first, last - first + 1)) continue;
          const std::uint32_t start = reading.start[first];
          const std::uint32_t end = reading.end[last];
          const auto marker = std::lower_bound(markers.begin(), markers.end(), start);
          if (!liberty && !(marker != markers.end() && *marker < end) && !contains(marker_starts, end)) continue;
          // An end on a junction inside a word would drop a marker ("like" from "like2"): not this reading.
          const auto inside_word = [&](std::uint32_t p) {
            return contains(region.junctions, p) && !is_token_boundary(view, p);
          };
          if (inside_word(start) || inside_word(end)) continue;
          if (policy.whole_tokens && (!is_token_boundary(view, start) || !is_token_boundary(view, end))) continue;
          return Located{tier, start, end, 1};
        }
      }
    }
    return std::nullopt;
  };
  // The loosest accepted tier first: most quotes that come here were altered and match at none,
  // and what matches at a tighter tier matches there too. Found, the tightest tier is named.
  std::vector<Tier> tiers;
  for (Tier tier : policy.tiers) {
    if (tier != Tier::exact && policy.accepts(tier)) tiers.push_back(tier);
  }
  if (tiers.empty()) return std::nullopt;
  std::optional<Located> loosest = search_tier(tiers.back());
  if (!loosest) return std::nullopt;
  for (std::size_t t = 0; t + 1 < tiers.size(); ++t) {
    if (auto found = search_tier(tiers[t])) return found;
  }
  return loosest;
}

}  // namespace ethos::match
