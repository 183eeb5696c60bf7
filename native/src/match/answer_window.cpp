// answer_window.cpp - the smallest source window holding every wanted word (two pointers) and ROUGE-L's integer form.
#include "match/answer_window.hpp"

#include <unordered_map>

namespace ethos::match {

std::optional<WordWindow> smallest_window(const std::vector<std::u32string>& wanted, ScalarView text,
                                          const std::vector<WordSpan>& words) {
  std::unordered_map<std::u32string, std::size_t> id_of;
  for (const std::u32string& form : wanted) id_of.emplace(form, id_of.size());
  if (id_of.empty()) return std::nullopt;
  // Only the source words that are wanted matter: (word index, form id), in source order.
  struct Occurrence {
    std::size_t word, id;
  };
  std::vector<Occurrence> occurrences;
  for (std::size_t w = 0; w < words.size(); ++w) {
    const auto found = id_of.find(text.substr(words[w].start, words[w].end - words[w].start));
    if (found != id_of.end()) occurrences.push_back({w, found->second});
  }
  std::vector<std::size_t> held(id_of.size(), 0);
  std::size_t missing = id_of.size(), left = 0;
  std::optional<WordWindow> best;
  for (const Occurrence& right : occurrences) {
    if (held[right.id]++ == 0) --missing;
    // Shrink from the left while the window still holds every form; each shrink is a candidate.
    while (missing == 0) {
      const Occurrence& first = occurrences[left];
      if (!best || right.word - first.word < best->last - best->first) best = WordWindow{first.word, right.word};
      if (--held[first.id] == 0) ++missing;
      ++left;
    }
  }
  return best;
}

std::int64_t rouge_l_bp(std::size_t lcs, std::size_t answer_words, std::size_t window_words) {
  const std::size_t total = answer_words + window_words;
  if (lcs == 0 || total == 0) return 0;
  return static_cast<std::int64_t>(lcs * 20000 / total);
}

}  // namespace ethos::match
