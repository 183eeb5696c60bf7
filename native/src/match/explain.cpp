// explain.cpp - turns a policy's fields into the sentences `ethos explain` prints.
#include "match/explain.hpp"

#include <nlohmann/json.hpp>

#include "json/c14n.hpp"
#include "match/guard_explain.hpp"
#include "text/unicode_props.hpp"

namespace ethos::match {
namespace {

const char* tier_assumption(Tier tier) {
  switch (tier) {
    case Tier::exact: return "exact: the cited text appears character for character.";
    case Tier::whitespace:
      return "whitespace: any run of Unicode white space or line breaks equals one space; leading and trailing "
             "space is ignored.";
    case Tier::typography:
      return "typography: HTML character references (&amp;, &rsquo;, &#8217;) are the characters they stand for; "
             "curly and straight quotes, dash variants, the ligatures U+FB00-U+FB06, full-width ASCII "
             "forms and the ellipsis character equal their plain spellings; a space beside a double quotation mark is "
             "no difference; soft hyphens, zero-width spaces, word "
             "joiners and byte order marks are ignored; a spacing accent as TeX sets it (before its letter, a cedilla or "
             "ogonek after it) is the accent on its letter; a math accent no letter composes with, before or after its "
             "letter (\u02C6\u03C3, \u03B2\u02C6), equals the letter with the combining mark, and the spacing caret "
             "\u02C6 and tilde \u02DC equal ASCII ^ and ~; decomposed and precomposed accents are equal (canonical "
             "composition, NFC).";
    case Tier::case_folded: return "case: upper and lower case are equal (full Unicode lowercase).";
    case Tier::skeleton:
      return "skeleton: only letters, marks and digits count; punctuation and symbols are dropped. UNSOUND: this can "
             "change meaning.";
  }
  return "";
}

}  // namespace

std::string explain_policy_json(const Policy& policy) {
  nlohmann::json assumptions = nlohmann::json::array();
  assumptions.push_back("Tiers are cumulative and searched in ladder order; a check reports the tightest tier that "
                        "matched.");
  if (policy.ladder.markers) {
    assumptions.push_back("Parser markers: every match of the marker_pattern " + policy.ladder.markers->pattern() +
                          " (RE2 syntax, found in each text on its own) reads as one space from the exact tier on, in "
                          "the source and in the cited text; evidence keeps the marker's characters.");
  }
  for (Tier tier : policy.tiers) {
    std::string line = tier == Tier::exact && policy.ladder.markers
                           ? std::string("exact: the cited text appears character for character, each parser marker "
                                         "read as one space.")
                           : std::string(tier_assumption(tier));
    line += policy.accepts(tier) ? " Accepted (grounded)." : " Not accepted: reported, never grounded.";
    assumptions.push_back(line);
  }
  assumptions.push_back(policy.whole_tokens
                            ? "A match starts and ends on token boundaries: words, numbers with their sign, decimals, "
                              "grouped digits, times, dates and percentages are never cut; each Han, Hiragana or "
                              "Katakana character is a token, and so is each character of Thai, Lao, Myanmar and Khmer with the "
                              "signs that belong to it."
                            : "Token boundaries are not checked: a match may start or end inside a word or number.");
  assumptions.push_back(policy.ladder.cjk_wrap_spaces
                            ? "White space between two CJK characters, or beside CJK punctuation, is a line wrap and "
                              "is ignored from the whitespace tier on."
                            : "White space between CJK characters counts like any other space.");
  std::string hyphenation = "Line-end hyphens recorded by the parser: ";
  if (policy.ladder.joined_reading && policy.ladder.hyphenated_reading) {
    hyphenation += "both the joined reading (hyphen and line break removed) and the hyphenated reading (line break "
                   "removed) are searched from the typography tier on.";
  } else if (policy.ladder.joined_reading) {
    hyphenation += "only the joined reading (hyphen and line break removed) is searched from the typography tier on.";
  } else if (policy.ladder.hyphenated_reading) {
    hyphenation += "only the hyphenated reading (line break removed) is searched from the typography tier on.";
  } else {
    hyphenation += "ignored; the line break counts as a space.";
  }
  assumptions.push_back(hyphenation);
  assumptions.push_back("Quotes are contained in the cited target; values and table cells equal the whole target "
                        "after normalization. An expected text that normalizes to empty never matches.");
  assumptions.push_back("A page-only citation searches every element of the page and keeps the best match (tightest "
                        "tier, earliest on ties). A page range (page..page_end) or scope document is searched as one "
                        "running text of its elements in reading order, header and footer elements left out, element "
                        "and page breaks read as line breaks; the first occurrence at the tightest tier is reported "
                        "with the number of occurrences.");
  append_guard_assumptions(policy, assumptions);
  nlohmann::json out = {{"assumptions", assumptions},
                        {"policy", nlohmann::json::parse(policy.canonical_json)},
                        {"policy_fingerprint", policy.fingerprint},
                        {"unicode_version", unicode::tables_version()}};
  return to_c14n(out);
}

}  // namespace ethos::match
