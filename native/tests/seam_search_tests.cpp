// seam_search_tests.cpp - the seam-window search of a cross-element join decides every join exactly as
// the full search of the joined text does (randomized texts rich in normalization edge cases).
#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "match/ladder.hpp"
#include "match/matcher.hpp"
#include "match/policy.hpp"
#include "match/seam_search.hpp"
#include "random_text.hpp"
#include "test_check.hpp"

namespace {

using ethos::match::LadderResult;
using ethos::match::Located;
using ethos::match::Policy;
using ethos::match::TextRule;

using ethos_test::random_text;
using ethos_test::same_located;
using ethos_test::utf8_of;

bool accepted(const LadderResult& result, const Policy& policy) {
  return result.whole && policy.accepts(result.whole->tier);
}

// A quote from the joined text: across the seam most of the time, else from anywhere (then it
// is mostly in one element alone, which the join's precondition screens out), sometimes with its
// letters' case changed or an atom added (found at a later tier, or not at all).
std::u32string random_quote(std::mt19937& rng, const std::u32string& joined, std::size_t seam) {
  std::uniform_int_distribution<int> percent(0, 99);
  std::size_t from = 0, to = 0;
  if (percent(rng) < 70) {
    std::uniform_int_distribution<std::size_t> before(1, std::min<std::size_t>(seam, 30));
    std::uniform_int_distribution<std::size_t> after(1, std::min<std::size_t>(joined.size() - seam, 30));
    from = seam - before(rng);
    to = seam + after(rng);
  } else {
    std::uniform_int_distribution<std::size_t> start(0, joined.size() - 1);
    from = start(rng);
    std::uniform_int_distribution<std::size_t> length(1, std::min<std::size_t>(25, joined.size() - from));
    to = from + length(rng);
  }
  std::u32string quote = joined.substr(from, to - from);
  if (percent(rng) < 20) {
    for (char32_t& c : quote) {
      if (c >= U'a' && c <= U'z') c = c - U'a' + U'A';
    }
  }
  if (percent(rng) < 15) quote += random_text(rng, 1);
  return quote;
}

struct Tally {
  int screened = 0;  // pairs the join would search (the quote missed both elements alone)
  int joined = 0;    // of those, pairs the full search grounds
};

void equivalence(std::uint32_t seed, const Policy& policy, Tally& tally) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::size_t> atoms(1, 60);
  const std::u32string first = random_text(rng, atoms(rng));
  const std::u32string second = random_text(rng, atoms(rng));
  const std::u32string joined = first + U" " + second;
  const std::string first_text = utf8_of(first), second_text = utf8_of(second), joined_text = utf8_of(joined);
  const auto first_ladder = ethos::match::build_ladder(first_text, policy.ladder);
  const auto second_ladder = ethos::match::build_ladder(second_text, policy.ladder);
  const auto joined_ladder = ethos::match::build_ladder(joined_text, policy.ladder);
  const auto seam = static_cast<std::uint32_t>(first.size());
  for (int q = 0; q < 40; ++q) {
    const std::string quote = utf8_of(random_quote(rng, joined, first.size()));
    const auto expected = ethos::match::build_claim_ladder(quote, policy.ladder);
    // The join's precondition: no accepted whole occurrence in either element alone.
    if (accepted(ethos::match::search_ladder(first_ladder, expected, TextRule::contains, policy), policy)) continue;
    if (accepted(ethos::match::search_ladder(second_ladder, expected, TextRule::contains, policy), policy)) continue;
    ++tally.screened;
    const LadderResult full = ethos::match::search_ladder(joined_ladder, expected, TextRule::contains, policy);
    const LadderResult near = ethos::match::search_ladder_near(joined_ladder, expected, policy, seam);
    CHECK(accepted(full, policy) == accepted(near, policy));
    if (accepted(full, policy)) {
      ++tally.joined;
      CHECK(same_located(full.whole, near.whole));
    }
    if (accepted(full, policy) != accepted(near, policy) ||
        (accepted(full, policy) && !same_located(full.whole, near.whole))) {
      std::fprintf(stderr, "seed %u: quote \"%s\" in \"%s\"\n", seed, quote.c_str(), joined_text.c_str());
    }
  }
}

// Long elements: the window is a small part of the joined text, and quotes far from the seam
// (in one element, at a tier the policy does not accept) must not ground the join.
void far_occurrences_are_not_searched() {
  const Policy& policy = *ethos::match::preset_policy("default");
  std::string first(400, 'x');
  first += " the TOTAL rose";  // "the total rose" is here only at the case tier
  for (int i = 0; i < 100; ++i) first += " word";  // far: a run of spaces would be one reading position
  first += " end";
  const std::string second = "start and so on";
  const std::string joined = first + " " + second;
  const auto ladder = ethos::match::build_ladder(joined, policy.ladder);
  const auto seam = static_cast<std::uint32_t>(ethos::utf8::scalar_count(first));
  const auto across = ethos::match::build_claim_ladder("end start", policy.ladder);
  const LadderResult found = ethos::match::search_ladder_near(ladder, across, policy, seam);
  CHECK(found.whole && found.whole->tier == ethos::match::Tier::exact);
  CHECK(same_located(found.whole, ethos::match::search_ladder(ladder, across, TextRule::contains, policy).whole));
  // Far from the seam: not in the window (the full search finds it at the case tier).
  const auto far = ethos::match::build_claim_ladder("the total rose", policy.ladder);
  CHECK(ethos::match::search_ladder(ladder, far, TextRule::contains, policy).whole.has_value());
  CHECK(!ethos::match::search_ladder_near(ladder, far, policy, seam).whole.has_value());
}

}  // namespace

int main() {
  for (const std::string& name : ethos::match::preset_names()) {
    Tally tally;
    for (std::uint32_t seed = 1; seed <= 1500; ++seed) equivalence(seed, *ethos::match::preset_policy(name), tally);
    std::printf("%s: %d joins screened, %d grounded\n", name.c_str(), tally.screened, tally.joined);
    // The randomized cases must reach both outcomes, or they prove nothing.
    CHECK(tally.screened > 1000);
    CHECK(tally.joined > 300);
  }
  far_occurrences_are_not_searched();
  return ethos_test::finish("seam_search_tests");
}
