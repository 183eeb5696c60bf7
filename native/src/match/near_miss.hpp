// near_miss.hpp - locates the best source span for a quote that no accepted tier matched: seeds
// from a token index of the target, bounded token alignment, similarity score, token diff, guards.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "match/align.hpp"
#include "match/guard.hpp"
#include "match/policy.hpp"

namespace ethos::match {

// One token of an index: its key's id in NearMissIndex::keys and its original scalars [start, end)
// (16 bytes instead of a Token's string: a document's index holds every token of the document).
struct IndexedToken {
  std::uint32_t key = 0, start = 0, end = 0;
  TokenKind kind = TokenKind::word;
};

// The target's case-tier tokens and, per word or number, where it occurs (token indices,
// ascending). Built once per target text, only when a quote in it misses. A document's index
// (DocumentIndex::near_miss) borrows the running text instead of holding a copy.
struct NearMissIndex {
  std::u32string original;                  // the target's scalars, unless borrowed
  const std::u32string* borrowed = nullptr;  // the target's scalars, held by the caller
  std::vector<IndexedToken> tokens;
  std::vector<std::string> keys;                               // distinct token keys, by id
  std::unordered_map<std::string, std::uint32_t> key_ids;      // key -> id
  std::vector<std::vector<std::uint32_t>> postings;            // per key id: its words' or numbers' token indices

  const std::u32string& text() const { return borrowed != nullptr ? *borrowed : original; }
  // Tokens [begin, end) as Tokens (what the alignment and the guards read).
  std::vector<Token> slice(std::size_t begin, std::size_t end) const;
  std::size_t memory_bytes() const;
};

NearMissIndex build_near_miss_index(std::string_view utf8_text, const LadderOptions& options);
// Appends the tokens of a case-tier reading (its offsets already the target's) to an index.
void add_near_miss_tokens(NearMissIndex& index, const Reading& case_reading);
// Appends a text's tokens (offsets shifted by `shift` scalars) to an index's tokens and postings:
// a document's index is built element by element (docs/matching.md "Index").
void add_near_miss_tokens(NearMissIndex& index, std::string_view utf8_text, std::uint32_t shift,
                          const LadderOptions& options);

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

}  // namespace ethos::match
