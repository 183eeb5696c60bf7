// answer_window_tests.cpp - the smallest source window and the windowed subsequence answer as brute force does
// (random word texts), and ROUGE-L's integer form is the F1 of its precision and recall.
#include <algorithm>
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "match/answer_subsequence.hpp"
#include "match/answer_window.hpp"
#include "match/answer_words.hpp"
#include "test_check.hpp"

namespace {

using ethos::match::ScalarView;
using ethos::match::WordSpan;

// A text of `count` words drawn from a small vocabulary (so words repeat), with punctuation and
// doubled spaces between some of them (not words, so not counted).
std::u32string random_words(std::mt19937& rng, std::size_t count, std::size_t vocabulary) {
  static const std::vector<std::u32string> kWords = {U"a", U"b", U"c", U"d", U"e", U"f", U"g", U"h", U"\u4E2D", U"don't"};
  static const std::vector<std::u32string> kGaps = {U" ", U"  ", U", ", U". ", U" - "};
  std::uniform_int_distribution<std::size_t> word(0, std::min(vocabulary, kWords.size()) - 1), gap(0, kGaps.size() - 1);
  std::u32string out;
  for (std::size_t i = 0; i < count; ++i) out += (i == 0 ? U"" : kGaps[gap(rng)]) + kWords[word(rng)];
  return out;
}

std::vector<std::u32string> forms(ScalarView text, const std::vector<WordSpan>& words) {
  std::vector<std::u32string> out;
  for (const WordSpan& w : words) out.push_back(text.substr(w.start, w.end - w.start));
  return out;
}

// Every window, shortest first then earliest: the first holding every wanted form.
void check_window_against_brute_force(std::mt19937& rng) {
  const std::u32string source = random_words(rng, 1 + rng() % 60, 2 + rng() % 9);
  const std::u32string answer = random_words(rng, rng() % 6, 2 + rng() % 9);
  const ScalarView source_view(source), answer_view(answer);
  const std::vector<WordSpan> words = ethos::match::answer_words(source_view);
  const std::vector<std::u32string> source_forms = forms(source_view, words);
  const std::vector<std::u32string> wanted = forms(answer_view, ethos::match::answer_words(answer_view));
  const std::set<std::u32string> distinct(wanted.begin(), wanted.end());
  std::optional<ethos::match::WordWindow> expected;
  for (std::size_t size = 1; size <= words.size() && !expected && !distinct.empty(); ++size) {
    for (std::size_t first = 0; first + size <= words.size() && !expected; ++first) {
      const std::set<std::u32string> held(source_forms.begin() + static_cast<std::ptrdiff_t>(first),
                                          source_forms.begin() + static_cast<std::ptrdiff_t>(first + size));
      if (std::includes(held.begin(), held.end(), distinct.begin(), distinct.end())) {
        expected = ethos::match::WordWindow{first, first + size - 1};
      }
    }
  }
  const auto got = ethos::match::smallest_window(wanted, source_view, words);
  CHECK(got.has_value() == expected.has_value());
  if (got && expected) {
    CHECK(got->first == expected->first);
    CHECK(got->last == expected->last);
  }
}

// The windowed subsequence count against the textbook table over the window's words.
void check_windowed_subsequence(std::mt19937& rng) {
  const std::u32string source = random_words(rng, 1 + rng() % 40, 2 + rng() % 9);
  const std::u32string answer = random_words(rng, 1 + rng() % 15, 2 + rng() % 9);
  const ScalarView source_view(source), answer_view(answer);
  const std::vector<WordSpan> words = ethos::match::answer_words(source_view);
  const std::vector<std::u32string> a = forms(answer_view, ethos::match::answer_words(answer_view));
  const std::size_t first = rng() % words.size(), last = first + rng() % (words.size() - first) + 1;
  const std::vector<std::u32string> all = forms(source_view, words);
  const std::vector<std::u32string> s(all.begin() + static_cast<std::ptrdiff_t>(first),
                                      all.begin() + static_cast<std::ptrdiff_t>(last));
  std::vector<std::vector<std::size_t>> table(a.size() + 1, std::vector<std::size_t>(s.size() + 1, 0));
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= s.size(); ++j) {
      table[i][j] = a[i - 1] == s[j - 1] ? table[i - 1][j - 1] + 1 : std::max(table[i - 1][j], table[i][j - 1]);
    }
  }
  CHECK(ethos::match::common_subsequence_words(a, source_view, words.data() + first, words.data() + last) ==
        table[a.size()][s.size()]);
  // The whole source through the range overload answers as the whole-source call.
  CHECK(ethos::match::common_subsequence_words(a, source_view, words.data(), words.data() + words.size()) ==
        ethos::match::common_subsequence_words(a, source_view));
}

// ROUGE-L in basis points is floor(10000 * 2PR / (P + R)), computed without floating point.
void check_rouge(std::mt19937& rng) {
  const std::size_t answer = 1 + rng() % 500, window = 1 + rng() % 5000;
  const std::size_t lcs = rng() % (std::min(answer, window) + 1);
  const std::int64_t got = ethos::match::rouge_l_bp(lcs, answer, window);
  CHECK(got >= 0 && got <= 10000);
  if (lcs == 0) {
    CHECK(got == 0);
    return;
  }
  const double precision = static_cast<double>(lcs) / static_cast<double>(answer);
  const double recall = static_cast<double>(lcs) / static_cast<double>(window);
  const double f1 = 10000.0 * 2 * precision * recall / (precision + recall);
  CHECK(static_cast<double>(got) <= f1 + 1e-6 && f1 < static_cast<double>(got) + 1 + 1e-6);
}

}  // namespace

int main() {
  std::mt19937 rng(25);
  for (int round = 0; round < 3000; ++round) check_window_against_brute_force(rng);
  for (int round = 0; round < 2000; ++round) check_windowed_subsequence(rng);
  for (int round = 0; round < 2000; ++round) check_rouge(rng);
  // Identical answer and window: ROUGE-L is exactly 100 %.
  CHECK(ethos::match::rouge_l_bp(7, 7, 7) == 10000);
  // A wanted word the source lacks: no window at all; no wanted word: none either.
  const std::u32string source = U"one two three";
  const ScalarView view(source);
  const auto words = ethos::match::answer_words(view);
  CHECK(!ethos::match::smallest_window({U"four"}, view, words).has_value());
  CHECK(!ethos::match::smallest_window({}, view, words).has_value());
  return ethos_test::finish("answer_window_tests");
}
