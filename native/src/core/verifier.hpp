// verifier.hpp - the per-check pipeline of CONTRACTS.md §3.1: one verdict per claim.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/citations.hpp"
#include "core/config.hpp"
#include "core/source.hpp"
#include "core/stream_reading.hpp"
#include "core/table_columns.hpp"
#include "match/match_extras.hpp"
#include "match/matcher.hpp"

namespace ethos {

// What a citation resolved to: the text and place a verdict is about.
struct Target {
  std::string_view page;             // page id (owned by the source)
  std::optional<Bbox> bbox;
  // The target's text: a string owned by the immutable source (element, span or cell text), or
  // the joined text of a cross-element join held in `joined`; nullptr for a text-less page.
  const std::string* text = nullptr;
  std::shared_ptr<const std::string> joined;
  std::vector<std::size_t> elements; // element indices behind the target (0, 1 or 2 for joins)
  const char* tier = "";             // exact_span | element_scoped | table_cell | page_scoped
  std::size_t join_boundary = 0;     // byte offset in text where the second joined element starts
  // Set when the text is a table's column reading (`joined` then holds that text): the match's
  // boxes are the cells it touches.
  std::shared_ptr<const TableColumns> columns;
  // Set when the text is (a stretch of) a page's content-stream reading (`joined` then holds that
  // text): offsets map through its pieces to the elements' glyphs.
  std::shared_ptr<const StreamReading> stream = nullptr;
  // The further reading the text is, named in the report's `match.reading` (docs/matching.md
  // "Reading order"); nullptr for the document's own reading order.
  const char* reading = nullptr;
  // The text is ASCII only (an element's, known from its source): byte offsets are scalar offsets.
  bool ascii = false;
  // The text is a hidden span's (Span::hidden): a quote found there is no grounded quote.
  bool hidden = false;
};

// Byte range of a match in the target's original text.
struct MatchRange {
  std::size_t begin = 0, end = 0;
};

struct NearestMatch {
  std::size_t element = 0;
  std::int64_t similarity_bp = 0;
};

struct CheckResult {
  // Vocabulary words of the contracts, so static strings: no allocation per check.
  const char* status = "";
  const char* reason = "";        // empty when grounded
  const char* match_method = "none";  // "none" when no comparison happened
  bool semantic_unverified = false;
  std::optional<Target> target;
  std::optional<MatchRange> match;  // grounded quote/value: where in target->text
  std::optional<NearestMatch> nearest;
  // Ladder policies only: where the claim text was found in target->text (the grounded match,
  // the clipped one behind token_boundary, or one at a tier the policy does not accept).
  std::optional<match::Located> located;
  // The byte offset of located->start in target->text when the verifier already counted it (the
  // negation check before a grounded quote), so the report does not count it again; npos when not.
  std::size_t located_start_byte = static_cast<std::size_t>(-1);
  // Stitched quotations and near misses (reasons stitched_quotation, near_miss, numeric_guard,
  // polarity_guard): fragments, score, diff and guards, shown with `located`.
  std::shared_ptr<const match::MatchExtras> extras;
  std::vector<const char*> warnings;
};

struct Verdicts {
  std::vector<CheckResult> checks;
  bool fingerprint_stale = false;
  std::vector<std::string> unsupported_claim_kinds;  // first-appearance order, deduplicated
};

Verdicts verify_claims(const Source& source, const CitationSet& citations, const VerificationConfig& config);

// verify-batch's hook: verifies citation set after citation set with one verifier, so the source
// texts it normalizes and the ladders it builds (memoized per immutable source string) are built
// once for the whole batch. verify(set) returns exactly what verify_claims(source, set, config)
// does. Holds caches: one per thread, never shared.
class BatchVerifier {
 public:
  BatchVerifier(const Source& source, const VerificationConfig& config);
  ~BatchVerifier();
  BatchVerifier(const BatchVerifier&) = delete;
  BatchVerifier& operator=(const BatchVerifier&) = delete;
  Verdicts verify(const CitationSet& citations);
  // The same into verdicts, whose vectors (a previous set's, cleared) keep their capacity.
  void verify(const CitationSet& citations, Verdicts& verdicts);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ethos
