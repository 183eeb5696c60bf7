// align.hpp - word tokens of a text (case tier, mapped to original scalars) and a bounded
// token-level alignment: the edit script between a quote and a stretch of source tokens.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "match/ladder.hpp"
#include "text/unicode_props.hpp"
#include "text/utf8.hpp"

namespace ethos::match {

enum class TokenKind { word, number, symbol };

// One token: its case-tier spelling (UTF-8, the comparison key) and the original scalars
// [start, end) it covers.
struct Token {
  std::string key;
  std::uint32_t start = 0, end = 0;
  TokenKind kind = TokenKind::word;
};

// Words (letter and mark runs, inner apostrophes kept: "don't", "n'est"), numbers (digits with
// inner . , : / - between digits and a leading sign that does not follow a word: "-1,234.5",
// "2024-01-05"), each Han/Kana character, and every other non-space character on its own.
std::vector<Token> tokenize(const Reading& case_reading);
std::vector<Token> tokenize_text(std::string_view utf8_text, const LadderOptions& options);

// tokenize's rules over any case reading of n scalars: at(k) is its k-th scalar, range(k) the
// original [start, end) of it (asked only at a token's first and last scalar); emit(Token&&)
// gets each token in order. The document index tokenizes element stretches of its stored case
// reading through this without copying them into a Reading first.
template <typename At, typename Range, typename Emit>
void tokenize_each(std::size_t n, At at, Range range, Emit emit);

// Words and numbers weigh 2, punctuation and symbols 1: a dropped comma is a smaller change
// than a dropped word.
int token_weight(const Token& token);

enum class EditOp { equal, insert, remove, replace };  // insert: only in the quote; remove: only in the source

// A run of one kind of edit: quote tokens [quote_begin, quote_end), source tokens
// [source_begin, source_end) (absolute indices into the two token lists).
struct EditRun {
  EditOp op = EditOp::equal;
  std::size_t quote_begin = 0, quote_end = 0, source_begin = 0, source_end = 0;
};

struct Alignment {
  std::size_t source_begin = 0, source_end = 0;  // the aligned source tokens
  std::int64_t score_bp = 0;  // 20000 * equal weight / (quote weight + span weight)
  std::vector<EditRun> runs;
};

// Aligns every quote token against the best stretch of source[lo, hi) (semi-global: the source
// stretch is free to start and end anywhere). Cost O(quote tokens x (hi - lo)).
Alignment align_tokens(const std::vector<Token>& quote, const std::vector<Token>& source, std::size_t lo, std::size_t hi);
// align_tokens' alignment given only what it reads: each token's weight (token_weight) and
// whether quote token i and source token j have the same key (same(i, j)); source indices of the
// result count from 0. A document's near miss aligns its candidate windows on interned key ids
// through this, with no Token (and no key string) made for a window that does not win.
template <typename Same>
Alignment align_weighted(const std::vector<std::int32_t>& quote_weights, const std::vector<std::int32_t>& source_weights,
                         Same same);

const char* edit_op_name(EditOp op);

namespace token_rules {
inline bool is_sign(char32_t c) { return c == U'-' || c == U'+' || c == 0x2212 || c == 0x00B1; }
inline bool is_number_joiner(char32_t c) {
  return c == U'.' || c == U',' || c == U':' || c == U'/' || c == U'-' || c == 0x2212;
}
inline bool is_space(char32_t c) { return c == U' ' || c == U'\t' || c == U'\n' || c == U'\r'; }
inline bool is_apostrophe(char32_t c) { return c == U'\''; }
}  // namespace token_rules

template <typename At, typename Range, typename Emit>
void tokenize_each(std::size_t n, At at, Range range, Emit emit) {
  using namespace token_rules;
  const auto digit = [&](std::size_t k) { return k < n && unicode::is_decimal_digit(at(k)); };
  const auto letter = [&](std::size_t k) {
    if (k >= n) return false;
    const char32_t c = at(k);
    return unicode::is_word_char(c) && !unicode::is_decimal_digit(c) && !unicode::is_cjk_ideograph_or_kana(c);
  };
  std::size_t k = 0;
  while (k < n) {
    if (is_space(at(k))) {
      ++k;
      continue;
    }
    const std::size_t begin = k;
    TokenKind kind = TokenKind::symbol;
    const bool signed_number = is_sign(at(k)) && digit(k + 1) && (k == 0 || !unicode::is_word_char(at(k - 1)));
    if (unicode::is_cjk_ideograph_or_kana(at(k))) {
      kind = TokenKind::word;
      ++k;
    } else if (digit(k) || signed_number) {
      kind = TokenKind::number;
      if (signed_number) ++k;
      while (digit(k)) ++k;
      while (k + 1 < n && is_number_joiner(at(k)) && digit(k + 1)) {
        ++k;
        while (digit(k)) ++k;
      }
    } else if (letter(k)) {
      kind = TokenKind::word;
      while (letter(k) || (is_apostrophe(at(k)) && letter(k + 1))) ++k;
      // French elision keeps its apostrophe with the article or particle: n'est -> "n'est".
      if (k < n && is_apostrophe(at(k)) && k - begin <= 2) ++k;
    } else {
      ++k;
    }
    Token token;
    for (std::size_t i = begin; i < k; ++i) utf8::append(token.key, at(i));
    token.start = range(begin).first;
    token.end = range(k - 1).second;
    token.kind = kind;
    emit(std::move(token));
  }
}


template <typename Same>
Alignment align_weighted(const std::vector<std::int32_t>& quote_weights, const std::vector<std::int32_t>& source_weights,
                         Same same) {
  const std::size_t m = quote_weights.size();
  const std::size_t w = source_weights.size();
  const std::size_t cols = w + 1;
  // cost[i][j]: cheapest edit of quote[0, i) into some source stretch ending at j. A table of up
  // to kKeptCells is this thread's, kept between calls (a near miss aligns one per miss); a larger
  // one is the call's own, so a rare long alignment leaves no memory behind. Every cell is written
  // before it is read, so only row 0 (the free start anywhere in the source) is set here.
  constexpr std::size_t kKeptCells = std::size_t{1} << 20;  // 4 MiB
  thread_local std::vector<std::int32_t> kept;
  std::vector<std::int32_t> own;
  std::vector<std::int32_t>& table = (m + 1) * cols <= kKeptCells ? kept : own;
  if (table.size() < (m + 1) * cols) table.resize((m + 1) * cols);
  std::int32_t* const cost = table.data();
  std::fill(cost, cost + cols, 0);
  const auto at = [cost, cols](std::size_t i, std::size_t j) -> std::int32_t& { return cost[i * cols + j]; };
  const std::int32_t* const source_weight = source_weights.data();
  for (std::size_t i = 1; i <= m; ++i) {
    const std::int32_t wq = quote_weights[i - 1];
    const std::int32_t* const up = cost + (i - 1) * cols;
    std::int32_t* const row = cost + i * cols;
    // A cell is the cheapest of three steps: from the row above (diagonal: equal or substituted;
    // straight down: a quote-only token), taken for the whole row first (no cell of a row needs
    // another cell of it there, so this loop runs several cells at a time), then from the cell to
    // the left (a source-only token), left to right. The same minimum as taking all three per cell.
    for (std::size_t j = 1; j <= w; ++j) {
      const std::int32_t ws = source_weight[j - 1];
      const std::int32_t diagonal = up[j - 1] + (same(i - 1, j - 1) ? 0 : std::max(wq, ws));
      row[j] = std::min(diagonal, up[j] + wq);
    }
    std::int32_t left = up[0] + wq;
    row[0] = left;
    for (std::size_t j = 1; j <= w; ++j) {
      left = std::min(row[j], left + source_weight[j - 1]);
      row[j] = left;
    }
  }
  std::size_t end = 0;
  for (std::size_t j = 1; j <= w; ++j) {
    if (at(m, j) <= at(m, end)) end = j;  // on ties the longer stretch: a substituted last word stays in the diff
  }
  // Backtrace, preferring equal, then substitution, then quote-only, then source-only steps.
  std::vector<EditOp> steps;  // reversed
  steps.reserve(m + end);
  std::size_t i = m, j = end;
  while (i > 0) {
    const std::int32_t here = at(i, j);
    const std::int32_t wq = quote_weights[i - 1];
    if (j > 0) {
      const bool equal = same(i - 1, j - 1);
      if (here == at(i - 1, j - 1) + (equal ? 0 : std::max(wq, source_weights[j - 1]))) {
        steps.push_back(equal ? EditOp::equal : EditOp::replace);
        --i;
        --j;
        continue;
      }
    }
    if (here == at(i - 1, j) + wq) {
      steps.push_back(EditOp::insert);
      --i;
      continue;
    }
    steps.push_back(EditOp::remove);
    --j;
  }
  Alignment out;
  out.source_begin = j;
  out.source_end = end;
  std::reverse(steps.begin(), steps.end());
  std::int64_t equal_weight = 0, quote_weight = 0, span_weight = 0;
  for (std::int32_t weight : quote_weights) quote_weight += weight;
  for (std::size_t s = out.source_begin; s < out.source_end; ++s) span_weight += source_weights[s];
  std::size_t qi = 0, si = out.source_begin;
  for (std::size_t k = 0; k < steps.size();) {
    EditRun run;
    run.quote_begin = qi;
    run.source_begin = si;
    if (steps[k] == EditOp::equal) {
      run.op = EditOp::equal;
      while (k < steps.size() && steps[k] == EditOp::equal) {
        equal_weight += quote_weights[qi];
        ++qi;
        ++si;
        ++k;
      }
    } else {
      bool quote_side = false, source_side = false;
      while (k < steps.size() && steps[k] != EditOp::equal) {
        if (steps[k] != EditOp::remove) {
          ++qi;
          quote_side = true;
        }
        if (steps[k] != EditOp::insert) {
          ++si;
          source_side = true;
        }
        ++k;
      }
      run.op = quote_side && source_side ? EditOp::replace : quote_side ? EditOp::insert : EditOp::remove;
    }
    run.quote_end = qi;
    run.source_end = si;
    out.runs.push_back(run);
  }
  const std::int64_t total = quote_weight + span_weight;
  out.score_bp = total == 0 ? 0 : (20000 * equal_weight) / total;
  return out;
}

}  // namespace ethos::match
