// guard_explain.cpp - fixed sentences for the elision, near-miss and guard fields of a policy.
#include "match/guard_explain.hpp"

#include <string>

namespace ethos::match {

void append_guard_assumptions(const Policy& policy, nlohmann::json& assumptions) {
  if (policy.elision) {
    assumptions.push_back("A quote with elision marks (..., U+2026, [...], (...)) between fragments that does not "
                          "match as written is a stitched quotation: its fragments are located in order at accepted tiers, whole tokens "
                          "only, each starting at most " + std::to_string(policy.elision_window_chars) +
                          " characters after the previous one; it is never grounded (mismatch, reason "
                          "stitched_quotation) and the report lists each fragment and the elided source text. A mark "
                          "at the start or end of a quote marks truncation: the quote is verified without it.");
  } else {
    assumptions.push_back("Elision marks are ordinary text: a stitched quotation is a mismatch without fragments.");
  }
  if (policy.near_miss) {
    assumptions.push_back("A quote no accepted tier matches is aligned word by word (case tier; words and numbers weigh "
                          "2, punctuation 1) against at most " + std::to_string(policy.near_miss_max_candidates) +
                          " source windows seeded by its rarest words; the best span scoring at least " +
                          std::to_string(policy.near_miss_min_score_bp) + " basis points is reported with its score "
                          "and token diff as a near miss (mismatch, never grounded). Quotes over " +
                          std::to_string(policy.near_miss_max_quote_tokens) + " tokens are not aligned.");
  } else {
    assumptions.push_back("Near misses are not located: a quote that does not match is a mismatch without a diff.");
  }
  assumptions.push_back(policy.numeric_guard
                            ? "Numeric guard: a near miss or an elision that changes, adds or drops a figure (value, "
                              "decimal shift, sign or accounting parentheses, scale word, percent vs points, currency, "
                              "date, spelled-out number; English and European digit grouping read alike) blocks with "
                              "reason numeric_guard."
                            : "Numeric guard off: changed figures are not named.");
  assumptions.push_back(policy.polarity_guard
                            ? "Polarity guard: a near miss that adds or drops a negation (English, German, French, "
                              "Spanish) or swaps a direction word for its antonym (rose/fell, above/below ...) blocks "
                              "with reason polarity_guard, and so does a quote that starts right after a negation in the "
                              "source (\"approve\" cut from \"did not approve\", \"don't\" and \"don\u2019t\" alike) or inside "
                              "a hyphenated compound whose other part negates it (\"negative\" cut from \"non-negative\", "
                              "\"sugar\" from \"sugar-free\", \"2020\" from \"pre-2020\"); "
                              "an elision that removes a negation or a qualifier (only, all, except ...) is flagged."
                            : "Polarity guard off: added or dropped negations are not named.");
}

}  // namespace ethos::match
