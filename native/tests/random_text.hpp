// random_text.hpp - random texts rich in normalization edge cases, shared by the randomized matcher tests.
#pragma once

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "match/matcher.hpp"
#include "text/utf8.hpp"

namespace ethos_test {

// Pieces of text that exercise every tier and every edge rule: spaces of several kinds, line
// breaks, hyphens and dash runs, ligatures, decomposed accents, curly quotes, sigma, CJK,
// numbers, case, TeX's spacing accents and backticks, TeX's spaced ellipsis, CJK punctuation. The last one is beyond the BMP (a tier reading then needs 4 bytes per scalar).
inline const std::vector<std::u32string> kEdgeAtoms = {
    U"a", U"b", U"ab", U"The", U"result", U"fin", U"\uFB01n", U" ", U"  ", U"\u00A0", U"\n", U"-", U"--", U"---",
    U"\u2014", U"\u2013", U"e\u0301", U"\u00E9", U"\u201C", U"\u201D", U"'", U"\u2019", U"\u03A3", U"\u039F",
    U"\u4E2D", U"\u6587", U"1", U"12.5", U"%", U",", U".", U"\u00AD", U"x-", U"\uFF21", U"\u2026", U"(", U")",
    U"A", U"RESULT", U"\u00B4", U"`", U"\u00B8", U"\u0131", U"\u02C7", U". . .", U"\u3001", U"\uFF08", U"\U0001D400"};

// `count` atoms drawn from `atoms`; without the last one unless `with_last` (kEdgeAtoms: the
// scalar beyond the BMP).
inline std::u32string random_text(std::mt19937& rng, std::size_t count, bool with_last = true,
                                  const std::vector<std::u32string>& atoms = kEdgeAtoms) {
  std::u32string out;
  std::uniform_int_distribution<std::size_t> pick(0, atoms.size() - (with_last ? 1 : 2));
  for (std::size_t i = 0; i < count; ++i) out += atoms[pick(rng)];
  return out;
}

inline std::string utf8_of(const std::u32string& text) {
  std::string out;
  for (char32_t c : text) ethos::utf8::append(out, c);
  return out;
}

inline bool same_located(const std::optional<ethos::match::Located>& a, const std::optional<ethos::match::Located>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || (a->tier == b->tier && a->start == b->start && a->end == b->end && a->occurrences == b->occurrences);
}

}  // namespace ethos_test
