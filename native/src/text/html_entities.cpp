// html_entities.cpp - decodes HTML character references against the generated WHATWG name table.
#include "text/html_entities.hpp"

#include <algorithm>
#include <cstring>
#include <string_view>

namespace ethos::text {
namespace {

struct HtmlEntity {
  const char* name;
  char32_t first;
  char32_t second;
};

#include "text/html_entities.inc"

bool ascii_alnum(char32_t c) { return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z') || (c >= U'0' && c <= U'9'); }

int digit_value(char32_t c, bool hex) {
  if (c >= U'0' && c <= U'9') return static_cast<int>(c - U'0');
  if (hex && c >= U'a' && c <= U'f') return static_cast<int>(c - U'a' + 10);
  if (hex && c >= U'A' && c <= U'F') return static_cast<int>(c - U'A' + 10);
  return -1;
}

HtmlReference numeric_reference(const std::u32string& text, std::size_t at) {
  HtmlReference none;
  std::size_t i = at + 2;  // past "&#"
  const bool hex = i < text.size() && (text[i] == U'x' || text[i] == U'X');
  if (hex) ++i;
  const std::size_t digits_from = i;
  std::uint32_t value = 0;
  // Seven decimal or six hexadecimal digits reach past U+10FFFF; more is not a scalar.
  const std::size_t max_digits = hex ? 6 : 7;
  for (; i < text.size() && i - digits_from < max_digits; ++i) {
    const int d = digit_value(text[i], hex);
    if (d < 0) break;
    value = value * (hex ? 16 : 10) + static_cast<std::uint32_t>(d);
  }
  if (i == digits_from || i >= text.size() || text[i] != U';') return none;
  if (value == 0 || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return none;
  HtmlReference found;
  found.scalars[0] = static_cast<char32_t>(value);
  found.scalar_count = 1;
  found.length = i + 1 - at;
  return found;
}

}  // namespace

HtmlReference html_reference_at(const std::u32string& text, std::size_t at) {
  HtmlReference none;
  if (at + 2 >= text.size() || text[at] != U'&') return none;
  if (text[at + 1] == U'#') return numeric_reference(text, at);
  std::string name;
  std::size_t i = at + 1;
  for (; i < text.size() && name.size() <= kHtmlEntityLongestName && ascii_alnum(text[i]); ++i) {
    name.push_back(static_cast<char>(text[i]));
  }
  if (name.empty() || name.size() > kHtmlEntityLongestName || i >= text.size() || text[i] != U';') return none;
  const HtmlEntity* end = kHtmlEntities + kHtmlEntityCount;
  const HtmlEntity* it = std::lower_bound(kHtmlEntities, end, name, [](const HtmlEntity& entity, const std::string& key) {
    return std::string_view(entity.name) < std::string_view(key);
  });
  if (it == end || std::string_view(it->name) != name) return none;
  HtmlReference found;
  found.scalars[0] = it->first;
  found.scalars[1] = it->second;
  found.scalar_count = it->second != 0 ? 2 : 1;
  found.length = i + 1 - at;
  return found;
}

}  // namespace ethos::text
