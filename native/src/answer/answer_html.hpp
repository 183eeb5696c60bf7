// answer_html.hpp - `check-answer --format html`: one self-contained page with the highlighted answer and where each run is.
#pragma once

#include <string>
#include <string_view>

namespace ethos::answer {

// The HTML page for `result` (an ethos.answer_check.v1 result) of `answer` (the text that was
// checked). options: {"palette"?: "classic"|"colorblind"|"neon"|"mono" (default classic),
// "links"?: [string|null, ...] (per source document in result order: the location of its PDF,
// relative or absolute; each located run and quotation then links to `location#page=N`)}.
//
// The page loads nothing (no script, style sheet, font or image: one inline style element), and
// its Content-Security-Policy meta forbids every fetch but that style, so it opens the same
// offline. Every text of the answer and the result is escaped; controls show as U+FFFD, and
// invisible characters that could reorder or hide text (bidi controls, zero-width space, word
// joiner, BOM, tag characters) show as their code point in a marked box. Each word carries its
// verdict's palette style, a title naming the verdict, and links to its run or quotation, which
// names its source, element, page number and boxes. Throws EthosError invalid_input on a bad
// option, result or answer.
std::string answer_render_html(std::string_view result, std::string_view answer, std::string_view options);

// `location` as a link target: percent-encoded but for unreserved characters and '/', so a
// location is always a path (never a scheme such as "javascript:"), then "#page=N".
std::string pdf_page_href(std::string_view location, long long page);

}  // namespace ethos::answer
