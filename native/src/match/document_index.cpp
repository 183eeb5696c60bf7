// document_index.cpp - builds a document's running text and its tier readings lazily (once each,
// std::call_once), and searches element and page ranges of it.
#include "match/document_index.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>
#include <utility>

#include "match/align.hpp"
#include "match/find_all.hpp"
#include "match/stitch.hpp"
#include "match/tier_search.hpp"
#include "match/tokens.hpp"
#include "text/unicode_props.hpp"
#include "text/utf8.hpp"

namespace ethos::match {
namespace {

// Ranges longer than this (in normalized scalars) are searched through the reading's gram index;
// shorter ones (an element, a page) are scanned, so page-scoped work never builds one.
constexpr std::size_t kScanLimit = 1U << 15;

// Start positions of needle in text[window_begin, window_end): through the text's gram index
// (built on first use) for long windows when may_index, else by scanning the window. A needle
// shorter than a gram is always scanned for.
template <typename CharT, typename Index>
std::vector<std::size_t> find_positions(const std::basic_string<CharT>& text, std::basic_string_view<CharT> needle,
                                        std::size_t window_begin, std::size_t window_end, bool may_index,
                                        std::once_flag& once, std::unique_ptr<Index>& index) {
  std::vector<std::size_t> out;
  if (window_end < window_begin + needle.size()) return out;
  if (may_index && window_end - window_begin > kScanLimit && needle.size() >= Index::kGram) {
    std::call_once(once, [&] { index = std::make_unique<Index>(text); });
    // The index's candidates are compared in full; when they would cost more than a scan of the
    // window (a repetitive text: find_all.hpp), the window is scanned in linear time instead.
    if (index->candidates(needle) <= compare_budget(window_end - window_begin, needle.size()) / needle.size()) {
      for (std::size_t pos : index->find_all(needle)) {
        if (pos >= window_begin && pos + needle.size() <= window_end) out.push_back(pos);
      }
      return out;
    }
  }
  const std::basic_string_view<CharT> window(text.data() + window_begin, window_end - window_begin);
  out = find_all(window, needle);
  for (std::size_t& pos : out) pos += window_begin;
  return out;
}

// Where a text may be cut to build a tier piece by piece: between two ASCII letters no step
// carries anything across (no white-space run or skeleton run is open, no hyphen is being joined,
// no dash run, no composition, no final-sigma context), so the pieces' readings put end to end
// are the whole text's reading (nor inside an HTML character reference). Pieces of about `chunk` scalars bound the builder's working
// memory. at(pos): the text's scalar at pos.
template <typename At>
std::vector<std::size_t> cut_points(std::size_t size, std::size_t chunk, At at) {
  std::vector<std::size_t> out{0};
  for (std::size_t target = chunk; target < size; target = out.back() + chunk) {
    std::size_t p = target;
    while (p < size && (!is_safe_cut(p >= 2 ? at(p - 2) : 0, at(p - 1), at(p)) || may_split_reference(at, p))) ++p;
    if (p >= size) break;
    out.push_back(p);
  }
  out.push_back(size);
  return out;
}

// The original range of the occurrence [pos, pos + length) of a reading, or nothing when it splits
// what one original scalar (or collapsed run) produced: the rule of matcher.cpp's search_ladder.
std::optional<std::pair<std::uint32_t, std::uint32_t>> aligned_range(const OffsetMap& map, std::size_t pos,
                                                                     std::size_t length) {
  const std::size_t last = pos + length - 1;
  if (pos > 0 && map.end(pos - 1) > map.start(pos)) return std::nullopt;
  if (last + 1 < map.size() && map.start(last + 1) < map.end(last)) return std::nullopt;
  return std::make_pair(map.start(pos), map.end(last));
}

// About how many tokens tokenize_each finds in a case reading: a token starts at a non-space
// scalar after a space, at or after a non-word scalar, and at every CJK scalar (inner
// apostrophes and number joiners make it a little high, a letter run meeting digits a little
// low). The near-miss builder reserves this instead of doubling its token array (and copying it
// to drop the spare), which set the peak of a page-scope process.
template <typename CharT>
std::size_t count_token_starts(const std::basic_string<CharT>& text) {
  const auto word = [](char32_t c) {
    if (c < 0x80) return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z') || (c >= U'0' && c <= U'9');
    return unicode::is_word_char(c) && !unicode::is_cjk_ideograph_or_kana(c);
  };
  std::size_t count = 0;
  bool previous_word = false;
  for (CharT unit : text) {
    const auto c = static_cast<char32_t>(unit);
    const bool is_word = word(c);
    if (!token_rules::is_space(c) && !(is_word && previous_word)) ++count;
    previous_word = is_word;
  }
  return count;
}

int option_key(const LadderOptions& options) {
  return (options.cjk_wrap_spaces ? 4 : 0) + (options.joined_reading ? 2 : 0) + (options.hyphenated_reading ? 1 : 0);
}

}  // namespace

// The running text is held like the readings: 2 bytes per scalar unless a scalar lies beyond
// the BMP (then `wide` holds it), since it is kept for the document's lifetime.
struct DocumentIndex::Running {
  std::u16string narrow;                    // the running text's scalars, all in the BMP
  std::u32string wide;                      // the running text's scalars, when one is not
  bool is_wide = false;
  ScalarView text() const { return is_wide ? ScalarView(wide) : ScalarView(narrow); }
  std::vector<std::size_t> elements;        // running number -> element index
  std::vector<std::uint32_t> bases, lengths;
  std::vector<std::size_t> running_of;      // element index -> running number or npos
  std::vector<std::int64_t> hyphen_breaks;  // the elements' line-end hyphens, in running offsets
  MarkerRanges markers;                     // each element's markers (an index with markers_), in running offsets
};

// One reading of the running text at one tier; the exact tier's text is the running text itself.
// A reading whose scalars all lie in the BMP (nearly every document) is held in 2 bytes per
// scalar (`narrow`) instead of 4: it is searched with a needle narrowed the same way.
struct DocumentIndex::TierReading {
  std::u32string own_text;               // a reading with a scalar beyond the BMP
  std::u16string narrow;                 // a reading without one
  const std::u32string* text = nullptr;  // own_text or the wide running text; nullptr: narrow_text holds it
  const std::u16string* narrow_text = &narrow;  // narrow or the narrow running text
  OffsetMap map;
  std::vector<std::uint32_t> window_begin, window_end;  // per running element: its normalized range
  mutable std::once_flag index_once;
  mutable std::unique_ptr<GramIndex> index;
  mutable std::unique_ptr<GramIndex16> index16;
};

struct DocumentIndex::TierIndex {
  std::vector<std::unique_ptr<TierReading>> readings;  // one per hyphenation reading
};

struct DocumentIndex::NearMissTokens {
  NearMissIndex index;
  std::vector<std::uint32_t> first_token;  // per running element, then the token count
};

DocumentIndex::DocumentIndex(std::vector<Piece> pieces, std::size_t chunk_scalars)
    : pieces_(std::move(pieces)), chunk_scalars_(chunk_scalars == 0 ? 1 : chunk_scalars) {}
DocumentIndex::~DocumentIndex() = default;

const DocumentIndex::Running& DocumentIndex::running() const {
  std::call_once(running_once_, [this] {
    auto running = std::make_unique<Running>();
    running->running_of.assign(pieces_.size(), npos);
    std::size_t total = 0;
    for (const Piece& piece : pieces_) total += piece.text != nullptr ? piece.text->size() + 1 : 0;
    running->narrow.reserve(total);
    // Decoded into 2 bytes per scalar, an element's scalars written straight into room for as
    // many as it has bytes; the first element with a scalar beyond the BMP copies what is decoded
    // so far into `wide`, which takes the rest.
    const auto widen = [&running] {
      running->wide.reserve(running->narrow.capacity());
      running->wide.assign(running->narrow.begin(), running->narrow.end());
      std::u16string().swap(running->narrow);
      running->is_wide = true;
    };
    std::size_t size = 0;
    for (std::size_t element = 0; element < pieces_.size(); ++element) {
      const Piece& piece = pieces_[element];
      if (piece.text == nullptr || piece.furniture) continue;
      if (!running->elements.empty()) {
        if (running->is_wide) {
          running->wide.push_back(U'\n');  // never crossed at exact
        } else {
          running->narrow.push_back(u'\n');
        }
        ++size;
      }
      const auto base = static_cast<std::uint32_t>(size);
      running->running_of[element] = running->elements.size();
      running->elements.push_back(element);
      running->bases.push_back(base);
      const std::string_view text = *piece.text;
      if (!running->is_wide) {
        running->narrow.resize(size + text.size());
        char16_t* out = running->narrow.data() + size;
        char32_t widest = 0;
        std::size_t count = 0;
        for (std::size_t pos = 0; pos < text.size(); ++count) {
          const char32_t c = utf8::next(text, pos);
          widest |= c;
          out[count] = static_cast<char16_t>(c);
        }
        running->narrow.resize(size + count);
        if (widest > 0xFFFF) {
          running->narrow.resize(size);
          widen();
        } else {
          size += count;
        }
      }
      if (running->is_wide) {
        for (std::size_t pos = 0; pos < text.size(); ++size) running->wide.push_back(utf8::next(text, pos));
      }
      running->lengths.push_back(static_cast<std::uint32_t>(size - base));
      if (markers_) {
        // Found in the element's own text, as its own ladder finds them.
        for (const auto& [first, end] : markers_->find_utf8(text)) running->markers.emplace_back(base + first, base + end);
      }
      if (piece.hyphen_breaks != nullptr) {
        for (std::int64_t h : *piece.hyphen_breaks) {
          // Offsets outside the element are ignored, as in the element's own ladder.
          if (h >= 0 && h < static_cast<std::int64_t>(running->lengths.back())) running->hyphen_breaks.push_back(base + h);
        }
      }
    }
    running->narrow.shrink_to_fit();
    running->wide.shrink_to_fit();
    running_ = std::move(running);
  });
  return *running_;
}

std::size_t DocumentIndex::running_number(std::size_t element) const {
  const Running& run = running();
  return element < run.running_of.size() ? run.running_of[element] : npos;
}
std::size_t DocumentIndex::element_of(std::size_t r) const { return running().elements[r]; }
std::uint32_t DocumentIndex::base(std::size_t r) const { return running().bases[r]; }
std::uint32_t DocumentIndex::length(std::size_t r) const { return running().lengths[r]; }
std::size_t DocumentIndex::running_count() const { return running().elements.size(); }
std::size_t DocumentIndex::running_at(std::uint32_t offset) const {
  const std::vector<std::uint32_t>& bases = running().bases;
  return static_cast<std::size_t>(std::upper_bound(bases.begin(), bases.end(), offset) - bases.begin()) - 1;
}

const DocumentIndex& DocumentIndex::serving(const LadderOptions& options) const {
  if (!options.markers || markers_) return *this;
  const std::lock_guard<std::mutex> lock(marked_mutex_);
  auto it = marked_.find(options.markers->pattern());
  if (it == marked_.end()) {
    auto marked = std::make_unique<DocumentIndex>(pieces_, chunk_scalars_);
    marked->markers_ = options.markers;
    it = marked_.emplace(options.markers->pattern(), std::move(marked)).first;
  }
  return *it->second;
}

const DocumentIndex::TierIndex& DocumentIndex::tier(const LadderOptions& options, Tier which) const {
  const auto key = static_cast<std::size_t>(option_key(options));
  const std::size_t slot = key * kTierCount + static_cast<std::size_t>(which);
  if (static_cast<int>(which) >= static_cast<int>(Tier::typography)) {
    // Every preset searches the whole ladder, so a search that gets past the tiers before
    // typography without a match goes on to case and skeleton: the three are built in one pass
    // (build_typographic_tiers), sharing the typography units instead of re-reading them.
    std::call_once(typographic_once_[key], [&] {
      const std::size_t first = key * kTierCount + static_cast<std::size_t>(Tier::typography);
      std::array<std::unique_ptr<TierIndex>, 3> built;
      for (auto& index : built) index = std::make_unique<TierIndex>();
      build_chunked(running(), options, Build::typographic, {built[0].get(), built[1].get(), built[2].get()});
      for (std::size_t t = 0; t < built.size(); ++t) tiers_[first + t] = std::move(built[t]);
    });
    return *tiers_[slot];
  }
  std::call_once(tier_once_[slot], [&] {
    const Running& run = running();
    auto index = std::make_unique<TierIndex>();
    if (which == Tier::exact && !run.markers.empty()) {
      build_chunked(run, options, Build::exact, {index.get()});
    } else if (which == Tier::exact) {
      auto reading = std::make_unique<TierReading>();
      if (run.is_wide) {
        reading->text = &run.wide;
      } else {
        reading->narrow_text = &run.narrow;
      }
      reading->map.push_identity(0, run.text().size());
      reading->map.shrink();
      reading->window_begin = run.bases;
      reading->window_end.resize(run.bases.size());
      for (std::size_t r = 0; r < run.bases.size(); ++r) reading->window_end[r] = run.bases[r] + run.lengths[r];
      index->readings.push_back(std::move(reading));
    } else {
      build_chunked(run, options, Build::whitespace, {index.get()});
    }
    tiers_[slot] = std::move(index);
  });
  return *tiers_[slot];
}

// Where the running text may be cut to build a tier piece by piece (cut_points).
std::vector<std::size_t> DocumentIndex::cuts(ScalarView text) const {
  std::vector<std::size_t> points = cut_points(text.size(), chunk_scalars_, [text](std::size_t pos) { return text[pos]; });
  const MarkerRanges& markers = running().markers;
  if (markers.empty()) return points;
  // A cut at a marker's edge or inside it would trim or split the space it reads as: such cuts
  // are dropped (the pieces on either side become one; any cut may be left out).
  std::vector<std::size_t> kept;
  kept.reserve(points.size());
  auto marker = markers.begin();
  for (std::size_t point : points) {
    while (marker != markers.end() && marker->second < point) ++marker;
    const bool inside = marker != markers.end() && marker->first <= point && point <= marker->second;
    if (!inside || point == 0 || point == text.size()) kept.push_back(point);
  }
  return kept;
}

void DocumentIndex::build_chunked(const Running& run, const LadderOptions& options, Build build,
                                  const std::vector<TierIndex*>& indexes) const {
  const bool typographic = build == Build::typographic;
  // Appends a piece's reading (its offsets shifted by `shift`): 2 bytes per scalar while every
  // scalar so far lies in the BMP, 4 from the first that does not.
  // The narrow copy is written while the piece is checked for a scalar beyond the BMP (one pass,
  // undone in the rare piece that has one).
  const auto append = [](TierReading& reading, const NormalizedScalars& piece, std::uint32_t shift) {
    if (reading.text == nullptr) {
      const std::size_t at = reading.narrow.size();
      reading.narrow.resize(at + piece.size());
      char16_t* out = reading.narrow.data() + at;
      char32_t widest = 0;
      for (std::size_t k = 0; k < piece.size(); ++k) {
        widest |= piece[k].c;
        out[k] = static_cast<char16_t>(piece[k].c);
      }
      if (widest > 0xFFFF) {
        reading.narrow.resize(at);
        reading.own_text.assign(reading.narrow.begin(), reading.narrow.end());
        std::u16string().swap(reading.narrow);
        reading.text = &reading.own_text;
      }
    }
    if (reading.text != nullptr) {
      for (const NormalizedScalar& s : piece) reading.own_text.push_back(s.c);
    }
    reading.map.push_all(piece.begin(), piece.end(), shift);
  };
  // How many hyphenation readings the whole text has (build_tier's rule on the whole text); the
  // white-space tier never reads the hyphens, so it has one.
  bool any_hyphen = false;
  for (std::int64_t h : run.hyphen_breaks) {
    const char32_t c = run.text()[static_cast<std::size_t>(h)];
    any_hyphen = any_hyphen || c == U'-' || c == 0x2010 || c == 0x00AD;
  }
  const int allowed = (options.joined_reading ? 1 : 0) + (options.hyphenated_reading ? 1 : 0);
  const std::size_t count = typographic && any_hyphen && allowed > 0 ? static_cast<std::size_t>(allowed) : 1;
  for (TierIndex* index : indexes) {
    for (std::size_t i = 0; i < count; ++i) {
      index->readings.push_back(std::make_unique<TierReading>());
      index->readings.back()->narrow.reserve(run.text().size());
    }
  }
  const ScalarView running_text = run.text();
  const std::vector<std::size_t> bounds = cuts(running_text);
  std::vector<std::int64_t> hyphens;
  MarkerRanges markers;  // the piece's, in its own offsets (no cut falls inside one)
  auto next_marker = run.markers.begin();
  for (std::size_t c = 0; c + 1 < bounds.size(); ++c) {
    const std::size_t from = bounds[c], to = bounds[c + 1];
    const std::u32string piece = running_text.substr(from, to - from);
    const auto shift = static_cast<std::uint32_t>(from);
    markers.clear();
    for (; next_marker != run.markers.end() && next_marker->first < to; ++next_marker) {
      markers.emplace_back(next_marker->first - shift, next_marker->second - shift);
    }
    if (build == Build::exact) {
      append(*indexes[0]->readings[0], build_exact_tier(piece, options, &markers), shift);
      continue;
    }
    if (!typographic) {
      append(*indexes[0]->readings[0], build_whitespace_tier(piece, options, &markers), shift);
      continue;
    }
    hyphens.clear();
    for (std::int64_t h : run.hyphen_breaks) {
      if (static_cast<std::size_t>(h) >= from && static_cast<std::size_t>(h) < to) hyphens.push_back(h - static_cast<std::int64_t>(from));
    }
    const std::vector<TypographicReadings> built = build_typographic_tiers(piece, options, &hyphens, &markers);
    for (std::size_t i = 0; i < count; ++i) {
      // A piece without recorded hyphens has one reading, the same under both hyphenations.
      const TypographicReadings& readings = built[std::min(i, built.size() - 1)];
      append(*indexes[0]->readings[i], readings.typography, shift);
      append(*indexes[1]->readings[i], readings.case_folded, shift);
      append(*indexes[2]->readings[i], readings.skeleton, shift);
    }
  }
  for (TierIndex* index : indexes) {
    for (auto& slot : index->readings) {
      TierReading& reading = *slot;
      reading.own_text.shrink_to_fit();
      reading.narrow.shrink_to_fit();
      reading.map.shrink();
      reading.window_begin.resize(run.bases.size());
      reading.window_end.resize(run.bases.size());
      for (std::size_t r = 0; r < run.bases.size(); ++r) {
        reading.window_begin[r] = static_cast<std::uint32_t>(reading.map.first_at_or_after(run.bases[r]));
        reading.window_end[r] = static_cast<std::uint32_t>(reading.map.first_at_or_after(run.bases[r] + run.lengths[r]));
      }
    }
  }
}

std::vector<std::size_t> DocumentIndex::positions(const TierReading& reading, const std::u32string& needle,
                                                  std::size_t window_begin, std::size_t window_end,
                                                  bool may_index) const {
  if (reading.text != nullptr) {
    return find_positions(*reading.text, std::u32string_view(needle), window_begin, window_end, may_index,
                          reading.index_once, reading.index);
  }
  // Every exact search of a BMP document narrows its needle: one pass to check, one converting
  // copy, on the stack unless the needle is long (no allocation per search).
  char32_t widest = 0;
  for (char32_t c : needle) widest |= c;
  if (widest > 0xFFFF) return {};  // a BMP-only reading cannot hold it
  std::array<char16_t, 256> buffer;
  std::u16string long_needle;
  const char16_t* narrow = buffer.data();
  if (needle.size() <= buffer.size()) {
    std::copy(needle.begin(), needle.end(), buffer.begin());
  } else {
    long_needle.assign(needle.begin(), needle.end());
    narrow = long_needle.data();
  }
  return find_positions(*reading.narrow_text, std::u16string_view(narrow, needle.size()), window_begin, window_end, may_index, reading.index_once,
                        reading.index16);
}

LadderResult DocumentIndex::search(const Ladder& expected, const Policy& policy, std::size_t first, std::size_t last) const {
  if (const DocumentIndex& index = serving(policy.ladder); &index != this) return index.search(expected, policy, first, last);
  const Running& run = running();
  const std::uint32_t range_begin = run.bases[first];
  const std::uint32_t range_end = run.bases[last] + run.lengths[last];
  return search_tiers(expected, policy, run.text(), [&](Tier which, const std::u32string& needle, TierTally& tally) {
    for (const auto& reading_slot : tier(policy.ladder, which).readings) {
      const TierReading& reading = *reading_slot;
      for (std::size_t pos : positions(reading, needle, reading.window_begin[first], reading.window_end[last])) {
        const auto range = aligned_range(reading.map, pos, needle.size());
        if (!range || range->first < range_begin || range->second > range_end) continue;
        tally.add(range->first, range->second);
      }
      tally.end_reading();
    }
  });
}

std::optional<DocumentIndex::ReadingHit> DocumentIndex::first_occurrence(
    const LadderOptions& options, Tier which, const std::u32string& needle,
    const std::function<bool(std::uint32_t, std::uint32_t)>& keep) const {
  if (const DocumentIndex& index = serving(options); &index != this) return index.first_occurrence(options, which, needle, keep);
  std::optional<ReadingHit> best;
  if (needle.empty() || running().elements.empty()) return best;
  const auto& readings = tier(options, which).readings;
  for (std::size_t r = 0; r < readings.size(); ++r) {
    const TierReading& reading = *readings[r];
    for (std::size_t pos : positions(reading, needle, 0, reading.map.size())) {
      const auto range = aligned_range(reading.map, pos, needle.size());
      if (!range || (best && range->first >= best->start)) continue;
      if (!keep(range->first, range->second)) continue;
      best = ReadingHit{r, pos, range->first, range->second};
      break;  // positions ascend, and so do their original starts
    }
  }
  return best;
}

std::pair<std::uint32_t, std::uint32_t> DocumentIndex::original_range(const LadderOptions& options, Tier which,
                                                                      std::size_t reading, std::size_t pos,
                                                                      std::size_t length) const {
  if (const DocumentIndex& index = serving(options); &index != this) return index.original_range(options, which, reading, pos, length);
  const OffsetMap& map = tier(options, which).readings.at(reading)->map;
  return {map.start(pos), map.end(pos + length - 1)};
}

std::vector<Located> DocumentIndex::fragment_occurrences(const Ladder& fragment, const Policy& policy, std::size_t first,
                                                        std::size_t last) const {
  if (const DocumentIndex& index = serving(policy.ladder); &index != this) {
    return index.fragment_occurrences(fragment, policy, first, last);
  }
  const Running& run = running();
  const std::uint32_t range_begin = run.bases[first];
  const std::uint32_t range_end = run.bases[last] + run.lengths[last];
  // stitch.cpp's collection, reading by reading and position by position in the same order, so
  // the cap keeps the same occurrences; plus search()'s rule: only occurrences inside the range.
  return collect_fragment_occurrences(fragment, run.text(), policy,
                                      [&](Tier which, const std::u32string& needle, const auto& keep) {
    for (const auto& reading_slot : tier(policy.ladder, which).readings) {
      const TierReading& reading = *reading_slot;
      for (std::size_t pos : positions(reading, needle, reading.window_begin[first], reading.window_end[last])) {
        const auto range = aligned_range(reading.map, pos, needle.size());
        if (!range || range->first < range_begin || range->second > range_end) continue;
        if (!keep(range->first, range->second)) return;
      }
    }
  });
}

ScalarView DocumentIndex::running_text() const { return running().text(); }

std::vector<LadderResult> DocumentIndex::search_each(const Ladder& expected, const Policy& policy, std::size_t first,
                                                     std::size_t last) const {
  if (const DocumentIndex& index = serving(policy.ladder); &index != this) return index.search_each(expected, policy, first, last);
  const Running& run = running();
  const ScalarView original = run.text();
  const std::size_t n = last - first + 1;
  std::vector<LadderResult> results(n);
  std::vector<char> done(n, 0);  // element has its whole-token occurrence: search(e, e) stopped
  std::vector<std::optional<Located>> whole(n), clipped(n);  // this tier's, per element
  std::vector<std::size_t> count(n), clipped_count(n);       // this reading's, per element
  for (Tier which : policy.tiers) {
    const std::u32string& needle = expected.at(which).front().text;
    if (needle.empty()) break;
    std::fill(whole.begin(), whole.end(), std::nullopt);
    std::fill(clipped.begin(), clipped.end(), std::nullopt);
    for (const auto& reading_slot : tier(policy.ladder, which).readings) {
      const TierReading& reading = *reading_slot;
      const OffsetMap& map = reading.map;
      std::fill(count.begin(), count.end(), 0);
      std::fill(clipped_count.begin(), clipped_count.end(), 0);
      for (std::size_t pos : positions(reading, needle, reading.window_begin[first], reading.window_end[last], false)) {
        // search()'s rules, then the element holding the whole occurrence (none: it crosses an edge).
        const auto range = aligned_range(map, pos, needle.size());
        if (!range) continue;
        const auto [start, end] = *range;
        if (start < run.bases[first]) continue;
        const std::size_t r = running_at(start);
        if (r > last || end > run.bases[r] + run.lengths[r]) continue;
        const std::size_t e = r - first;
        if (done[e]) continue;
        const bool whole_tokens = !policy.whole_tokens ||
                                  (is_token_boundary(original, start) && is_token_boundary(original, end));
        const std::uint32_t base = run.bases[r];
        if (whole_tokens) {
          ++count[e];
          if (!whole[e]) whole[e] = Located{which, start - base, end - base, 0};
        } else {
          ++clipped_count[e];
          if (!clipped[e]) clipped[e] = Located{which, start - base, end - base, 0};
        }
      }
      for (std::size_t e = 0; e < n; ++e) {
        if (whole[e]) whole[e]->occurrences = std::max(whole[e]->occurrences, count[e]);
        if (clipped[e]) clipped[e]->occurrences = std::max(clipped[e]->occurrences, clipped_count[e]);
      }
    }
    bool settled = false;
    for (std::size_t e = 0; e < n; ++e) {
      if (done[e]) continue;
      if (clipped[e] && !results[e].clipped) results[e].clipped = clipped[e];
      if (whole[e]) {
        results[e].whole = whole[e];
        done[e] = 1;
        settled = settled || policy.accepts(which);
      }
    }
    if (settled) break;
  }
  return results;
}

const DocumentIndex::NearMissTokens& DocumentIndex::near_miss_tokens_of(const LadderOptions& options) const {
  const auto slot = static_cast<std::size_t>(option_key(options));
  std::call_once(near_miss_once_[slot], [&] {
    const Running& run = running();
    auto built = std::make_unique<NearMissTokens>();
    built->index.borrows = true;
    built->index.borrowed = run.text();
    built->first_token.reserve(run.elements.size() + 1);
    // Element by element: the line-break joiner ends every token and normalization step, so the
    // pieces' tokens are the running text's, and no reading of the whole text is ever held. With
    // no line-end hyphen recorded, the case tier's one reading is the plain case reading the
    // tokens come from: each element's stretch of it is tokenized instead of normalizing again.
    const TierReading* reading = nullptr;
    if (run.hyphen_breaks.empty()) {
      const TierIndex& case_tier = tier(options, Tier::case_folded);
      if (case_tier.readings.size() == 1) reading = case_tier.readings.front().get();
    }
    if (reading != nullptr) {
      const std::size_t starts = reading->text != nullptr ? count_token_starts(*reading->text) : count_token_starts(*reading->narrow_text);
      built->index.tokens.reserve(starts + starts / 64 + 16);
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
    for (std::size_t r = 0; r < run.elements.size(); ++r) {
      built->first_token.push_back(static_cast<std::uint32_t>(built->index.tokens.size()));
      if (reading == nullptr) {
        const Piece& piece = pieces_[run.elements[r]];
        add_near_miss_tokens(built->index, *piece.text, run.bases[r], options, piece.hyphen_breaks);
        continue;
      }
      // The element's stretch of the stored case reading, tokenized in place; its original
      // ranges are read off the offset map in one walk (a lookup per token would binary-search
      // the map's runs every time).
      const std::size_t from = reading->window_begin[r];
      ranges.clear();
      reading->map.for_each(from, reading->window_end[r], [&](std::size_t, std::uint32_t start, std::uint32_t end) {
        ranges.emplace_back(start, end);
      });
      tokenize_each(
          ranges.size(),
          [&](std::size_t k) -> char32_t {
            return reading->text != nullptr ? (*reading->text)[from + k] : static_cast<char32_t>((*reading->narrow_text)[from + k]);
          },
          [&](std::size_t k) { return ranges[k]; }, [&](Token&& token) { built->index.add(token); });
    }
    built->first_token.push_back(static_cast<std::uint32_t>(built->index.tokens.size()));
    built->index.finish();
    near_miss_[slot] = std::move(built);
  });
  return *near_miss_[slot];
}

const NearMissIndex& DocumentIndex::near_miss(const LadderOptions& options) const {
  if (const DocumentIndex& index = serving(options); &index != this) return index.near_miss(options);
  return near_miss_tokens_of(options).index;
}

std::pair<std::size_t, std::size_t> DocumentIndex::near_miss_tokens(const LadderOptions& options, std::size_t first,
                                                                    std::size_t last) const {
  if (const DocumentIndex& index = serving(options); &index != this) return index.near_miss_tokens(options, first, last);
  const std::vector<std::uint32_t>& first_token = near_miss_tokens_of(options).first_token;
  return {first_token[first], first_token[last + 1]};
}

std::size_t DocumentIndex::memory_bytes() const {
  std::size_t bytes = 0;
  if (running_) {
    bytes += running_->narrow.capacity() * sizeof(char16_t) + running_->wide.capacity() * sizeof(char32_t);
    bytes += (running_->elements.capacity() + running_->running_of.capacity()) * sizeof(std::size_t);
    bytes += (running_->bases.capacity() + running_->lengths.capacity()) * sizeof(std::uint32_t);
  }
  for (const auto& index : tiers_) {
    if (!index) continue;
    for (const auto& reading : index->readings) {
      bytes += reading->own_text.capacity() * sizeof(char32_t) + reading->narrow.capacity() * sizeof(char16_t);
      bytes += reading->map.memory_bytes();
      bytes += (reading->window_begin.capacity() + reading->window_end.capacity()) * sizeof(std::uint32_t);
      if (reading->index) bytes += reading->index->memory_bytes();
      if (reading->index16) bytes += reading->index16->memory_bytes();
    }
  }
  for (const auto& tokens : near_miss_) {
    if (tokens) bytes += tokens->index.memory_bytes() + tokens->first_token.capacity() * sizeof(std::uint32_t);
  }
  const std::lock_guard<std::mutex> lock(marked_mutex_);
  for (const auto& [pattern, marked] : marked_) bytes += marked->memory_bytes();
  return bytes;
}

}  // namespace ethos::match
