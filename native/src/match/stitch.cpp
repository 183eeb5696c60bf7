// stitch.cpp - elision marks, ordered fragment chains within the window, and the elision guards.
#include "match/stitch.hpp"

#include <algorithm>

#include "match/align.hpp"
#include "match/numeric_guard.hpp"
#include "match/polarity_guard.hpp"
#include "match/tokens.hpp"
#include "text/utf8.hpp"

namespace ethos::match {
namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026
constexpr std::size_t kMaxChainStarts = 64;

// Length of an ellipsis ("...", "…", ". . .") at pos, or 0.
std::size_t ellipsis_at(std::string_view text, std::size_t pos) {
  if (text.substr(pos, kEllipsis.size()) == kEllipsis) return kEllipsis.size();
  if (text.substr(pos, 3) == "...") {
    std::size_t end = pos + 3;
    while (end < text.size() && text[end] == '.') ++end;
    return end - pos;
  }
  if (text.substr(pos, 5) == ". . .") return 5;
  return 0;
}

// Length of an elision mark at pos: an ellipsis, or one in brackets or parentheses.
std::size_t mark_at(std::string_view text, std::size_t pos) {
  if (text[pos] == '[' || text[pos] == '(') {
    const char close = text[pos] == '[' ? ']' : ')';
    std::size_t p = pos + 1;
    while (p < text.size() && text[p] == ' ') ++p;
    const std::size_t dots = p < text.size() ? ellipsis_at(text, p) : 0;
    if (dots == 0) return 0;
    p += dots;
    while (p < text.size() && text[p] == ' ') ++p;
    return p < text.size() && text[p] == close ? p + 1 - pos : 0;
  }
  return ellipsis_at(text, pos);
}

std::string trim(std::string_view text) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  std::size_t b = 0, e = text.size();
  while (b < e && space(text[b])) ++b;
  while (e > b && space(text[e - 1])) --e;
  return std::string(text.substr(b, e - b));
}

std::string encode(ScalarView text, std::size_t begin, std::size_t end) {
  std::string out;
  for (std::size_t i = begin; i < end; ++i) utf8::append(out, text[i]);
  return out;
}

}  // namespace

std::vector<Located> fragment_occurrences(const Ladder& target, const std::string& fragment, const Policy& policy) {
  const Ladder wanted = build_ladder(fragment, policy.ladder);
  return collect_fragment_occurrences(wanted, target.original, policy,
                                      [&](Tier tier, const std::u32string& needle, const auto& keep) {
    for (const Reading& reading : target.at(tier)) {
      for (std::size_t pos = reading.text.find(needle); pos != std::u32string::npos; pos = reading.text.find(needle, pos + 1)) {
        if (!aligned(reading, pos, needle.size())) continue;
        if (!keep(reading.start[pos], reading.end[pos + needle.size() - 1])) return;
      }
    }
  });
}

std::vector<std::string> split_at_elisions(std::string_view quote) {
  std::vector<std::string> fragments;
  bool marked = false;
  std::size_t from = 0;
  for (std::size_t pos = 0; pos < quote.size();) {
    const std::size_t length = mark_at(quote, pos);
    if (length == 0) {
      ++pos;
      continue;
    }
    marked = true;
    std::string fragment = trim(quote.substr(from, pos - from));
    if (!fragment.empty()) fragments.push_back(std::move(fragment));
    pos += length;
    from = pos;
  }
  if (!marked) return {};
  std::string last = trim(quote.substr(from));
  if (!last.empty()) fragments.push_back(std::move(last));
  if (fragments.size() < 2) return {};  // truncated at an end only: one quote, not a stitched one
  return fragments;
}

std::string_view strip_truncation(std::string_view quote) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  const auto trimmed = [&](std::string_view text) {
    while (!text.empty() && space(text.front())) text.remove_prefix(1);
    while (!text.empty() && space(text.back())) text.remove_suffix(1);
    return text;
  };
  std::string_view text = trimmed(quote);
  for (std::size_t length; !text.empty() && (length = mark_at(text, 0)) > 0;) text = trimmed(text.substr(length));
  for (bool found = true; found && !text.empty();) {
    // The earliest mark that ends the text ("...." is one mark, from its first dot).
    found = false;
    for (std::size_t pos = 0; pos < text.size(); ++pos) {
      if (mark_at(text, pos) == text.size() - pos) {
        text = trimmed(text.substr(0, pos));
        found = true;
        break;
      }
    }
  }
  return text.empty() ? quote : text;
}

