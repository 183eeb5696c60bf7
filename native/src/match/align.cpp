// align.cpp - case-tier tokenization with offset maps and a weighted semi-global token alignment.
#include "match/align.hpp"

#include <algorithm>
#include <limits>

#include "text/unicode_props.hpp"
#include "text/utf8.hpp"

namespace ethos::match {

std::vector<Token> tokenize(const Reading& reading) {
  std::vector<Token> tokens;
  tokenize_each(
      reading.text.size(), [&](std::size_t k) { return reading.text[k]; },
      [&](std::size_t k) { return std::make_pair(reading.start[k], reading.end[k]); },
      [&](Token&& token) { tokens.push_back(std::move(token)); });
  return tokens;
}

std::vector<Token> tokenize_text(std::string_view utf8_text, const LadderOptions& options) {
  return tokenize(normalize_for_tier(utf8_text, Tier::case_folded, options));
}

int token_weight(const Token& token) { return token.kind == TokenKind::symbol ? 1 : 2; }

const char* edit_op_name(EditOp op) {
  switch (op) {
    case EditOp::equal: return "equal";
    case EditOp::insert: return "insert";
    case EditOp::remove: return "delete";
    case EditOp::replace: return "replace";
  }
  return "";
}

Alignment align_tokens(const std::vector<Token>& quote, const std::vector<Token>& source, std::size_t lo, std::size_t hi) {
  const std::size_t m = quote.size();
  const std::size_t w = hi - lo;
  const std::size_t cols = w + 1;
  // cost[i][j]: cheapest edit of quote[0, i) into some source stretch ending at lo + j.
  std::vector<std::int32_t> cost((m + 1) * cols, 0);
  const auto at = [&](std::size_t i, std::size_t j) -> std::int32_t& { return cost[i * cols + j]; };
  for (std::size_t i = 1; i <= m; ++i) {
    const std::int32_t wq = token_weight(quote[i - 1]);
    at(i, 0) = at(i - 1, 0) + wq;
    for (std::size_t j = 1; j <= w; ++j) {
      const Token& s = source[lo + j - 1];
      const std::int32_t ws = token_weight(s);
      const bool same = quote[i - 1].key == s.key;
      std::int32_t best = at(i - 1, j - 1) + (same ? 0 : std::max(wq, ws));
      best = std::min(best, at(i - 1, j) + wq);
      best = std::min(best, at(i, j - 1) + ws);
      at(i, j) = best;
    }
  }
  std::size_t end = 0;
  for (std::size_t j = 1; j <= w; ++j) {
    if (at(m, j) <= at(m, end)) end = j;  // on ties the longer stretch: a substituted last word stays in the diff
  }
  // Backtrace, preferring equal, then substitution, then quote-only, then source-only steps.
  std::vector<EditOp> steps;  // reversed
  std::size_t i = m, j = end;
  while (i > 0) {
    const std::int32_t here = at(i, j);
    const std::int32_t wq = token_weight(quote[i - 1]);
    if (j > 0) {
      const Token& s = source[lo + j - 1];
      const bool same = quote[i - 1].key == s.key;
      if (here == at(i - 1, j - 1) + (same ? 0 : std::max(wq, token_weight(s)))) {
        steps.push_back(same ? EditOp::equal : EditOp::replace);
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
  out.source_begin = lo + j;
  out.source_end = lo + end;
  std::reverse(steps.begin(), steps.end());
  std::int64_t equal_weight = 0, quote_weight = 0, span_weight = 0;
  for (const Token& t : quote) quote_weight += token_weight(t);
  for (std::size_t s = out.source_begin; s < out.source_end; ++s) span_weight += token_weight(source[s]);
  std::size_t qi = 0, si = out.source_begin;
  for (std::size_t k = 0; k < steps.size();) {
    EditRun run;
    run.quote_begin = qi;
    run.source_begin = si;
    if (steps[k] == EditOp::equal) {
      run.op = EditOp::equal;
      while (k < steps.size() && steps[k] == EditOp::equal) {
        equal_weight += token_weight(quote[qi]);
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
