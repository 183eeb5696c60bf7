// answer_coverage.cpp - matching statistics of an answer's words over document indexes (answer coverage).
#include "match/answer_coverage.hpp"

#include <optional>
#include <string>

namespace ethos::match {
namespace {

// Per word of the answer, the longest verbatim phrase starting there in one document (0 when
// shorter than ngram) and where it is (reading hit of the whole phrase).
struct DocumentStatistics {
  std::vector<std::size_t> longest;
  std::vector<PhraseHit> hits;
};

DocumentStatistics statistics_in(const Reading& answer, const std::vector<WordSpan>& words, const DocumentIndex& index,
                                 std::size_t document, const LadderOptions& options, Tier tier, std::size_t ngram) {
  const std::size_t count = words.size();
  DocumentStatistics out;
  out.longest.assign(count, 0);
  out.hits.assign(count, PhraseHit{document, 0, 0});
  const ScalarView running = index.running_text();
  // A phrase occurrence must start and end at word edges of the source, as the answer's words do.
  const auto whole_words = [&running](std::uint32_t start, std::uint32_t end) {
    return is_word_edge(running, start) && is_word_edge(running, end);
  };
  const auto find = [&](std::size_t first, std::size_t last) {  // words [first, last)
    const std::size_t begin = words[first].start;
    return index.first_occurrence(options, tier, answer.text.substr(begin, words[last - 1].end - begin), whole_words);
  };
  std::size_t length = 0;  // words from i on known to be found, where `hit` says
  std::optional<DocumentIndex::ReadingHit> hit;
  for (std::size_t i = 0; i < count; ++i) {
    if (length > 0) {
      // Words [i, i - 1 + length) were found as the tail of the previous phrase: the same
      // occurrence, moved past the previous word and what separated it.
      --length;
      hit->pos += words[i].start - words[i - 1].start;
    }
    if (length < ngram) {
      length = 0;
      if (i + ngram > count) continue;
      hit = find(i, i + ngram);
      if (!hit) continue;
      length = ngram;
    }
    while (i + length < count) {
      auto longer = find(i, i + length + 1);
      if (!longer) break;
      hit = longer;
      ++length;
    }
    const std::size_t span = words[i + length - 1].end - words[i].start;
    const auto range = index.original_range(options, tier, hit->reading, hit->pos, span);
    out.longest[i] = length;
    out.hits[i] = PhraseHit{document, range.first, range.second};
  }
  return out;
}

}  // namespace

Coverage measure_coverage(const Reading& answer, const std::vector<const DocumentIndex*>& documents,
                          const LadderOptions& options, Tier tier, std::size_t ngram) {
  Coverage coverage;
  coverage.words = answer_words(ScalarView(answer.text));
  const std::size_t count = coverage.words.size();
  coverage.longest.assign(count, 0);
  coverage.hits.assign(count, PhraseHit{});
  for (std::size_t d = 0; d < documents.size(); ++d) {
    const DocumentStatistics found = statistics_in(answer, coverage.words, *documents[d], d, options, tier, ngram);
    for (std::size_t i = 0; i < count; ++i) {
      if (found.longest[i] > coverage.longest[i]) {
        coverage.longest[i] = found.longest[i];
        coverage.hits[i] = found.hits[i];
      }
    }
  }
  return coverage;
}

}  // namespace ethos::match
