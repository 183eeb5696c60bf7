// quote_negation_tests.cpp - the windowed negation check before a quote answers as the full one does, and the
// word-at-a-time UTF-8 counters answer as a byte-by-byte count (randomized texts); an ASCII-only text's
// offsets taken as scalar offsets, and the source's per-element ASCII flags; the compound checks
// (a negating prefix before a quote, a negating suffix after it) on cases and randomized texts.
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/quote_negation.hpp"
#include "core/source.hpp"
#include "match/occurrence_guards.hpp"
#include "text/utf8.hpp"
#include "random_text.hpp"
#include "test_check.hpp"

namespace {

using ethos_test::utf8_of;

// Negators (plain, upper case, contracted with both apostrophes, non-ASCII), white space of every
// kind the check skips, numbers and signs (the boundary rule's look-back), CJK, multi-byte text.
const std::vector<std::u32string> kAtoms = {
    U"not",  U"Not",   U"NOT",    U"never", U"no",     U"don't", U"don\u2019t", U"nicht", U"n'est", U"pas",
    U"kein", U"\u00E9t\u00E9", U"word", U"Result", U"a", U" ", U"  ", U"\t", U"\n", U"\r",
    U"\u00A0", U"'",   U"\u2019", U"-",     U"+",      U"5",     U"12.5",  U"%",   U",",   U".",
    U"\u4E2D", U"\u03A3", U"e\u0301", U"(",  U")",      U"\U0001D400", U"x-5", U"\u2212",
    // hyphenated compounds: negating prefixes and suffixes, a figure prefix, U+2010
    U"non",  U"Un",    U"pre",    U"2020",  U"free",   U"less",  U"freedom", U"\u2010", U"non-"};

bool same_guard(const std::optional<ethos::match::Guard>& a, const std::optional<ethos::match::Guard>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || (std::string(a->name) == b->name && a->block == b->block && a->detail == b->detail);
}

void negation_equivalence(std::uint32_t seed, int& refused) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::size_t> pick(0, kAtoms.size() - 1), atoms(0, 40);
  std::u32string text;
  for (std::size_t i = 0, n = atoms(rng); i < n; ++i) text += kAtoms[pick(rng)];
  const std::string utf8 = utf8_of(text);
  for (std::uint32_t start = 0; start <= text.size() + 1; ++start) {
    const ethos::match::Located where{ethos::match::Tier::exact, start, start, 1};
    const auto full = ethos::match::negation_before(utf8, where);
    const auto windowed = ethos::negation_before_quote(utf8, where);
    CHECK(same_guard(full, windowed));
    if (!same_guard(full, windowed)) std::fprintf(stderr, "seed %u start %u: \"%s\"\n", seed, start, utf8.c_str());
    if (full) ++refused;
    // Told the text is ASCII only (when it is), the check takes the start as the byte offset:
    // the same answer and the same byte offset as counting.
    if (ethos::utf8::scalar_count(utf8) == utf8.size()) {
      std::size_t counted = 0, taken = 0;
      const auto plain = ethos::negation_before_quote(utf8, where, &counted);
      CHECK(same_guard(plain, ethos::negation_before_quote(utf8, where, &taken, true)));
      CHECK(counted == taken);
    }
  }
}

// The windowed check after a quote's end answers as the full one, for every end of random texts.
void suffix_equivalence(std::uint32_t seed, int& refused) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::size_t> pick(0, kAtoms.size() - 1), atoms(0, 40);
  std::u32string text;
  for (std::size_t i = 0, n = atoms(rng); i < n; ++i) text += kAtoms[pick(rng)];
  const std::string utf8 = utf8_of(text);
  const bool ascii = ethos::utf8::scalar_count(utf8) == utf8.size();
  for (std::uint32_t end = 0; end <= text.size(); ++end) {
    for (std::uint32_t start : {0u, end / 2, end}) {
      const ethos::match::Located where{ethos::match::Tier::exact, start, end, 1};
      const auto full = ethos::match::negation_after(utf8, where);
      const std::size_t start_byte = ethos::utf8::byte_offset_of_scalar(utf8, start);
      CHECK(same_guard(full, ethos::negation_after_quote(utf8, where, start_byte)));
      if (ascii) CHECK(same_guard(full, ethos::negation_after_quote(utf8, where, start_byte, true)));
      if (full) ++refused;
    }
  }
}

