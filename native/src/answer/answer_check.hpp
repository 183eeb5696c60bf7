// answer_check.hpp - `check-answer`: verbatim coverage of a free-form answer against one or more
// sources and the verification of its quotations, as one canonical JSON result.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ethos {
class Source;
}

namespace ethos::answer {

// request: {"answer": string, "ngram"?: 3..1000 (default 3), "scope"?: "all"|"quotes" (default
// all), "policy"?: preset name (default "default"), "subsequence"?: bool (default false: add
// summary.subsequence, the longest common subsequence of words with the best source)}. Returns the ethos.answer_check.v1 result
// (canonical JSON, no trailing newline; schemas/answer-check.schema.json). Throws EthosError
// (invalid_input naming the request path) on a bad request or an empty source list.
std::string check_answer(const std::vector<const Source*>& sources, std::string_view request);

// The `--format text` rendering of a result (ends with a newline): the figures, every run and
// quotation with where it is, and the gate.
std::string answer_summary_text(std::string_view result);

}  // namespace ethos::answer
