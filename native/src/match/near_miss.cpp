// near_miss.cpp - seed windows from the token index, align them, keep the best, diff and guard it.
#include "match/near_miss.hpp"

#include <algorithm>
#include <functional>

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

std::string encode(const std::u32string& text, std::size_t begin, std::size_t end) {
  std::string out;
  for (std::size_t i = begin; i < end; ++i) utf8::append(out, text[i]);
  return out;
}

// The original characters under tokens [begin, end) (empty for an empty range).
std::string text_of(const std::u32string& original, const std::vector<Token>& tokens, std::size_t begin, std::size_t end) {
  if (begin >= end) return "";
  return encode(original, tokens[begin].start, tokens[end - 1].end);
}

// Source windows [lo, hi) worth aligning, within tokens [begin, end) of the index: diagonals
// (source index - quote index, counted from `begin`) where many distinct quote tokens land,
// bucketed so that a few insertions do not split a diagonal.
std::vector<std::pair<std::size_t, std::size_t>> seed_windows(const NearMissIndex& index, std::size_t begin, std::size_t end,
                                                               const std::vector<Token>& quote, std::size_t max_candidates) {
  const std::size_t m = quote.size();
  const std::size_t n = end - begin;
  const long long slack = static_cast<long long>(m / 2 + 4);
  if (n <= 3 * m + 64) return {{begin, end}};
  // A quote token's occurrences inside the range: a slice of its (ascending) occurrence list.
  using Slice = std::pair<const std::uint32_t*, const std::uint32_t*>;
  const auto occurrences = [&](const std::string& key) -> Slice {
    const std::int64_t id = index.find_key(key);
    if (id < 0) return {nullptr, nullptr};
    const Slice list = index.occurrences(static_cast<std::uint32_t>(id));
    const std::uint32_t* lo = std::lower_bound(list.first, list.second, static_cast<std::uint32_t>(begin));
    const std::uint32_t* hi = std::lower_bound(lo, list.second, static_cast<std::uint32_t>(end));
    return {lo, hi};
  };
  // Rarest quote tokens first, up to a budget of occurrences, so common words cost nothing.
  std::vector<std::pair<std::size_t, std::size_t>> seeds;  // (occurrences, quote index)
  for (std::size_t i = 0; i < m; ++i) {
    if (quote[i].kind == TokenKind::symbol) continue;
    const Slice slice = occurrences(quote[i].key);
    if (slice.first != slice.second) seeds.emplace_back(static_cast<std::size_t>(slice.second - slice.first), i);
  }
  std::sort(seeds.begin(), seeds.end());
  const long long band = std::max<long long>(8, static_cast<long long>(m / 4));
  // Every (bucket, quote token) that lands: a quote token votes once per bucket, so a bucket's
  // votes are the distinct quote tokens landing in it. Sorted and counted rather than tallied in
  // a tree: a miss in a whole document collects thousands of them.
  std::vector<long long> landed;
  std::vector<std::size_t> runs{0};  // each token's landings: an ascending run of `landed`
  std::size_t budget = 20000;
  for (const auto& [count, i] : seeds) {
    if (count > budget && !landed.empty()) break;
    budget -= std::min(budget, count);
    const Slice slice = occurrences(quote[i].key);
    const std::size_t from = landed.size();
    for (const std::uint32_t* j = slice.first; j != slice.second; ++j) {
      const long long diagonal = static_cast<long long>(*j - begin) - static_cast<long long>(i);
      const long long bucket = diagonal >= 0 ? diagonal / band : -((-diagonal + band - 1) / band);
      // Occurrences ascend, so this token's buckets do too: a repeat is the one just added.
      if (landed.size() == from || landed.back() != bucket) landed.push_back(bucket);
    }
    runs.push_back(landed.size());
  }
  // Sorted by merging the runs pairwise (one run per quote token: a few dozen at most).
  std::vector<long long> spare(landed.size());
  while (runs.size() > 2) {
    std::vector<std::size_t> next{0};
    for (std::size_t r = 0; r + 1 < runs.size(); r += 2) {
      const std::size_t mid = runs[r + 1], hi = r + 2 < runs.size() ? runs[r + 2] : runs[r + 1];
      std::merge(landed.begin() + static_cast<std::ptrdiff_t>(runs[r]), landed.begin() + static_cast<std::ptrdiff_t>(mid),
                 landed.begin() + static_cast<std::ptrdiff_t>(mid), landed.begin() + static_cast<std::ptrdiff_t>(hi),
                 spare.begin() + static_cast<std::ptrdiff_t>(runs[r]));
      next.push_back(hi);
    }
    landed.swap(spare);
    runs.swap(next);
  }
  std::vector<std::pair<std::size_t, long long>> ranked;  // (votes, bucket), buckets ascending
  for (std::size_t a = 0, b = 0; a < landed.size(); a = b) {
    while (b < landed.size() && landed[b] == landed[a]) ++b;
    ranked.emplace_back(b - a, landed[a]);
  }
  // The most voted first, the earliest bucket first among equals (buckets are distinct: a total order).
  const auto better = [](const auto& x, const auto& y) { return x.first != y.first ? x.first > y.first : x.second < y.second; };
  if (ranked.size() > max_candidates) {
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(max_candidates), ranked.end(), better);
    ranked.resize(max_candidates);
  } else {
    std::sort(ranked.begin(), ranked.end(), better);
  }
  std::vector<std::pair<std::size_t, std::size_t>> windows;
  for (const auto& [vote, bucket] : ranked) {
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

}  // namespace

