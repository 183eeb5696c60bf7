// near_miss_search_tests.cpp - find_near_miss's shortcuts (votes tallied per bucket, windows aligned on key ids in
// order of a score bound and skipped when it cannot win) give what the plain search gives: every landing sorted and
// counted, every candidate window sliced into Tokens and aligned in position order (randomized texts and quotes);
// the guards of a near miss (made from its aligned tokens only) are the ones of the whole window; the alignment
// table one thread keeps between calls gives what a fresh table gives; one lookup of the numeric guard's word lists
// answers as the three lookups do, and the negator lookup's filter keeps every negator.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "match/align.hpp"
#include "match/guard_words.hpp"
#include "match/near_miss.hpp"
#include "match/numeric_guard.hpp"
#include "match/polarity_guard.hpp"
#include "match/policy.hpp"
#include "test_check.hpp"
#include "text/utf8.hpp"

namespace {

using ethos::match::Alignment;
using ethos::match::NearMissIndex;
using ethos::match::Policy;
using ethos::match::Token;
using ethos::match::TokenKind;

// A small vocabulary, so quote tokens land on many diagonals and votes and scores tie often
// (the tie rules are where a shortcut could go wrong); punctuation gives symbol tokens.
const std::vector<std::string> kWords = {"the", "of",  "revenue", "rose",   "fell", "not", "12.5", "margin",
                                         "a",   "and", "in",      "profit", ",",    ".",   "loss", "2024"};

std::vector<std::string> random_words(std::mt19937& rng, std::size_t count, std::size_t vocabulary) {
  std::uniform_int_distribution<std::size_t> pick(0, vocabulary - 1);
  std::vector<std::string> out(count);
  for (std::string& word : out) word = kWords[pick(rng)];
  return out;
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words) out += (out.empty() ? "" : " ") + word;
  return out;
}

// A quote: a stretch of the text with a few words replaced, dropped or added, or random words.
std::string random_quote(std::mt19937& rng, const std::vector<std::string>& text) {
  std::uniform_int_distribution<std::size_t> length(3, 40);
  std::vector<std::string> words;
  if (rng() % 5 == 0) {
    words = random_words(rng, length(rng), kWords.size());
  } else {
    const std::size_t n = std::min(length(rng), text.size());
    const std::size_t at = rng() % (text.size() - n + 1);
    words.assign(text.begin() + static_cast<std::ptrdiff_t>(at), text.begin() + static_cast<std::ptrdiff_t>(at + n));
    const std::size_t edits = rng() % 4;
    for (std::size_t e = 0; e < edits && !words.empty(); ++e) {
      const std::size_t k = rng() % words.size();
      switch (rng() % 3) {
        case 0: words[k] = "zebra"; break;
        case 1: words.erase(words.begin() + static_cast<std::ptrdiff_t>(k)); break;
        default: words.insert(words.begin() + static_cast<std::ptrdiff_t>(k), kWords[rng() % kWords.size()]);
      }
    }
  }
  return join(words);
}