// A quote that starts or ends inside a hyphenated compound whose other part negates it is
// refused; one cut at an ordinary compound's hyphen, or a whole compound, is not.
void compounds() {
  using ethos::match::Located;
  using ethos::match::Tier;
  const auto before = [](const std::string& text, const std::string& quote) {
    const std::size_t at = text.find(quote);
    CHECK(at != std::string::npos);
    const auto start = static_cast<std::uint32_t>(ethos::utf8::scalar_count(text.substr(0, at)));
    const Located where{Tier::exact, start, start + static_cast<std::uint32_t>(ethos::utf8::scalar_count(quote)), 1};
    const auto full = ethos::match::negation_before(text, where);
    CHECK(same_guard(full, ethos::negation_before_quote(text, where)));
    std::size_t start_byte = 0;
    ethos::negation_before_quote(text, where, &start_byte);
    const auto after = ethos::negation_after_quote(text, where, start_byte);
    CHECK(same_guard(after, ethos::match::negation_after(text, where)));
    return full ? full : after;
  };
  const std::string matrix = "a matrix with non-negative real entries whose row sums are 1";
  const auto cut = before(matrix, "negative real entries whose row sums");
  CHECK(cut && cut->block && cut->detail.find("\"non-\"") != std::string::npos);
  CHECK(!before(matrix, "non-negative real entries whose row sums").has_value());
  CHECK(!before(matrix, "real entries whose row sums").has_value());
  CHECK(before("the non-\nnegative entries", "negative entries").has_value());  // across a line-end hyphen
  CHECK(before("a non\u2010zero value", "zero value").has_value());             // U+2010 HYPHEN
  for (const char* prefix : {"non-positive", "Non-empty", "un-American", "in-valid", "anti-aliasing", "nicht-linear"}) {
    const std::string text = std::string("it is ") + prefix + " here";
    CHECK(before(text, std::string(std::strchr(prefix, '-') + 1) + " here").has_value());
  }
  CHECK(before("levels seen pre-2020 are back", "2020 are back").has_value());
  CHECK(before("since post-1945 times", "1945 times").has_value());
  CHECK(!before("the pre-processing step", "processing step").has_value());  // pre- before a word: no figure
  CHECK(!before("a well-known result", "known result").has_value());
  // state-of-the-art: each hyphen ends a token; a quote cut there grounds unless the cut part negates.
  CHECK(!before("a state-of-the-art method", "the-art method").has_value());
  CHECK(!before("a state-of-the-art method", "art method").has_value());
  // Negating suffixes after the quote's end.
  const auto sugar = before("it contains sugar-free syrup", "it contains sugar");
  CHECK(sugar && sugar->detail.find("\"-free\"") != std::string::npos);
  CHECK(before("the run was error-\nless", "the run was error").has_value());
  CHECK(!before("it contains sugar-freedom", "it contains sugar").has_value());
  CHECK(!before("it contains sugar-free syrup", "it contains sugar-free syrup").has_value());
  CHECK(!before("it contains sugar -free", "it contains sugar").has_value());
}

// The flags a source finds for its elements: ASCII only, not (one byte or a scalar of four),
// empty, without text; none before its indexes are built.
void element_ascii_flags() {
  ethos::Source source;
  for (const char* text : {"plain text, 12.5 %", "caf\xC3\xA9", "", "x\xF0\x9D\x90\x80", "\x7F"}) {
    ethos::Element element;
    element.text = text;
    source.elements.push_back(element);
  }
  source.elements.push_back(ethos::Element{});  // no text
  CHECK(!source.element_text_is_ascii(0));       // before build_indexes: counted, as always
  source.build_indexes();
  CHECK(source.element_text_is_ascii(0));
  CHECK(!source.element_text_is_ascii(1));
  CHECK(source.element_text_is_ascii(2));
  CHECK(!source.element_text_is_ascii(3));
  CHECK(source.element_text_is_ascii(4));
  CHECK(!source.element_text_is_ascii(5));
  CHECK(!source.element_text_is_ascii(6));  // past the last element
}

void counters(std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::size_t> pick(0, kAtoms.size() - 1), atoms(0, 30);
  std::u32string text;
  for (std::size_t i = 0, n = atoms(rng); i < n; ++i) text += kAtoms[pick(rng)];
  const std::string utf8 = utf8_of(text);
  CHECK(ethos::utf8::scalar_count(utf8) == text.size());
  std::size_t byte = 0;
  for (std::size_t scalar = 0; scalar <= text.size() + 2; ++scalar) {
    CHECK(ethos::utf8::byte_offset_of_scalar(utf8, scalar) == byte);
    if (byte < utf8.size()) ethos::utf8::next(utf8, byte);
  }
}

}  // namespace

int main() {
  int refused = 0;
  for (std::uint32_t seed = 1; seed <= 3000; ++seed) negation_equivalence(seed, refused);
  std::printf("%d quote starts refused by the negation check\n", refused);
  CHECK(refused > 1000);  // the random texts must reach the refusal, or they prove nothing
  int after = 0;
  for (std::uint32_t seed = 1; seed <= 3000; ++seed) suffix_equivalence(seed, after);
  std::printf("%d quote ends refused by the suffix check\n", after);
  CHECK(after > 100);
  compounds();
  for (std::uint32_t seed = 1; seed <= 3000; ++seed) counters(seed);
  element_ascii_flags();
  return ethos_test::finish("quote_negation_tests");
}
