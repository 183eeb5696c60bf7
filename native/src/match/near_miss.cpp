// near_miss.cpp - seed windows from the token index, align them, keep the best, diff and guard it.
#include "match/near_miss.hpp"

#include <algorithm>
#include <functional>

#include "core/verify_deadline.hpp"
#include "match/numeric_guard.hpp"
#include "match/polarity_guard.hpp"
#include "text/utf8.hpp"

namespace ethos::match {
namespace {

std::u32string decode(std::string_view utf8_text) {
  std::u32string out;
  std::size_t pos = 0;
  while (pos < utf8_text.size()) out.push_back(utf8::next(utf8_text, pos));
  return out;
}

// find_near_miss with the quote's scalars (the diff's quote side) and case-tier reading in hand.
std::optional<NearMiss> find_near_miss_in(const NearMissIndex& index, std::size_t token_begin, std::size_t token_end,
                                          ScalarView quote_text, const Reading& quote_case, const Policy& policy);

constexpr std::uint32_t kNoKey = 0xFFFFFFFFU;  // a quote token's key that no source token has

// Scalars [begin, end) as UTF-8: an ASCII stretch (most of a diff) is copied a byte per scalar
// into room sized for it; from the first other scalar on, each is encoded.
template <typename Scalar>
std::string encode_scalars(const Scalar* scalars, std::size_t begin, std::size_t end) {
  std::string out(end - begin, '\0');
  char* to = &out[0];
  std::size_t i = begin;
  for (; i < end && scalars[i] < 0x80; ++i) *to++ = static_cast<char>(scalars[i]);
  if (i == end) return out;
  out.resize(i - begin);
  for (; i < end; ++i) utf8::append(out, static_cast<char32_t>(scalars[i]));
  return out;
}

std::string encode(ScalarView text, std::size_t begin, std::size_t end) {
  return text.narrow() ? encode_scalars(text.narrow_data(), begin, end) : encode_scalars(text.wide_data(), begin, end);
}

// The original characters under tokens [begin, end) (empty for an empty range).
std::string text_of(ScalarView original, const std::vector<Token>& tokens, std::size_t begin, std::size_t end) {
  if (begin >= end) return "";
  return encode(original, tokens[begin].start, tokens[end - 1].end);
}

// Source windows [lo, hi) worth aligning, within tokens [begin, end) of the index: diagonals
// (source index - quote index, counted from `begin`) where many distinct quote tokens land,
// bucketed so that a few insertions do not split a diagonal. quote_keys[i]: the index's key id of
// quote token i, kNoKey when no source token has it (or it is a symbol: never a seed).
std::vector<std::pair<std::size_t, std::size_t>> seed_windows(const NearMissIndex& index, std::size_t begin, std::size_t end,
                                                               const std::vector<std::uint32_t>& quote_keys,
                                                               std::size_t max_candidates) {
  const std::size_t m = quote_keys.size();
  const std::size_t n = end - begin;
  const long long slack = static_cast<long long>(m / 2 + 4);
  if (n <= 3 * m + 64) return {{begin, end}};
  // A quote token's occurrences inside the range: a slice of its (ascending) occurrence list.
  using Slice = std::pair<const std::uint32_t*, const std::uint32_t*>;
  const auto occurrences = [&](std::uint32_t id) -> Slice {
    const Slice list = index.occurrences(id);
    const std::uint32_t* lo = std::lower_bound(list.first, list.second, static_cast<std::uint32_t>(begin));
    const std::uint32_t* hi = std::lower_bound(lo, list.second, static_cast<std::uint32_t>(end));
    return {lo, hi};
  };
  // Rarest quote tokens first, up to a budget of occurrences, so common words cost nothing.
  struct Seed {
    std::size_t count, i;
    Slice slice;
  };
  std::vector<Seed> seeds;
  for (std::size_t i = 0; i < m; ++i) {
    if (quote_keys[i] == kNoKey) continue;
    const Slice slice = occurrences(quote_keys[i]);
    if (slice.first != slice.second) seeds.push_back(Seed{static_cast<std::size_t>(slice.second - slice.first), i, slice});
  }
  std::sort(seeds.begin(), seeds.end(),
            [](const Seed& x, const Seed& y) { return x.count != y.count ? x.count < y.count : x.i < y.i; });
  const long long band = std::max<long long>(8, static_cast<long long>(m / 4));
  const auto bucket_of = [band](long long diagonal) {
    return diagonal >= 0 ? diagonal / band : -((-diagonal + band - 1) / band);
  };
  // Every (bucket, quote token) that lands votes once: a bucket's votes are the distinct quote
  // tokens landing in it. Tallied in a counter per bucket (the buckets of the range: a few per
  // 8 tokens), the touched ones listed; the counters are this thread's and left zeroed.
  const long long lowest = bucket_of(-static_cast<long long>(m));
  const auto buckets = static_cast<std::size_t>(bucket_of(static_cast<long long>(n)) - lowest + 1);
  thread_local std::vector<std::uint16_t> votes;  // votes <= m <= 4096 (the policy's quote token cap)
  if (votes.size() < buckets) votes.resize(buckets, 0);
  std::uint16_t* const count = votes.data();  // read once: not the thread-local's address per landing
  std::vector<std::uint32_t> touched;
  // Zeroes the counters touched however this returns (an allocation failure included), so the
  // next search on this thread starts from zero.
  struct Reset {
    std::uint16_t* count;
    const std::vector<std::uint32_t>& touched;
    ~Reset() {
      for (std::uint32_t slot : touched) count[slot] = 0;
    }
  } reset{count, touched};
  std::size_t budget = 20000;
  for (const Seed& seed : seeds) {
    if (seed.count > budget && !touched.empty()) break;
    budget -= std::min(budget, seed.count);
    // slot = bucket - lowest = floor((diagonal - lowest * band) / band): the dividend is never
    // negative, so an unsigned 32-bit division (token indices are 32-bit) instead of a signed 64-bit one.
    const auto shift = static_cast<std::uint32_t>(-lowest * band - static_cast<long long>(seed.i));
    const auto divisor = static_cast<std::uint32_t>(band);
    std::uint32_t last = 0xFFFFFFFFU;
    for (const std::uint32_t* j = seed.slice.first; j != seed.slice.second; ++j) {
      const std::uint32_t slot = (*j - static_cast<std::uint32_t>(begin) + shift) / divisor;
      // Occurrences ascend, so this token's buckets do too: a repeat is the one just counted.
      if (slot == last) continue;
      last = slot;
      if (count[slot] == 0) touched.push_back(slot);  // listed before counted: a failed push leaves it zero
      ++count[slot];
    }
  }
  // The most voted first, the earliest bucket first among equals (buckets are distinct: a total
  // order, so the order they were touched in does not matter): the best max_candidates, kept
  // sorted while the touched buckets stream past (most fail against the last kept at once).
  const auto better = [](const auto& x, const auto& y) { return x.first != y.first ? x.first > y.first : x.second < y.second; };
  std::vector<std::pair<std::size_t, long long>> ranked;  // (votes, bucket), best first
  ranked.reserve(max_candidates + 1);
  for (std::uint32_t slot : touched) {
    const std::pair<std::size_t, long long> entry{count[slot], static_cast<long long>(slot) + lowest};
    if (ranked.size() == max_candidates && !better(entry, ranked.back())) continue;
    ranked.insert(std::upper_bound(ranked.begin(), ranked.end(), entry, better), entry);
    if (ranked.size() > max_candidates) ranked.pop_back();
  }
  return bucket_windows(ranked, band, slack, m, begin, n);
}

}  // namespace

std::vector<std::pair<std::size_t, std::size_t>> bucket_windows(const std::vector<std::pair<std::size_t, long long>>& ranked,
                                                               long long band, long long slack, std::size_t m,
                                                               std::size_t begin, std::size_t n) {
  std::vector<std::pair<std::size_t, std::size_t>> windows;
  windows.reserve(ranked.size());
  for (const auto& [votes, bucket] : ranked) {
    const long long lo = bucket * band - slack;
    const long long hi = (bucket + 1) * band + static_cast<long long>(m) + slack;
    windows.emplace_back(begin + static_cast<std::size_t>(std::max(0LL, lo)),
                         begin + static_cast<std::size_t>(std::min<long long>(hi, static_cast<long long>(n))));
  }
  std::sort(windows.begin(), windows.end());
  std::vector<std::pair<std::size_t, std::size_t>> merged;
  for (const auto& window : windows) {
    if (!merged.empty() && window.first <= merged.back().second) {
      merged.back().second = std::max(merged.back().second, window.second);
    } else {
      merged.push_back(window);
    }
  }
  return merged;
}

NearMissIndex build_near_miss_index(std::string_view utf8_text, const LadderOptions& options,
                                    const std::vector<std::int64_t>* hyphen_breaks) {
  NearMissIndex index;
  index.original = decode(utf8_text);
  add_near_miss_tokens(index, utf8_text, 0, options, hyphen_breaks);
  index.finish();
  return index;
}

void add_near_miss_tokens(NearMissIndex& index, std::string_view utf8_text, std::uint32_t shift,
                          const LadderOptions& options, const std::vector<std::int64_t>* hyphen_breaks) {
  if (hyphen_breaks != nullptr && !hyphen_breaks->empty() && options.joined_reading) {
    // The case tier's first reading is the joined one when the policy allows it (ladder.hpp).
    const std::vector<Reading> readings = build_tier(decode(utf8_text), Tier::case_folded, options, hyphen_breaks);
    if (!readings.empty()) {
      for (Token token : tokenize(readings.front())) {
        token.start += shift;
        token.end += shift;
        index.add(token);
      }
      return;
    }
  }
  for (Token& token : tokenize_text(utf8_text, options)) {
    token.start += shift;
    token.end += shift;
    index.add(token);
  }
}

void add_near_miss_tokens(NearMissIndex& index, const Reading& case_reading) {
  for (const Token& token : tokenize(case_reading)) index.add(token);
}

std::size_t NearMissIndex::slot_of(std::string_view key) const {
  const std::size_t mask = table_.size() - 1;
  for (std::size_t slot = std::hash<std::string_view>{}(key) & mask;; slot = (slot + 1) & mask) {
    if (table_[slot] == 0 || this->key(table_[slot] - 1) == key) return slot;
  }
}

std::int64_t NearMissIndex::find_key(std::string_view key) const {
  if (table_.empty()) return -1;
  const std::uint32_t id = table_[slot_of(key)];
  return id == 0 ? -1 : static_cast<std::int64_t>(id) - 1;
}

void NearMissIndex::add(const Token& token) {
  // At most half full, so a probe meets an empty slot soon; doubling re-places every key.
  if (2 * (key_count() + 1) > table_.size()) {
    std::vector<std::uint32_t> grown(std::max<std::size_t>(64, 2 * table_.size()), 0);
    table_.swap(grown);
    for (std::uint32_t id = 0; id < key_count(); ++id) table_[slot_of(key(id))] = id + 1;
  }
  const std::size_t slot = slot_of(token.key);
  if (table_[slot] == 0) {
    key_bytes_ += token.key;
    key_starts_.push_back(static_cast<std::uint32_t>(key_bytes_.size()));
    table_[slot] = static_cast<std::uint32_t>(key_count());
  }
  const std::uint32_t id = table_[slot] - 1;
  tokens.push_back(IndexedToken{id | (static_cast<std::uint32_t>(token.kind) << 30), token.start, token.end});
}

void NearMissIndex::finish() {
  // Occurrence lists by counting sort: count per key, prefix sums, then place in token order
  // (so each list is ascending). Symbols are never seeds and have no list.
  posting_starts_.assign(key_count() + 1, 0);
  for (std::size_t at = 0; at < tokens.size(); ++at) {
    if (tokens.kind(at) != TokenKind::symbol) ++posting_starts_[tokens.key(at) + 1];
  }
  for (std::size_t id = 0; id < key_count(); ++id) posting_starts_[id + 1] += posting_starts_[id];
  postings_.assign(posting_starts_.back(), 0);
  std::vector<std::uint32_t> next(posting_starts_.begin(), posting_starts_.end() - 1);
  for (std::size_t at = 0; at < tokens.size(); ++at) {
    if (tokens.kind(at) != TokenKind::symbol) postings_[next[tokens.key(at)]++] = static_cast<std::uint32_t>(at);
  }
  // A copy to drop spare capacity costs a second array while it runs (the peak a document's
  // index reaches): a document's builder reserves about the right count, so only a large spare is dropped.
  tokens.shrink_when_spare();
  key_bytes_.shrink_to_fit();
  key_starts_.shrink_to_fit();
}

std::vector<Token> NearMissIndex::slice(std::size_t begin, std::size_t end) const {
  std::vector<Token> out;
  out.reserve(end - begin);
  for (std::size_t i = begin; i < end; ++i) {
    out.push_back(Token{std::string(key(tokens.key(i))), tokens.start(i), tokens.end(i), tokens.kind(i)});
  }
  return out;
}

std::size_t NearMissIndex::memory_bytes() const {
  return original.capacity() * sizeof(char32_t) + tokens.memory_bytes() + key_bytes_.capacity() +
         (key_starts_.capacity() + table_.capacity() + posting_starts_.capacity() + postings_.capacity()) *
             sizeof(std::uint32_t);
}

std::optional<NearMiss> find_near_miss(const NearMissIndex& index, std::string_view quote_utf8, const Policy& policy) {
  return find_near_miss(index, 0, index.tokens.size(), quote_utf8, policy);
}

std::optional<NearMiss> find_near_miss(const NearMissIndex& index, std::size_t token_begin, std::size_t token_end,
                                       std::string_view quote_utf8, const Policy& policy) {
  return find_near_miss(index, token_begin, token_end, quote_utf8,
                        normalize_for_tier(quote_utf8, Tier::case_folded, policy.ladder), policy);
}

std::optional<NearMiss> find_near_miss(const NearMissIndex& index, std::size_t token_begin, std::size_t token_end,
                                       std::string_view quote_utf8, const Reading& quote_case, const Policy& policy) {
  return find_near_miss_in(index, token_begin, token_end, decode(quote_utf8), quote_case, policy);
}

std::optional<NearMiss> find_near_miss(const NearMissIndex& index, std::size_t token_begin, std::size_t token_end,
                                       const Ladder& quote_ladder, const Policy& policy) {
  return find_near_miss_in(index, token_begin, token_end, quote_ladder.original,
                           quote_ladder.at(Tier::case_folded).front(), policy);
}

namespace {

std::optional<NearMiss> find_near_miss_in(const NearMissIndex& index, std::size_t token_begin, std::size_t token_end,
                                          ScalarView quote_text, const Reading& quote_case, const Policy& policy) {
  const std::vector<Token> quote = tokenize(quote_case);
  if (quote.empty() || token_begin >= token_end) return std::nullopt;
  if (quote.size() > static_cast<std::size_t>(policy.near_miss_max_quote_tokens)) return std::nullopt;
  // Each window is aligned on the index's key ids (a quote key the index lacks matches nothing);
  // only the best window's tokens are made, for the diff and the guards.
  std::vector<std::uint32_t> quote_keys(quote.size());
  std::vector<std::int32_t> quote_weights(quote.size());
  for (std::size_t i = 0; i < quote.size(); ++i) {
    const std::int64_t id = index.find_key(quote[i].key);
    quote_keys[i] = id < 0 ? kNoKey : static_cast<std::uint32_t>(id);
    quote_weights[i] = token_weight(quote[i]);
  }
  std::vector<std::uint32_t> seed_keys = quote_keys;
  for (std::size_t i = 0; i < quote.size(); ++i) {
    if (quote[i].kind == TokenKind::symbol) seed_keys[i] = kNoKey;
  }
  // The best window is the one scoring highest, the earliest among equals. A window's score is at
  // most bound_bp (an alignment's equal tokens lie in its span, and no key is equal more often
  // than it occurs on both sides), so windows are aligned in order of that bound, highest first,
  // and the rest skipped once the bound cannot beat the best so far: the same best, aligned once
  // or twice per miss instead of max_candidates times.
  std::vector<std::pair<std::uint32_t, std::int32_t>> quote_bag;  // (key, weight), sorted by key
  std::int64_t quote_weight = 0;
  for (std::size_t i = 0; i < quote.size(); ++i) {
    quote_weight += quote_weights[i];
    if (quote_keys[i] != kNoKey) quote_bag.emplace_back(quote_keys[i], quote_weights[i]);
  }
  std::sort(quote_bag.begin(), quote_bag.end());
  std::vector<std::uint32_t> window_keys;
  const auto bound_bp = [&](std::size_t lo, std::size_t hi) {
    window_keys.clear();
    for (std::size_t j = lo; j < hi; ++j) window_keys.push_back(index.tokens.key(j));
    std::sort(window_keys.begin(), window_keys.end());
    std::int64_t shared = 0;  // the weight of the keys both sides hold, each as often as the rarer side
    for (std::size_t a = 0, b = 0; a < quote_bag.size() && b < window_keys.size();) {
      if (quote_bag[a].first < window_keys[b]) {
        ++a;
      } else if (window_keys[b] < quote_bag[a].first) {
        ++b;
      } else {
        shared += quote_bag[a].second;
        ++a;
        ++b;
      }
    }
    return quote_weight + shared == 0 ? std::int64_t{0} : (20000 * shared) / (quote_weight + shared);
  };
  struct Candidate {
    std::int64_t bound;
    std::size_t lo, hi;
  };
  std::vector<Candidate> candidates;
  const std::vector<std::pair<std::size_t, std::size_t>> windows =
      seed_windows(index, token_begin, token_end, seed_keys, static_cast<std::size_t>(policy.near_miss_max_candidates));
  for (const auto& [lo, hi] : windows) {
    // A lone window (a short range: the whole of it) is aligned whatever its bound: none is made.
    candidates.push_back(Candidate{windows.size() > 1 ? bound_bp(lo, hi) : 0, lo, hi});
  }
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& x, const Candidate& y) {
    return x.bound != y.bound ? x.bound > y.bound : x.lo < y.lo;
  });
  std::optional<Alignment> best;
  std::pair<std::size_t, std::size_t> best_window;
  std::vector<std::int32_t> source_weights;
  for (const Candidate& candidate : candidates) {
    check_verify_deadline();  // a window's alignment is quote x window tokens
    if (best && (candidate.bound < best->score_bp || (candidate.bound == best->score_bp && candidate.lo > best_window.first))) {
      continue;  // cannot score higher, nor as high from an earlier window
    }
    const std::size_t lo = candidate.lo, hi = candidate.hi;
    source_weights.resize(hi - lo);
    for (std::size_t j = 0; j < hi - lo; ++j) source_weights[j] = index.tokens.kind(lo + j) == TokenKind::symbol ? 1 : 2;
    Alignment alignment = align_weighted(quote_weights, source_weights, [&](std::size_t i, std::size_t j) {
      return quote_keys[i] == index.tokens.key(lo + j);
    });
    if (alignment.source_begin >= alignment.source_end) continue;
    if (!best || alignment.score_bp > best->score_bp || (alignment.score_bp == best->score_bp && lo < best_window.first)) {
      best = std::move(alignment);
      best_window = {lo, hi};
    }
  }
  if (!best || best->score_bp < policy.near_miss_min_score_bp) return std::nullopt;
  // Only the aligned tokens are made (the diff and the guards read no others; a window is often
  // the whole element, several times the quote): the alignment is moved to count from them.
  const std::size_t skipped = best->source_begin;
  const std::vector<Token> source = index.slice(best_window.first + skipped, best_window.first + best->source_end);
  best->source_begin = 0;
  best->source_end -= skipped;
  for (EditRun& run : best->runs) {
    run.source_begin -= skipped;
    run.source_end -= skipped;
  }
  NearMiss miss;
  miss.start = source.front().start;
  miss.end = source.back().end;
  miss.score_bp = best->score_bp;
  for (const EditRun& run : best->runs) {
    miss.diff.push_back(DiffEntry{run.op, text_of(quote_text, quote, run.quote_begin, run.quote_end),
                                  text_of(index.text(), source, run.source_begin, run.source_end)});
  }
  if (policy.numeric_guard) {
    miss.guards.push_back(numeric_guard(numeric_mentions(quote, 0, quote.size()),
                                        numeric_mentions(source, best->source_begin, best->source_end)));
    if (miss.guards.back().block) miss.reason = "numeric_guard";
  }
  if (policy.polarity_guard) {
    miss.guards.push_back(polarity_guard(quote, source, *best));
    if (miss.guards.back().block && std::string_view(miss.reason) == "near_miss") miss.reason = "polarity_guard";
  }
  return miss;
}

}  // namespace
}  // namespace ethos::match
