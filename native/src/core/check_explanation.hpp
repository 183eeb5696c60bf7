// check_explanation.hpp - why a check is not grounded, in words: its verdict, its claim, the guards that blocked it and the near-miss diff (shared by the CI formats and the text format).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ethos {

// At most `max_scalars` Unicode scalars of UTF-8 text, with "…" when cut (a megabyte claim must not
// become a megabyte title; the report keeps all of it).
std::string clipped_text(const std::string& text, std::size_t max_scalars);

// The claim's text ("" when it has none).
std::string claim_text_of(const nlohmann::json& check);

// "mismatch (numeric_guard)", or the status alone.
std::string verdict_of(const nlohmann::json& check);

// The near-miss diff on one line, its steps a space apart: equal text as it is, document-only text
// through `removed`, claim-only text through `added` (the plain forms write "[-…-]" and "{+…+}").
std::string diff_line_of(const nlohmann::json& diff, const std::function<std::string(const std::string&)>& removed,
                         const std::function<std::string(const std::string&)>& added);

// "[-text-]" and "{+text+}": the diff's marks without colour.
std::string removed_mark(const std::string& text);
std::string added_mark(const std::string& text);

// The lines that explain a check: "<id> <verdict>", "claim: \"…\"", "guard <name>: <detail>" per
// blocking guard, "diff (document [-...-], claim {+...+}): …" when there is a diff.
std::vector<std::string> explanation_of(const nlohmann::json& check, std::size_t max_scalars);

}  // namespace ethos
