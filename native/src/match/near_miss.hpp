// near_miss.hpp - locates the best source span for a quote that no accepted tier matched: seeds
// from a token index of the target, bounded token alignment, similarity score, token diff, guards.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "match/align.hpp"
#include "match/guard.hpp"
#include "match/indexed_tokens.hpp"
#include "match/policy.hpp"
#include "match/scalar_text.hpp"

namespace ethos::match {

// The target's case-tier tokens and, per word or number, where it occurs (token indices,
// ascending). Built once per target text, only when a quote in it misses. A document's index
// (DocumentIndex::near_miss) borrows the running text instead of holding a copy.
//
// Laid out for a whole document (docs/matching.md "Index"): every distinct key is stored once, in
// one byte buffer, found through an open-addressing table of key ids; the occurrence lists are
// one array cut per key (filled by finish()), so no key or list is a heap block of its own.
class NearMissIndex {
 public:
  std::u32string original;  // the target's scalars, unless borrowed
  bool borrows = false;     // true: `borrowed` views the target's scalars, held by the caller
  ScalarView borrowed;
  IndexedTokens tokens;  // 9 bytes a token instead of a Token's string

  ScalarView text() const { return borrows ? borrowed : ScalarView(original); }
  // Appends one token (offsets already the target's); its key is interned.
  void add(const Token& token);
  // Builds the occurrence lists of the tokens added so far and releases spare capacity; the
  // index is searched only after this.
  void finish();
  std::string_view key(std::uint32_t id) const {
    return std::string_view(key_bytes_).substr(key_starts_[id], key_starts_[id + 1] - key_starts_[id]);
  }
  std::size_t key_count() const { return key_starts_.size() - 1; }
  // The id of a key, or -1 when no token has it.
  std::int64_t find_key(std::string_view key) const;
  // The token indices of a key's words or numbers, ascending.
  std::pair<const std::uint32_t*, const std::uint32_t*> occurrences(std::uint32_t id) const {
    return {postings_.data() + posting_starts_[id], postings_.data() + posting_starts_[id + 1]};
  }
  // Tokens [begin, end) as Tokens (what the alignment and the guards read).
  std::vector<Token> slice(std::size_t begin, std::size_t end) const;
  std::size_t memory_bytes() const;

 private:
  std::size_t slot_of(std::string_view key) const;  // the table slot holding key, or the empty one it goes to
  std::string key_bytes_;                           // every distinct key, end to end
  std::vector<std::uint32_t> key_starts_{0};        // key id -> its first byte; one past the last at the end
  std::vector<std::uint32_t> table_;                // open addressing: key id + 1, 0 when empty
  std::vector<std::uint32_t> posting_starts_;       // key id -> its first entry in postings_; the total at the end
  std::vector<std::uint32_t> postings_;             // word and number token indices, grouped by key, ascending
};

// The candidate windows of a near-miss search of the n tokens from `begin`: each ranked (votes,
// diagonal bucket) widened from its band of diagonals by the quote's m tokens and `slack` on both
// sides, clipped to the range, overlapping windows merged, in position order.
std::vector<std::pair<std::size_t, std::size_t>> bucket_windows(const std::vector<std::pair<std::size_t, long long>>& ranked,
                                                               long long band, long long slack, std::size_t m,
                                                               std::size_t begin, std::size_t n);

// hyphen_breaks (recorded line-end hyphens, scalar offsets, or nullptr): the tokens are read in the
// joined hyphenation reading when the policy allows it, so "homoge-⏎neous" is one token
// "homogeneous" (its original range spanning the hyphen and the break) and a near miss aligns
// through it instead of calling it a difference.
NearMissIndex build_near_miss_index(std::string_view utf8_text, const LadderOptions& options,
                                    const std::vector<std::int64_t>* hyphen_breaks = nullptr);
// Appends the tokens of a case-tier reading (its offsets already the target's) to an index.
void add_near_miss_tokens(NearMissIndex& index, const Reading& case_reading);
// Appends a text's tokens (offsets shifted by `shift` scalars) to an index: a document's index is
// built element by element (docs/matching.md "Index"), then finish()ed.
void add_near_miss_tokens(NearMissIndex& index, std::string_view utf8_text, std::uint32_t shift,
                          const LadderOptions& options, const std::vector<std::int64_t>* hyphen_breaks = nullptr);

// One run of the token diff, with the quote's and the document's own characters.
struct DiffEntry {
  EditOp op = EditOp::equal;
  std::string quote, source;
};

struct NearMiss {
  std::uint32_t start = 0, end = 0;  // the best span, original scalars of the target text
  std::int64_t score_bp = 0;         // similarity 0..10000 (10000: the same tokens)
  std::vector<DiffEntry> diff;
  std::vector<Guard> guards;         // the guards the policy enables, in order numeric, polarity
  const char* reason = "near_miss";  // numeric_guard or polarity_guard when one blocks
};

// The best span scoring at least policy.near_miss_min_score_bp, or nothing (also for quotes
// longer than policy.near_miss_max_quote_tokens). At most policy.near_miss_max_candidates
// windows of about twice the quote's length are aligned, so the cost does not grow with the
// target beyond one pass over the seed tokens' occurrence lists.
std::optional<NearMiss> find_near_miss(const NearMissIndex& index, std::string_view quote_utf8, const Policy& policy);
// The same within tokens [token_begin, token_end) of the index only: what find_near_miss finds in
// an index of just those tokens' text (a page range of a document's index), in the index's offsets.
std::optional<NearMiss> find_near_miss(const NearMissIndex& index, std::size_t token_begin, std::size_t token_end,
                                       std::string_view quote_utf8, const Policy& policy);
// The same with the quote's case-tier reading given (normalize_for_tier's, which a verifier
// already holds in the claim's ladder), so a miss does not normalize its quote a second time.
std::optional<NearMiss> find_near_miss(const NearMissIndex& index, std::size_t token_begin, std::size_t token_end,
                                       std::string_view quote_utf8, const Reading& quote_case, const Policy& policy);
// The same with the quote's claim ladder given (a verifier's): its case-tier reading, and its
// decoded scalars for the diff's quote side, are taken from it rather than made again.
std::optional<NearMiss> find_near_miss(const NearMissIndex& index, std::size_t token_begin, std::size_t token_end,
                                       const Ladder& quote_ladder, const Policy& policy);

}  // namespace ethos::match
