// junction_reading.hpp - a quote that differs from the text only by white space a reader or another
// extractor puts where the glyphs' font changes, or leaves out where a line wraps inside a URL or a
// path (docs/matching.md "Font junctions and wrapped URLs").
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "match/matcher.hpp"
#include "match/policy.hpp"

namespace ethos::match {

// A stretch of a target text (its original scalars) with what the parser recorded about it, all as
// scalar offsets into `text`, ascending.
struct JunctionText {
  std::u32string text;
  // Offsets p where scalars p-1 and p were set in different fonts or sizes with nothing between
  // them (a superscript, a subscript, a footnote marker, math italic beside upright text).
  std::vector<std::uint32_t> junctions;
  // Offsets of the white space a line wrap put there (the parser's generated separators).
  std::vector<std::uint32_t> line_breaks;
  // Recorded line-end hyphens.
  std::vector<std::int64_t> hyphen_breaks;
  // Separators the evidence's projection put between a key and its description (the `|` of a
  // two-column table's row reading): read as white space, like a callout marker.
  std::vector<std::uint32_t> separators;
  // Footnote markers glued to the word before them ("WYSIWYG¹", "like²"): [start, end) scalar
  // ranges the parser set raised and smaller (see is_footnote_marker_span in the verifier).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> footnote_markers;
};

// Whether the white space at `pos` (a line wrap) lies inside a URL or a path: the scalar before it
// is '/' (or '-', '.', '_' after a URL's scheme or "www."), the run of non-white-space before it
// holds "://", starts "www.", or is a path ("/usr/", "~/x/", "./a/"; two slashes at least), and a
// letter, digit or path character follows.
bool is_url_wrap(const std::u32string& text, std::size_t pos);

// Whether the scalar at `pos` is a callout marker: a circled number (①, ❷, ...) that starts a
// line (the text's start, after a line break or a recorded wrap) and is followed by white space.
bool is_callout_marker(const std::u32string& text, const std::vector<std::uint32_t>& line_breaks, std::size_t pos);

// The first occurrence, at the tightest accepted tier from white space on, of `quote` in `region`
// read with these liberties (and no other difference): a white-space run in the quote where the
// region has none sits at a recorded junction (never between two digits), and a white-space run
// of the region the quote lacks is a URL or path wrap (is_url_wrap). The region is read with its
// recorded hyphens and, second, without them (a line-end hyphen as printed, "--no- site-file");
// a callout marker (is_callout_marker) and a footnote marker read as white space, so a quote may
// leave them out (a footnote marker also right after the quote's last word).
// Whole tokens when the policy asks for them; neither end may fall on a junction or a wrap (a
// quote that drops a marker is not this). nullopt when there is none, or no liberty was taken.
std::optional<Located> find_across_junctions(const JunctionText& region, const std::string& quote, const Policy& policy);

// A quote's readings per tier, kept while the same quote is searched in several regions.
class QuoteReadings {
 public:
  const Reading& at(const std::string& quote, Tier tier, const LadderOptions& options);

 private:
  std::string quote_;
  std::map<Tier, Reading> tiers_;
};

// The same search over one region for many quotes (a page's further readings, searched for every
// quote that missed the rest): the region is prepared once and each tier's readings of it are
// built on first use and kept. One policy per object; not for concurrent use. `ladder`, when
// given, is a ladder of region.text built with the policy's options and region.hyphen_breaks (it
// must outlive this object): its readings are used instead of building them again.
class JunctionSearch {
 public:
  explicit JunctionSearch(JunctionText region, const Ladder* ladder = nullptr);
  ~JunctionSearch();
  JunctionSearch(JunctionSearch&&) noexcept;
  JunctionSearch& operator=(JunctionSearch&&) noexcept;
  std::optional<Located> find(const std::string& quote, const Policy& policy, QuoteReadings* quote_readings = nullptr) const;

 private:
  struct Prepared;
  std::unique_ptr<Prepared> prepared_;
};

}  // namespace ethos::match
