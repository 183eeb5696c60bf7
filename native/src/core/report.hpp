// report.hpp - writes the verification report (CONTRACTS.md §2.6), bare or in its in-toto Statement.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/citations.hpp"
#include "core/config.hpp"
#include "core/source.hpp"
#include "core/verifier.hpp"

namespace ethos {

// Canonical report JSON. With statement_subject set, the report is the predicate of the Statement
// of §2.14 whose subject[0] is the representation read (that name, digest of its bytes).
std::string write_report(const Source& source, const CitationSet& citations, const VerificationConfig& config,
                         const Verdicts& verdicts, const std::optional<std::string>& statement_subject);

// The parts of a report that depend on the source and the config alone (the capability limits
// and the canonical `grounding` object), computed once: verify-batch writes one report per
// request line, all with the same ones. The reports are byte for byte those of write_report.
struct ReportConstants {
  std::vector<std::string> limits;
  // The report-level warnings, sorted: capability_limited, the source's own (unknown fields of
  // a foreign source) and public_matching_rule when an explicit public config's rule decided.
  std::vector<std::string> warnings;
  std::string grounding;  // canonical JSON
  // With runs (verify-batch): the constant members around the checks written once, as bytes that
  // every report copies (CanonicalWriter::raw_members) instead of writing them key by key.
  bool has_runs = false;
  std::string attestation_run;  // attestation: config_version .. verifier
  std::string grounding_run;    // grounding .. schema_version
  std::string tail_run;         // verification_config_sha256 .. warnings
};
ReportConstants report_constants(const Source& source, const VerificationConfig& config, bool with_runs = false);
std::string write_report(const Source& source, const CitationSet& citations, const VerificationConfig& config,
                         const Verdicts& verdicts, const std::optional<std::string>& statement_subject,
                         const ReportConstants& constants);
// The same report appended to `out` (verify-batch writes its reports one after another into
// shared buffers instead of a string each).
void append_report(std::string& out, const Source& source, const CitationSet& citations,
                   const VerificationConfig& config, const Verdicts& verdicts,
                   const std::optional<std::string>& statement_subject, const ReportConstants& constants);

}  // namespace ethos