StitchResult locate_fragments(const Ladder& target, const std::vector<std::string>& fragments, const Policy& policy) {
  return stitch_fragments(target.original, fragments, policy,
                          [&](const std::string& fragment) { return fragment_occurrences(target, fragment, policy); });
}

StitchResult stitch_fragments(ScalarView original, const std::vector<std::string>& fragments,
                              const Policy& policy, const FragmentOccurrences& occurrences_of) {
  StitchResult result;
  std::vector<std::vector<Located>> candidates;
  for (const std::string& fragment : fragments) candidates.push_back(occurrences_of(fragment));
  const auto window = static_cast<std::uint32_t>(policy.elision_window_chars);
  // Greedy chain from a given first occurrence: each next fragment at its earliest occurrence
  // after the previous found one, within the window (which widens by one window per fragment
  // that could not be placed in between).
  const auto chain_from = [&](std::size_t first_fragment, const Located& first) {
    std::vector<std::optional<Located>> chain(fragments.size());
    chain[first_fragment] = first;
    std::uint32_t previous_end = first.end;
    std::uint32_t allowed = window;
    for (std::size_t k = first_fragment + 1; k < fragments.size(); ++k) {
      for (const Located& next : candidates[k]) {
        if (next.start >= previous_end && next.start - previous_end <= allowed) {
          chain[k] = next;
          break;
        }
      }
      if (chain[k]) {
        previous_end = chain[k]->end;
        allowed = window;
      } else {
        allowed += window;
      }
    }
    return chain;
  };
  std::vector<std::optional<Located>> best(fragments.size());
  std::size_t best_count = 0;
  for (std::size_t first_fragment = 0; first_fragment < fragments.size() && best_count == 0; ++first_fragment) {
    std::size_t tries = 0;
    for (const Located& first : candidates[first_fragment]) {
      if (++tries > kMaxChainStarts) break;
      auto chain = chain_from(first_fragment, first);
      const auto count = static_cast<std::size_t>(std::count_if(chain.begin(), chain.end(), [](const auto& c) { return c.has_value(); }));
      if (count > best_count) {
        best_count = count;
        best = std::move(chain);
      }
      if (best_count == fragments.size()) break;
    }
  }
  Guard numeric{"numeric", false, ""}, polarity{"polarity", false, ""};
  const auto note = [](Guard& guard, const std::string& text) {
    guard.block = true;
    if (!guard.detail.empty()) guard.detail += "; ";
    guard.detail += text;
  };
  std::optional<Located> previous;
  for (std::size_t k = 0; k < fragments.size(); ++k) {
    FragmentMatch match{fragments[k], best[k], std::nullopt};
    if (best[k]) {
      if (previous) {
        const std::string elided = trim(encode(original, previous->end, best[k]->start));
        match.elided = elided;
        const std::vector<Token> tokens = tokenize_text(elided, policy.ladder);
        for (const NumericMention& figure : numeric_mentions(tokens, 0, tokens.size())) {
          if (figure.pronoun) continue;  // "one may specify": no figure
          note(numeric, "elision removed figure \"" + figure.text + "\"");
        }
        for (const std::string& word : negations_in(tokens, 0, tokens.size())) {
          note(polarity, "elision removed negation \"" + word + "\"");
        }
        for (const std::string& word : qualifiers_in(tokens, 0, tokens.size())) {
          note(polarity, "elision removed qualifier \"" + word + "\"");
        }
      }
      if (!result.span) {
        result.span = *best[k];
      } else {
        result.span->end = best[k]->end;
        if (static_cast<int>(best[k]->tier) > static_cast<int>(result.span->tier)) result.span->tier = best[k]->tier;
      }
      previous = best[k];
    }
    result.fragments.push_back(std::move(match));
  }
  if (result.span) {
    if (policy.numeric_guard) {
      if (!numeric.block) numeric.detail = "the elided text states no figure";
      result.guards.push_back(numeric);
    }
    if (policy.polarity_guard) {
      if (!polarity.block) polarity.detail = "the elided text holds no negation or qualifier";
      result.guards.push_back(polarity);
    }
  }
  return result;
}

}  // namespace ethos::match
