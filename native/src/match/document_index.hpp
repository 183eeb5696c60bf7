// document_index.hpp - the match index of one loaded document: its running text at every tier,
// built lazily (per tier, on first use) and then shared by every verify call and thread.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "match/ladder.hpp"
#include "match/matcher.hpp"
#include "match/near_miss.hpp"
#include "match/offset_map.hpp"
#include "match/policy.hpp"
#include "match/scalar_text.hpp"
#include "match/gram_index.hpp"

namespace ethos::match {

// The running text is what a scoped citation searches (docs/matching.md "Scope"): the texts of
// the document's elements in document order, running headers and footers left out, joined by a
// line break, at one reading per tier. An element's text and a range of consecutive elements are
// ranges of it: searching a range finds exactly what searching that range's own ladder finds (the
// line-break joiner keeps every normalization step from reaching across an element edge inside
// the range, and only occurrences inside the range count), so one index serves element, page and
// document searches alike.
class DocumentIndex {
 public:
  // One per element of the document, in document order. The strings must outlive the index (the
  // immutable Source owns both).
  struct Piece {
    const std::string* text = nullptr;  // nullptr: the element has no text
    const std::vector<std::int64_t>* hyphen_breaks = nullptr;
    bool furniture = false;             // running header or footer: not in the running text
  };
  // chunk_scalars: tiers are built in pieces of about this many scalars (working memory; tests
  // use small pieces to check that the pieces add up to the whole).
  explicit DocumentIndex(std::vector<Piece> pieces, std::size_t chunk_scalars = std::size_t{1} << 16);
  ~DocumentIndex();
  DocumentIndex(const DocumentIndex&) = delete;
  DocumentIndex& operator=(const DocumentIndex&) = delete;

  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  // Position of an element in the running text (its running number), npos when it is not there.
  std::size_t running_number(std::size_t element) const;
  // Element index, first scalar and scalar length of running element r.
  std::size_t element_of(std::size_t r) const;
  std::uint32_t base(std::size_t r) const;
  std::uint32_t length(std::size_t r) const;
  std::size_t running_count() const;
  // The running element whose text (or following line-break joiner) holds running offset `offset`.
  std::size_t running_at(std::uint32_t offset) const;

  // Searches running elements [first, last] (inclusive) like search_ladder with the `contains`
  // rule: tiers in policy order, whole-token and clipped occurrences, counts. Offsets are
  // scalars of the running text (subtract base(r) for element-relative offsets).
  LadderResult search(const Ladder& expected, const Policy& policy, std::size_t first, std::size_t last) const;

  // Searches every running element of [first, last] on its own, as search(e, e) would, with one
  // scan per tier over the whole range instead of one per element (a page-only citation). Entry
  // e - first is element e's result, in offsets of the element's own text. The scans stop after
  // the first tier at which some element has a whole-token occurrence the policy accepts: no
  // element can then be found at a tighter tier, so the elements found there are complete, and
  // an element without a whole-token occurrence so far keeps only what the tiers scanned gave
  // (its clipped occurrence, if any). The range is always scanned (never builds a gram index).
  std::vector<LadderResult> search_each(const Ladder& expected, const Policy& policy, std::size_t first,
                                        std::size_t last) const;

