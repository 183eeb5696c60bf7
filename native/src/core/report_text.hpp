// report_text.hpp - `verify --format text`: a report as a person reads it in a terminal, highlighted when asked.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace ethos {

// The report (or Statement) as text: a line with the count, then per check its id, status, claim
// kind, tier or reason and page, the claim, and for a check that is not grounded the guards that
// blocked it and the near-miss diff with its changed words marked ([-document-] {+claim+});
// then the proof status. With `color`, SGR styles from the answer palettes (`palette`: classic,
// colorblind, neon, mono) mark statuses and changed words; the marks and words are printed either
// way, so colour is never the only signal. Control characters of claims print as U+FFFD (a claim
// cannot drive the terminal). Ends with a newline.
std::string render_report_text(const nlohmann::json& report, bool color, const std::string& palette);

}  // namespace ethos