NearMissIndex build_near_miss_index(std::string_view utf8_text, const LadderOptions& options) {
  NearMissIndex index;
  index.original = decode(utf8_text);
  add_near_miss_tokens(index, utf8_text, 0, options);
  index.finish();
  return index;
}

void add_near_miss_tokens(NearMissIndex& index, std::string_view utf8_text, std::uint32_t shift,
                          const LadderOptions& options) {
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
  for (const IndexedToken& token : tokens) {
    if (token.kind() != TokenKind::symbol) ++posting_starts_[token.key() + 1];
  }
  for (std::size_t id = 0; id < key_count(); ++id) posting_starts_[id + 1] += posting_starts_[id];
  postings_.assign(posting_starts_.back(), 0);
  std::vector<std::uint32_t> next(posting_starts_.begin(), posting_starts_.end() - 1);
  for (std::size_t at = 0; at < tokens.size(); ++at) {
    if (tokens[at].kind() != TokenKind::symbol) postings_[next[tokens[at].key()]++] = static_cast<std::uint32_t>(at);
  }
  tokens.shrink_to_fit();
  key_bytes_.shrink_to_fit();
  key_starts_.shrink_to_fit();
}

std::vector<Token> NearMissIndex::slice(std::size_t begin, std::size_t end) const {
  std::vector<Token> out;
  out.reserve(end - begin);
  for (std::size_t i = begin; i < end; ++i) {
    out.push_back(Token{std::string(key(tokens[i].key())), tokens[i].start, tokens[i].end, tokens[i].kind()});
  }
  return out;
}

std::size_t NearMissIndex::memory_bytes() const {
  return original.capacity() * sizeof(char32_t) + tokens.capacity() * sizeof(IndexedToken) + key_bytes_.capacity() +
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
  const std::vector<Token> quote = tokenize(quote_case);
  if (quote.empty() || token_begin >= token_end) return std::nullopt;
  if (quote.size() > static_cast<std::size_t>(policy.near_miss_max_quote_tokens)) return std::nullopt;
  // Each window is aligned on its own tokens; the best keeps them for the diff and the guards.
  std::optional<Alignment> best;
  std::vector<Token> best_tokens;
  for (const auto& [lo, hi] :
       seed_windows(index, token_begin, token_end, quote, static_cast<std::size_t>(policy.near_miss_max_candidates))) {
    std::vector<Token> window = index.slice(lo, hi);
    Alignment alignment = align_tokens(quote, window, 0, window.size());
    if (alignment.source_begin >= alignment.source_end) continue;
    if (!best || alignment.score_bp > best->score_bp) {  // earliest on ties
      best = std::move(alignment);
      best_tokens = std::move(window);
    }
  }
  if (!best || best->score_bp < policy.near_miss_min_score_bp) return std::nullopt;
  const std::vector<Token>& source = best_tokens;
  NearMiss miss;
  miss.start = source[best->source_begin].start;
  miss.end = source[best->source_end - 1].end;
  miss.score_bp = best->score_bp;
  const std::u32string quote_text = decode(quote_utf8);
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

}  // namespace ethos::match
