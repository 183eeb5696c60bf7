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

namespace {

// Hyphen-minus, U+2010 HYPHEN, U+2011 NON-BREAKING HYPHEN: what joins the parts of a compound.
bool is_compound_hyphen(char32_t c) { return c == U'-' || c == 0x2010 || c == 0x2011; }

bool line_break_between(const std::u32string& text, std::size_t from, std::size_t to) {
  for (std::size_t i = from; i < to && i < text.size(); ++i) {
    if (text[i] == U'\n' || text[i] == U'\r') return true;
  }
  return false;
}

// A word's key for the lists below: ASCII letters lowercased, nothing else (the prefixes and
// suffixes are ASCII words; a word with any other scalar is none of them).
std::string ascii_key(const std::u32string& text, std::size_t begin, std::size_t end) {
  std::string key;
  for (std::size_t i = begin; i < end; ++i) {
    const char32_t c = text[i];
    if (c >= U'A' && c <= U'Z') {
      key.push_back(static_cast<char>(c - U'A' + U'a'));
    } else if (c >= U'a' && c <= U'z') {
      key.push_back(static_cast<char>(c));
    } else {
      return {};
    }
  }
  return key;
}

// Prefixes that, set before a hyphen, negate or reverse what follows (English, German, French,
// Spanish: non-negative, un-American, in-valid, anti-aliasing, dis-, de-, counter-, nicht-, no-).
// A quote that starts after the hyphen leaves the prefix out and says the opposite.
bool is_negating_prefix(std::string_view key) {
  static const std::string_view kPrefixes[] = {"anti", "contra", "counter", "de",  "dis", "il", "im",
                                               "in",   "ir",     "nicht",   "no",  "non", "not", "un"};
  for (std::string_view prefix : kPrefixes) {
    if (key == prefix) return true;
  }
  return false;
}

// Prefixes that bound a figure in time or order ("pre-2020", "post-1945"): "2020 levels" from
// "pre-2020 levels" names another period. Only before a digit; "pre-processing" is a word.
bool is_figure_prefix(std::string_view key) { return key == "pre" || key == "post" || key == "sub" || key == "over" || key == "under"; }

// Suffixes that, after a hyphen, negate the part before ("sugar-free", "error-less", "bleifrei" is
// glued, "fett-frei" is not, "kosten-los"): a quote ending before the hyphen leaves them out.
bool is_negating_suffix(std::string_view key) { return key == "free" || key == "less" || key == "frei" || key == "los"; }

// hyphen: the index of the hyphen right before the quote; first: the quote's first scalar.
std::optional<Guard> negating_prefix_guard(const std::u32string& original, std::size_t hyphen, char32_t first) {
  std::size_t begin = hyphen;
  while (begin > 0 && unicode::is_word_char(original[begin - 1])) --begin;
  if (begin == hyphen) return std::nullopt;
  // "re-non-x": only the part right before the hyphen is read; a letter part of a longer compound
  // counts like a word of its own.
  const std::string key = ascii_key(original, begin, hyphen);
  const bool figure = is_figure_prefix(key) && unicode::is_decimal_digit(first);
  if (!is_negating_prefix(key) && !figure) return std::nullopt;
  std::string prefix;
  for (std::size_t i = begin; i <= hyphen; ++i) utf8::append(prefix, original[i]);
  return Guard{"polarity", true,
               "the quote starts inside a hyphenated compound of the source, after its " +
                   std::string(figure ? "prefix" : "negating prefix") + " \"" + prefix + "\", which it leaves out"};
}

}  // namespace

std::optional<Guard> negation_after(std::string_view target_utf8, const Located& where) {
  std::u32string original;
  for (std::size_t pos = 0; pos < target_utf8.size();) original.push_back(utf8::next(target_utf8, pos));
  return negation_after_end(original, where.end);
}

std::optional<Guard> negation_after_end(const std::u32string& text, std::size_t end) {
  if (end == 0 || end >= text.size() || !is_compound_hyphen(text[end])) return std::nullopt;
  if (!unicode::is_word_char(text[end - 1])) return std::nullopt;  // "x -free" or "x)-less": no compound
  std::size_t begin = end + 1;
  // "sugar-\nfree": a line break after the hyphen still joins the compound.
  std::size_t spaces = begin;
  while (spaces < text.size() && (text[spaces] == U' ' || text[spaces] == U'\n' || text[spaces] == U'\r')) ++spaces;
  if (spaces > begin && line_break_between(text, begin, spaces)) begin = spaces;
  std::size_t stop = begin;
  while (stop < text.size() && unicode::is_word_char(text[stop])) ++stop;
  if (stop == begin || !is_negating_suffix(ascii_key(text, begin, stop))) return std::nullopt;
  std::string suffix;
  for (std::size_t i = end; i < stop; ++i) utf8::append(suffix, text[i]);
  return Guard{"polarity", true,
               "the quote ends inside a hyphenated compound of the source, before its negating suffix \"" + suffix +
                   "\", which it leaves out"};
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
  if (end > 0 && is_compound_hyphen(original[end - 1]) && (spaces == 0 || line_break_between(original, end, where.start))) {
    // Inside a hyphenated compound ("non-negative", or "non-\nnegative" across a line): the part
    // before the hyphen is the word left out.
    return negating_prefix_guard(original, end - 1, where.start < original.size() ? original[where.start] : U' ');
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
