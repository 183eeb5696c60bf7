// utf8.hpp - decoding and counting Unicode scalars in UTF-8 that the JSON loader already validated.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ethos::utf8 {

// The multi-byte cases of next and append below.
char32_t next_multibyte(std::string_view text, std::size_t& pos);
void append_multibyte(std::string& out, char32_t scalar);

// Decodes the scalar starting at text[pos] and advances pos. Input must be valid UTF-8. Inline
// with the ASCII byte first: called for every scalar of a loaded document.
inline char32_t next(std::string_view text, std::size_t& pos) {
  const auto lead = static_cast<unsigned char>(text[pos]);
  if (lead < 0x80) {
    pos += 1;
    return lead;
  }
  return next_multibyte(text, pos);
}

// Inline with the ASCII scalar first, as next: every token key is spelled through it.
inline void append(std::string& out, char32_t scalar) {
  if (scalar < 0x80) {
    out.push_back(static_cast<char>(scalar));
    return;
  }
  append_multibyte(out, scalar);
}

// Number of Unicode scalars in text (contracts count offsets and windows in scalars, not bytes).
std::size_t scalar_count(std::string_view text);

// Byte offset of the scalar with index `scalars` (clamped to text.size()).
std::size_t byte_offset_of_scalar(std::string_view text, std::size_t scalars);

// The first / last `scalars` scalars of text.
std::string_view head(std::string_view text, std::size_t scalars);
std::string_view tail(std::string_view text, std::size_t scalars);

}  // namespace ethos::utf8
