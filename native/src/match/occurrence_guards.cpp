// occurrence_guards.cpp - boundary, numeric and polarity verdicts on an unaccepted occurrence.
#include "match/occurrence_guards.hpp"

#include <algorithm>
#include <string>

#include "match/align.hpp"
#include "match/guard_words.hpp"
#include "match/numeric_guard.hpp"
#include "match/polarity_guard.hpp"
#include "match/tokens.hpp"
#include "text/unicode_props.hpp"
#include "text/utf8.hpp"

namespace ethos::match {

OccurrenceGuards guard_occurrence(std::string_view target_utf8, std::string_view quote_utf8, const Located& where,
                                  bool clipped, const Policy& policy) {
  OccurrenceGuards out;
  std::u32string original;
  for (std::size_t pos = 0; pos < target_utf8.size();) original.push_back(utf8::next(target_utf8, pos));
  // The occurrence, widened by an adjacent sign, currency symbol, parenthesis or percent sign: a
  // looser tier may have matched "120 million" inside "(120) million", and the guard must see it.
  std::size_t from = where.start, to = std::min<std::size_t>(where.end, original.size());
  const std::u32string before = U"(-+\u2212\x24\u20AC\u00A3\u00A5", after = U")%";
  while (from > 0 && before.find(original[from - 1]) != std::u32string::npos) --from;
  while (to < original.size() && after.find(original[to]) != std::u32string::npos) ++to;
  std::string found;
  for (std::size_t i = from; i < to; ++i) utf8::append(found, original[i]);
  if (clipped) {
    const bool cuts_start = !is_token_boundary(original, where.start);
    const bool cuts_end = !is_token_boundary(original, where.end);
    // The whole token that a cut end falls inside, so the detail shows what was cut.
    const auto token_around = [&](std::size_t pos) {
      std::size_t begin = pos, end = pos + 1;
      while (begin > 0 && !is_token_boundary(original, begin)) --begin;
      while (end < original.size() && !is_token_boundary(original, end)) ++end;
      std::string token;
      for (std::size_t i = begin; i < end; ++i) utf8::append(token, original[i]);
      return "\"" + token + "\"";
    };
    std::string detail;
    if (cuts_start) detail = "the occurrence starts inside " + token_around(where.start);
    if (cuts_end) detail += std::string(detail.empty() ? "the occurrence" : " and") + " ends inside " + token_around(where.end);
    out.list.push_back(Guard{"boundary", true, detail});
  }
  const std::vector<Token> quote = tokenize_text(quote_utf8, policy.ladder);
  const std::vector<Token> source = tokenize_text(found, policy.ladder);
  if (policy.numeric_guard) {
    out.list.push_back(numeric_guard(numeric_mentions(quote, 0, quote.size()), numeric_mentions(source, 0, source.size())));
    if (out.list.back().block) out.reason = "numeric_guard";
  }
  if (policy.polarity_guard) {
    out.list.push_back(polarity_guard(quote, source, align_tokens(quote, source, 0, source.size())));
    if (out.list.back().block && out.reason == nullptr) out.reason = "polarity_guard";
  }
  if (clipped) out.reason = nullptr;  // token_boundary stays the reason; the guards add what the cut changes
  return out;
}

std::optional<Guard> negation_before(std::string_view target_utf8, const Located& where) {
  // Only the scalars up to the occurrence's first one are read (the token boundaries before it
  // look one scalar ahead at most), so a grounded quote does not decode the rest of its text.
  std::u32string original;
  original.reserve(std::min<std::size_t>(target_utf8.size(), std::size_t{where.start} + 1));
  for (std::size_t pos = 0; pos < target_utf8.size() && original.size() <= where.start;) {
    original.push_back(utf8::next(target_utf8, pos));
  }
  std::size_t end = std::min<std::size_t>(where.start, original.size());
  std::size_t spaces = 0;
  while (end > 0 && (original[end - 1] == U' ' || original[end - 1] == U'\t' || original[end - 1] == U'\n' ||
                     original[end - 1] == U'\r' || original[end - 1] == 0x00A0)) {
    --end;
    ++spaces;
  }
  if (end == 0 || spaces == 0) return std::nullopt;  // punctuation between: another clause
  // The word before: its case-tier spelling decides (Not, NICHT, n't all read alike). An inner
  // apostrophe, straight or typographic, keeps the word whole both ways: "don't" and "don’t", not "'t".
  const auto is_apostrophe = [](char32_t c) { return c == U'\'' || c == 0x2019; };
  std::size_t begin = end - 1;
  while (begin > 0 && (!is_token_boundary(original, begin) || is_apostrophe(original[begin - 1]) ||
                       (is_apostrophe(original[begin]) && unicode::is_word_char(original[begin - 1])))) {
    --begin;
  }
  std::string word;
  for (std::size_t i = begin; i < end; ++i) utf8::append(word, original[i]);
  // A word of ASCII letters (nearly every word before a quote) reads at the case tier as its
  // lowercase: looked up without building that tier.
  const bool ascii_letters = std::all_of(word.begin(), word.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  });
  if (ascii_letters) {
    std::string key = word;
    for (char& c : key) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    if (!guard_words::is_negation(key)) return std::nullopt;
  } else {
    const std::vector<Token> tokens = tokenize_text(word, LadderOptions{});
    if (tokens.size() != 1 || tokens[0].kind != TokenKind::word || !guard_words::is_negation(tokens[0].key)) {
      return std::nullopt;
    }
  }
  return Guard{"polarity", true, "the quote starts right after the negation \"" + word + "\" in the source, which it leaves out"};
}

}  // namespace ethos::match
