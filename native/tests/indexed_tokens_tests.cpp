// indexed_tokens_tests.cpp - a near-miss index's compact tokens (one-byte lengths, long ones on a side list) give back
// every token as added, and a near miss over a token longer than the byte holds reports its whole text.
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "match/indexed_tokens.hpp"
#include "match/near_miss.hpp"
#include "match/policy.hpp"
#include "test_check.hpp"

namespace {

using ethos::match::IndexedToken;
using ethos::match::IndexedTokens;

// Lengths around the byte's limit (254 fits, 255 and up go to the side list), mixed with short
// ones in random order: every token reads back as added.
void round_trip() {
  std::mt19937 rng(11);  // 32-bit draws
  const auto draw = [&rng] { return static_cast<std::uint32_t>(rng()); };
  const std::vector<std::uint32_t> lengths = {0, 1, 7, 253, 254, 255, 256, 1000, 70000};
  std::vector<IndexedToken> added;
  IndexedTokens tokens;
  std::uint32_t at = 0;
  for (int i = 0; i < 5000; ++i) {
    const std::uint32_t length = draw() % 4 == 0 ? lengths[draw() % lengths.size()] : draw() % 12;
    const std::uint32_t key_and_kind = draw();
    added.push_back(IndexedToken{key_and_kind, at, at + length});
    tokens.push_back(added.back());
    at += length + draw() % 3;
  }
  tokens.shrink_when_spare();
  CHECK(tokens.size() == added.size());
  bool same = true;
  for (std::size_t i = 0; i < added.size(); ++i) {
    const IndexedToken got = tokens[i];
    same = same && got.key_and_kind == added[i].key_and_kind && got.start == added[i].start && got.end == added[i].end &&
           tokens.start(i) == added[i].start && tokens.end(i) == added[i].end && tokens.key(i) == added[i].key() &&
           tokens.kind(i) == added[i].kind();
  }
  CHECK(same);
  // 9 bytes a token plus the side list, not 12.
  CHECK(tokens.memory_bytes() < added.size() * 10 + 5000);
}

// A 300-letter word (beyond the one-byte length) in a document's near-miss index: the near miss
// of a quote holding it with one word changed spans it whole, and its diff shows it whole.
void long_token_near_miss() {
  const std::string long_word(300, 'x');
  const std::string text = "the margin of " + long_word + " rose in 2024 and the loss fell";
  const ethos::match::Policy& policy = *ethos::match::preset_policy("default");
  const ethos::match::NearMissIndex index = ethos::match::build_near_miss_index(text, policy.ladder);
  bool found_long = false;
  for (std::size_t i = 0; i < index.tokens.size(); ++i) {
    if (index.tokens.end(i) - index.tokens.start(i) == 300) found_long = index.tokens.start(i) == 14;
  }
  CHECK(found_long);
  const auto miss = ethos::match::find_near_miss(index, "margin of " + long_word + " fell in 2024", policy);
  CHECK(miss.has_value());
  if (!miss) return;
  CHECK(miss->start == 4);                      // "margin"
  CHECK(miss->end == 14 + 300 + 13);            // "... rose in 2024"
  bool whole = false;
  for (const auto& entry : miss->diff) whole = whole || entry.source == "margin of " + long_word;
  CHECK(whole);
}

}  // namespace

int main() {
  round_trip();
  long_token_near_miss();
  return ethos_test::finish("indexed_tokens_tests");
}
