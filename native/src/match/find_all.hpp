// find_all.hpp - every occurrence of a needle in a UTF-16/UTF-32 text: the scan behind match searches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif

namespace ethos::match {

// Work done by the searches of this file and the gram index on this thread: positions scanned,
// scalars charged for comparing a candidate in full (the needle's length each) and steps of the
// linear search. Only read by tests (match_tests' doubling test), so a quadratic search shows as
// an operation count rather than a wall time.
inline thread_local std::uint64_t t_search_work = 0;
inline std::uint64_t search_work() { return t_search_work; }

// Full comparisons of candidates may cost at most this many times the text plus the needle
// (charged the needle's length each) before a search goes on in linear time: an adversarial
// repetition ("a a a ..." searched for "a a ... a b") would otherwise compare almost the whole
// needle at every position, O(text x needle). Prose never comes near it.
constexpr std::size_t kCompareBudgetFactor = 4;
inline std::size_t compare_budget(std::size_t n, std::size_t m) { return kCompareBudgetFactor * (n + m) + 1024; }

// Appends the start of every occurrence of needle in text that starts at `from` or later,
// ascending (Knuth-Morris-Pratt: at most 2 (n - from) + 2 m steps whatever the text).
template <typename CharT>
void find_all_linear(std::basic_string_view<CharT> text, std::basic_string_view<CharT> needle, std::size_t from,
                     std::vector<std::size_t>& out) {
  const std::size_t n = text.size(), m = needle.size();
  if (m == 0 || from >= n || n - from < m) return;
  std::vector<std::size_t> border(m, 0);  // border[i]: the longest proper border of needle[0, i]
  std::uint64_t steps = 0;
  for (std::size_t i = 1, k = 0; i < m; ++i) {
    while (k > 0 && needle[i] != needle[k]) k = border[k - 1], ++steps;
    if (needle[i] == needle[k]) ++k;
    border[i] = k;
    ++steps;
  }
  for (std::size_t i = from, k = 0; i < n; ++i) {
    while (k > 0 && text[i] != needle[k]) k = border[k - 1], ++steps;
    if (text[i] == needle[k]) ++k;
    ++steps;
    if (k == m) {
      out.push_back(i + 1 - m);
      k = border[m - 1];
    }
  }
  t_search_work += steps;
}

// find_all without vector instructions: Horspool's skips. The skip table is indexed by a scalar's
// low byte, each entry the smallest skip of the needle's scalars sharing it, so no occurrence is
// skipped. The standard library's find for char16_t/char32_t text compares at every position
// where the needle's first scalar occurs (most of them, in prose). Kept callable on its own so
// that its tests run where the vector scan is the default.
template <typename CharT>
std::vector<std::size_t> find_all_skipping(std::basic_string_view<CharT> text, std::basic_string_view<CharT> needle) {
  std::vector<std::size_t> out;
  const std::size_t n = text.size(), m = needle.size();
  if (m == 0) {
    for (std::size_t pos = 0; pos <= n; ++pos) out.push_back(pos);
    return out;
  }
  if (n < m) return out;
  // One byte per entry, skips capped at 255 (a shorter skip is always safe): the table is set
  // with one memset instead of 256 word stores, which cost more than the scan of an element's
  // text (a search runs once per claim and tier).
  std::uint8_t skip[256];
  const std::size_t most = m < 255 ? m : 255;
  std::memset(skip, static_cast<int>(most), sizeof skip);
  for (std::size_t i = 0; i + 1 < m; ++i) {
    const std::size_t s = m - 1 - i;
    skip[static_cast<std::size_t>(needle[i]) & 0xFFu] = static_cast<std::uint8_t>(s < most ? s : most);
  }
  const CharT last = needle[m - 1];
  std::size_t budget = compare_budget(n, m), scanned = 0;
  for (std::size_t pos = 0; pos + m <= n;) {
    const CharT c = text[pos + m - 1];
    ++scanned;
    if (c == last) {
      if (budget < m) {  // repetition: the rest in linear time
        t_search_work += scanned + (compare_budget(n, m) - budget);
        find_all_linear(text, needle, pos, out);
        return out;
      }
      budget -= m;
      if (text.compare(pos, m - 1, needle.substr(0, m - 1)) == 0) out.push_back(pos);
    }
    pos += skip[static_cast<std::size_t>(c) & 0xFFu];
  }
  t_search_work += scanned + (compare_budget(n, m) - budget);
  return out;
}

// Start positions of every occurrence of needle in text (overlapping ones included), ascending:
// what calling text.find(needle, pos + 1) from each hit on would give. With SSE2 (every x86-64),
// 16 positions are tested at once for the needle's first and last scalars and only those where
// both match are compared in full. Horspool's skips form a chain of dependent loads (the next
// position needs the scalar at this one) and stay short in prose, where nearly every letter occurs
// near a quote's end: the element scan was the batch's largest single cost in a sampling profile.
template <typename CharT>
std::vector<std::size_t> find_all(std::basic_string_view<CharT> text, std::basic_string_view<CharT> needle) {
  static_assert(sizeof(CharT) == 2 || sizeof(CharT) == 4, "UTF-16 or UTF-32 text");
#if defined(__SSE2__)
  const std::size_t n = text.size(), m = needle.size();
  if (m == 0 || n < m) return find_all_skipping(text, needle);
  std::vector<std::size_t> out;
  constexpr std::size_t kLanes = 16 / sizeof(CharT);  // scalars per 16-byte vector
  constexpr std::size_t kStep = 2 * kLanes;           // two vectors per round: 16 or 8 positions
  const CharT* const base = text.data();
  const CharT* const want = needle.data();
  const std::size_t full_bytes = m * sizeof(CharT);
  const auto splat = [](CharT c) {
    if constexpr (sizeof(CharT) == 2) return _mm_set1_epi16(static_cast<short>(c));
    else return _mm_set1_epi32(static_cast<int>(c));
  };
  const __m128i first = splat(want[0]), last = splat(want[m - 1]);
  const auto equal = [](__m128i a, __m128i b) {
    if constexpr (sizeof(CharT) == 2) return _mm_cmpeq_epi16(a, b);
    else return _mm_cmpeq_epi32(a, b);
  };
  const auto load = [](const CharT* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); };
  const std::size_t positions = n - m + 1;  // candidate starts: [0, positions)
  std::size_t budget = compare_budget(n, m);
  // An element's text is rarely in cache when a claim cites it (a batch's claims cite elements all
  // over the document): asking for all its lines up front (up to 4 KiB) overlaps their misses,
  // where the scan alone would wait for each line in turn until the prefetcher caught on.
  const char* const bytes = reinterpret_cast<const char*>(base);
  const std::size_t ahead = n * sizeof(CharT) < 4096 ? n * sizeof(CharT) : 4096;
  for (std::size_t at = 0; at < ahead; at += 64) _mm_prefetch(bytes + at, _MM_HINT_T0);
  std::size_t pos = 0;
  for (; pos + kStep <= positions; pos += kStep) {
    const __m128i lo = _mm_and_si128(equal(load(base + pos), first), equal(load(base + pos + m - 1), last));
    const __m128i hi = _mm_and_si128(equal(load(base + pos + kLanes), first),
                                     equal(load(base + pos + kLanes + m - 1), last));
    // One bit per byte; a hit sets sizeof(CharT) adjacent bits, the lowest at its lane's first byte.
    std::uint32_t mask = static_cast<std::uint32_t>(_mm_movemask_epi8(lo)) |
                         (static_cast<std::uint32_t>(_mm_movemask_epi8(hi)) << 16);
    while (mask != 0) {
      const unsigned bit = static_cast<unsigned>(__builtin_ctz(mask));
      const std::size_t at = pos + bit / sizeof(CharT);
      if (budget < m) {  // repetition: every occurrence from here on in linear time
        t_search_work += at + (compare_budget(n, m) - budget);
        find_all_linear(text, needle, at, out);
        return out;
      }
      budget -= m;
      if (std::memcmp(base + at, want, full_bytes) == 0) out.push_back(at);
      mask &= ~((sizeof(CharT) == 2 ? 3u : 15u) << bit);
    }
  }
  for (; pos < positions; ++pos) {
    if (base[pos] == want[0] && base[pos + m - 1] == want[m - 1]) {
      if (budget < m) {
        t_search_work += pos + (compare_budget(n, m) - budget);
        find_all_linear(text, needle, pos, out);
        return out;
      }
      budget -= m;
      if (std::memcmp(base + pos, want, full_bytes) == 0) out.push_back(pos);
    }
  }
  t_search_work += positions + (compare_budget(n, m) - budget);
  return out;
#else
  return find_all_skipping(text, needle);
#endif
}

}  // namespace ethos::match