// The plain seed vote: every (bucket, quote token) landing collected, sorted and counted, the
// best max_candidates buckets by votes (earliest first among equals), their windows merged.
std::vector<std::pair<std::size_t, std::size_t>> plain_windows(const NearMissIndex& index, std::size_t begin,
                                                              std::size_t end, const std::vector<Token>& quote,
                                                              std::size_t max_candidates) {
  const std::size_t m = quote.size(), n = end - begin;
  const long long slack = static_cast<long long>(m / 2 + 4);
  if (n <= 3 * m + 64) return {{begin, end}};
  std::vector<std::pair<std::size_t, std::size_t>> seeds;  // (occurrences in range, quote index)
  for (std::size_t i = 0; i < m; ++i) {
    if (quote[i].kind == TokenKind::symbol || index.find_key(quote[i].key) < 0) continue;
    const auto list = index.occurrences(static_cast<std::uint32_t>(index.find_key(quote[i].key)));
    const auto count = std::count_if(list.first, list.second, [&](std::uint32_t t) { return t >= begin && t < end; });
    if (count > 0) seeds.emplace_back(static_cast<std::size_t>(count), i);
  }
  std::sort(seeds.begin(), seeds.end());
  const long long band = std::max<long long>(8, static_cast<long long>(m / 4));
  std::vector<std::pair<long long, std::size_t>> landed;  // (bucket, quote index), each once
  std::size_t budget = 20000;
  for (const auto& [count, i] : seeds) {
    if (count > budget && !landed.empty()) break;
    budget -= std::min(budget, count);
    const auto list = index.occurrences(static_cast<std::uint32_t>(index.find_key(quote[i].key)));
    for (const std::uint32_t* t = list.first; t != list.second; ++t) {
      if (*t < begin || *t >= end) continue;
      const long long diagonal = static_cast<long long>(*t - begin) - static_cast<long long>(i);
      const long long bucket = diagonal >= 0 ? diagonal / band : -((-diagonal + band - 1) / band);
      landed.emplace_back(bucket, i);
    }
  }
  std::sort(landed.begin(), landed.end());
  landed.erase(std::unique(landed.begin(), landed.end()), landed.end());
  std::vector<std::pair<std::size_t, long long>> ranked;  // (votes, bucket)
  for (std::size_t a = 0, b = 0; a < landed.size(); a = b) {
    while (b < landed.size() && landed[b].first == landed[a].first) ++b;
    ranked.emplace_back(b - a, landed[a].first);
  }
  std::sort(ranked.begin(), ranked.end(),
            [](const auto& x, const auto& y) { return x.first != y.first ? x.first > y.first : x.second < y.second; });
  if (ranked.size() > max_candidates) ranked.resize(max_candidates);
  // The windows of the voted buckets: the search's own (this test checks the vote, not them).
  return ethos::match::bucket_windows(ranked, band, slack, m, begin, n);
}

struct PlainBest {
  Alignment alignment;
  std::vector<Token> window;
};

// Every window sliced into Tokens and aligned on key strings, in position order, the first best kept.
std::optional<PlainBest> plain_best(const NearMissIndex& index, std::size_t begin, std::size_t end,
                                    const std::vector<Token>& quote, const Policy& policy) {
  std::optional<PlainBest> best;
  for (const auto& [lo, hi] :
       plain_windows(index, begin, end, quote, static_cast<std::size_t>(policy.near_miss_max_candidates))) {
    std::vector<Token> window = index.slice(lo, hi);
    Alignment alignment = ethos::match::align_tokens(quote, window, 0, window.size());
    if (alignment.source_begin >= alignment.source_end) continue;
    if (!best || alignment.score_bp > best->alignment.score_bp) best = PlainBest{std::move(alignment), std::move(window)};
  }
  if (!best || best->alignment.score_bp < policy.near_miss_min_score_bp) return std::nullopt;
  return best;
}

// The found near miss is the plain search's: span, score, the diff's runs (ops and source text) and
// the guards, made here from the whole window.
bool same_as_plain(const std::optional<ethos::match::NearMiss>& got, const std::optional<PlainBest>& want,
                   const NearMissIndex& index, const std::vector<Token>& quote) {
  if (got.has_value() != want.has_value()) return false;
  if (!got) return true;
  const Alignment& a = want->alignment;
  const ethos::match::Guard guards[2] = {
      ethos::match::numeric_guard(ethos::match::numeric_mentions(quote, 0, quote.size()),
                                  ethos::match::numeric_mentions(want->window, a.source_begin, a.source_end)),
      ethos::match::polarity_guard(quote, want->window, a)};
  if (got->guards.size() != 2) return false;
  for (int g = 0; g < 2; ++g) {
    if (got->guards[g].block != guards[g].block || got->guards[g].detail != guards[g].detail) return false;
  }
  if (got->start != want->window[a.source_begin].start || got->end != want->window[a.source_end - 1].end ||
      got->score_bp != a.score_bp || got->diff.size() != a.runs.size()) {
    return false;
  }
  for (std::size_t r = 0; r < a.runs.size(); ++r) {
    if (got->diff[r].op != a.runs[r].op) return false;
    std::string source;
    if (a.runs[r].source_begin < a.runs[r].source_end) {
      for (std::uint32_t c = want->window[a.runs[r].source_begin].start; c < want->window[a.runs[r].source_end - 1].end; ++c) {
        ethos::utf8::append(source, index.text()[c]);
      }
    }
    if (got->diff[r].source != source) return false;
  }
  return true;
}

