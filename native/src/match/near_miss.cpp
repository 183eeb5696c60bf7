// near_miss.cpp - seed windows from the token index, align them, keep the best, diff and guard it.
#include "match/near_miss.hpp"

#include <algorithm>
#include <map>

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

// Source windows [lo, hi) worth aligning: diagonals (source index - quote index) where many
// distinct quote tokens land, bucketed so that a few insertions do not split a diagonal.
std::vector<std::pair<std::size_t, std::size_t>> seed_windows(const NearMissIndex& index, const std::vector<Token>& quote,
                                                               std::size_t max_candidates) {
  const std::size_t m = quote.size();
  const std::size_t n = index.tokens.size();
  const long long slack = static_cast<long long>(m / 2 + 4);
  if (n <= 3 * m + 64) return {{0, n}};
  // Rarest quote tokens first, up to a budget of occurrences, so common words cost nothing.
  std::vector<std::pair<std::size_t, std::size_t>> seeds;  // (occurrences, quote index)
  for (std::size_t i = 0; i < m; ++i) {
    if (quote[i].kind == TokenKind::symbol) continue;
    auto it = index.postings.find(quote[i].key);
    if (it != index.postings.end()) seeds.emplace_back(it->second.size(), i);
  }
  std::sort(seeds.begin(), seeds.end());
  const long long band = std::max<long long>(8, static_cast<long long>(m / 4));
  std::map<long long, std::pair<std::size_t, std::size_t>> votes;  // bucket -> (votes, last quote index + 1)
  std::size_t budget = 20000;
  for (const auto& [count, i] : seeds) {
    if (count > budget && !votes.empty()) break;
    budget -= std::min(budget, count);
    for (std::uint32_t j : index.postings.at(quote[i].key)) {
      const long long diagonal = static_cast<long long>(j) - static_cast<long long>(i);
      const long long bucket = diagonal >= 0 ? diagonal / band : -((-diagonal + band - 1) / band);
      auto& [count_of, last] = votes[bucket];
      if (last != i + 1) {  // each quote token votes once per bucket
        ++count_of;
        last = i + 1;
      }
    }
  }
  std::vector<std::pair<std::size_t, long long>> ranked;  // (votes, bucket)
  for (const auto& [bucket, vote] : votes) ranked.emplace_back(vote.first, bucket);
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  if (ranked.size() > max_candidates) ranked.resize(max_candidates);
  std::vector<std::pair<std::size_t, std::size_t>> windows;
  for (const auto& [vote, bucket] : ranked) {
    const long long lo = bucket * band - slack;
    const long long hi = (bucket + 1) * band + static_cast<long long>(m) + slack;
    windows.emplace_back(static_cast<std::size_t>(std::max(0LL, lo)), static_cast<std::size_t>(std::min<long long>(hi, static_cast<long long>(n))));
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
  index.tokens = tokenize_text(utf8_text, options);
  for (std::size_t i = 0; i < index.tokens.size(); ++i) {
    if (index.tokens[i].kind != TokenKind::symbol) index.postings[index.tokens[i].key].push_back(static_cast<std::uint32_t>(i));
  }
  return index;
}

std::optional<NearMiss> find_near_miss(const NearMissIndex& index, std::string_view quote_utf8, const Policy& policy) {
  const std::vector<Token> quote = tokenize_text(quote_utf8, policy.ladder);
  if (quote.empty() || index.tokens.empty()) return std::nullopt;
  if (quote.size() > static_cast<std::size_t>(policy.near_miss_max_quote_tokens)) return std::nullopt;
  std::optional<Alignment> best;
  for (const auto& [lo, hi] : seed_windows(index, quote, static_cast<std::size_t>(policy.near_miss_max_candidates))) {
    Alignment alignment = align_tokens(quote, index.tokens, lo, hi);
    if (alignment.source_begin >= alignment.source_end) continue;
    if (!best || alignment.score_bp > best->score_bp) best = std::move(alignment);  // earliest on ties
  }
  if (!best || best->score_bp < policy.near_miss_min_score_bp) return std::nullopt;
  NearMiss miss;
  miss.start = index.tokens[best->source_begin].start;
  miss.end = index.tokens[best->source_end - 1].end;
  miss.score_bp = best->score_bp;
  const std::u32string quote_text = decode(quote_utf8);
  for (const EditRun& run : best->runs) {
    miss.diff.push_back(DiffEntry{run.op, text_of(quote_text, quote, run.quote_begin, run.quote_end),
                                  text_of(index.original, index.tokens, run.source_begin, run.source_end)});
  }
  if (policy.numeric_guard) {
    miss.guards.push_back(numeric_guard(numeric_mentions(quote, 0, quote.size()),
                                        numeric_mentions(index.tokens, best->source_begin, best->source_end)));
    if (miss.guards.back().block) miss.reason = "numeric_guard";
  }
  if (policy.polarity_guard) {
    miss.guards.push_back(polarity_guard(quote, index.tokens, *best));
    if (miss.guards.back().block && std::string_view(miss.reason) == "near_miss") miss.reason = "polarity_guard";
  }
  return miss;
}

}  // namespace ethos::match
