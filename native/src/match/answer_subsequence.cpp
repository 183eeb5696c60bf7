// answer_subsequence.cpp - Hunt-Szymanski longest common subsequence over word occurrences (see the header).
#include "match/answer_subsequence.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace ethos::match {
namespace {

// The LCS of `answer` and the source words that each_word(visit) hands to visit, in order.
template <typename EachWord>
std::size_t hunt_szymanski(const std::vector<std::u32string>& answer, ScalarView source, EachWord each_word) {
  std::unordered_map<std::u32string, std::size_t> id_of;
  std::vector<std::size_t> ids;
  ids.reserve(answer.size());
  for (const std::u32string& word : answer) ids.push_back(id_of.emplace(word, id_of.size()).first->second);
  // Positions (in source words) of each distinct answer word, ascending.
  std::vector<std::vector<std::uint32_t>> positions(id_of.size());
  std::uint32_t index = 0;
  each_word([&](const WordSpan& span) {
    const auto found = id_of.find(source.substr(span.start, span.end - span.start));
    if (found != id_of.end()) positions[found->second].push_back(index);
    ++index;
  });
  std::vector<std::uint32_t> threshold;
  for (const std::size_t id : ids) {
    const std::vector<std::uint32_t>& list = positions[id];
    // Last position first, so one answer word never extends a subsequence it just ended.
    for (auto it = list.rbegin(); it != list.rend(); ++it) {
      const auto slot = std::lower_bound(threshold.begin(), threshold.end(), *it);
      if (slot == threshold.end()) {
        threshold.push_back(*it);
      } else {
        *slot = *it;
      }
    }
  }
  return threshold.size();
}

}  // namespace

std::size_t common_subsequence_words(const std::vector<std::u32string>& answer, ScalarView source) {
  // The source's words are visited once and never stored (memory stays O(answer + matches)).
  return hunt_szymanski(answer, source, [&](auto visit) {
    for (const WordSpan& span : answer_words(source)) visit(span);
  });
}

std::size_t common_subsequence_words(const std::vector<std::u32string>& answer, ScalarView source,
                                     const WordSpan* first, const WordSpan* last) {
  return hunt_szymanski(answer, source, [&](auto visit) {
    for (const WordSpan* span = first; span != last; ++span) visit(*span);
  });
}

}  // namespace ethos::match
