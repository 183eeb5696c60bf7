// quote_spans.cpp - finds quoted spans in an answer by its quotation marks (answer check, scope quotes).
#include "answer/quote_spans.hpp"

#include "text/unicode_props.hpp"

namespace ethos::answer {
namespace {

bool is_space(char32_t c) {
  return c == U' ' || c == U'\t' || c == U'\n' || c == U'\r' || c == 0x00A0 || c == 0x3000 || c == 0x202F;
}

bool is_single(char32_t c) { return c == U'\'' || c == 0x2018 || c == 0x2019; }

// The marks that may close a quotation opened by `open` (0-terminated), or nullptr when `open`
// opens none.
const char32_t* closers_of(char32_t open) {
  static const char32_t curly[] = {0x201D, 0};
  static const char32_t low[] = {0x201C, 0x201D, 0};
  static const char32_t guillemet[] = {0x00BB, 0};
  static const char32_t reversed_guillemet[] = {0x00AB, 0};
  static const char32_t corner[] = {0x300D, 0};
  static const char32_t white_corner[] = {0x300F, 0};
  static const char32_t low_single[] = {0x2018, 0x2019, 0};
  static const char32_t curly_single[] = {0x2019, 0};
  static const char32_t straight[] = {U'"', 0};
  static const char32_t straight_single[] = {U'\'', 0};
  switch (open) {
    case 0x201C: return curly;
    case 0x201E: return low;
    case 0x00AB: return guillemet;
    case 0x00BB: return reversed_guillemet;
    case 0x300C: return corner;
    case 0x300E: return white_corner;
    case 0x201A: return low_single;
    case 0x2018: return curly_single;
    case U'"': return straight;
    case U'\'': return straight_single;
    default: return nullptr;
  }
}

bool closes(const char32_t* closers, char32_t c) {
  for (; *closers != 0; ++closers) {
    if (*closers == c) return true;
  }
  return false;
}

}  // namespace

std::vector<QuoteSpan> quote_spans(const std::u32string& text) {
  std::vector<QuoteSpan> out;
  const std::size_t size = text.size();
  const auto word_like = [&](std::size_t pos) { return pos < size && unicode::is_word_char(text[pos]); };
  std::size_t pos = 0;
  while (pos < size) {
    const char32_t open = text[pos];
    const char32_t* closers = closers_of(open);
    if (closers == nullptr) {
      ++pos;
      continue;
    }
    const bool single = is_single(open);
    // A single quote opens only at the start of a word: never an apostrophe ("don't", "dogs' ").
    if (single && ((pos > 0 && word_like(pos - 1)) || pos + 1 >= size || is_space(text[pos + 1]))) {
      ++pos;
      continue;
    }
    std::size_t close = pos + 1;
    bool found = false;
    for (; close < size; ++close) {
      const char32_t c = text[close];
      if (single && c == U'\n' && close + 1 < size && text[close + 1] == U'\n') break;  // a paragraph ends it
      if (!closes(closers, c)) continue;
      if (single && (is_space(text[close - 1]) || word_like(close + 1))) continue;  // an apostrophe inside
      found = true;
      break;
    }
    if (!found) {
      ++pos;
      continue;
    }
    std::size_t start = pos + 1, end = close;
    while (start < end && is_space(text[start])) ++start;  // « padded » quotations
    while (end > start && is_space(text[end - 1])) --end;
    if (end > start) out.push_back({start, end});
    pos = close + 1;
  }
  return out;
}

}  // namespace ethos::answer
