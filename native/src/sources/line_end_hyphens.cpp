// line_end_hyphens.cpp - finds the hyphens that end a line of an element's text.
#include "sources/line_end_hyphens.hpp"

#include "core/source.hpp"
#include "text/utf8.hpp"

namespace ethos::sources {
namespace {

bool is_line_break(char32_t c) { return c == U'\n' || c == U'\r' || c == 0x2028 || c == 0x2029; }
bool is_blank(char32_t c) { return c == U' ' || c == U'\t'; }
bool is_hyphen(char32_t c) { return c == U'-' || c == 0x2010 || c == 0x00AD; }

}  // namespace

std::vector<std::int64_t> line_end_hyphens(std::string_view text) {
  std::vector<std::int64_t> out;
  // Most texts hold no hyphen before a line break at all: one cheap scan decides.
  if (text.find('\n') == std::string_view::npos && text.find('\r') == std::string_view::npos &&
      text.find("\xE2\x80\xA8") == std::string_view::npos && text.find("\xE2\x80\xA9") == std::string_view::npos) {
    return out;
  }
  std::vector<char32_t> scalars;
  scalars.reserve(text.size());
  for (std::size_t pos = 0; pos < text.size();) scalars.push_back(utf8::next(text, pos));
  for (std::size_t i = 1; i + 1 < scalars.size(); ++i) {
    if (!is_hyphen(scalars[i])) continue;
    // A hyphen standing alone ("a -\nb") is a dash, not a break inside a word or compound.
    if (is_blank(scalars[i - 1]) || is_line_break(scalars[i - 1]) || is_hyphen(scalars[i - 1])) continue;
    std::size_t j = i + 1;
    while (j < scalars.size() && is_blank(scalars[j])) ++j;
    if (j >= scalars.size() || !is_line_break(scalars[j])) continue;
    while (j < scalars.size() && (is_blank(scalars[j]) || is_line_break(scalars[j]))) ++j;
    if (j >= scalars.size()) continue;  // nothing follows: the hyphen ends the text, not a line
    out.push_back(static_cast<std::int64_t>(i));
  }
  return out;
}

void record_line_end_hyphens(Source& source) {
  for (Element& element : source.elements) {
    if (element.text && element.hyphen_breaks.empty()) element.hyphen_breaks = line_end_hyphens(*element.text);
  }
}

}  // namespace ethos::sources
