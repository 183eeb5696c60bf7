// html_entities.hpp - recognizes an HTML character reference ("&amp;", "&#8217;", "&#x2019;") in a text.
#pragma once

#include <cstddef>
#include <string>

namespace ethos::text {

// A character reference as decoded: the scalars it stands for (one or two) and how many scalars
// of the text it spans, from its "&" to its ";".
struct HtmlReference {
  char32_t scalars[2] = {0, 0};
  std::size_t scalar_count = 0;
  std::size_t length = 0;
};

// The reference that starts at text[at] (an "&"): a named one with its semicolon (the WHATWG
// list), a decimal "&#NNN;" or a hexadecimal "&#xHHH;" one whose value is a Unicode scalar other
// than U+0000. Anything else (a bare "&", "&amp" without ";", an unknown name, a surrogate) is not a
// reference: length 0.
HtmlReference html_reference_at(const std::u32string& text, std::size_t at);

}  // namespace ethos::text
