// answer_subsequence.hpp - the order-only reading of an answer: longest common subsequence of words, in O(answer + source) memory.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "match/answer_words.hpp"
#include "match/scalar_text.hpp"

namespace ethos::match {

// The length of the longest common subsequence of `answer` (the answer's words, each its reading
// at the tier) and the words of `source` (a reading at the same tier, cut by answer_words).
//
// Hunt-Szymanski: only the source words that are also answer words are kept, as one list of
// positions per distinct answer word; then, answer word by answer word, each of its source
// positions (last first) lowers the smallest threshold not below it, where threshold[k] is the
// smallest source position a common subsequence of k + 1 words can end at. Memory is
// O(answer + matching source words), never answer x source; time O(S + r log C) for r matching
// (answer word, source word) pairs, which is S x C only for a source and answer of one repeated
// word.
std::size_t common_subsequence_words(const std::vector<std::u32string>& answer, ScalarView source);

// The same against the source words [first, last) only (spans of `source`, as answer_words cut
// it): ROUGE-L against a window of the source reads no word outside the window.
std::size_t common_subsequence_words(const std::vector<std::u32string>& answer, ScalarView source,
                                     const WordSpan* first, const WordSpan* last);

}  // namespace ethos::match
