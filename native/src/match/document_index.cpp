// document_index.cpp - builds a document's running text and its tier readings lazily (once each,
// std::call_once), and searches element and page ranges of it.
#include "match/document_index.hpp"

#include <algorithm>
#include <string_view>

#include "match/tokens.hpp"
#include "text/utf8.hpp"

namespace ethos::match {
namespace {

// Ranges longer than this (in normalized scalars) are searched through the reading's suffix
// array; shorter ones (an element, a page) are scanned, so page-scoped work never builds one.
constexpr std::size_t kScanLimit = 1U << 15;
// Suffix arrays are sorted this many scalars deep (quotes are longer; candidates are verified).
constexpr std::size_t kSuffixDepth = 64;

int option_key(const LadderOptions& options) {
  return (options.cjk_wrap_spaces ? 4 : 0) + (options.joined_reading ? 2 : 0) + (options.hyphenated_reading ? 1 : 0);
}

}  // namespace

struct DocumentIndex::Running {
  std::u32string original;                  // the running text's scalars
  std::vector<std::size_t> elements;        // running number -> element index
  std::vector<std::uint32_t> bases, lengths;
  std::vector<std::size_t> running_of;      // element index -> running number or npos
  std::vector<std::int64_t> hyphen_breaks;  // the elements' line-end hyphens, in running offsets
};

// One reading of the running text at one tier; the exact tier's text is the running text itself.
struct DocumentIndex::TierReading {
  std::u32string own_text;
  const std::u32string* text = nullptr;
  OffsetMap map;
  std::vector<std::uint32_t> window_begin, window_end;  // per running element: its normalized range
  mutable std::once_flag index_once;
  mutable std::unique_ptr<SuffixIndex> index;
};

struct DocumentIndex::TierIndex {
  std::vector<std::unique_ptr<TierReading>> readings;  // one per hyphenation reading
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
    running->original.reserve(total);
    for (std::size_t element = 0; element < pieces_.size(); ++element) {
      const Piece& piece = pieces_[element];
      if (piece.text == nullptr || piece.furniture) continue;
      if (!running->elements.empty()) running->original.push_back(U'\n');  // never crossed at exact
      const auto base = static_cast<std::uint32_t>(running->original.size());
      running->running_of[element] = running->elements.size();
      running->elements.push_back(element);
      running->bases.push_back(base);
      const std::string_view text = *piece.text;
      for (std::size_t pos = 0; pos < text.size();) running->original.push_back(utf8::next(text, pos));
      running->lengths.push_back(static_cast<std::uint32_t>(running->original.size() - base));
      if (piece.hyphen_breaks != nullptr) {
        for (std::int64_t h : *piece.hyphen_breaks) {
          // Offsets outside the element are ignored, as in the element's own ladder.
          if (h >= 0 && h < static_cast<std::int64_t>(running->lengths.back())) running->hyphen_breaks.push_back(base + h);
        }
      }
    }
    running->original.shrink_to_fit();
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

const DocumentIndex::TierIndex& DocumentIndex::tier(const LadderOptions& options, Tier which) const {
  const std::size_t slot = static_cast<std::size_t>(option_key(options) * kTierCount + static_cast<int>(which));
  std::call_once(tier_once_[slot], [&] {
    const Running& run = running();
    auto index = std::make_unique<TierIndex>();
    if (which == Tier::exact) {
      auto reading = std::make_unique<TierReading>();
      reading->text = &run.original;
      for (std::size_t i = 0; i < run.original.size(); ++i) {
        reading->map.push(static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + 1));
      }
      reading->map.shrink();
      reading->window_begin = run.bases;
      reading->window_end.resize(run.bases.size());
      for (std::size_t r = 0; r < run.bases.size(); ++r) reading->window_end[r] = run.bases[r] + run.lengths[r];
      index->readings.push_back(std::move(reading));
    } else {
      build_chunked(run, which, options, *index);
    }
    tiers_[slot] = std::move(index);
  });
  return *tiers_[slot];
}

// Where the running text may be cut to build a tier piece by piece: between two ASCII letters no
// step carries anything across (no white-space run or skeleton run is open, no hyphen is being
// joined, no dash run, no composition, no final-sigma context), so the pieces' readings put end to
// end are the whole text's reading. Pieces bound the builder's per-scalar working memory.
std::vector<std::size_t> DocumentIndex::cuts(const std::u32string& text) const {
  const auto letter = [](char32_t c) { return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z'); };
  std::vector<std::size_t> out{0};
  for (std::size_t target = chunk_scalars_; target < text.size(); target = out.back() + chunk_scalars_) {
    std::size_t p = target;
    while (p < text.size() && !(letter(text[p - 1]) && letter(text[p]))) ++p;
    if (p >= text.size()) break;
    out.push_back(p);
  }
  out.push_back(text.size());
  return out;
}

void DocumentIndex::build_chunked(const Running& run, Tier which, const LadderOptions& options, TierIndex& index) const {
  // How many hyphenation readings the whole text has (build_tier's rule on the whole text).
  bool any_hyphen = false;
  for (std::int64_t h : run.hyphen_breaks) {
    const char32_t c = run.original[static_cast<std::size_t>(h)];
    any_hyphen = any_hyphen || c == U'-' || c == 0x2010 || c == 0x00AD;
  }
  const int allowed = (options.joined_reading ? 1 : 0) + (options.hyphenated_reading ? 1 : 0);
  const std::size_t count = any_hyphen && allowed > 0 ? static_cast<std::size_t>(allowed) : 1;
  for (std::size_t i = 0; i < count; ++i) {
    index.readings.push_back(std::make_unique<TierReading>());
    index.readings.back()->text = &index.readings.back()->own_text;
    index.readings.back()->own_text.reserve(run.original.size());
  }
  const std::vector<std::size_t> bounds = cuts(run.original);
  for (std::size_t c = 0; c + 1 < bounds.size(); ++c) {
    const std::size_t from = bounds[c], to = bounds[c + 1];
    std::vector<std::int64_t> hyphens;
    for (std::int64_t h : run.hyphen_breaks) {
      if (static_cast<std::size_t>(h) >= from && static_cast<std::size_t>(h) < to) hyphens.push_back(h - static_cast<std::int64_t>(from));
    }
    const std::vector<Reading> built = build_tier(run.original.substr(from, to - from), which, options, &hyphens);
    for (std::size_t i = 0; i < count; ++i) {
      // A piece without recorded hyphens has one reading, the same under both hyphenations.
      const Reading& piece = built[std::min(i, built.size() - 1)];
      TierReading& reading = *index.readings[i];
      reading.own_text += piece.text;
      const auto shift = static_cast<std::uint32_t>(from);
      for (std::size_t k = 0; k < piece.start.size(); ++k) reading.map.push(piece.start[k] + shift, piece.end[k] + shift);
    }
  }
  for (auto& slot : index.readings) {
    TierReading& reading = *slot;
    reading.own_text.shrink_to_fit();
    reading.map.shrink();
    reading.window_begin.resize(run.bases.size());
    reading.window_end.resize(run.bases.size());
    for (std::size_t r = 0; r < run.bases.size(); ++r) {
      reading.window_begin[r] = static_cast<std::uint32_t>(reading.map.first_at_or_after(run.bases[r]));
      reading.window_end[r] = static_cast<std::uint32_t>(reading.map.first_at_or_after(run.bases[r] + run.lengths[r]));
    }
  }
}

std::vector<std::size_t> DocumentIndex::positions(const TierReading& reading, const std::u32string& needle,
                                                  std::size_t window_begin, std::size_t window_end) const {
  std::vector<std::size_t> out;
  if (window_end < window_begin + needle.size()) return out;
  const std::u32string& text = *reading.text;
  if (window_end - window_begin > kScanLimit) {
    std::call_once(reading.index_once, [&] { reading.index = std::make_unique<SuffixIndex>(text, kSuffixDepth); });
    for (std::size_t pos : reading.index->find_all(needle)) {
      if (pos >= window_begin && pos + needle.size() <= window_end) out.push_back(pos);
    }
    return out;
  }
  const std::u32string_view window(text.data() + window_begin, window_end - window_begin);
  for (std::size_t pos = window.find(needle); pos != std::u32string_view::npos; pos = window.find(needle, pos + 1)) {
    out.push_back(window_begin + pos);
  }
  return out;
}

LadderResult DocumentIndex::search(const Ladder& expected, const Policy& policy, std::size_t first, std::size_t last) const {
  const Running& run = running();
  const std::uint32_t range_begin = run.bases[first];
  const std::uint32_t range_end = run.bases[last] + run.lengths[last];
  LadderResult result;
  for (Tier which : policy.tiers) {
    const std::u32string& needle = expected.at(which).front().text;
    if (needle.empty()) return result;
    std::optional<Located> whole, clipped;
    for (const auto& reading_slot : tier(policy.ladder, which).readings) {
      const TierReading& reading = *reading_slot;
      const OffsetMap& map = reading.map;
      std::size_t count = 0, clipped_count = 0;
      for (std::size_t pos : positions(reading, needle, reading.window_begin[first], reading.window_end[last])) {
        // Same rules as search_ladder: never split what one original scalar produced.
        const std::size_t end_pos = pos + needle.size() - 1;
        if (pos > 0 && map.end(pos - 1) > map.start(pos)) continue;
        if (end_pos + 1 < map.size() && map.start(end_pos + 1) < map.end(end_pos)) continue;
        const std::uint32_t start = map.start(pos);
        const std::uint32_t end = map.end(end_pos);
        if (start < range_begin || end > range_end) continue;
        const bool whole_tokens = !policy.whole_tokens ||
                                  (is_token_boundary(run.original, start) && is_token_boundary(run.original, end));
        if (whole_tokens) {
          ++count;
          if (!whole) whole = Located{which, start, end, 0};
        } else {
          ++clipped_count;
          if (!clipped) clipped = Located{which, start, end, 0};
        }
      }
      if (whole) whole->occurrences = std::max(whole->occurrences, count);
      if (clipped) clipped->occurrences = std::max(clipped->occurrences, clipped_count);
    }
    if (clipped && !result.clipped) result.clipped = clipped;
    if (whole) {
      result.whole = whole;
      return result;
    }
  }
  return result;
}

std::size_t DocumentIndex::memory_bytes() const {
  std::size_t bytes = 0;
  if (running_) {
    bytes += running_->original.capacity() * sizeof(char32_t);
    bytes += (running_->elements.capacity() + running_->running_of.capacity()) * sizeof(std::size_t);
    bytes += (running_->bases.capacity() + running_->lengths.capacity()) * sizeof(std::uint32_t);
  }
  for (const auto& index : tiers_) {
    if (!index) continue;
    for (const auto& reading : index->readings) {
      bytes += reading->own_text.capacity() * sizeof(char32_t) + reading->map.memory_bytes();
      bytes += (reading->window_begin.capacity() + reading->window_end.capacity()) * sizeof(std::uint32_t);
      if (reading->index) bytes += reading->index->memory_bytes();
    }
  }
  return bytes;
}

}  // namespace ethos::match
