// guard_tests.hpp - stitched quotations, near misses and the numeric and polarity guards
// (included by match_tests.cpp, which provides CHECK).
#include "match/align.hpp"
#include "match/near_miss.hpp"
#include "match/occurrence_guards.hpp"
#include "match/numeric_guard.hpp"
#include "match/polarity_guard.hpp"
#include "match/stitch.hpp"

namespace {

using ethos::match::Guard;
using ethos::match::Policy;

const Policy& default_policy() { return *ethos::match::preset_policy("default"); }

std::vector<ethos::match::Token> tokens_of(const std::string& text) {
  return ethos::match::tokenize_text(text, default_policy().ladder);
}

Guard numeric(const std::string& quote, const std::string& source) {
  const auto q = tokens_of(quote);
  const auto s = tokens_of(source);
  return ethos::match::numeric_guard(ethos::match::numeric_mentions(q, 0, q.size()),
                                     ethos::match::numeric_mentions(s, 0, s.size()));
}

Guard polarity(const std::string& quote, const std::string& source) {
  const auto q = tokens_of(quote);
  const auto s = tokens_of(source);
  return ethos::match::polarity_guard(q, s, ethos::match::align_tokens(q, s, 0, s.size()));
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

void test_elision_marks() {
  using ethos::match::split_at_elisions;
  using V = std::vector<std::string>;
  CHECK(split_at_elisions("no mark here") == V{});
  CHECK((split_at_elisions("the board ... the budget") == V{"the board", "the budget"}));
  CHECK((split_at_elisions("the board \xE2\x80\xA6 the budget") == V{"the board", "the budget"}));
  CHECK((split_at_elisions("the board [...] the budget") == V{"the board", "the budget"}));
  CHECK((split_at_elisions("the board [\xE2\x80\xA6] the budget (...) later") == V{"the board", "the budget", "later"}));
  CHECK((split_at_elisions("the board . . . the budget") == V{"the board", "the budget"}));
  // A mark at the start or end only marks truncation: no stitched quotation.
  CHECK((split_at_elisions("... the budget....") == V{}));
  CHECK((split_at_elisions("\xE2\x80\xA6 the budget") == V{}));
  CHECK((split_at_elisions("... the board ... the budget [...]") == V{"the board", "the budget"}));
  using ethos::match::strip_truncation;
  CHECK(strip_truncation("... the budget....") == "the budget");
  CHECK(strip_truncation(" \xE2\x80\xA6the budget") == "the budget");
  CHECK(strip_truncation("the budget . . .") == "the budget");
  CHECK(strip_truncation("[...] the budget (\xE2\x80\xA6)") == "the budget");
  CHECK(strip_truncation("the board ... the budget") == "the board ... the budget");
  CHECK(strip_truncation("... the board ... the budget ...") == "the board ... the budget");
  CHECK(strip_truncation("f(x, ...)") == "f(x, ...)");  // "...)" ends in a parenthesis: no truncation
  CHECK(strip_truncation("...") == "...");                // nothing would remain
  CHECK(strip_truncation("no mark") == "no mark");
  CHECK((split_at_elisions("a (note) and [1] stay") == V{}));
}

void test_stitched_fragments() {
  const std::string text = "The board approved the plan on Monday. It did not approve the budget for 2025.";
  const Policy& policy = default_policy();
  const auto ladder = ethos::match::build_ladder(text, policy.ladder);
  auto result = ethos::match::locate_fragments(ladder, {"The board approved", "the budget"}, policy);
  CHECK(result.fragments.size() == 2 && result.fragments[0].found && result.fragments[1].found);
  CHECK(result.span && result.span->start == 0 && result.span->end == 68);
  CHECK(result.fragments[1].elided == std::string("the plan on Monday. It did not approve"));
  CHECK(result.guards.size() == 2 && !result.guards[0].block && result.guards[1].block);
  CHECK(contains(result.guards[1].detail, "negation \"not\""));
  // A figure in the elided text blocks the numeric guard; a qualifier the polarity guard.
  result = ethos::match::locate_fragments(ladder, {"approved the plan", "for 2025"}, policy);
  CHECK(!result.guards[0].block && result.guards[1].block);
  result = ethos::match::locate_fragments(ladder, {"The board", "Monday"}, policy);
  CHECK(!result.guards[0].block && !result.guards[1].block);
  const auto figures = ethos::match::build_ladder("Sales rose only 5% in 2024 to 3 million units.", policy.ladder);
  result = ethos::match::locate_fragments(figures, {"Sales rose", "units"}, policy);
  CHECK(result.guards[0].block && contains(result.guards[0].detail, "5%") && contains(result.guards[0].detail, "3 million"));
  CHECK(result.guards[1].block && contains(result.guards[1].detail, "qualifier \"only\""));
  // Fragments must come in order and within the window.
  result = ethos::match::locate_fragments(ladder, {"the budget", "The board approved"}, policy);
  CHECK(result.fragments[0].found && !result.fragments[1].found);
  Policy narrow = policy;
  narrow.elision_window_chars = 10;
  result = ethos::match::locate_fragments(ladder, {"The board approved", "the budget"}, narrow);
  CHECK(result.fragments[0].found && !result.fragments[1].found && !result.fragments[1].elided);
  // Whole tokens only, and the tightest accepted tier per fragment.
  result = ethos::match::locate_fragments(ladder, {"board approv", "budget"}, policy);
  CHECK(!result.fragments[0].found && result.fragments[1].found);
  result = ethos::match::locate_fragments(ladder, {"THE BOARD", "the budget"}, policy);
  CHECK(result.fragments[0].found && result.fragments[0].found->tier == Tier::case_folded);
  CHECK(result.fragments[1].found->tier == Tier::exact && result.span->tier == Tier::case_folded);
}

void test_numeric_guard() {
  // "one" / "uno" alone is a pronoun or article as often as a figure: never added or dropped on
  // its own, but still compared with a figure in its place; with a unit or beside a numeral it counts.
  CHECK(!numeric("Moreover, one may specify the range", "Moreover, we may specify the range").block);
  CHECK(!numeric("may specify the range", "Moreover, one may specify the range").block);
  CHECK(!numeric("Uno de los paquetes", "de los paquetes").block);
  Guard pronoun = numeric("two of the plants", "one of the plants");
  CHECK(pronoun.block && contains(pronoun.detail, "figure changed"));
  CHECK(numeric("one percent of plants", "of plants").block);
  CHECK(numeric("one hundred plants", "plants").block);
  CHECK(numeric("eins", "").block);  // "eins" is only the numeral
  {
    const auto t = tokens_of("Moreover, one may specify 3 options");
    const auto mentions = ethos::match::numeric_mentions(t, 0, t.size());
    CHECK(mentions.size() == 2 && mentions[0].pronoun && !mentions[1].pronoun);
  }
  // Same figure, other spelling: pass.
  CHECK(!numeric("grew 1,234.5 units", "grew 1.234,5 units").block);
  CHECK(!numeric("a loss of (5) points", "a loss of -5 points").block);
  CHECK(!numeric("$5 million", "USD 5,000,000").block);
  CHECK(!numeric("5 bn", "5 billion").block);
  CHECK(!numeric("three items", "3 items").block);
  CHECK(!numeric("twenty-five items", "25 items").block);
  CHECK(!numeric("12.50%", "12.5 %").block);
  CHECK(!numeric("5 per cent", "5%").block);
  CHECK(!numeric("no figures here", "none here either").block);
  // Changed figures: block, with what changed.
  Guard g = numeric("rose 125%", "rose 12.5%");
  CHECK(g.block && contains(g.detail, "decimal shift"));
  g = numeric("fell 5 points", "fell -5 points");
  CHECK(g.block && contains(g.detail, "sign changed"));
  g = numeric("rose 5 points", "rose 5%");
  CHECK(g.block && contains(g.detail, "unit changed (percent vs points)"));
  g = numeric("paid 5 EUR", "paid $5");
  CHECK(g.block && contains(g.detail, "currency changed"));
  CHECK(numeric("5 million", "5 billion").block);
  CHECK(numeric("5k", "5m").block);
  CHECK(numeric("1,234", "1,243").block);
  CHECK(numeric("on 2024-01-06", "on 2024-01-05").block);
  CHECK(!numeric("on 5 March 2024", "on 5 march 2024").block);
  CHECK(numeric("in March 2024", "in April 2024").block);
  CHECK(numeric("four items", "five items").block);
  g = numeric("sold 10 units", "sold units");
  CHECK(g.block && contains(g.detail, "figure added"));
  g = numeric("sold units", "sold 10 units");
  CHECK(g.block && contains(g.detail, "figure dropped"));
  // The ambiguous grouping "1,234" is 1234 or 1.234: equal to either reading.
  CHECK(!numeric("1,234", "1234").block && !numeric("1,234", "1.234").block);
  CHECK(numeric("1,234", "12.34").block);
}

void test_polarity_guard() {
  Guard g = polarity("the board did not approve the plan", "the board did approve the plan");
  CHECK(g.block && contains(g.detail, "negation added: \"not\""));
  g = polarity("the board did approve the plan", "the board did not approve the plan");
  CHECK(g.block && contains(g.detail, "negation dropped: \"not\""));
  CHECK(polarity("it doesn't work", "it does work").block);
  CHECK(polarity("das ist nicht gut", "das ist gut").block);
  CHECK(polarity("es ist kein Problem", "es ist ein Problem").block);
  CHECK(polarity("il ne travaille pas", "il travaille").block);
  CHECK(polarity("ce n'est pas vrai", "c'est vrai").block);
  CHECK(polarity("nunca llueve", "siempre llueve").block);
  CHECK(polarity("sin azucar", "con azucar").block);
  g = polarity("revenue rose sharply", "revenue fell sharply");
  CHECK(g.block && contains(g.detail, "\"fell\" -> \"rose\""));
  CHECK(polarity("the motion was rejected", "the motion was approved").block);
  CHECK(polarity("prices were above target", "prices were below target").block);
  CHECK(polarity("a gain of 5", "a loss of 5").block);
  CHECK(polarity("before the merger", "after the merger").block);
  CHECK(polarity("Die Preise stiegen stark", "Die Preise sanken stark").block);
  CHECK(polarity("les prix sont en hausse", "les prix sont en baisse").block);
  CHECK(polarity("los precios subió", "los precios bajó").block);
  // Same polarity, other words: pass.
  CHECK(!polarity("the board did not approve it", "the board did not accept it").block);
  CHECK(!polarity("revenue rose sharply", "revenue rose strongly").block);
}

void test_near_misses() {
  const Policy& policy = default_policy();
  std::string text;
  for (int i = 0; i < 60; ++i) text += "Filler sentence number " + std::to_string(i) + " says little of note. ";
  text += "Operating income rose 12.5% to EUR 3.4 billion in 2024, driven by strong demand. ";
  for (int i = 60; i < 120; ++i) text += "Filler sentence number " + std::to_string(i) + " says little of note. ";
  const auto index = ethos::match::build_near_miss_index(text, policy.ladder);
  const auto located = [&](const std::string& quote) { return ethos::match::find_near_miss(index, quote, policy); };
  auto miss = located("Operating income rose 12.5% to EUR 3.4 billion in 2024, driven by weak demand.");
  CHECK(miss && std::string(miss->reason) == "near_miss");
  const std::size_t expected_start = text.find("Operating");
  CHECK(miss && miss->start == expected_start && miss->score_bp > 8000 && miss->score_bp < 10000);
  bool replaced = false;
  for (const auto& entry : miss->diff) {
    replaced = replaced || (entry.op == ethos::match::EditOp::replace && entry.quote == "weak" && entry.source == "strong");
  }
  CHECK(replaced);
  CHECK(miss->guards.size() == 2 && !miss->guards[0].block && !miss->guards[1].block);
  miss = located("Operating income rose 1.25% to EUR 3.4 billion in 2024, driven by strong demand.");
  CHECK(miss && std::string(miss->reason) == "numeric_guard" && miss->guards[0].block);
  miss = located("Operating income fell 12.5% to EUR 3.4 billion in 2024, driven by strong demand.");
  CHECK(miss && std::string(miss->reason) == "polarity_guard" && miss->guards[1].block);
  miss = located("Operating income rose 12.5% to EUR 3.4 billion in 2024, not driven by strong demand.");
  CHECK(miss && std::string(miss->reason) == "polarity_guard");
  // Both guards block: numeric wins the reason, both are listed.
  miss = located("Operating income fell 1.25% to EUR 3.4 billion in 2024, driven by strong demand.");
  CHECK(miss && std::string(miss->reason) == "numeric_guard" && miss->guards[1].block);
  // Dropped words are "delete" runs; words only in the quote are "insert" runs.
  miss = located("Operating income rose 12.5% to EUR 3.4 billion in 2024, driven by demand.");
  CHECK(miss && miss->diff.size() >= 3 && miss->diff[1].op == ethos::match::EditOp::remove && miss->diff[1].source == "strong");
  // Nothing similar enough, or a quote over the token bound: no near miss.
  CHECK(!located("Completely unrelated words about gardening and weather patterns in spring."));
  Policy bounded = policy;
  bounded.near_miss_max_quote_tokens = 5;
  CHECK(!ethos::match::find_near_miss(index, "Operating income rose 12.5% to EUR 3.4 billion", bounded));
  Policy strict_score = policy;
  strict_score.near_miss_min_score_bp = 9990;
  CHECK(!ethos::match::find_near_miss(index, "Operating income rose 12.5% to EUR 3.4 billion in 2024, driven by weak demand.", strict_score));
}

void test_policy_presets_enable_guards() {
  for (const std::string& name : ethos::match::preset_names()) {
    const Policy* policy = ethos::match::preset_policy(name);
    CHECK(policy->elision && policy->near_miss && policy->numeric_guard && policy->polarity_guard);
    CHECK(policy->near_miss_max_candidates == 8 && policy->near_miss_max_quote_tokens == 256);
  }
}

void test_guards() {
  test_elision_marks();
  test_stitched_fragments();
  test_numeric_guard();
  test_polarity_guard();
  test_near_misses();
  test_policy_presets_enable_guards();
}

}  // namespace

namespace {

void test_negation_before() {
  using ethos::match::negation_before;
  const std::string text = "Not all methods fit. Some do not fit\tany category; no, never.";
  const auto at = [&](const std::string& part) {
    const auto start = static_cast<std::uint32_t>(text.find(part));
    return ethos::match::Located{Tier::exact, start, static_cast<std::uint32_t>(start + part.size()), 1};
  };
  auto guard = negation_before(text, at("all methods fit"));
  CHECK(guard && guard->block && std::string(guard->name) == "polarity" && contains(guard->detail, "\"Not\""));
  CHECK(negation_before(text, at("fit\tany category")).has_value());       // "not" right before
  CHECK(!negation_before(text, at("Some do not fit")));        // a sentence end before
  CHECK(!negation_before(text, at("Not all methods")));        // text start
  CHECK(!negation_before(text, at("never.")));                 // a comma between
  CHECK(!negation_before(text, at("methods fit")));            // "all" is no negator
  CHECK(negation_before("Das ist nicht  gut.", ethos::match::Located{Tier::exact, 15, 18, 1}).has_value());
  // Upper case reads as the case tier reads it; a word beyond ASCII letters takes that tier.
  CHECK(negation_before("We NEVER agree.", ethos::match::Located{Tier::exact, 9, 14, 1}).has_value());
  CHECK(negation_before("Es ist NICHT gut.", ethos::match::Located{Tier::exact, 13, 16, 1}).has_value());
  CHECK(negation_before("Eso JAM\u00C1S pasa.", ethos::match::Located{Tier::exact, 10, 14, 1}).has_value());
  CHECK(!negation_before("We DO agree.", ethos::match::Located{Tier::exact, 6, 11, 1}));
}

}  // namespace
