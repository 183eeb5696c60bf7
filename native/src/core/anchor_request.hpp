// anchor_request.hpp - the evidence-anchor request (CONTRACTS.md §2.8): strict loading and validation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/source.hpp"

namespace ethos {

inline constexpr std::string_view kAnchorRequestType = "ethos.evidence_anchor_request.v1";
inline constexpr std::string_view kAnchorCoordinateProfile = "ethos_quantized_top_left_v1";
inline constexpr std::string_view kAnchorTextProfile = "ethos_collapse_whitespace_v1";

struct AnchorCell {
  std::int64_t row = 0, col = 0;  // 0-based, like citation cells
};

struct AnchorLocator {
  std::optional<std::int64_t> page_index;  // 1-based
  std::optional<std::string> page_id, element_id, span_id, table_id;
  std::optional<Bbox> bbox;
  std::optional<AnchorCell> cell;
  bool has_page() const { return page_index.has_value() || page_id.has_value(); }
  bool has_target() const { return element_id || span_id || table_id; }
};

struct EvidenceRef {
  std::string evidence_id;
  std::string evidence_kind;           // page | text | text_region | table_cell | region | other
  std::string required_anchor_level;   // page | text | bbox | text_bbox | table_cell
  AnchorLocator locator;
  std::optional<std::string> expected_text;
  std::string normalized_expected;     // expected_text under the fixed collapse-whitespace profile
};

struct AnchorRequest {
  std::optional<std::string> source_fingerprint;
  std::vector<EvidenceRef> refs;
};

// Parses and validates a request; every violated rule is an invalid_input error (exit 2) whose
// details name the JSON path of the offending value.
AnchorRequest load_anchor_request(std::string_view bytes);

}  // namespace ethos
