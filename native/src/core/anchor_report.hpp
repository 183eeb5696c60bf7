// anchor_report.hpp - `evidence anchor`: binds a request's evidence refs to a source and writes the report (CONTRACTS.md §2.8).
#pragma once

#include <string>
#include <string_view>

#include "core/source.hpp"

namespace ethos {

inline constexpr std::string_view kAnchorReportType = "ethos.evidence_anchor_report.v1";

// Validates the request (JSON bytes), binds every ref and returns the canonical report JSON (no
// trailing newline). options_json: "" or {"statement": bool, "subject_name": string}; with
// statement the report is the predicate of an `evidence-anchor` Statement (§2.14). Anchors that
// do not bind are report data; only an invalid request (or options) throws EthosError.
std::string anchor_evidence(const Source& source, std::string_view request, std::string_view options_json);

}  // namespace ethos
