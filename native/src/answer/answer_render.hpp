// answer_render.hpp - terminal highlighting of an answer check: each answer word in its verdict's style.
#pragma once

#include <string>
#include <string_view>

namespace ethos::answer {

// The `check-answer --format text` output for `result` (an ethos.answer_check.v1 result) of
// `answer` (the text that was checked). options: {"palette"?: "classic"|"colorblind"|"neon"|"mono"
// (default classic), "color"?: bool (default true), "part"?: "all"|"words" (default all)}.
//
// With color, "all" is the answer with every word in the style of its verdict (SGR escapes), a key
// line naming the styles, then answer_summary_text(result); "words" is the highlighted answer
// alone. Without color, "all" is answer_summary_text(result) byte for byte and "words" the answer.
// Control characters of the answer (ESC among them) are printed as U+FFFD, so an answer cannot
// drive the terminal. Throws EthosError invalid_input on a bad option, result or answer.
std::string answer_render_text(std::string_view result, std::string_view answer, std::string_view options);

}  // namespace ethos::answer
