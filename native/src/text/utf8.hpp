// utf8.hpp - decoding and counting Unicode scalars in UTF-8 that the JSON loader already validated.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ethos::utf8 {

// Decodes the scalar starting at text[pos] and advances pos. Input must be valid UTF-8.
char32_t next(std::string_view text, std::size_t& pos);

void append(std::string& out, char32_t scalar);

// Number of Unicode scalars in text (contracts count offsets and windows in scalars, not bytes).
std::size_t scalar_count(std::string_view text);

// Byte offset of the scalar with index `scalars` (clamped to text.size()).
std::size_t byte_offset_of_scalar(std::string_view text, std::size_t scalars);

// The first / last `scalars` scalars of text.
std::string_view head(std::string_view text, std::size_t scalars);
std::string_view tail(std::string_view text, std::size_t scalars);

}  // namespace ethos::utf8
