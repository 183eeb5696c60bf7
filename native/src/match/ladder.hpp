// ladder.hpp - the normalized readings of one text at every tier, each with an offset map back to
// the original Unicode scalars (so a match found at any tier is reported in original offsets).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "match/gram_index.hpp"
#include "match/markers.hpp"
#include "match/tiers.hpp"

namespace ethos::match {

// Choices of the policy that change how texts are normalized (match/policy.hpp).
struct LadderOptions {
  bool cjk_wrap_spaces = true;     // whitespace between two CJK characters, or beside CJK punctuation, is a line wrap
  bool joined_reading = true;      // line-end hyphen + line break removed: "hyphen-\nated" -> "hyphenated"
  bool hyphenated_reading = true;  // line break after the hyphen removed: "well-\nknown" -> "well-known"
  // The policy's marker_pattern, or null: every marker reads as one space, from the exact tier on,
  // on both sides (a text's markers are found in that text alone: an element's, a claim's).
  std::shared_ptr<const MarkerPattern> markers;
};

// One reading of a text at one tier: normalized scalars, and for each of them the half-open range
// [start, end) of original scalars it stands for (a collapsed run, a ligature, a composed pair).
struct Reading {
  std::u32string text;
  std::vector<std::uint32_t> start, end;
};

// A normalized occurrence [pos, pos+len) must not split what one original scalar (or collapsed
// run) produced, e.g. the "i" of an "ﬁ" ligature.
inline bool aligned(const Reading& reading, std::size_t pos, std::size_t len) {
  const std::size_t last = pos + len - 1;
  if (pos > 0 && reading.end[pos - 1] > reading.start[pos]) return false;
  if (last + 1 < reading.text.size() && reading.start[last + 1] < reading.end[last]) return false;
  return true;
}

// Parser artifacts of an element (core/source.hpp): scalar offsets of line-end hyphens.
struct LineArtifacts {
  const std::vector<std::int64_t>* hyphen_breaks = nullptr;
};

// All readings of a text. Tiers from typography up hold one reading per hyphenation reading the
// policy allows when the parser recorded line-end hyphens (else exactly one).
struct Ladder {
  std::u32string original;
  // Filled by build_ladder; a claim's ladder (build_claim_ladder) fills a tier on its first at().
  mutable std::vector<Reading> tiers[kTierCount];
  const std::vector<Reading>& at(Tier tier) const;

  // Set by build_claim_ladder: the tiers are built lazily, with these options; bit t of `built`
  // says tier t's reading is the text's (a rebuilt ladder keeps its old readings' storage).
  bool lazy = false;
  LadderOptions options;
  MarkerRanges marker_ranges;  // the text's markers under options.markers
  mutable unsigned built = 0;

  // Long texts (scoped searches) set `indexed`: each reading then gets a gram index on first
  // use, so only the tiers a search reaches pay for one. Ladders live inside one verify call
  // (one thread), which is what makes this lazy cache safe.
  bool indexed = false;
  mutable std::vector<std::unique_ptr<GramIndex>> indexes[kTierCount];
};

Ladder build_ladder(std::string_view utf8_text, const LadderOptions& options, LineArtifacts artifacts = {});

// The ladder of a claim text (no parser artifacts): each tier is built on first use, so a claim
// found at the exact tier never pays for the others. Every tier it gives is build_ladder's.
// Single-threaded, like the gram-index cache.
Ladder build_claim_ladder(std::string_view utf8_text, const LadderOptions& options);
// The same into an existing ladder (a claim ladder or a fresh one), reusing its storage: a
// verify-batch worker rebuilds the ladders of earlier claims for new claim texts instead of
// allocating a text, readings and offsets per claim.
void rebuild_claim_ladder(Ladder& ladder, std::string_view utf8_text, const LadderOptions& options);

// The readings of one tier of an already decoded text (a document's running text: the index
// builds each tier on first use, so it never holds the tiers a search does not reach).
// hyphen_breaks: scalar offsets of recorded line-end hyphens, or nullptr.
// markers: the text's markers when the caller found them already (the document index finds them
// element by element); null finds them here when the options have a marker_pattern.
std::vector<Reading> build_tier(const std::u32string& original, Tier tier, const LadderOptions& options,
                                const std::vector<std::int64_t>* hyphen_breaks, const MarkerRanges* markers = nullptr);

// One scalar of a reading with the original range it stands for: how the tier steps hand
// readings to each other, and how the document index takes them (no Reading built in between).
struct NormalizedScalar {
  char32_t c;
  std::uint32_t start, end;
};
using NormalizedScalars = std::vector<NormalizedScalar>;

// The white-space reading of an already decoded text (build_tier's, as scalars).
NormalizedScalars build_whitespace_tier(const std::u32string& original, const LadderOptions& options,
                                        const MarkerRanges* markers = nullptr);

// The exact reading of an already decoded text as scalars: the text itself, each marker one space.
NormalizedScalars build_exact_tier(const std::u32string& original, const LadderOptions& options,
                                   const MarkerRanges* markers = nullptr);

// The typography, case and skeleton readings of an already decoded text in one pass (each
// exactly what build_tier gives at its tier): one triple per hyphenation reading, in build_tier's
// order. Case and skeleton are computed from the typography scalars in hand instead of from a
// stored reading of the tier before.
// Whether a text may be cut between these two scalars with every tier's reading of the two parts,
// put end to end, the reading of the whole: between two ASCII letters no step carries anything
// across (no white-space or skeleton run is open, no hyphen is being joined, no dash run, no
// composition, no final-sigma context), except right after a letter that follows a backtick or
// another spacing accent: whether the backtick is a grave accent, and whether a math accent goes
// after its letter, depend on the scalar after that letter ("`a la" against "`apply`", "(ˆb)"
// against "ˆbc"). two_before: the scalar before `before` (0 at the text's start).
inline bool is_safe_cut(char32_t two_before, char32_t before, char32_t after) {
  const auto letter = [](char32_t c) { return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z'); };
  return letter(before) && letter(after) && two_before != U'`' && !(two_before >= 0xA8 && two_before <= 0x2DD);
}

// Whether a cut at `pos` may fall inside an HTML character reference, which the typography tier
// reads as one unit: the letters, digits and "#" just before it follow an "&" (at most 40 back, the
// longest reference). Conservative (an "&word" with no ";" also answers yes): it only makes a piece
// longer. at(pos): the text's scalar at pos.
template <typename At>
bool may_split_reference(At at, std::size_t pos) {
  for (std::size_t back = 1; back <= 40 && back <= pos; ++back) {
    const char32_t c = at(pos - back);
    if (c == U'&') return back > 1;
    const bool name = (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z') || (c >= U'0' && c <= U'9') || c == U'#';
    if (!name) return false;
  }
  return false;
}

struct TypographicReadings {
  NormalizedScalars typography, case_folded, skeleton;
};
std::vector<TypographicReadings> build_typographic_tiers(const std::u32string& original, const LadderOptions& options,
                                                         const std::vector<std::int64_t>* hyphen_breaks,
                                                         const MarkerRanges* markers = nullptr);

// The reading of a single tier (quotes need one tier at a time; no hyphenation artifacts).
Reading normalize_for_tier(std::string_view utf8_text, Tier tier, const LadderOptions& options);

}  // namespace ethos::match
