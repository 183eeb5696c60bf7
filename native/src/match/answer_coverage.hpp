// answer_coverage.hpp - which words of an answer are verbatim in one or more documents: matching
// statistics over the documents' indexes, never a dynamic program over answer x source.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "match/answer_words.hpp"
#include "match/document_index.hpp"
#include "match/ladder.hpp"

namespace ethos::match {

// Where the phrase of words starting at one answer word was found: the document (its position in
// the list given) and the original running-text range of the whole phrase.
struct PhraseHit {
  std::size_t document = 0;
  std::uint32_t start = 0, end = 0;
};

struct Coverage {
  std::vector<WordSpan> words;  // the answer's words, in offsets of its reading at the tier
  // Per word i: how many words from i on are verbatim in one document (a whole-word occurrence of
  // the answer's reading of words [i, i + longest[i]), spaces and punctuation between them
  // included), 0 when fewer than ngram; and where, when not 0.
  std::vector<std::size_t> longest;
  std::vector<PhraseHit> hits;
};

// Matching statistics of the answer's words against each document at one tier, then the longest
// per word across documents (the first document on a tie). Each document costs O(words) index
// lookups: the phrase found at word i, less its first word, is found at word i + 1, so only
// extensions are looked up (the found end never moves back) plus one ngram-word lookup per word
// that starts no run. answer: the answer's reading at `tier`.
Coverage measure_coverage(const Reading& answer, const std::vector<const DocumentIndex*>& documents,
                          const LadderOptions& options, Tier tier, std::size_t ngram);

}  // namespace ethos::match