// Texts of `words` tokens from a vocabulary of `vocabulary` words, quotes against the whole
// index and against token ranges of it, under several candidate caps.
int equivalence(std::uint32_t seed, std::size_t texts, std::size_t words, std::size_t vocabulary, int quotes) {
  Policy policy = *ethos::match::preset_policy("default");
  int found = 0;
  for (std::size_t t = 0; t < texts; ++t) {
    std::mt19937 rng(seed + static_cast<std::uint32_t>(t));
    const std::vector<std::string> text = random_words(rng, words, vocabulary);
    const NearMissIndex index = ethos::match::build_near_miss_index(join(text), policy.ladder);
    for (int q = 0; q < quotes; ++q) {
      const std::string quote = random_quote(rng, text);
      const std::vector<Token> quote_tokens =
          ethos::match::tokenize(ethos::match::normalize_for_tier(quote, ethos::match::Tier::case_folded, policy.ladder));
      if (quote_tokens.empty()) continue;
      const std::int64_t caps[] = {1, 2, 8, 64};
      policy.near_miss_max_candidates = caps[static_cast<std::size_t>(q) % 4];
      std::size_t begin = 0, end = index.tokens.size();
      if (q % 3 == 1) {
        begin = rng() % (end / 2);
        end = begin + 1 + rng() % (end - begin);
      }
      const auto got = ethos::match::find_near_miss(index, begin, end, quote, policy);
      const auto want = plain_best(index, begin, end, quote_tokens, policy);
      CHECK(same_as_plain(got, want, index, quote_tokens));
      if (got) ++found;
    }
  }
  return found;
}

// Alignments of shrinking and growing sizes in one thread (its table reused, cells of a larger
// earlier table left in it) equal the same alignments each made in a thread of its own.
void reused_table() {
  std::mt19937 rng(77);
  std::vector<std::pair<std::vector<Token>, std::vector<Token>>> pairs;
  // {40, 30000}: over the cells a thread keeps (the call's own table), between kept ones.
  const std::size_t sizes[][2] = {{40, 300}, {3, 10}, {12, 80}, {40, 30000}, {1, 1}, {25, 200}, {6, 7}, {40, 300}, {2, 90}};
  const Policy policy = *ethos::match::preset_policy("default");
  const auto tokens = [&](std::size_t count) {
    return ethos::match::tokenize(ethos::match::normalize_for_tier(join(random_words(rng, count, kWords.size())),
                                                                  ethos::match::Tier::case_folded, policy.ladder));
  };
  for (const auto& size : sizes) pairs.emplace_back(tokens(size[0]), tokens(size[1]));
  const auto same = [](const Alignment& x, const Alignment& y) {
    if (x.source_begin != y.source_begin || x.source_end != y.source_end || x.score_bp != y.score_bp ||
        x.runs.size() != y.runs.size()) {
      return false;
    }
    for (std::size_t r = 0; r < x.runs.size(); ++r) {
      if (x.runs[r].op != y.runs[r].op || x.runs[r].quote_begin != y.runs[r].quote_begin ||
          x.runs[r].quote_end != y.runs[r].quote_end || x.runs[r].source_begin != y.runs[r].source_begin ||
          x.runs[r].source_end != y.runs[r].source_end) {
        return false;
      }
    }
    return true;
  };
  for (int round = 0; round < 2; ++round) {
    for (const auto& [quote, source] : pairs) {
      const Alignment reused = ethos::match::align_tokens(quote, source, 0, source.size());
      Alignment fresh;
      std::thread([&] { fresh = ethos::match::align_tokens(quote, source, 0, source.size()); }).join();
      CHECK(same(reused, fresh));
    }
  }
}

