// near_miss_reading_tests.cpp - a near miss found with the quote's case reading taken from its claim ladder is the
// near miss find_near_miss finds normalizing the quote itself (randomized texts and quotes).
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "match/ladder.hpp"
#include "match/near_miss.hpp"
#include "match/policy.hpp"
#include "text/utf8.hpp"
#include "random_text.hpp"
#include "test_check.hpp"

namespace {

using ethos::match::Tier;

// Words, case, typography, numbers, negations and non-ASCII text: what tokens and guards read.
const std::vector<std::u32string> kAtoms = {
    U"revenue", U"Revenue", U"MARGIN", U"rose", U"fell", U"not", U"never", U"12.5", U"%", U"million", U" ",
    U"  ",      U"\n",      U"-",      U"\u2014", U"\uFB01nal", U"e\u0301t\u00E9", U"\u201Cquoted\u201D", U"\u03A3",
    U"\u4E2D\u6587", U"1,000", U"(",   U")",   U".",      U"\u00A0", U"increase", U"decrease"};

std::string random_text(std::mt19937& rng, std::size_t atoms) {
  return ethos_test::utf8_of(ethos_test::random_text(rng, atoms, true, kAtoms));
}

bool same_reading(const ethos::match::Reading& a, const ethos::match::Reading& b) {
  return a.text == b.text && a.start == b.start && a.end == b.end;
}

bool same_miss(const std::optional<ethos::match::NearMiss>& a, const std::optional<ethos::match::NearMiss>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  if (a->start != b->start || a->end != b->end || a->score_bp != b->score_bp ||
      std::string(a->reason) != b->reason || a->diff.size() != b->diff.size() || a->guards.size() != b->guards.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a->diff.size(); ++i) {
    if (a->diff[i].op != b->diff[i].op || a->diff[i].quote != b->diff[i].quote || a->diff[i].source != b->diff[i].source) {
      return false;
    }
  }
  for (std::size_t i = 0; i < a->guards.size(); ++i) {
    if (std::string(a->guards[i].name) != b->guards[i].name || a->guards[i].block != b->guards[i].block ||
        a->guards[i].detail != b->guards[i].detail) {
      return false;
    }
  }
  return true;
}

}  // namespace

int main() {
  const ethos::match::Policy& policy = *ethos::match::preset_policy("default");
  int found = 0;
  for (std::uint32_t seed = 1; seed <= 400; ++seed) {
    std::mt19937 rng(seed);
    const std::string target = random_text(rng, 200);
    const ethos::match::NearMissIndex index = ethos::match::build_near_miss_index(target, policy.ladder);
    for (int q = 0; q < 10; ++q) {
      const std::string quote = random_text(rng, 4 + static_cast<std::size_t>(q));
      const ethos::match::Ladder ladder = ethos::match::build_claim_ladder(quote, policy.ladder);
      const ethos::match::Reading& case_reading = ladder.at(Tier::case_folded).front();
      CHECK(same_reading(case_reading, ethos::match::normalize_for_tier(quote, Tier::case_folded, policy.ladder)));
      const auto normalized = ethos::match::find_near_miss(index, quote, policy);
      const auto given = ethos::match::find_near_miss(index, 0, index.tokens.size(), quote, case_reading, policy);
      CHECK(same_miss(normalized, given));
      // The claim ladder given: its case reading and its decoded scalars (the diff's quote side).
      CHECK(same_miss(normalized, ethos::match::find_near_miss(index, 0, index.tokens.size(), ladder, policy)));
      if (normalized) ++found;
    }
  }
  std::printf("%d near misses found\n", found);
  CHECK(found > 200);  // the random quotes must reach near misses, or they prove nothing
  return ethos_test::finish("near_miss_reading_tests");
}
