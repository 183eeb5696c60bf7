// citations.hpp - the citations input (CONTRACTS.md §2.4): claims with their locators.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include "core/source.hpp"

namespace ethos {

struct CellAddress {
  std::int64_t row = 0, col = 0;
};

struct Citation {
  std::optional<std::string> page, element_id, span_id, table_id;
  std::optional<CellAddress> cell;
  std::optional<Bbox> bbox;
  // Extensions (CONTRACTS §4): an inclusive page range page..page_end, or the whole document.
  std::optional<std::string> page_end;
  bool document_scope = false;
  bool has_locator() const { return page || element_id || span_id || table_id || cell || bbox || document_scope; }
  bool has_primary_locator() const { return has_table_locator() || span_id || element_id || bbox; }
  bool is_scoped_search() const { return page_end.has_value() || document_scope; }
  bool has_table_locator() const { return table_id.has_value() || cell.has_value(); }
};

struct Claim {
  std::string kind;
  std::optional<std::string> text;
  Citation citation;
  std::string echo;  // canonical JSON of the claim exactly as parsed, echoed into its check
};

struct CitationSet {
  std::optional<std::string> document_fingerprint;  // from the envelope form only
  std::vector<Claim> claims;
  std::string claims_sha256;  // sha256(c14n(parsed claims array)), for the attestation
};

// How per-claim rules that have a report reason are enforced: `strict` (every CLI rejects the
// whole input, exit 2) or `report` (library callers get error checks with the public reasons).
enum class ClaimValidation { strict, report };

// Parses and validates citations. max_checks is the config's limit (input_limit_exceeded).
CitationSet load_citations(std::string_view bytes, std::int64_t max_checks, ClaimValidation validation);
// The same with a JSON parser the caller reuses across inputs (verify-batch: one per thread).
CitationSet load_citations(simdjson::dom::parser& parser, std::string_view bytes, std::int64_t max_checks,
                           ClaimValidation validation);
// The same into set, whose storage (a previous request's, in verify-batch) is reused: vectors
// and strings are overwritten, not freed and allocated again. On a throw set is unspecified.
void load_citations_into(simdjson::dom::parser& parser, std::string_view bytes, std::int64_t max_checks,
                         ClaimValidation validation, CitationSet& set);

// True when text is empty or only Unicode White_Space.
bool is_blank(std::string_view text);

}  // namespace ethos