// numeric_word answers spelled_number, scale_exponent and month_of of a word in one lookup.
void numeric_word_lookup() {
  namespace words = ethos::match::guard_words;
  const char* const probes[] = {"one",   "two",     "ten",      "twenty", "ninety",  "hundred", "thousand", "million",
                                "bn",    "k",       "m",        "mn",     "billion", "january", "jan",      "may",
                                "march", "mar",     "sept",     "december", "the",   "",        "percent",  "%",
                                "$",     "revenue", "millions", "dozen",  "zero",    "a",       "fabricated"};
  int known = 0;
  for (const char* probe : probes) {
    const words::NumericWord* word = words::numeric_word(probe);
    const auto spelled = words::spelled_number(probe);
    const auto scale = words::scale_exponent(probe);
    const auto month = words::month_of(probe);
    CHECK((word == nullptr) == (!spelled && !scale && !month));
    if (word == nullptr) continue;
    ++known;
    CHECK(word->spelled == spelled);
    CHECK(word->scale == scale);
    CHECK(word->month == month);
  }
  CHECK(known > 15);  // the probes must reach the lists, or they prove nothing
}

// is_negation's filters (first and last bytes; no apostrophe, no n't or n' form) keep every negator:
// listed ones with one- and multi-byte ends, and contractions and elisions known only by their n't
// or n'; words sharing a negator's ends stay refused.
void negation_lookup() {
  namespace words = ethos::match::guard_words;
  for (const char* negator : {"not", "no", "nor", "never", "none", "nothing", "ne", "ni", "n'", "n'est", "don't", "isn't",
                              "ain't", "cannot", "nicht", "keine", "jam\xC3\xA1s", "ning\xC3\xBAn", "gu\xC3\xA8re", "sans",
                              "ohne", "without", "rien", "personne", "weder", "won't", "couldn't", "can't", "shan't", "daren't",
                              "n'a"}) {
    CHECK(words::is_negation(negator));
  }
  for (const char* other : {"", "n", "t", "'", "note", "nut", "knot", "snot", "nod", "ton", "dont", "nt", "don", "revenue",
                            "the", "margin", "nonet", "ninguno's", "jam", "sin's", "pass", "withoutt", "a"}) {
    CHECK(!words::is_negation(other));
  }
}

// A diff's texts are the document's own characters, ASCII and not (two-, three- and four-byte
// scalars after an ASCII stretch, and first): the runs' source sides put together are the span.
void diff_texts() {
  const Policy policy = *ethos::match::preset_policy("default");
  const std::string text = "Le caf\xC3\xA9 na\xC3\xAF" "f \xE2\x80\x9Cr\xC3\xA9sum\xC3\xA9\xE2\x80\x9D rose 12.5 % in Z\xC3\xBCrich "
                           "and \xF0\x9D\x90\x80" "lpha \xC3\xA9t\xC3\xA9 grew, said the board of the company";
  const NearMissIndex index = ethos::match::build_near_miss_index(text, policy.ladder);
  const std::string quote = "Le caf\xC3\xA9 na\xC3\xAF" "f \xE2\x80\x9Cr\xC3\xA9sum\xC3\xA9\xE2\x80\x9D fell 12.5 % in Z\xC3\xBCrich "
                            "and \xF0\x9D\x90\x80" "lpha \xC3\xA9t\xC3\xA9 grew, said the board";
  const auto miss = ethos::match::find_near_miss(index, quote, policy);
  CHECK(miss.has_value());
  if (!miss) return;
  std::string source, quoted;
  for (const auto& entry : miss->diff) {
    if (!source.empty() && !entry.source.empty()) source += ' ';
    source += entry.source;
    if (!quoted.empty() && !entry.quote.empty()) quoted += ' ';
    quoted += entry.quote;
  }
  CHECK(source == text.substr(0, text.find(" of the company")));
  CHECK(quoted == quote);
}

}  // namespace

int main() {
  diff_texts();
  negation_lookup();
  reused_table();
  numeric_word_lookup();
  // Many short texts: small ranges, ties among windows.
  const int small = equivalence(1, 120, 1500, kWords.size(), 40);
  // A narrow vocabulary: thousands of landings per quote token, windows all scoring alike.
  const int narrow = equivalence(500, 30, 4000, 6, 30);
  // Long texts: the 20,000-landing budget cuts the seeds off.
  const int budget = equivalence(900, 3, 60000, kWords.size(), 30);
  std::printf("near misses found: %d small, %d narrow, %d budget\n", small, narrow, budget);
  CHECK(small > 500);  // the random quotes must reach near misses, or they prove nothing
  CHECK(narrow > 100);
  CHECK(budget > 15);
  return ethos_test::finish("near_miss_search_tests");
}
