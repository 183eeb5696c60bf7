// report.hpp - the verification report (CONTRACTS.md §2.6) and its in-toto Statement wrapper.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/citations.hpp"
#include "core/config.hpp"
#include "core/source.hpp"
#include "core/verifier.hpp"

namespace ethos {

nlohmann::json build_report(const Source& source, const CitationSet& citations, const VerificationConfig& config,
                            const Verdicts& verdicts);

// §2.14: {"_type", subject[{name, digest{sha256}}], predicateType, predicate}.
nlohmann::json wrap_statement(const Source& source, const std::string& subject_name, const char* predicate_kind,
                              nlohmann::json predicate);

// The certification gate of §2.6 (all_evidence_grounded), from report fields.
bool all_evidence_grounded(const nlohmann::json& report);

}  // namespace ethos
