// guard_words.cpp - hash lookups over the generated word tables (guard_words_table.inc).
#include "match/guard_words.hpp"

#include <bitset>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace ethos::match::guard_words {
namespace {

struct WordPair {
  const char* first;
  const char* second;
};
struct WordValue {
  const char* word;
  long long value;
};
struct WordUnit {
  const char* word;
  const char* unit;
};

#include "match/guard_words_table.inc"

template <std::size_t N>
std::unordered_set<std::string_view> set_of(const char* const (&words)[N]) {
  return std::unordered_set<std::string_view>(std::begin(words), std::end(words));
}

template <typename Entry, std::size_t N, typename Value>
std::unordered_map<std::string_view, Value> map_of(const Entry (&entries)[N], Value Entry::*field) {
  std::unordered_map<std::string_view, Value> out;
  for (const Entry& entry : entries) out.emplace(entry.word, entry.*field);
  return out;
}

bool ends_with(std::string_view word, std::string_view suffix) {
  return word.size() > suffix.size() && word.substr(word.size() - suffix.size()) == suffix;
}
bool starts_with(std::string_view word, std::string_view prefix) {
  return word.size() >= prefix.size() && word.substr(0, prefix.size()) == prefix;
}

// A word's first and last bytes as one number (a non-empty word).
std::size_t ends_key(std::string_view word) {
  return std::size_t{static_cast<unsigned char>(word.front())} << 8 | static_cast<unsigned char>(word.back());
}

}  // namespace

bool is_negation(std::string_view word) {
  static const auto kSet = set_of(kNegations);
  // The (first byte, last byte) pairs of the listed negators: most words (every word of a quote and
  // of its near miss is asked) have a pair no negator has, told by one bit instead of a hash.
  static const std::bitset<65536> kEnds = [] {
    std::bitset<65536> ends;
    for (const char* negator : kNegations) ends.set(ends_key(negator));
    return ends;
  }();
  if (!word.empty() && kEnds.test(ends_key(word)) && kSet.count(word) != 0) return true;
  // The suffix and prefix forms (n't, n') hold an apostrophe: a word without one is neither.
  static const bool kAffixesHaveApostrophe = [] {
    bool all = true;
    for (const char* suffix : kNegationSuffixes) all = all && std::string_view(suffix).find('\'') != std::string_view::npos;
    for (const char* prefix : kNegationPrefixes) all = all && std::string_view(prefix).find('\'') != std::string_view::npos;
    return all;
  }();
  if (kAffixesHaveApostrophe && word.find('\'') == std::string_view::npos) return false;
  for (const char* suffix : kNegationSuffixes) {
    if (ends_with(word, suffix)) return true;
  }
  for (const char* prefix : kNegationPrefixes) {
    if (starts_with(word, prefix)) return true;  // French elided ne: n'est, n'a
  }
  return false;
}

bool is_qualifier(std::string_view word) {
  static const auto kSet = set_of(kQualifiers);
  return kSet.count(word) != 0;
}

bool are_antonyms(std::string_view a, std::string_view b) {
  static const std::unordered_set<std::string> kPairs = [] {
    std::unordered_set<std::string> pairs;
    for (const WordPair& pair : kAntonyms) {
      pairs.insert(std::string(pair.first) + '\n' + pair.second);
      pairs.insert(std::string(pair.second) + '\n' + pair.first);
    }
    return pairs;
  }();
  std::string key(a);
  key += '\n';
  key += b;
  return kPairs.count(key) != 0;
}

std::optional<long long> spelled_number(std::string_view word) {
  static const auto kMap = map_of(kSpelledNumbers, &WordValue::value);
  auto it = kMap.find(word);
  if (it == kMap.end()) return std::nullopt;
  return it->second;
}

std::optional<int> scale_exponent(std::string_view word) {
  static const auto kMap = map_of(kScaleWords, &WordValue::value);
  auto it = kMap.find(word);
  if (it == kMap.end()) return std::nullopt;
  return static_cast<int>(it->second);
}

std::optional<std::string_view> unit_of(std::string_view word) {
  static const auto kMap = map_of(kUnits, &WordUnit::unit);
  auto it = kMap.find(word);
  if (it == kMap.end()) return std::nullopt;
  return std::string_view(it->second);
}

std::optional<int> month_of(std::string_view word) {
  static const auto kMap = map_of(kMonths, &WordValue::value);
  auto it = kMap.find(word);
  if (it == kMap.end()) return std::nullopt;
  return static_cast<int>(it->second);
}

const NumericWord* numeric_word(std::string_view word) {
  // The (first byte, last byte) pairs of the three lists' words, as in is_negation: most words of
  // prose are refused by one bit.
  static const std::bitset<65536> kEnds = [] {
    std::bitset<65536> ends;
    for (const WordValue& entry : kSpelledNumbers) ends.set(ends_key(entry.word));
    for (const WordValue& entry : kScaleWords) ends.set(ends_key(entry.word));
    for (const WordValue& entry : kMonths) ends.set(ends_key(entry.word));
    return ends;
  }();
  if (word.empty() || !kEnds.test(ends_key(word))) return nullptr;
  static const auto kMap = [] {
    // The first entry of a word in a table wins, as in the table's own map (map_of's emplace).
    std::unordered_map<std::string_view, NumericWord> map;
    for (const WordValue& entry : kSpelledNumbers) {
      if (!map[entry.word].spelled) map[entry.word].spelled = entry.value;
    }
    for (const WordValue& entry : kScaleWords) {
      if (!map[entry.word].scale) map[entry.word].scale = static_cast<int>(entry.value);
    }
    for (const WordValue& entry : kMonths) {
      if (!map[entry.word].month) map[entry.word].month = static_cast<int>(entry.value);
    }
    return map;
  }();
  auto it = kMap.find(word);
  return it == kMap.end() ? nullptr : &it->second;
}

}  // namespace ethos::match::guard_words
