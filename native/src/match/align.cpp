// align.cpp - case-tier tokenization with offset maps and a weighted semi-global token alignment.
#include "match/align.hpp"

#include <algorithm>
#include <limits>

#include "text/unicode_props.hpp"
#include "text/utf8.hpp"

namespace ethos::match {

std::vector<Token> tokenize(const Reading& reading) {
  std::vector<Token> tokens;
  tokens.reserve(reading.text.size() / 4 + 1);  // about one token per word and space: no regrowth for prose
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
  std::vector<std::int32_t> quote_weights(quote.size()), source_weights(hi - lo);
  for (std::size_t i = 0; i < quote.size(); ++i) quote_weights[i] = token_weight(quote[i]);
  for (std::size_t j = lo; j < hi; ++j) source_weights[j - lo] = token_weight(source[j]);
  Alignment out = align_weighted(
      quote_weights, source_weights, [&](std::size_t i, std::size_t j) { return quote[i].key == source[lo + j].key; });
  out.source_begin += lo;
  out.source_end += lo;
  for (EditRun& run : out.runs) {
    run.source_begin += lo;
    run.source_end += lo;
  }
  return out;
}

}  // namespace ethos::match
