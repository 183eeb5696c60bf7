// normalize.hpp - the public text normalization profiles (CONTRACTS.md §3.3) with offset maps.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ethos {

enum class NormalizationProfile { none, collapse_whitespace, unicode_compat_v1 };

struct NormalizationOptions {
  NormalizationProfile profile = NormalizationProfile::collapse_whitespace;
  bool lowercase = false;  // case_sensitive=false: full Unicode lowercase after normalization
};

// Normalized text plus, when requested, where each normalized byte came from in the input: the
// byte range [start, end) of the source character (or whitespace run) that produced it. Offsets
// into the original text are read from this map, never by searching the original again.
struct NormalizedText {
  std::string text;
  std::vector<std::uint32_t> source_start;  // one per byte of text (empty without a map)
  std::vector<std::uint32_t> source_end;

  // Source byte range of normalized bytes [begin, end); requires a map and begin < end.
  std::uint32_t original_begin(std::size_t begin) const { return source_start[begin]; }
  std::uint32_t original_end(std::size_t end) const { return source_end[end - 1]; }
};

NormalizedText normalize(std::string_view input, const NormalizationOptions& options, bool with_map);
std::string normalize_text(std::string_view input, const NormalizationOptions& options);

// Unicode White_Space (PropList.txt; also Rust's char::is_whitespace). Inline: asked of every
// scalar of a document while its index is built.
inline bool is_unicode_white_space(char32_t c) {
  if (c < 0x80) return (c >= 0x09 && c <= 0x0D) || c == 0x20;
  return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
         c == 0x202F || c == 0x205F || c == 0x3000;
}

// Full Unicode lowercase of one scalar appended to out (may expand, e.g. U+0130); Σ becomes ς
// when final_sigma (the caller knows the context: after a cased letter, not before one).
void append_lowercase(char32_t c, bool final_sigma, std::u32string& out);

// Letters with case for the final-sigma rule (see normalize.cpp).
bool is_cased_letter(char32_t c);

// The Unicode version of the generated case tables.
const char* unicode_version();

}  // namespace ethos
