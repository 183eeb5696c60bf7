// answer_words.hpp - the words of a normalized text for answer coverage, unsegmented scripts one character a word.
#pragma once

#include <cstddef>
#include <vector>

#include "match/scalar_text.hpp"

namespace ethos::match {

// A word: scalars [start, end) of the text it was found in.
struct WordSpan {
  std::size_t start = 0, end = 0;
};

// Whether a word may start or end at `pos`: the matcher's token rule (tokens.hpp: words, numbers
// with their signs, joiners and percent signs, each Han or kana character a token) with two
// additions: an apostrophe between letters stays inside the word ("don't" is one word, as a
// reader counts it), and scripts written without spaces between words (Thai, Lao, Khmer,
// Myanmar) are cut after every character and its combining marks, as Han and kana are. With no
// dictionary to segment them, a "word" there is a character, so runs of those scripts are
// character n-grams (docs/answers.md).
bool is_word_edge(ScalarView text, std::size_t pos);

// The words of a text, in order: the stretches between consecutive word edges that hold at least
// one letter, mark or digit (punctuation and spaces are no words).
std::vector<WordSpan> answer_words(ScalarView text);

}  // namespace ethos::match
