// running_feet_reading.cpp - the page-break reading with the running feet kept (running_feet_reading.hpp).
#include "core/running_feet_reading.hpp"

#include <cstdint>
#include <string>
#include <utility>

#include "match/document_index.hpp"
#include "text/normalize.hpp"
#include "text/utf8.hpp"

namespace ethos {
namespace {

bool is_roman_digit(char32_t c) {
  switch (c | 0x20) {
    case U'i': case U'v': case U'x': case U'l': case U'c': case U'd': case U'm': return true;
    default: return false;
  }
}

// A page number as a footer prints it: arabic digits or a roman numeral, possibly with `/`, `-`
// or an en dash (`93/233`, `- 12 -`).
bool is_page_number_token(const std::u32string& token) {
  bool digits = false, roman = false;
  for (char32_t c : token) {
    if (c >= U'0' && c <= U'9') {
      digits = true;
    } else if (c < 0x80 && is_roman_digit(c)) {
      roman = true;
    } else if (c != U'/' && c != U'-' && c != 0x2013) {
      return false;
    }
  }
  return digits != roman;
}

bool has_letter(const std::u32string& text) {
  for (char32_t c : text) {
    if (c < 0x80 ? ((c | 0x20) >= U'a' && (c | 0x20) <= U'z') : !is_unicode_white_space(c)) return true;
  }
  return false;
}

// Scalars [first, last) of a footer's text once a page number at its start or end (and the white
// space beside it) is dropped; first == last when nothing with a letter is left.
std::pair<std::uint32_t, std::uint32_t> footer_words(const std::string& text) {
  std::u32string scalars;
  for (std::size_t pos = 0; pos < text.size();) scalars.push_back(utf8::next(text, pos));
  // The white-space-separated tokens, as scalar ranges.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> tokens;
  for (std::uint32_t i = 0; i < scalars.size();) {
    while (i < scalars.size() && is_unicode_white_space(scalars[i])) ++i;
    const std::uint32_t start = i;
    while (i < scalars.size() && !is_unicode_white_space(scalars[i])) ++i;
    if (i > start) tokens.emplace_back(start, i);
  }
  const auto number = [&](std::size_t t) {
    return is_page_number_token(scalars.substr(tokens[t].first, tokens[t].second - tokens[t].first));
  };
  std::size_t begin = 0, end = tokens.size();
  if (end > begin && number(begin)) ++begin;
  if (end > begin && number(end - 1)) --end;
  if (begin >= end) return {0, 0};
  const std::uint32_t first = tokens[begin].first, last = tokens[end - 1].second;
  if (!has_letter(scalars.substr(first, last - first))) return {0, 0};
  return {first, last};
}

}  // namespace

std::optional<StreamReading> running_with_feet(const Source& source, const std::vector<std::size_t>& pages) {
  if (pages.size() < 2) return std::nullopt;
  const match::DocumentIndex& index = source.match_index();
  StreamReading out;
  out.name = "running_feet_kept";
  std::uint32_t scalars = 0;
  bool kept_a_foot = false;
  const auto append = [&](std::size_t element, std::uint32_t first, std::uint32_t last) {
    const Element& owner = source.elements[element];
    if (!out.pieces.empty()) {
      out.text += '\n';  // as between the elements of a running text: never crossed at exact
      ++scalars;
    }
    for (std::int64_t h : owner.hyphen_breaks) {
      if (h >= first && h < last) out.hyphen_breaks.push_back(scalars + static_cast<std::uint32_t>(h - first));
    }
    out.pieces.push_back({scalars, scalars + (last - first), element, first});
    const std::string& text = *owner.text;
    const std::size_t begin = utf8::byte_offset_of_scalar(text, first);
    out.text += utf8::head(std::string_view(text).substr(begin), last - first);
    scalars += last - first;
  };
  for (std::size_t n = 0; n < pages.size(); ++n) {
    if (pages[n] >= source.pages.size()) continue;
    const std::vector<std::size_t>& on_page = source.elements_on_page(source.pages[pages[n]].id);
    for (std::size_t element : on_page) {
      if (index.running_number(element) == match::DocumentIndex::npos) continue;
      append(element, 0, static_cast<std::uint32_t>(utf8::scalar_count(*source.elements[element].text)));
    }
    if (n + 1 == pages.size()) break;
    for (std::size_t element : on_page) {
      const Element& owner = source.elements[element];
      if (owner.kind != "footer" || !owner.text) continue;
      const auto [first, last] = footer_words(*owner.text);
      if (first == last) continue;
      append(element, first, last);
      kept_a_foot = true;
    }
  }
  if (!kept_a_foot) return std::nullopt;
  return out;
}

}  // namespace ethos
