// answer_window.hpp - the smallest stretch of a source holding every verbatim word of an answer, and ROUGE-L against it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "match/answer_words.hpp"
#include "match/scalar_text.hpp"

namespace ethos::match {

// Source words [first, last] (indexes into the word list given, inclusive).
struct WordWindow {
  std::size_t first = 0, last = 0;
};

// The shortest stretch of consecutive `words` of `text` holding at least one occurrence of every
// form in `wanted` (the earliest on a tie); nullopt when `wanted` is empty or a form is not in the
// text. Two pointers over the occurrences of wanted forms only: time O(S), memory O(wanted +
// occurrences of wanted forms), never source x answer.
std::optional<WordWindow> smallest_window(const std::vector<std::u32string>& wanted, ScalarView text,
                                          const std::vector<WordSpan>& words);

// Windows longer than this many words get no ROUGE-L: its subsequence count costs up to one step
// per (answer word, window word) pair of equal words, and a window that long says by its size
// alone that the answer was not lifted from one place (docs/answers.md).
inline constexpr std::size_t kMaxRougeWindowWords = 100000;

// ROUGE-L F1 of a common subsequence of `lcs` words between `answer_words` and `window_words`
// words, in basis points floored: 2PR / (P + R) with P = lcs / answer, R = lcs / window, which is
// 2 lcs / (answer + window) exactly (integers, so every surface prints the same figure).
std::int64_t rouge_l_bp(std::size_t lcs, std::size_t answer_words, std::size_t window_words);

}  // namespace ethos::match
