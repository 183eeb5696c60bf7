// junction_reading.cpp - white space at font junctions and URL wraps (junction_reading.hpp).
#include "match/junction_reading.hpp"

#include <algorithm>
#include <list>
#include <map>
#include <memory>
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

// The region prepared once: its markers read as white space, and each tier's readings built on
// first use and kept for the next quote.
struct JunctionSearch::Prepared {
  JunctionText region;
  std::u32string text;
  std::vector<std::uint32_t> markers, marker_starts;
  bool spaces = false;
  // A ladder of the same text, built with the same options and hyphens, whose readings stand in
  // for those built here (a stream reading's: its first search built them already).
  const Ladder* ladder = nullptr;
  struct TierReadings {
    std::list<std::vector<Reading>> owned;
    std::vector<std::pair<bool, const std::vector<Reading>*>> readings;  // (line-end hyphens as printed, readings)
    std::vector<std::vector<Dense>> dense;                                // dense[r][n] of readings[r]'s n-th
  };
  std::map<Tier, TierReadings> tiers;

  const TierReadings& tier_readings(Tier tier, const Policy& policy) {
    auto found = tiers.find(tier);
    if (found != tiers.end()) return found->second;
    TierReadings built;
    // (with the recorded hyphens' readings, line-end hyphens as printed: itself a liberty)
    if (spaces) {
      if (ladder != nullptr) {
        built.readings.emplace_back(false, &ladder->at(tier));
      } else {
        built.owned.push_back(build_tier(text, tier, policy.ladder,
                                         region.hyphen_breaks.empty() ? nullptr : &region.hyphen_breaks));
        built.readings.emplace_back(false, &built.owned.back());
      }
    }
    if (!region.hyphen_breaks.empty() && tier >= Tier::typography) {
      built.owned.push_back(build_tier(text, tier, policy.ladder, nullptr));
      built.readings.emplace_back(true, &built.owned.back());
    }
    for (const auto& [as_printed, each] : built.readings) {
      std::vector<Dense> dense;
      dense.reserve(each->size());
      for (const Reading& reading : *each) dense.push_back(dense_of(reading));
      built.dense.push_back(std::move(dense));
    }
    return tiers.emplace(tier, std::move(built)).first->second;
  }
};

JunctionSearch::JunctionSearch(JunctionText region, const Ladder* ladder) : prepared_(std::make_unique<Prepared>()) {
  Prepared& p = *prepared_;
  p.region = std::move(region);
  // Callout markers read as white space (same length: offsets do not move).
  p.text = p.region.text;
  for (std::size_t i = 0; i < p.text.size(); ++i) {
    if (p.text[i] >= 0x2460 && is_callout_marker(p.region.text, p.region.line_breaks, i)) {
      p.markers.push_back(static_cast<std::uint32_t>(i));
      p.text[i] = U' ';
    }
  }
  for (std::uint32_t s : p.region.separators) {
    if (s < p.text.size()) {
      p.markers.push_back(s);
      p.text[s] = U' ';
    }
  }
  // A footnote marker read as white space; one right after the quote's end counts as read too.
  for (const auto& [begin, end] : p.region.footnote_markers) {
    if (begin >= end || end > p.text.size()) continue;
    p.marker_starts.push_back(begin);
    for (std::uint32_t m = begin; m < end; ++m) {
      p.markers.push_back(m);
      p.text[m] = U' ';
    }
  }
  std::sort(p.markers.begin(), p.markers.end());
  std::sort(p.marker_starts.begin(), p.marker_starts.end());
  bool wraps = false;
  for (std::uint32_t b : p.region.line_breaks) wraps = wraps || is_url_wrap(p.text, b);
  p.spaces = wraps || !p.region.junctions.empty() || !p.markers.empty();
  // The ladder's readings are this text's only when no marker was read as white space here.
  if (ladder != nullptr && p.markers.empty() && ladder->original == p.text) p.ladder = ladder;
}

JunctionSearch::~JunctionSearch() = default;
JunctionSearch::JunctionSearch(JunctionSearch&&) noexcept = default;
JunctionSearch& JunctionSearch::operator=(JunctionSearch&&) noexcept = default;

const Reading& QuoteReadings::at(const std::string& quote, Tier tier, const LadderOptions& options) {
  if (quote != quote_) {
    quote_ = quote;
    tiers_.clear();
  }
  auto found = tiers_.find(tier);
  if (found == tiers_.end()) found = tiers_.emplace(tier, normalize_for_tier(quote, tier, options)).first;
  return found->second;
}

std::optional<Located> JunctionSearch::find(const std::string& quote, const Policy& policy,
                                            QuoteReadings* quote_readings) const {
  Prepared& prepared = *prepared_;
  if (prepared.region.text.empty()) return std::nullopt;
  const JunctionText& region = prepared.region;
  const std::u32string& text = prepared.text;
  const std::vector<std::uint32_t>& markers = prepared.markers;
  const std::vector<std::uint32_t>& marker_starts = prepared.marker_starts;
  const ScalarView view(text);
  // Nothing to read otherwise (a source without spans, wraps in URLs, markers or line-end hyphens): no work.
  if (!prepared.spaces && region.hyphen_breaks.empty()) return std::nullopt;
  const auto search_tier = [&](Tier tier) -> std::optional<Located> {
    Reading own;
    const Reading& claim = quote_readings != nullptr ? quote_readings->at(quote, tier, policy.ladder)
                                                     : (own = normalize_for_tier(quote, tier, policy.ladder));
    const Dense q = dense_of(claim);
    if (q.text.empty()) return std::nullopt;
    const Prepared::TierReadings& built = prepared.tier_readings(tier, policy);
    for (std::size_t r = 0; r < built.readings.size(); ++r) {
      const bool as_printed = built.readings[r].first;
      const std::vector<Reading>& each = *built.readings[r].second;
      for (std::size_t n = 0; n < each.size(); ++n) {
        const Reading& reading = each[n];
        const Dense& d = built.dense[r][n];
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
  if (prepared.ladder != nullptr && region.line_breaks.empty() && region.hyphen_breaks.empty() && markers.empty()) {
    // Without wraps or markers the text never has white space the quote lacks, so each of the
    // quote's words (at the loosest tier) stands whole in the text: most quotes that reach a
    // page's further readings were altered, and a word of theirs is in none.
    Reading own;
    const Reading& claim = quote_readings != nullptr ? quote_readings->at(quote, tiers.back(), policy.ladder)
                                                     : (own = normalize_for_tier(quote, tiers.back(), policy.ladder));
    const std::vector<Reading>& readings = prepared.ladder->at(tiers.back());
    for (std::size_t i = 0; i < claim.text.size();) {
      if (claim.text[i] == U' ') {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < claim.text.size() && claim.text[j] != U' ') ++j;
      const std::u32string_view word(claim.text.data() + i, j - i);
      bool found = false;
      for (const Reading& reading : readings) found = found || reading.text.find(word) != std::u32string::npos;
      if (!found) return std::nullopt;
      i = j;
    }
  }
  std::optional<Located> loosest = search_tier(tiers.back());
  if (!loosest) return std::nullopt;
  for (std::size_t t = 0; t + 1 < tiers.size(); ++t) {
    if (auto found = search_tier(tiers[t])) return found;
  }
  return loosest;
}

std::optional<Located> find_across_junctions(const JunctionText& region, const std::string& quote, const Policy& policy) {
  return JunctionSearch(region).find(quote, policy);
}

}  // namespace ethos::match
