// align.hpp - word tokens of a text (case tier, mapped to original scalars) and a bounded
// token-level alignment: the edit script between a quote and a stretch of source tokens.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "match/ladder.hpp"

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

const char* edit_op_name(EditOp op);

}  // namespace ethos::match
