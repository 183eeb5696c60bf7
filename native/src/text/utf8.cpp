// utf8.cpp - minimal UTF-8 decoding for already-validated strings (validation lives in the JSON loader).
#include "text/utf8.hpp"

#include <cstdint>
#include <cstring>

namespace ethos::utf8 {

char32_t next_multibyte(std::string_view text, std::size_t& pos) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(pos);
  if (lead < 0x80) {
    pos += 1;
    return lead;
  }
  if ((lead >> 5) == 0x6 && pos + 1 < text.size()) {
    const char32_t cp = (static_cast<char32_t>(lead & 0x1F) << 6) | (byte(pos + 1) & 0x3F);
    pos += 2;
    return cp;
  }
  if ((lead >> 4) == 0xE && pos + 2 < text.size()) {
    const char32_t cp = (static_cast<char32_t>(lead & 0x0F) << 12) |
                        (static_cast<char32_t>(byte(pos + 1) & 0x3F) << 6) | (byte(pos + 2) & 0x3F);
    pos += 3;
    return cp;
  }
  if ((lead >> 3) == 0x1E && pos + 3 < text.size()) {
    const char32_t cp = (static_cast<char32_t>(lead & 0x07) << 18) |
                        (static_cast<char32_t>(byte(pos + 1) & 0x3F) << 12) |
                        (static_cast<char32_t>(byte(pos + 2) & 0x3F) << 6) | (byte(pos + 3) & 0x3F);
    pos += 4;
    return cp;
  }
  // Unreachable for validated input; consume one byte so callers always make progress.
  pos += 1;
  return 0xFFFD;
}

void append_multibyte(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

namespace {

// How many of the 8 bytes at `data` start a scalar (are not continuation bytes 10xxxxxx): a
// report locates every match by scalar offset, so texts are counted a word at a time.
inline std::size_t lead_bytes_in_word(const char* data) {
  std::uint64_t word = 0;
  std::memcpy(&word, data, 8);
  constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
  const std::uint64_t continuation = (word & ~(word << 1) & kHighs) >> 7;  // 1 per byte: bit 7 set, bit 6 clear
  // The eight 0/1 bytes summed into the top byte by one multiplication (no popcount instruction
  // in the baseline x86-64 target).
  return 8 - static_cast<std::size_t>((continuation * 0x0101010101010101ULL) >> 56);
}

}  // namespace

std::size_t scalar_count(std::string_view text) {
  std::size_t count = 0;
  std::size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) count += lead_bytes_in_word(text.data() + i);
  for (; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++count;  // count lead bytes only
  }
  return count;
}

std::size_t byte_offset_of_scalar(std::string_view text, std::size_t scalars) {
  std::size_t seen = 0;
  std::size_t i = 0;
  // Whole words whose lead bytes all come before the wanted one.
  for (std::size_t leads = 0; i + 8 <= text.size(); i += 8) {
    leads = lead_bytes_in_word(text.data() + i);
    if (seen + leads > scalars) break;
    seen += leads;
  }
  for (; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      if (seen == scalars) return i;
      ++seen;
    }
  }
  return text.size();
}

std::string_view head(std::string_view text, std::size_t scalars) {
  return text.substr(0, byte_offset_of_scalar(text, scalars));
}

std::string_view tail(std::string_view text, std::size_t scalars) {
  const std::size_t total = scalar_count(text);
  if (scalars >= total) return text;
  return text.substr(byte_offset_of_scalar(text, total - scalars));
}

}  // namespace ethos::utf8