  // A stitched quotation's fragment (its ladder: build_ladder of the fragment) in running elements
  // [first, last]: what fragment_occurrences (stitch.hpp) finds in the range's own ladder, in
  // running-text offsets. Long ranges are searched through the readings' gram indexes.
  std::vector<Located> fragment_occurrences(const Ladder& fragment, const Policy& policy, std::size_t first,
                                            std::size_t last) const;
  // One occurrence of a needle in one reading of a tier over the whole running text: the reading
  // (hyphenation reading), the needle's position in it and the original running-text range.
  struct ReadingHit {
    std::size_t reading = 0, pos = 0;
    std::uint32_t start = 0, end = 0;
  };
  // The occurrence of needle (already a reading at tier `which`) with the smallest original start,
  // among those not splitting an original scalar that keep(start, end) accepts (answer coverage,
  // core/answer_check: the caller decides what a whole word is). Searches the whole running text,
  // through the readings' gram indexes.
  std::optional<ReadingHit> first_occurrence(const LadderOptions& options, Tier which, const std::u32string& needle,
                                             const std::function<bool(std::uint32_t, std::uint32_t)>& keep) const;
  // The original running-text range of [pos, pos + length) of reading `reading` at tier `which`.
  std::pair<std::uint32_t, std::uint32_t> original_range(const LadderOptions& options, Tier which, std::size_t reading,
                                                         std::size_t pos, std::size_t length) const;

  // The running text's scalars (what offsets of the searches above index): 2 bytes each when
  // every scalar lies in the BMP, 4 otherwise.
  ScalarView running_text() const;

  // The near-miss token index of the running text (find_near_miss), built on the first call for
  // these options (once, thread-safe) element by element, then shared by every verify call. Its
  // offsets are running-text scalars; tokens of running elements [first, last] are
  // near_miss_tokens(first, last), and searching them finds what an index of just those
  // elements' running text finds.
  const NearMissIndex& near_miss(const LadderOptions& options) const;
  std::pair<std::size_t, std::size_t> near_miss_tokens(const LadderOptions& options, std::size_t first,
                                                       std::size_t last) const;

  // Bytes held by the parts built so far (running text, tier readings, maps, gram indexes, near-miss tokens).
  std::size_t memory_bytes() const;

 private:
  struct Running;
  struct TierReading;
  struct TierIndex;
  const Running& running() const;
  // The index that serves these options: this one, or (a policy with a marker_pattern) the one
  // built for that pattern over the same elements, made on first use and kept.
  const DocumentIndex& serving(const LadderOptions& options) const;
  const TierIndex& tier(const LadderOptions& options, Tier tier) const;
  std::vector<std::size_t> cuts(ScalarView text) const;
  // Builds the white-space tier (typographic false: one reading into indexes[0]) or the
  // typography, case and skeleton tiers (indexes[0..2], one reading per hyphenation reading)
  // piece by piece.
  enum class Build { exact, whitespace, typographic };
  void build_chunked(const Running& run, const LadderOptions& options, Build build,
                     const std::vector<TierIndex*>& indexes) const;
  std::vector<std::size_t> positions(const TierReading& reading, const std::u32string& needle, std::size_t window_begin,
                                     std::size_t window_end, bool may_index = true) const;

  static constexpr int kOptionKeys = 8;  // cjk_wrap_spaces x joined_reading x hyphenated_reading
  std::vector<Piece> pieces_;
  std::size_t chunk_scalars_;
  // Set in an index built for one marker_pattern (every element's markers read as spaces); the
  // plain index keeps one such index per pattern it was asked for.
  std::shared_ptr<const MarkerPattern> markers_;
  mutable std::mutex marked_mutex_;
  mutable std::map<std::string, std::unique_ptr<DocumentIndex>, std::less<>> marked_;
  mutable std::once_flag running_once_;
  mutable std::unique_ptr<Running> running_;
  mutable std::array<std::once_flag, kOptionKeys * kTierCount> tier_once_;
  mutable std::array<std::unique_ptr<TierIndex>, kOptionKeys * kTierCount> tiers_;
  mutable std::array<std::once_flag, kOptionKeys> typographic_once_;  // typography, case, skeleton: one build
  struct NearMissTokens;
  mutable std::array<std::once_flag, kOptionKeys> near_miss_once_;
  mutable std::array<std::unique_ptr<NearMissTokens>, kOptionKeys> near_miss_;
  const NearMissTokens& near_miss_tokens_of(const LadderOptions& options) const;
};

}  // namespace ethos::match
