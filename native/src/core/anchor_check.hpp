// anchor_check.hpp - binds one evidence ref to a source: the per-axis checks, status and achieved level (CONTRACTS.md §3.9).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/anchor_request.hpp"
#include "core/source.hpp"

namespace ethos {

// The axes of one anchor; every value is a word of the report vocabulary (static strings).
struct AnchorChecks {
  const char* fingerprint = "not_checked";  // matched | stale | not_checked | capability_limited
  const char* page = "not_checked";         // found | not_found | not_checked
  const char* text = "not_checked";         // matched | mismatch | not_found | not_checked | capability_limited
  const char* bbox = "not_checked";         // valid | invalid | not_found | not_checked | capability_limited
  const char* table_cell = "not_checked";   // matched | mismatch | not_found | not_checked | capability_limited
};

struct AnchorResult {
  const char* status = "not_found";  // bound | mismatch | not_found | stale_fingerprint | capability_limited | unsupported_evidence_kind
  const char* achieved_level = "none";
  AnchorChecks checks;
  std::vector<const char*> capability_limits;  // capability_limits enum order, no duplicates
};

// The containment tolerance of §3.6 for anchors: the default, whatever a verify config says.
inline constexpr std::int64_t kAnchorBboxTolerance = 50;

AnchorResult bind_anchor(const Source& source, const std::optional<std::string>& request_fingerprint, const EvidenceRef& ref);

}  // namespace ethos
