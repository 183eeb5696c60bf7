// security_report.hpp - `security report`: a document's security warnings as findings a reviewer
// can act on (CONTRACTS.md §2.12).
#pragma once

#include <string>
#include <string_view>

namespace ethos {

// The security report as canonical JSON (no trailing newline).
std::string security_report_json(std::string_view document_bytes);

}  // namespace ethos
