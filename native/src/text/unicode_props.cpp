// unicode_props.cpp - lookups in the generated match tables, Hangul arithmetic and canonical composition.
#include "text/unicode_props.hpp"

#include <algorithm>
#include <iterator>

namespace ethos::unicode {
namespace {

struct DecompositionEntry {
  char32_t code_point;
  std::uint32_t pool_offset;
  std::uint32_t length;
};
struct CombiningRange {
  char32_t first, last;
  std::uint8_t ccc;
};
struct CompositionEntry {
  char32_t first, second, composite;
};
struct ScalarRange {
  char32_t first, last;
};
#include "text/unicode_match_tables.inc"

// Hangul syllables compose and decompose by arithmetic (Unicode §3.12), not by table.
constexpr char32_t kSBase = 0xAC00, kLBase = 0x1100, kVBase = 0x1161, kTBase = 0x11A7;
constexpr char32_t kLCount = 19, kVCount = 21, kTCount = 28, kNCount = kVCount * kTCount, kSCount = kLCount * kNCount;

template <typename Range, std::size_t N>
bool in_ranges(const Range (&ranges)[N], char32_t c) {
  const auto* it = std::upper_bound(std::begin(ranges), std::end(ranges), c,
                                    [](char32_t v, const Range& r) { return v < r.first; });
  return it != std::begin(ranges) && c <= std::prev(it)->last;
}

}  // namespace

void append_canonical_decomposition(char32_t c, std::u32string& out) {
  if (c >= kSBase && c < kSBase + kSCount) {
    const char32_t index = c - kSBase;
    out.push_back(kLBase + index / kNCount);
    out.push_back(kVBase + (index % kNCount) / kTCount);
    if (index % kTCount != 0) out.push_back(kTBase + index % kTCount);
    return;
  }
  const auto* begin = std::begin(kDecompositionTable);
  const auto* end = std::end(kDecompositionTable);
  const auto* it = std::lower_bound(begin, end, c, [](const DecompositionEntry& e, char32_t v) { return e.code_point < v; });
  if (it == end || it->code_point != c) {
    out.push_back(c);
    return;
  }
  out.append(kDecompositionPool + it->pool_offset, it->length);
}

std::uint8_t combining_class(char32_t c) {
  const auto* it = std::upper_bound(std::begin(kCombiningClasses), std::end(kCombiningClasses), c,
                                    [](char32_t v, const CombiningRange& r) { return v < r.first; });
  if (it == std::begin(kCombiningClasses)) return 0;
  --it;
  return c <= it->last ? it->ccc : 0;
}

char32_t compose_pair(char32_t first, char32_t second) {
  if (first >= kLBase && first < kLBase + kLCount && second >= kVBase && second < kVBase + kVCount) {
    return kSBase + ((first - kLBase) * kVCount + (second - kVBase)) * kTCount;
  }
  if (first >= kSBase && first < kSBase + kSCount && (first - kSBase) % kTCount == 0 && second > kTBase &&
      second < kTBase + kTCount) {
    return first + (second - kTBase);
  }
  const auto* begin = std::begin(kCompositionTable);
  const auto* end = std::end(kCompositionTable);
  const auto* it = std::lower_bound(begin, end, std::make_pair(first, second), [](const CompositionEntry& e, const std::pair<char32_t, char32_t>& v) {
    return e.first < v.first || (e.first == v.first && e.second < v.second);
  });
  return (it != end && it->first == first && it->second == second) ? it->composite : 0;
}

void to_nfc(std::u32string& text, std::vector<ScalarRange32>& ranges) {
  // 1. Full canonical decomposition; every produced scalar keeps its source's range.
  std::u32string decomposed;
  std::vector<ScalarRange32> decomposed_ranges;
  decomposed.reserve(text.size());
  decomposed_ranges.reserve(text.size());
  std::u32string parts;
  for (std::size_t i = 0; i < text.size(); ++i) {
    parts.clear();
    append_canonical_decomposition(text[i], parts);
    decomposed += parts;
    decomposed_ranges.insert(decomposed_ranges.end(), parts.size(), ranges[i]);
  }
  // 2. Canonical ordering: stable sort of each run of non-starters by combining class. Reordered
  // marks share one merged range, so an offset never points between them.
  for (std::size_t i = 0; i < decomposed.size();) {
    if (combining_class(decomposed[i]) == 0) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < decomposed.size() && combining_class(decomposed[j]) != 0) ++j;
    if (j - i > 1) {
      std::vector<std::size_t> order(j - i);
      for (std::size_t k = 0; k < order.size(); ++k) order[k] = i + k;
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return combining_class(decomposed[a]) < combining_class(decomposed[b]);
      });
      if (!std::is_sorted(order.begin(), order.end())) {
        std::u32string run;
        ScalarRange32 merged = decomposed_ranges[i];
        for (std::size_t k : order) run.push_back(decomposed[k]);
        for (std::size_t k = i; k < j; ++k) {
          merged.start = std::min(merged.start, decomposed_ranges[k].start);
          merged.end = std::max(merged.end, decomposed_ranges[k].end);
        }
        std::copy(run.begin(), run.end(), decomposed.begin() + static_cast<std::ptrdiff_t>(i));
        std::fill(decomposed_ranges.begin() + static_cast<std::ptrdiff_t>(i),
                  decomposed_ranges.begin() + static_cast<std::ptrdiff_t>(j), merged);
      }
    }
    i = j;
  }
  // 3. Canonical composition: each scalar composes with the last starter unless blocked.
  text.clear();
  ranges.clear();
  std::size_t starter = std::u32string::npos;  // index in text of the last starter
  std::uint8_t last_class = 0;
  for (std::size_t i = 0; i < decomposed.size(); ++i) {
    const char32_t c = decomposed[i];
    const std::uint8_t ccc = combining_class(c);
    const bool adjacent = starter != std::u32string::npos && starter + 1 == text.size();
    const bool unblocked = starter != std::u32string::npos && (adjacent ? true : (last_class != 0 && last_class < ccc));
    if (unblocked) {
      if (const char32_t composite = compose_pair(text[starter], c)) {
        text[starter] = composite;
        ranges[starter].start = std::min(ranges[starter].start, decomposed_ranges[i].start);
        ranges[starter].end = std::max(ranges[starter].end, decomposed_ranges[i].end);
        continue;
      }
    }
    if (ccc == 0) {
      starter = text.size();
      last_class = 0;
    } else {
      last_class = ccc;
    }
    text.push_back(c);
    ranges.push_back(decomposed_ranges[i]);
  }
}

bool is_word_char_table(char32_t c) { return in_ranges(kWordRanges, c); }

bool is_decimal_digit_table(char32_t c) { return in_ranges(kDigitRanges, c); }

bool is_cjk_ideograph_or_kana_range(char32_t c) {
  return (c >= 0x3040 && c <= 0x30FF) || (c >= 0x31F0 && c <= 0x31FF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFF66 && c <= 0xFF9F) ||
         (c >= 0x20000 && c <= 0x3FFFF);
}

bool is_cjk_context_range(char32_t c) {
  // CJK symbols and punctuation, and the full-width punctuation CJK text uses (not full-width letters).
  return is_cjk_ideograph_or_kana(c) || (c >= 0x3000 && c <= 0x303F) || (c >= 0xFF5F && c <= 0xFF65) || c == 0xFF01 ||
         c == 0xFF0C || c == 0xFF0E || c == 0xFF1A || c == 0xFF1B || c == 0xFF1F;
}

const char* tables_version() { return ETHOS_MATCH_UNICODE_VERSION; }

}  // namespace ethos::unicode
