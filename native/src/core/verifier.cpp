// verifier.cpp - staleness, target resolution, cross-element join and text comparison per claim.
#include "core/verifier.hpp"

#include <algorithm>
#include <climits>
#include <initializer_list>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>

#include "core/column_reading.hpp"
#include "core/contents_reading.hpp"
#include "core/foot_notes_reading.hpp"
#include "core/running_feet_reading.hpp"
#include "core/footnote_markers.hpp"
#include "core/quote_negation.hpp"
#include "core/vacuous_quote.hpp"
#include "core/verify_deadline.hpp"
#include "match/document_index.hpp"
#include "match/junction_reading.hpp"
#include "match/numeric_guard.hpp"
#include "match/occurrence_guards.hpp"
#include "match/seam_search.hpp"
#include "match/stitch.hpp"
#include "text/normalize.hpp"
#include "text/unicode_props.hpp"
#include "text/utf8.hpp"

namespace ethos {
// Kinds are compared with string_view literals: a std::string == "literal" is an out-of-line
// compare plus strlen, and a request's claim asks its kind about ten times.
using namespace std::string_view_literals;
namespace {

// The numeric guard on a value or table-cell claim against the whole text it cites, with the
// claim's tokens aligned to the cited ones (score and diff, as a quote's near miss has): set when
// both state figures and they differ (a value with no figure is a label, no figure dropped).
struct ValueFigureMiss {
  match::Guard guard;
  std::int64_t score_bp = 0;
  std::vector<match::DiffEntry> diff;
};

std::string scalar_slice(const std::string& text, const std::vector<match::Token>& tokens, std::size_t begin, std::size_t end) {
  if (begin >= end) return "";
  const std::size_t from = utf8::byte_offset_of_scalar(text, tokens[begin].start);
  const std::size_t to = utf8::byte_offset_of_scalar(text, tokens[end - 1].end);
  return text.substr(from, to - from);
}

std::optional<ValueFigureMiss> value_figure_miss(const std::string& claim, const std::string& cited,
                                                 const match::LadderOptions& options) {
  const std::vector<match::Token> claim_tokens = match::tokenize_text(claim, options);
  const std::vector<match::Token> cited_tokens = match::tokenize_text(cited, options);
  const auto claim_figures = match::numeric_mentions(claim_tokens, 0, claim_tokens.size());
  const auto cited_figures = match::numeric_mentions(cited_tokens, 0, cited_tokens.size());
  if (claim_figures.empty() || cited_figures.empty()) return std::nullopt;
  ValueFigureMiss miss;
  miss.guard = match::numeric_guard(claim_figures, cited_figures);
  if (!miss.guard.block) return std::nullopt;
  const match::Alignment alignment = match::align_tokens(claim_tokens, cited_tokens, 0, cited_tokens.size());
  miss.score_bp = alignment.score_bp;
  for (const match::EditRun& run : alignment.runs) {
    miss.diff.push_back({run.op, scalar_slice(claim, claim_tokens, run.quote_begin, run.quote_end),
                         scalar_slice(cited, cited_tokens, run.source_begin, run.source_end)});
  }
  return miss;
}


// Normalizes source texts lazily, once per verify call: a page-only search or many claims on one
// element then pay for normalization once. Keys are the addresses of the immutable source strings.
class TextCache {
 public:
  explicit TextCache(const NormalizationOptions& options) : options_(options) {}
  const std::string& get(const std::string& text) {
    auto it = cache_.find(&text);
    if (it != cache_.end()) return it->second;
    return cache_.emplace(&text, normalize_text(text, options_)).first->second;
  }
  std::string fresh(const std::string& text) const { return normalize_text(text, options_); }
  const NormalizationOptions& options() const { return options_; }

 private:
  NormalizationOptions options_;
  std::unordered_map<const std::string*, std::string> cache_;
};

// Ladders of target texts, built lazily once per verify call; keys are the addresses of the
// immutable source strings (a joined text is built fresh each time it is needed).
class LadderCache {
 public:
  explicit LadderCache(const match::LadderOptions& options) : options_(options) {}
  const match::Ladder& get(const std::string& text, const Element* owner) {
    auto it = cache_.find(&text);
    if (it != cache_.end()) return it->second;
    return cache_.emplace(&text, build(text, owner)).first->second;
  }
  match::Ladder build(const std::string& text, const Element* owner) const {
    match::LineArtifacts artifacts;
    if (owner != nullptr) artifacts.hyphen_breaks = &owner->hyphen_breaks;
    return match::build_ladder(text, options_, artifacts);
  }

 private:
  match::LadderOptions options_;
  std::unordered_map<const std::string*, match::Ladder> cache_;
};

bool is_text_kind(const std::string& kind) { return kind == "quote"sv || kind == "value"sv || kind == "table_cell"sv; }

// Containment for quotes (and any quote on a cell), whole-text equality for values and cells.
bool text_rule(const std::string& kind, const std::string& expected, const std::string& target) {
  if (expected.empty()) return false;  // an expected text that normalizes to empty never matches
  if (kind == "quote"sv) return target.find(expected) != std::string::npos;
  return target == expected;
}

// The public method names; under a ladder policy "exact" means the match needed no normalization.
const char* method_for(const Claim& claim, const VerificationConfig& config, const std::optional<match::Located>& located) {
  if (claim.kind == "presence"sv) return "presence_only";
  if (claim.citation.has_table_locator() || claim.kind == "table_cell"sv) return "table_cell_lookup";
  const bool exact = config.policy ? (located && located->tier == match::Tier::exact) : config.exact_profile();
  if (claim.kind == "quote"sv) return exact ? "exact_text_contains" : "normalized_text_contains";
  return exact ? "exact_text" : "normalized_text";
}

bool contains_with_tolerance(const Bbox& outer, const Bbox& inner, std::int64_t tol) {
  return inner.x0 >= outer.x0 - tol && inner.y0 >= outer.y0 - tol && inner.x1 <= outer.x1 + tol &&
         inner.y1 <= outer.y1 + tol;
}

Bbox union_of(const Bbox& a, const Bbox& b) {
  return Bbox{std::min(a.x0, b.x0), std::min(a.y0, b.y0), std::max(a.x1, b.x1), std::max(a.y1, b.y1)};
}

// Adjacency of §3.5: same line (y-ranges overlap, second starts where first ends) or stacked
// (x-ranges overlap, second starts below where first ends), each within the gap tolerance.
bool adjacent(const Bbox& first, const Bbox& second, std::int64_t tol) {
  const bool y_overlap = std::max(first.y0, second.y0) < std::min(first.y1, second.y1);
  const bool x_overlap = std::max(first.x0, second.x0) < std::min(first.x1, second.x1);
  const auto gap_ok = [tol](std::int64_t a, std::int64_t b) { return (a > b ? a - b : b - a) <= tol; };
  return (y_overlap && gap_ok(second.x0, first.x1)) || (x_overlap && gap_ok(second.y0, first.y1));
}

Target element_target(const Source& source, std::size_t index) {
  const Element& element = source.elements[index];
  Target target{element.page, element.bbox, element.text ? &*element.text : nullptr, nullptr, {index}, "element_scoped", 0, nullptr};
  target.ascii = source.element_text_is_ascii(index);
  return target;
}

Target span_target(const Source& source, std::size_t index) {
  const Span& span = source.spans[index];
  Target target{span.page, span.bbox, &span.text, nullptr, {}, "exact_span", 0, nullptr};
  if (span.element) target.elements.push_back(*span.element);
  target.hidden = span.hidden;
  return target;
}

Target page_target(const Page& page) {
  return Target{page.id, Bbox{0, 0, page.width, page.height}, nullptr, nullptr, {}, "page_scoped", 0, nullptr};
}

// The one scope of a page-less source (text, Markdown, office Grounding JSON) in scope_pages_:
// its elements have no page (an empty page id), and scope:"document" searches them all.
constexpr std::size_t kPagelessScope = Source::npos;

const std::string& scope_page_id(const Source& source, std::size_t page) {
  static const std::string kNoPage;
  return page == kPagelessScope ? kNoPage : source.pages[page].id;
}

Target scope_page_target(const Source& source, std::size_t page) {
  if (page == kPagelessScope) return Target{"", std::nullopt, nullptr, nullptr, {}, "page_scoped", 0, nullptr};
  return page_target(source.pages[page]);
}

// The running text of a page range for scoped citations (page_end, scope:"document"): the texts
// of its elements in document order, running headers and footers left out, joined by a line break
// so a quote can cross element and page breaks from the whitespace tier on (never at exact).
// base[i] is where elements[i] starts, in scalars.
struct ScopeText {
  std::string text;
  std::vector<std::size_t> elements;
  std::vector<std::uint32_t> base;
  std::vector<std::int64_t> hyphen_breaks;  // the elements' line-end hyphens, shifted into text
  // Every tier of the text, built on first use (ladder_of): a near miss needs only the text, and
  // a whole document's ladder is large.
  mutable std::optional<match::Ladder> ladder;
};

bool is_running_furniture(const Element& element) { return element.kind == "header"sv || element.kind == "footer"sv; }

// Bytes of text whose near-miss token indexes a verifier keeps at once (explain_miss); a text
// larger than this (a whole document) is still indexed, and kept until the next miss elsewhere.
constexpr std::size_t kNearMissTextBytes = std::size_t{64} << 10;
// The same for a batch's verifier, which sees the misses of every request: with the one-call
// budget, a batch whose misses are spread over a document's elements rebuilt an index per miss.
// About 10 MiB of index per thread at most (about 10 bytes per character).
constexpr std::size_t kBatchNearMissTextBytes = std::size_t{1} << 20;

class ClaimVerifier {
 public:
  ClaimVerifier(const Source& source, const CitationSet& citations, const VerificationConfig& config)
      : source_(source),
        citations_(&citations),
        config_(config),
        cache_(config.normalization),
        ladders_(config.policy ? config.policy->ladder : match::LadderOptions{}),
        near_miss_budget_(kNearMissTextBytes) {}

  CheckResult run(const Claim& claim, Verdicts& verdicts);
  CheckResult run_as_written(const Claim& claim, Verdicts& verdicts);
  // run_as_written, then once more without a leading or trailing ellipsis when that missed.
  CheckResult run_truncated(const Claim& claim, Verdicts& verdicts);
  // verify-batch (BatchVerifier): the next claims belong to `citations`; the memoized source
  // texts and ladders stay, and trim() bounds the caches that grow with the claims.
  void use(const CitationSet& citations) { citations_ = &citations; }
  // Bytes of text whose near-miss token indexes are kept at once (explain_miss).
  void keep_near_miss_text(std::size_t bytes) { near_miss_budget_ = bytes; }
  void trim() {
    if (expected_ladders_.size() > 64) {
      // The entries are kept aside, key and ladder storage with them, for the next claim texts.
      while (!expected_ladders_.empty()) spare_expected_.push_back(expected_ladders_.extract(expected_ladders_.begin()));
      last_expected_ = nullptr;
    }
    if (scopes_.size() > 64) scopes_.clear();
    if (streams_.size() > 64) {
      // The near-miss indexes are keyed by the texts' addresses, which the readings own.
      streams_.clear();
      junction_searches_.clear();  // keyed by the readings' addresses too
      near_miss_indexes_.clear();
      near_miss_text_bytes_ = 0;
    }
  }

 private:
  CheckResult fail(const char* status, const char* reason) const {
    CheckResult result;
    result.status = status;
    result.reason = reason;
    result.match_method = "none";
    if (std::string_view(status) == "capability_blocked") result.warnings.push_back("capability_limited");
    return result;
  }
  std::optional<CheckResult> resolve(const Claim& claim, Target& target);
  std::optional<CheckResult> try_join(const Claim& claim, std::size_t cited, const std::string& expected, Target& target,
                                      bool& joined);
  void locate_match(const Claim& claim, const std::string& expected, CheckResult& result);
  // The text rule of the claim's kind against one target text: the public rule, or the ladder
  // under a policy (then `found` receives what the ladder saw). owner: the element whose text
  // this is (its parser artifacts), or nullptr.
  bool matches(const std::string& kind, const std::string& expected, const std::string& text, const Element* owner,
               match::LadderResult* found = nullptr, bool fresh = false);
  const match::Ladder& expected_ladder(const std::string& claim_text);
  bool search_page(const Claim& claim, const std::string& expected, Target& target, match::LadderResult& found);
  std::optional<std::pair<std::size_t, std::size_t>> page_running_range(const std::vector<std::size_t>& on_page);
  std::optional<CheckResult> resolve_scope(const Citation& c, Target& target);
  bool search_scope(const Claim& claim, const std::string& expected, Target& target, match::LadderResult& found);
  const ScopeText& scope_text(std::size_t first_page, std::size_t last_page);
  const match::Ladder& ladder_of(const ScopeText& scope) const;
  std::optional<std::pair<std::size_t, std::size_t>> running_range(std::size_t first_page, std::size_t last_page);
  bool search_running(const std::string& expected, std::pair<std::size_t, std::size_t> range, Target& target,
                      match::LadderResult& found);
  bool search_onto_next_page(const std::string& expected, std::size_t page, Target& target, match::LadderResult& found);
  // The column reading of the table element `element`, or of every table element on `pages`
  // (indices into source.pages, ascending) in document order: the first holding an accepted
  // whole-token occurrence becomes the evidence (docs/matching.md "Tables: the column reading").
  // The junction search of a table reading (table element `index`) or of a stream reading; null
  // when it has no junction.
  std::unique_ptr<match::JunctionSearch> table_junction_search(std::size_t index, const Table& table,
                                                               const TableColumns& columns);
  std::unique_ptr<match::JunctionSearch> stream_junction_search(const StreamReading& reading,
                                                                const match::Ladder* ladder) const;
  bool search_table_columns(const std::string& expected, const std::vector<std::size_t>& pages,
                            std::optional<std::size_t> element, Target& target, match::LadderResult& found);
  // The content-stream reading of `pages` (docs/matching.md "Reading order"): grounded when it
  // holds an accepted whole-token occurrence; the evidence is then that reading.
  bool search_stream(const std::string& expected, const std::vector<std::size_t>& pages, Target& target,
                     match::LadderResult& found);
  // A quote refused as a near miss or with nothing located: when the content-stream reading of its
  // pages aligns it better and a guard blocks it there, that guard's refusal is the verdict.
  void explain_stream_miss(const std::string& expected, const std::vector<std::size_t>& pages, CheckResult& result);
  // The further readings of a page range: its content-stream reading, then (one page) its
  // aligned-column reading, those that exist; each reading's ladder built on its first search.
  struct StreamEntry {
    std::vector<std::shared_ptr<const StreamReading>> readings;
    std::vector<std::optional<match::Ladder>> ladders;
  };
  StreamEntry& stream_of(const std::vector<std::size_t>& pages);
  Target stream_target(const std::shared_ptr<const StreamReading>& stream, const match::Located& located) const;
  Target scope_target(const ScopeText& scope, match::Located& located) const;
  Target running_target(match::Located& located) const;
  void explain_miss(const Claim& claim, const std::string& expected, CheckResult& result);
  // A quote refused where cited but accepted, whole, somewhere else in the document's running
  // text: the verdict stays a mismatch, with reason located_elsewhere and that place as evidence.
  void locate_elsewhere(const Claim& claim, const std::string& expected, const std::vector<std::size_t>& cited,
                        CheckResult& result);
  // After a miss located near `result.located`: the quote read across font junctions and URL
  // wraps of the evidence (match/junction_reading.hpp), in the evidence's own offsets.
  std::optional<match::Located> find_across_junctions(const Claim& claim, const std::string& expected,
                                                     const CheckResult& result) const;
  std::optional<match::NearMiss> near_miss(const std::optional<std::pair<std::size_t, std::size_t>>& running,
                                           const std::string* text, const std::string& expected,
                                           const std::vector<std::int64_t>* hyphen_breaks = nullptr);
  void find_nearest(const std::string& expected, CheckResult& result);
  // Text no reader sees (a span named by a hidden-text or off-page warning) grounds nothing: a
  // quote matched there, or a quote refused everywhere else that such text holds, is a mismatch
  // with reason hidden_text and the hidden span as evidence.
  void judge_hidden_text(const Claim& claim, CheckResult& result);

  const Source& source_;
  const CitationSet* citations_;
  const VerificationConfig& config_;
  TextCache cache_;
  LadderCache ladders_;
  using ExpectedLadders = std::unordered_map<std::string, match::Ladder>;
  ExpectedLadders expected_ladders_;
  // Entries trim() took out of expected_ladders_, reused for new claim texts: a verify-batch
  // request's claim is a new text, and a fresh entry cost about seven allocations (the node, the
  // key, the decoded text, the readings and their offsets).
  std::vector<ExpectedLadders::node_type> spare_expected_;
  // The entry asked for last: a claim asks for its own ladder several times (the cited element,
  // a neighbour, the joined pair), and comparing the text is cheaper than hashing it again.
  const std::pair<const std::string, match::Ladder>* last_expected_ = nullptr;
  match::LadderResult join_found_;  // what the ladder found in the last joined text
  std::vector<std::size_t> scope_pages_;  // pages (indices into source.pages) of the current scoped citation
  // scope_pages_ holds every page of the document (kept from the last document-scoped claim, so
  // the next one does not walk the pages again: that walk made a document-scoped quote's cost
  // grow with the page count). Cleared by set_scope_pages, the only other writer.
  bool scope_is_whole_document_ = false;
  void set_scope_pages(std::initializer_list<std::size_t> pages) {
    scope_pages_.assign(pages);
    scope_is_whole_document_ = false;
  }
  std::map<std::pair<std::size_t, std::size_t>, ScopeText> scopes_;
  std::map<std::pair<std::size_t, std::size_t>, StreamEntry> streams_;  // (first, last) page
  // A pair's joined text: the first element's text, a space, the second's; `seam` is where the
  // space sits (in scalars); `plain` when neither element has parser hyphenation artifacts.
  struct JoinedText {
    std::string text;
    std::uint32_t seam = 0;
    bool plain = false;
  };
  std::map<std::pair<std::size_t, std::size_t>, JoinedText> joined_texts_;  // (first, second) element
  // Further readings by table index (the column reading, then a key/description table's rows
  // without separators), built on the first quote that misses a table element's page (kept: their
  // ladders are memoized by the text's address). Empty: the table has none.
  std::unordered_map<std::size_t, std::vector<std::shared_ptr<const TableColumns>>> table_columns_;
  // The junction searches of the table and stream readings (keyed by the reading, which the caches
  // above keep alive), built when a quote first misses them; null when a reading has no junction.
  std::unordered_map<const void*, std::unique_ptr<match::JunctionSearch>> junction_searches_;
  match::QuoteReadings junction_quote_;  // the quote being searched there, per tier
  // Scoped page ranges -> their running elements [first, last] in the document index (empty
  // range: first > last), or nullopt when the range's elements are not consecutive there.
  std::map<std::pair<std::size_t, std::size_t>, std::optional<std::pair<std::size_t, std::size_t>>> running_ranges_;
  std::unordered_map<const std::string*, match::NearMissIndex> near_miss_indexes_;  // built on a first miss
  std::size_t near_miss_text_bytes_ = 0;  // size of the texts near_miss_indexes_ holds
  std::size_t near_miss_budget_;          // the most near_miss_text_bytes_ may reach before a clear
  // A page's element list (by address: the source owns it) -> its running elements [first, last]
  // (empty: first > last), or nullopt when they are not consecutive in the running text.
  std::unordered_map<const std::vector<std::size_t>*, std::optional<std::pair<std::size_t, std::size_t>>> page_ranges_;
};

const match::Ladder& ClaimVerifier::expected_ladder(const std::string& claim_text) {
  if (last_expected_ != nullptr && last_expected_->first == claim_text) return last_expected_->second;
  auto it = expected_ladders_.find(claim_text);
  if (it != expected_ladders_.end()) {
    last_expected_ = &*it;
    return it->second;
  }
  // Tiers built on first use: most claims are found at the first tier searched.
  if (spare_expected_.empty()) {
    last_expected_ = &*expected_ladders_.emplace(claim_text, match::build_claim_ladder(claim_text, config_.policy->ladder)).first;
    return last_expected_->second;
  }
  ExpectedLadders::node_type entry = std::move(spare_expected_.back());
  spare_expected_.pop_back();
  entry.key().assign(claim_text);
  match::rebuild_claim_ladder(entry.mapped(), claim_text, config_.policy->ladder);
  last_expected_ = &*expected_ladders_.insert(std::move(entry)).position;
  return last_expected_->second;
}

bool ClaimVerifier::matches(const std::string& kind, const std::string& expected, const std::string& text,
                            const Element* owner, match::LadderResult* found, bool fresh) {
  if (!config_.policy) return text_rule(kind, expected, fresh ? cache_.fresh(text) : cache_.get(text));
  const match::Ladder& want = expected_ladder(expected);
  const auto rule = kind == "quote"sv ? match::TextRule::contains : match::TextRule::equals;
  if (!fresh && owner != nullptr && rule == match::TextRule::contains) {
    // An element in the document's running text: searched as a range of the document's index.
    const match::DocumentIndex& index = source_.match_index();
    const std::size_t r = index.running_number(static_cast<std::size_t>(owner - source_.elements.data()));
    if (r != match::DocumentIndex::npos) {
      match::LadderResult result = index.search(want, *config_.policy, r, r);
      for (std::optional<match::Located>* located : {&result.whole, &result.clipped}) {
        if (*located) {
          (*located)->start -= index.base(r);
          (*located)->end -= index.base(r);
        }
      }
      if (found != nullptr) *found = result;
      return result.whole && config_.policy->accepts(result.whole->tier);
    }
  }
  match::Ladder built;
  const match::Ladder* target = nullptr;
  if (fresh) {
    built = ladders_.build(text, owner);
    target = &built;
  } else {
    target = &ladders_.get(text, owner);
  }
  const match::LadderResult result = match::search_ladder(*target, want, rule, *config_.policy);
  if (found != nullptr) *found = result;
  return result.whole && config_.policy->accepts(result.whole->tier);
}

// The element whose own text a target shows (its parser artifacts apply), else nullptr.
const Element* owner_of(const Source& source, const Target& target) {
  if (target.elements.size() != 1 || target.joined) return nullptr;
  const Element& element = source.elements[target.elements.front()];
  return element.text && &*element.text == target.text ? &element : nullptr;
}

// How good a ladder result is for choosing among page elements: accepted whole-token matches
// first (tighter tier better), then clipped ones at accepted tiers, then whole ones at tiers the
// policy does not accept; lower is better, kNone when nothing was found.
constexpr int kNone = 1000;
int rank_of(const match::LadderResult& found, const match::Policy& policy) {
  if (found.whole && policy.accepts(found.whole->tier)) return static_cast<int>(found.whole->tier);
  if (found.clipped && policy.accepts(found.clipped->tier)) return 100 + static_cast<int>(found.clipped->tier);
  if (found.whole) return 200 + static_cast<int>(found.whole->tier);
  return kNone;
}

// Steps 5 of §3.1: locator groups, conflicts, then the resolution precedence of §3.2.
std::optional<CheckResult> ClaimVerifier::resolve(const Claim& claim, Target& target) {
  const Citation& c = claim.citation;
  if (c.is_scoped_search()) return resolve_scope(c, target);
  const int groups = (c.has_table_locator() ? 1 : 0) + (c.span_id ? 1 : 0) + (c.element_id ? 1 : 0) + (c.bbox ? 1 : 0);
  if (groups > 1) return fail("error", "locator_conflict");

  if (c.has_table_locator() || claim.kind == "table_cell"sv) {
    if (!c.table_id || !c.cell) return fail("error", "missing_table_cell_locator");
    if (!source_.capabilities.tables) return fail("capability_blocked", "missing_table_capability");
    const std::size_t index = source_.table_index(*c.table_id);
    if (index == Source::npos) return fail("not_found", "table_not_found");
    const Table& table = source_.tables[index];
    const auto covers = [&](const Cell& cell) {
      return c.cell->row >= cell.row && c.cell->row < cell.row + cell.row_span && c.cell->col >= cell.col &&
             c.cell->col < cell.col + cell.col_span;
    };
    auto cell = std::find_if(table.cells.begin(), table.cells.end(), covers);
    if (cell == table.cells.end()) return fail("not_found", "table_cell_not_found");
    target = Target{table.page, cell->bbox, &cell->text, nullptr, {}, "table_cell", 0, nullptr};
  } else if (c.span_id) {
    if (!source_.capabilities.spans) return fail("capability_blocked", "missing_span_capability");
    const std::size_t index = source_.span_index(*c.span_id);
    if (index == Source::npos) return fail("not_found", "span_not_found");
    target = span_target(source_, index);
  } else if (c.element_id) {
    const std::size_t index = source_.element_index(*c.element_id);
    if (index == Source::npos) return fail("not_found", "element_not_found");
    target = element_target(source_, index);
  } else if (c.bbox) {
    if (!c.page) return fail("error", "missing_page_for_bbox");
    if (source_.capabilities.coordinate_origin == "unknown") return fail("capability_blocked", "unknown_coordinate_origin");
    if (source_.page_by_id(*c.page) == nullptr) return fail("not_found", "page_not_found");
    std::size_t best = Source::npos;
    for (std::size_t index : source_.elements_on_page(*c.page)) {
      const Element& element = source_.elements[index];
      if (!element.bbox || !contains_with_tolerance(*element.bbox, *c.bbox, config_.bbox_containment_tolerance_q)) continue;
      // Smallest containing element wins; strict < keeps the earlier element on ties.
      if (best == Source::npos || element.bbox->area() < source_.elements[best].bbox->area()) best = index;
    }
    if (best == Source::npos) return fail("not_found", "bbox_not_found");
    target = element_target(source_, best);
    return std::nullopt;  // the page was the bbox's own page, so it cannot conflict
  } else if (c.page) {
    const Page* page = source_.page_by_id(*c.page);
    if (page == nullptr) return fail("not_found", "page_not_found");
    target = page_target(*page);
    return std::nullopt;
  } else {
    return fail("error", "missing_locator");
  }
  // A supplemental page must agree with the resolved target (0.6).
  if (c.page && std::string_view(*c.page) != target.page) return fail("error", "locator_conflict");
  return std::nullopt;
}

// §3.5: a quote cited to one element that spans into its neighbour (same page, adjacent).
std::optional<CheckResult> ClaimVerifier::try_join(const Claim&, std::size_t cited, const std::string& expected,
                                                   Target& target, bool& joined) {
  joined = false;
  const bool origin_known = source_.capabilities.coordinate_origin != "unknown";
  bool would_join_ignoring_geometry = false;
  const std::size_t count = source_.elements.size();
  const std::pair<std::size_t, std::size_t> candidates[2] = {{cited, cited + 1}, {cited - 1, cited}};
  for (int i = 0; i < 2; ++i) {
    const auto [first_index, second_index] = candidates[i];
    if (i == 0 && cited + 1 >= count) continue;
    if (i == 1 && cited == 0) continue;
    const Element& first = source_.elements[first_index];
    const Element& second = source_.elements[second_index];
    if (first.page != second.page || !first.text || !second.text) continue;
    const std::size_t other = first_index == cited ? second_index : first_index;
    const Element& other_element = source_.elements[other];
    if (matches("quote", expected, *other_element.text, &other_element)) continue;  // matches alone
    // Joined texts are kept (stable addresses), so their ladders are memoized like source texts
    // and a batch builds each pair's once (BatchVerifier); the text is built only for a new pair.
    auto kept = joined_texts_.find({first_index, second_index});
    if (kept == joined_texts_.end()) {
      JoinedText made{*first.text + " " + *second.text, static_cast<std::uint32_t>(utf8::scalar_count(*first.text)),
                      first.hyphen_breaks.empty() && second.hyphen_breaks.empty()};
      kept = joined_texts_.emplace(std::make_pair(first_index, second_index), std::move(made)).first;
    }
    const std::string& joined_text = kept->second.text;
    if (config_.policy && kept->second.plain) {
      // The quote missed both elements alone at every accepted tier (the cited one in run(), the
      // other just above), so only occurrences across the seam can ground it: the ladder is
      // searched around the seam only (match/seam_search.hpp says why that is exact).
      const match::Ladder& ladder = ladders_.get(joined_text, nullptr);
      join_found_ = match::search_ladder_near(ladder, expected_ladder(expected), *config_.policy, kept->second.seam);
      if (!join_found_.whole || !config_.policy->accepts(join_found_.whole->tier)) continue;
    } else if (!matches("quote", expected, joined_text, nullptr, &join_found_)) {
      continue;
    }
    if (!origin_known) {
      would_join_ignoring_geometry = true;
      continue;
    }
    if (!first.bbox || !second.bbox || !adjacent(*first.bbox, *second.bbox, config_.adjacency_gap_tolerance_q)) continue;
    auto owned = std::make_shared<const std::string>(joined_text);
    target = Target{first.page, union_of(*first.bbox, *second.bbox), owned.get(), owned, {first_index, second_index},
                    "element_scoped", first.text->size() + 1, nullptr};
    joined = true;
    return std::nullopt;
  }
  if (would_join_ignoring_geometry) return fail("capability_blocked", "unknown_coordinate_origin");
  return std::nullopt;
}

// Where a grounded quote/value sits in the target's original text (for context_echo).
void ClaimVerifier::locate_match(const Claim& claim, const std::string& expected, CheckResult& result) {
  const Target& target = *result.target;
  if (config_.policy) {  // the ladder already knows where, in scalars
    if (!result.located) return;
    const std::string_view text = *target.text;
    result.match = MatchRange{utf8::byte_offset_of_scalar(text, result.located->start),
                              utf8::byte_offset_of_scalar(text, result.located->end)};
    return;
  }
  const NormalizedText normalized = normalize(*target.text, config_.normalization, true);
  if (normalized.text.empty()) return;
  std::size_t begin = 0;
  std::size_t end = normalized.text.size();
  if (claim.kind == "quote"sv) {
    begin = normalized.text.find(expected);
    if (begin == std::string::npos) return;
    end = begin + expected.size();
  }
  result.match = MatchRange{normalized.original_begin(begin), normalized.original_end(end)};
}

// token_jaccard_v1: the element (on the target's page, or anywhere without a page) whose token
// set is most similar to the expected text's; ties keep the earlier element.
void ClaimVerifier::find_nearest(const std::string& expected, CheckResult& result) {
  const auto tokens = [](const std::string& text) {
    std::set<std::string> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
      const std::size_t space = text.find(' ', pos);
      const std::size_t stop = space == std::string::npos ? text.size() : space;
      if (stop > pos) out.insert(text.substr(pos, stop - pos));
      pos = stop + 1;
    }
    return out;
  };
  NormalizationOptions folded = config_.normalization;
  folded.profile = NormalizationProfile::unicode_compat_v1;  // tokens split on any whitespace
  folded.lowercase = true;
  const std::set<std::string> wanted = tokens(normalize_text(expected, folded));
  if (wanted.empty()) return;
  const std::string page = result.target ? std::string(result.target->page) : std::string();
  std::vector<std::size_t> all;
  const std::vector<std::size_t>* candidates = &all;
  if (!page.empty()) {
    candidates = &source_.elements_on_page(page);
  } else {
    for (std::size_t i = 0; i < source_.elements.size(); ++i) all.push_back(i);
  }
  std::optional<NearestMatch> best;
  for (std::size_t index : *candidates) {
    const Element& element = source_.elements[index];
    if (!element.text) continue;
    const std::set<std::string> have = tokens(normalize_text(*element.text, folded));
    std::size_t common = 0;
    for (const std::string& token : wanted) common += have.count(token);
    const std::size_t all_tokens = wanted.size() + have.size() - common;
    if (common == 0 || all_tokens == 0) continue;
    const auto bp = static_cast<std::int64_t>(common * 10000 / all_tokens);
    if (!best || bp > best->similarity_bp) best = NearestMatch{index, bp};
  }
  result.nearest = best;
}

void ClaimVerifier::judge_hidden_text(const Claim& claim, CheckResult& result) {
  if (!is_text_kind(claim.kind) || !claim.text) return;
  const std::string_view status = result.status;
  if (status == "grounded") {
    if (!result.target || !result.target->hidden) return;
    result.status = "mismatch";
    result.reason = "hidden_text";
    result.extras.reset();
    return;
  }
  // Only a plain miss: a guard's refusal or a place elsewhere in the visible text says more.
  const std::string_view reason = result.reason;
  if (status != "mismatch" || claim.kind != "quote"sv ||
      (reason != "text_mismatch" && reason != "near_miss" && reason != "token_boundary")) {
    return;
  }
  const std::string expected = cache_.fresh(*claim.text);
  if (expected.empty()) return;
  // Each hidden span, then each page's hidden spans joined in content order (a hidden sentence
  // is cut into spans by line and font).
  std::map<std::string_view, std::string> joined;
  std::map<std::string_view, std::size_t> first_on_page;
  for (std::size_t index = 0; index < source_.spans.size(); ++index) {
    const Span& span = source_.spans[index];
    if (!span.hidden) continue;
    if (text_rule("quote", expected, cache_.get(span.text))) {
      result.reason = "hidden_text";
      result.target = span_target(source_, index);
      result.located.reset();
      result.extras.reset();
      return;
    }
    std::string& text = joined[span.page];
    if (!text.empty()) text += ' ';
    text += span.text;
    first_on_page.emplace(span.page, index);
  }
  for (const auto& [page, text] : joined) {
    if (!text_rule("quote", expected, cache_.fresh(text))) continue;
    result.reason = "hidden_text";
    result.target = span_target(source_, first_on_page.at(page));
    result.located.reset();
    result.extras.reset();
    return;
  }
}

// A quote with an elision mark at its start or end ("… the rest of it", "the start of it ...")
// quotes part of a sentence: when it does not ground as written, it is verified without those
// marks, and that check is reported (grounded, or the stitched quotation / near miss of the rest;
// only a mark between fragments makes a stitched quotation).
CheckResult ClaimVerifier::run(const Claim& claim, Verdicts& verdicts) {
  CheckResult result = run_truncated(claim, verdicts);
  judge_hidden_text(claim, result);
  // A grounded one-word quote ("not", "2") grounds wherever that word occurs: said, not refused.
  if (config_.policy && claim.kind == "quote"sv && claim.text && std::string_view(result.status) == "grounded" &&
      is_vacuous_quote(*claim.text)) {
    result.warnings.push_back("vacuous_quote");
  }
  return result;
}

CheckResult ClaimVerifier::run_truncated(const Claim& claim, Verdicts& verdicts) {
  CheckResult result = run_as_written(claim, verdicts);
  if (std::string_view(result.status) != "mismatch" || !config_.policy || !config_.policy->elision ||
      claim.kind != "quote"sv || !claim.text) {
    return result;
  }
  const std::string_view kept = match::strip_truncation(*claim.text);
  if (kept.size() == claim.text->size()) return result;
  Claim truncated = claim;
  truncated.text = std::string(kept);
  return run_as_written(truncated, verdicts);
}

// Whether the evidence a stitched quote was judged on holds an elision mark of its own ("...",
// "\u2026", ". . ."): only then may the quote's mark be the source's.
bool holds_elision_mark(const CheckResult& result) {
  if (!result.target || !result.target->text) return false;
  const std::string& text = *result.target->text;
  return text.find("...") != std::string::npos || text.find("\u2026") != std::string::npos ||
         text.find(". . .") != std::string::npos;
}

CheckResult ClaimVerifier::run_as_written(const Claim& claim, Verdicts& verdicts) {
  check_verify_deadline();  // --max-verify-ms: between claims (and in the matcher's long loops)
  const Citation& c = claim.citation;
  // 1. No locator.
  if (!c.has_locator()) return fail("error", "missing_locator");
  // 2. Unsupported kinds (never verifiable, or excluded by the config).
  if (!config_.allows_kind(claim.kind)) {
    auto& list = verdicts.unsupported_claim_kinds;
    if (std::find(list.begin(), list.end(), claim.kind) == list.end()) list.push_back(claim.kind);
    return fail("unsupported_claim_kind", "unsupported_claim_kind");
  }
  // 3. Text-bearing kinds need text.
  if (is_text_kind(claim.kind) && (!claim.text || is_blank(*claim.text))) return fail("error", "missing_required_text");
  // 4. Staleness, only when the config asks for fingerprint matching.
  if (config_.require_fingerprint_match) {
    const auto& cited = citations_->document_fingerprint;
    const auto& held = source_.fingerprint;
    if (cited && held && *cited != *held) {
      verdicts.fingerprint_stale = true;
      return fail("stale", "stale_fingerprint");
    }
    if (cited && !held) return fail("capability_blocked", "missing_source_fingerprint");
    if (!cited && held) return fail("stale", "missing_citation_fingerprint");
  }
  // 5. Resolve the target.
  Target target;
  if (auto failure = resolve(claim, target)) return *failure;

  CheckResult result;
  // 7 (presence): existence is the claim.
  if (claim.kind == "presence"sv) {
    result.match_method = method_for(claim, config_, std::nullopt);
    result.status = "grounded";
    result.target = std::move(target);
    return result;
  }
  // Under a policy the claim's own text (no copy per claim: the ladders normalize it); without
  // one, its normalized copy.
  const std::string normalized = config_.policy ? std::string() : cache_.fresh(*claim.text);
  const std::string& expected = config_.policy ? *claim.text : normalized;
  const bool page_only = !c.has_primary_locator() && !c.is_scoped_search();
  match::LadderResult found;
  bool matched = target.text && matches(claim.kind, expected, *target.text, owner_of(source_, target), &found);
  if (c.is_scoped_search()) {
    matched = search_scope(claim, expected, target, found);
    if (!matched && config_.policy && claim.kind == "quote"sv) {
      matched = search_table_columns(expected, scope_pages_, std::nullopt, target, found);
      if (!matched) matched = search_stream(expected, scope_pages_, target, found);
    }
  }
  // A quote cited to a table element that its row reading lacks: the table read column by column.
  if (!matched && config_.policy && claim.kind == "quote"sv && c.element_id && !c.span_id && !c.bbox &&
      !c.has_table_locator() && target.elements.size() == 1) {
    matched = search_table_columns(expected, {}, target.elements.front(), target, found);
  }

  // Page-only quote/value claims search the page: first element, then first span (0.6); under a
  // policy, the element with the tightest tier (earliest on ties), then spans the same way.
  if (!matched && page_only && config_.policy) {
    matched = search_page(claim, expected, target, found);
    // A quote may run across the page's elements (a paragraph split by layout, a sentence that
    // continues in the next column): then it is looked up in the page's running text, as a
    // one-page scoped citation. The element-by-element verdict stays when that finds nothing.
    const Page* page = source_.page_by_id(std::string(target.page));
    if (!matched && claim.kind == "quote"sv && page != nullptr) {
      set_scope_pages({static_cast<std::size_t>(page - source_.pages.data())});
      Target running = target;
      match::LadderResult running_found;
      if (search_scope(claim, expected, running, running_found)) {
        target = std::move(running);
        found = running_found;
        matched = true;
      } else if (search_onto_next_page(expected, scope_pages_.front(), running, running_found)) {
        target = std::move(running);
        found = running_found;
        matched = true;
      } else {
        matched = search_table_columns(expected, scope_pages_, std::nullopt, target, found);
      }
      if (!matched) matched = search_stream(expected, {static_cast<std::size_t>(page - source_.pages.data())}, target, found);
    }
  } else if (!matched && page_only) {
    for (std::size_t index : source_.elements_on_page(std::string(target.page))) {
      const Element& element = source_.elements[index];
      if (element.text && text_rule(claim.kind, expected, cache_.get(*element.text))) {
        target = element_target(source_, index);
        matched = true;
        break;
      }
    }
    if (!matched && source_.capabilities.spans) {
      for (std::size_t index : source_.spans_on_page(std::string(target.page))) {
        const Span& span = source_.spans[index];
        if (!span.hidden && text_rule(claim.kind, expected, cache_.get(span.text))) {
          target = span_target(source_, index);
          matched = true;
          break;
        }
      }
    }
  }
  // 6. Cross-element join repair for quotes cited to one element.
  if (!matched && claim.kind == "quote"sv && c.element_id && !c.span_id && !c.bbox && !c.has_table_locator()) {
    bool joined = false;
    if (auto blocked = try_join(claim, target.elements.front(), expected, target, joined)) return *blocked;
    if (joined) {
      matched = true;
      found = join_found_;
      result.semantic_unverified = true;  // the join itself is an inference nobody cited (0.6)
    }
  }
  if (config_.policy && target.text) {
    const match::Policy& policy = *config_.policy;
    if (matched) {
      result.located = found.whole;
    } else if (found.clipped && policy.accepts(found.clipped->tier)) {
      result.located = found.clipped;
    } else if (found.whole) {
      result.located = found.whole;  // at a tier the policy does not accept
    }
  }
  // A quote cut right after a negation ("all methods fit" from "Not all methods fit"), or inside a
  // compound whose other part negates ("negative entries" from "non-negative entries") is in the
  // text but says the opposite: the polarity guard refuses it (match and tier kept). In a table's
  // column reading the text before a cell is another row's cell, which negates nothing in it.
  std::optional<match::Guard> cut_negation;
  if (matched && config_.policy && config_.policy->polarity_guard && claim.kind == "quote"sv && result.located && target.text &&
      !(target.columns && starts_cell(*target.columns, result.located->start))) {
    cut_negation = negation_before_quote(*target.text, *result.located, &result.located_start_byte, target.ascii);
    if (!cut_negation) {
      cut_negation = negation_after_quote(*target.text, *result.located, result.located_start_byte, target.ascii);
    }
    matched = !cut_negation;
  }
  result.match_method = method_for(claim, config_, matched || cut_negation ? result.located : std::nullopt);
  const std::vector<std::size_t> cited_elements = matched ? std::vector<std::size_t>{} : target.elements;
  result.target = std::move(target);
  if (matched) {
    result.status = "grounded";
    if (config_.hardening.include_context_echo && claim.kind != "table_cell"sv && !c.has_table_locator()) {
      locate_match(claim, expected, result);
    }
  } else {
    result.status = "mismatch";
    const bool clipped = config_.policy && found.clipped && config_.policy->accepts(found.clipped->tier);
    result.reason = clipped ? "token_boundary" : "text_mismatch";
    if (cut_negation) {
      result.reason = "polarity_guard";
      auto extras = std::make_shared<match::MatchExtras>();
      extras->guards.push_back(*cut_negation);
      result.extras = std::move(extras);
    } else if (config_.policy && (claim.kind == "value"sv || claim.kind == "table_cell"sv) && config_.policy->numeric_guard &&
               result.target && result.target->text && !result.located) {
      // (Located inside the cited text at some tier, the value keeps that location's verdict.)
      // A figure or cell that states another figure than the cited one: the numeric guard's
      // verdict and detail, as for a quote's near miss ("0.072" against "0.0072").
      if (auto miss = value_figure_miss(expected, *result.target->text, config_.policy->ladder)) {
        // The whole cited text is the evidence (a value is the whole of it), shown as a near miss.
        result.reason = "numeric_guard";
        auto extras = std::make_shared<match::MatchExtras>();
        extras->guards.push_back(std::move(miss->guard));
        extras->score_bp = miss->score_bp;
        extras->diff = std::move(miss->diff);
        const auto length = static_cast<std::uint32_t>(utf8::scalar_count(*result.target->text));
        result.located = match::Located{match::Tier::exact, 0, length, 1};
        result.located_start_byte = 0;
        result.extras = std::move(extras);
      }
    } else if (config_.policy && claim.kind == "quote"sv) {
      explain_miss(claim, expected, result);
      // The same characters with white space only where a reader or another extractor sees a
      // gap (a font junction: "xT x" for x-superscript-T-x) or none (a URL wrapped at a slash):
      // grounded at the tier it matches, unless a negation or compound part is cut off. A quote
      // judged stitched is read so too when its evidence holds an elision mark: the quote's may be
      // the source's own ("WinSxS\...\" in a listing).
      if (std::string_view(result.reason) != "stitched_quotation" || holds_elision_mark(result)) {
        // A page-only quote whose miss lies on its page is read once, on the page's running text
        // (it holds the miss's elements); one whose miss runs onto the next page, there first.
        bool miss_on_page = page_only && result.target && c.page;
        if (miss_on_page) {
          for (std::size_t element : result.target->elements) {
            miss_on_page = miss_on_page && source_.elements[element].page == *c.page;
          }
        }
        std::optional<match::Located> across;
        if (!miss_on_page) across = find_across_junctions(claim, expected, result);
        if (!across && page_only && result.target) {
          // Nothing located (a short quote no near miss reaches: "βj xij" for βjxij), or located
          // in one element while it runs on into the next: the page's running text is read.
          const std::vector<std::size_t>& on_page = source_.elements_on_page(std::string(result.target->page));
          if (const auto range = page_running_range(on_page); range && range->first <= range->second) {
            const match::DocumentIndex& index = source_.match_index();
            match::Located whole{match::Tier::exact, index.base(range->first),
                                 index.base(range->second) + index.length(range->second), 1};
            CheckResult probe;
            probe.target = running_target(whole);
            probe.located = whole;
            across = find_across_junctions(claim, expected, probe);
            if (across) result.target = std::move(probe.target);
          }
        }
        if (across) {
          result.located = across;
          result.located_start_byte = static_cast<std::size_t>(-1);
          std::optional<match::Guard> cut;
          if (config_.policy->polarity_guard) {
            cut = negation_before_quote(*result.target->text, *result.located, &result.located_start_byte,
                                        result.target->ascii);
            if (!cut) {
              cut = negation_after_quote(*result.target->text, *result.located, result.located_start_byte,
                                         result.target->ascii);
            }
          }
          result.match_method = method_for(claim, config_, result.located);
          if (cut) {
            result.reason = "polarity_guard";
            auto extras = std::make_shared<match::MatchExtras>();
            extras->guards.push_back(*cut);
            result.extras = std::move(extras);
          } else {
            result.status = "grounded";
            result.reason = "";
            result.extras.reset();
            if (config_.hardening.include_context_echo) locate_match(claim, expected, result);
            return result;
          }
        }
      }
      // Refused in the document's order: a guard that blocks the quote where the content-stream
      // reading aligns it better is the reason (an altered figure of a row-by-row quote).
      if (c.is_scoped_search()) {
        explain_stream_miss(expected, scope_pages_, result);
      } else if (page_only && c.page) {
        if (const Page* page = source_.page_by_id(*c.page)) {
          explain_stream_miss(expected, {static_cast<std::size_t>(page - source_.pages.data())}, result);
        }
      }
    }
    if (config_.policy && claim.kind == "quote"sv) locate_elsewhere(claim, expected, cited_elements, result);
    if (config_.hardening.include_nearest_match) find_nearest(*claim.text, result);
  }
  return result;
}

void ClaimVerifier::locate_elsewhere(const Claim& claim, const std::string& expected,
                                     const std::vector<std::size_t>& cited, CheckResult& result) {
  const std::string_view reason = result.reason;
  // A stitched quotation is no one quote; a cut negation or compound was found where cited; a
  // document-scoped quote was already looked for everywhere.
  if (reason == "stitched_quotation" || reason == "polarity_guard" || claim.citation.document_scope) return;
  const match::DocumentIndex& index = source_.match_index();
  if (index.running_count() == 0) return;
  const match::Policy& policy = *config_.policy;
  match::LadderResult found = index.search(expected_ladder(expected), policy, 0, index.running_count() - 1);
  if (!found.whole || !policy.accepts(found.whole->tier)) return;
  // Elsewhere means in no cited element and on no cited page (a page-only or page-range citation).
  const Citation& c = claim.citation;
  const std::size_t first = index.running_at(found.whole->start);
  const std::size_t last = index.running_at(found.whole->end - 1);
  for (std::size_t r = first; r <= last; ++r) {
    const std::size_t element = index.element_of(r);
    if (std::find(cited.begin(), cited.end(), element) != cited.end()) return;
    const std::string& page = source_.elements[element].page;
    if (!c.has_primary_locator() && c.page) {
      const Page* at = source_.page_by_id(page);
      const Page* low = source_.page_by_id(*c.page);
      const Page* high = c.page_end ? source_.page_by_id(*c.page_end) : low;
      if (at != nullptr && low != nullptr && high != nullptr && at->index >= low->index && at->index <= high->index) return;
    }
  }
  match::Located located = *found.whole;
  Target target = running_target(located);
  // The same polarity guard as a grounded quote: an occurrence cut from a negation is no place
  // where the quote is said.
  if (policy.polarity_guard) {
    std::size_t start_byte = static_cast<std::size_t>(-1);
    if (negation_before_quote(*target.text, located, &start_byte, target.ascii) ||
        negation_after_quote(*target.text, located, start_byte, target.ascii)) {
      return;
    }
  }
  result.reason = "located_elsewhere";
  result.target = std::move(target);
  result.located = located;
  result.located_start_byte = static_cast<std::size_t>(-1);
  result.extras.reset();
}

std::optional<match::Located> ClaimVerifier::find_across_junctions(const Claim& claim, const std::string& expected,
                                                                   const CheckResult& result) const {
  if (!result.located || !result.target || !result.target->text || result.target->columns || result.target->stream) {
    return std::nullopt;
  }
  const Target& target = *result.target;
  if (target.elements.empty()) return std::nullopt;
  // The evidence text is one element's text or the running text of consecutive elements (joined
  // by a line break): rebuild it from the elements, with their spans, wraps and hyphens, or give up.
  match::JunctionText region;
  // Touching span pairs whose second span may be a footnote marker, with its element's base.
  struct MarkerCandidate {
    const Span *before, *marker;
    std::uint32_t base;
  };
  std::vector<MarkerCandidate> marker_candidates;
  // Span pairs whose first span may be a listing's line number (white space at most between them).
  std::vector<MarkerCandidate> number_candidates;
  std::string rebuilt;
  std::uint32_t base = 0;
  std::vector<std::uint32_t> bases;
  for (std::size_t n = 0; n < target.elements.size(); ++n) {
    const std::size_t index = target.elements[n];
    const Element& element = source_.elements[index];
    if (!element.text) return std::nullopt;
    if (n > 0) {
      rebuilt += '\n';
      ++base;
    }
    bases.push_back(base);
    rebuilt += *element.text;
    for (std::int64_t b : element.line_breaks) region.line_breaks.push_back(base + static_cast<std::uint32_t>(b));
    for (std::int64_t h : element.hyphen_breaks) region.hyphen_breaks.push_back(base + h);
    const Span* previous = nullptr;
    for (std::size_t s : source_.geometry_spans_of(index)) {
      const Span& span = source_.spans[s];
      if (previous != nullptr && previous->char_end && span.char_start && *previous->char_end == *span.char_start &&
          *span.char_start > 0) {
        region.junctions.push_back(base + static_cast<std::uint32_t>(*span.char_start));
        if (span.char_end && *span.char_end > *span.char_start) marker_candidates.push_back({previous, &span, base});
      }
      if (previous != nullptr && previous->char_start && previous->char_end && span.char_start &&
          *previous->char_end <= *span.char_start && !previous->text.empty() && previous->text[0] >= '0' &&
          previous->text[0] <= '9') {
        number_candidates.push_back({previous, &span, base});
      }
      previous = &span;
    }
    base += static_cast<std::uint32_t>(utf8::scalar_count(*element.text));
  }
  if (rebuilt != *target.text) return std::nullopt;
  std::size_t pos = 0;
  while (pos < rebuilt.size()) region.text.push_back(utf8::next(rebuilt, pos));
  // A two-column table's row reading joins a key and its description with " | ": the separator
  // reads as white space (its key-rows reading holds no cell wraps to read URLs across).
  for (std::size_t n = 0; n < target.elements.size(); ++n) {
    const Element& element = source_.elements[target.elements[n]];
    if (element.table_ref.empty()) continue;
    const std::size_t table = source_.table_index(element.table_ref);
    if (table == Source::npos || !table_key_rows(source_.tables[table])) continue;
    const std::uint32_t end = n + 1 < bases.size() ? bases[n + 1] - 1 : static_cast<std::uint32_t>(region.text.size());
    for (std::uint32_t p = bases[n] + 1; p + 1 < end; ++p) {
      if (region.text[p] == U'|' && region.text[p - 1] == U' ' && region.text[p + 1] == U' ') region.separators.push_back(p);
    }
  }
  // A listing's line numbers, kept apart so that a quote which keeps a footnote marker may still
  // leave them out.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> line_numbers;
  for (const MarkerCandidate& candidate : marker_candidates) {
    const std::uint32_t begin = candidate.base + static_cast<std::uint32_t>(*candidate.marker->char_start);
    const std::uint32_t end = candidate.base + static_cast<std::uint32_t>(*candidate.marker->char_end);
    if (end > region.text.size() || begin < 1) continue;
    // A marker after its word ends the word: white space, punctuation or the text's end follows.
    const std::uint32_t from = begin > 64 ? begin - 64 : 0;
    if ((end == region.text.size() || !unicode::is_word_char(region.text[end])) &&
        is_footnote_marker_span(*candidate.before, *candidate.marker, region.text.substr(from, begin - from))) {
      region.footnote_markers.emplace_back(begin, end);
      continue;
    }
    // A note's label before its first word ("³If ..."): the span before is the marker, at the
    // start of its element or after white space.
    const Span& label = *candidate.before;
    if (!label.char_start || !label.char_end) continue;
    const std::uint32_t label_begin = candidate.base + static_cast<std::uint32_t>(*label.char_start);
    const std::uint32_t label_end = candidate.base + static_cast<std::uint32_t>(*label.char_end);
    if (label_end != begin || label_begin >= label_end) continue;
    std::u32string before_label;
    if (label_begin > candidate.base) before_label = region.text.substr(label_begin - 1, 1);
    if (is_leading_note_marker(label, *candidate.marker, before_label)) {
      region.footnote_markers.emplace_back(label_begin, label_end);
    }
  }
  for (const MarkerCandidate& candidate : number_candidates) {
    // A listing's line number: its figures (not the space after them) read as white space.
    const Span& label = *candidate.before;
    const std::uint32_t label_begin = candidate.base + static_cast<std::uint32_t>(*label.char_start);
    const std::uint32_t after_begin = candidate.base + static_cast<std::uint32_t>(*candidate.marker->char_start);
    if (after_begin > region.text.size()) continue;
    std::uint32_t digits_end = label_begin;
    while (digits_end < after_begin && region.text[digits_end] >= U'0' && region.text[digits_end] <= U'9') ++digits_end;
    bool spaced = digits_end > label_begin;
    for (std::uint32_t p = digits_end; spaced && p < after_begin; ++p) spaced = is_unicode_white_space(region.text[p]);
    const bool line_start = label_begin == candidate.base ||
                            std::find(region.line_breaks.begin(), region.line_breaks.end(), label_begin - 1) !=
                                region.line_breaks.end();
    if (spaced && is_listing_line_number(label, *candidate.marker, line_start)) {
      line_numbers.emplace_back(label_begin, digits_end);
    }
  }
  // Junctions between white space and anything are no junctions.
  std::vector<std::uint32_t> junctions;
  for (std::uint32_t p : region.junctions) {
    if (p < region.text.size() && !is_unicode_white_space(region.text[p - 1]) && !is_unicode_white_space(region.text[p])) {
      junctions.push_back(p);
    }
  }
  std::sort(junctions.begin(), junctions.end());
  region.junctions = std::move(junctions);
  std::sort(region.line_breaks.begin(), region.line_breaks.end());
  std::sort(region.hyphen_breaks.begin(), region.hyphen_breaks.end());
  const auto footnote_markers = region.footnote_markers;
  region.footnote_markers.insert(region.footnote_markers.end(), line_numbers.begin(), line_numbers.end());
  std::sort(region.footnote_markers.begin(), region.footnote_markers.end());
  auto found = match::find_across_junctions(region, expected, *config_.policy);
  if (!found && !footnote_markers.empty() && !line_numbers.empty()) {
    // The footnote markers as printed, the line numbers still left out.
    region.footnote_markers = line_numbers;
    found = match::find_across_junctions(region, expected, *config_.policy);
  }
  if (!found && !region.footnote_markers.empty()) {
    // The markers as printed, the quote keeping them with a space ("2 https://" for `²https://`).
    region.footnote_markers.clear();
    found = match::find_across_junctions(region, expected, *config_.policy);
  }
  // A page-only quote starts on its page (it may run onto the next one, never lie wholly there).
  const Citation& c = claim.citation;
  if (found && !c.has_primary_locator() && !c.is_scoped_search() && c.page) {
    std::size_t n = 0;
    while (n + 1 < bases.size() && bases[n + 1] <= found->start) ++n;
    if (source_.elements[target.elements[n]].page != *c.page) return std::nullopt;
  }
  return found;
}

// Scoped citations: page..page_end (inclusive, by page index) or the whole document. The target
// starts as the first page of the range; the search then picks the evidence.
std::optional<CheckResult> ClaimVerifier::resolve_scope(const Citation& c, Target& target) {
  if (c.has_primary_locator() || (c.document_scope && (c.page || c.page_end)) || (c.page_end && !c.page)) {
    set_scope_pages({});
    return fail("error", "locator_conflict");
  }
  if (c.document_scope) {
    if (!scope_is_whole_document_) {
      if (source_.pages.empty()) {
        scope_pages_.assign(1, kPagelessScope);  // a page-less source is searched whole, too
      } else {
        scope_pages_.resize(source_.pages.size());
        std::iota(scope_pages_.begin(), scope_pages_.end(), std::size_t{0});
      }
      scope_is_whole_document_ = true;
    }
    target = scope_page_target(source_, scope_pages_.front());
    return std::nullopt;
  }
  set_scope_pages({});
  const Page* first = source_.page_by_id(*c.page);
  const Page* last = source_.page_by_id(*c.page_end);
  if (first == nullptr || last == nullptr) return fail("not_found", "page_not_found");
  if (last->index < first->index) return fail("error", "locator_conflict");
  const std::int64_t low = first->index;
  const std::int64_t high = last->index;
  for (std::size_t i = 0; i < source_.pages.size(); ++i) {
    if (source_.pages[i].index >= low && source_.pages[i].index <= high) scope_pages_.push_back(i);
  }
  if (scope_pages_.empty()) return fail("not_found", "page_not_found");
  target = page_target(source_.pages[scope_pages_.front()]);
  return std::nullopt;
}

const ScopeText& ClaimVerifier::scope_text(std::size_t first_page, std::size_t last_page) {
  const auto key = std::make_pair(first_page, last_page);
  auto it = scopes_.find(key);
  if (it != scopes_.end()) return it->second;
  ScopeText scope;
  std::size_t scalars = 0;
  for (std::size_t page : scope_pages_) {
    for (std::size_t index : source_.elements_on_page(scope_page_id(source_, page))) {
      const Element& element = source_.elements[index];
      if (!element.text || is_running_furniture(element)) continue;
      if (!scope.elements.empty()) {
        scope.text += '\n';  // a break, not a space: crossing it is never an exact-tier match
        ++scalars;
      }
      scope.elements.push_back(index);
      scope.base.push_back(static_cast<std::uint32_t>(scalars));
      for (std::int64_t h : element.hyphen_breaks) scope.hyphen_breaks.push_back(static_cast<std::int64_t>(scalars) + h);
      scope.text += *element.text;
      scalars += utf8::scalar_count(*element.text);
    }
  }
  return scopes_.emplace(key, std::move(scope)).first->second;
}

const match::Ladder& ClaimVerifier::ladder_of(const ScopeText& scope) const {
  if (!scope.ladder) {
    match::LineArtifacts artifacts;
    artifacts.hyphen_breaks = &scope.hyphen_breaks;
    scope.ladder = match::build_ladder(scope.text, config_.policy->ladder, artifacts);
    scope.ladder->indexed = true;  // a whole document: searched through gram indexes
  }
  return *scope.ladder;
}

// A scoped quote under a policy is searched in the running text of the range; values, cells and
// the public rule look element by element (then span by span), page after page, first hit wins.
bool ClaimVerifier::search_scope(const Claim& claim, const std::string& expected, Target& target,
                                 match::LadderResult& found) {
  if (!config_.policy || claim.kind != "quote"sv) {
    for (std::size_t page : scope_pages_) {
      Target page_candidate = scope_page_target(source_, page);
      if (config_.policy) {
        if (search_page(claim, expected, page_candidate, found)) {
          target = std::move(page_candidate);
          return true;
        }
        continue;
      }
      for (std::size_t index : source_.elements_on_page(scope_page_id(source_, page))) {
        const Element& element = source_.elements[index];
        if (element.text && !is_running_furniture(element) && text_rule(claim.kind, expected, cache_.get(*element.text))) {
          target = element_target(source_, index);
          return true;
        }
      }
      if (!source_.capabilities.spans) continue;
      for (std::size_t index : source_.spans_on_page(scope_page_id(source_, page))) {
        if (text_rule(claim.kind, expected, cache_.get(source_.spans[index].text))) {
          target = span_target(source_, index);
          return true;
        }
      }
    }
    return false;
  }
  if (const auto range = running_range(scope_pages_.front(), scope_pages_.back())) {
    return search_running(expected, *range, target, found);
  }
  const ScopeText& scope = scope_text(scope_pages_.front(), scope_pages_.back());
  if (scope.elements.empty()) return false;
  found = match::search_ladder(ladder_of(scope), expected_ladder(expected), match::TextRule::contains, *config_.policy);
  const match::Policy& policy = *config_.policy;
  const bool accepted = found.whole && policy.accepts(found.whole->tier);
  std::optional<match::Located>* shown = nullptr;
  if (accepted) {
    shown = &found.whole;
  } else if (found.clipped && policy.accepts(found.clipped->tier)) {
    shown = &found.clipped;
  } else if (found.whole) {
    shown = &found.whole;
  }
  if (shown == nullptr) return false;
  target = scope_target(scope, **shown);
  return accepted;
}

std::unique_ptr<match::JunctionSearch> ClaimVerifier::table_junction_search(std::size_t index, const Table& table,
                                                                           const TableColumns& columns) {
  const Element& owner = source_.elements[index];
  std::vector<std::uint32_t> row_junctions;
  const Span* previous = nullptr;
  for (std::size_t s : source_.geometry_spans_of(index)) {
    const Span& span = source_.spans[s];
    if (previous != nullptr && previous->char_end && span.char_start && *previous->char_end == *span.char_start &&
        *span.char_start > 0) {
      row_junctions.push_back(static_cast<std::uint32_t>(*span.char_start));
    }
    previous = &span;
  }
  if (row_junctions.empty() || !owner.text) return nullptr;
  std::u32string row_text;
  for (std::size_t pos = 0; pos < owner.text->size();) row_text.push_back(utf8::next(*owner.text, pos));
  match::JunctionText region;
  for (std::size_t pos = 0; pos < columns.text.size();) region.text.push_back(utf8::next(columns.text, pos));
  for (std::uint32_t p : reading_junctions(columns, table, row_text, row_junctions)) {
    if (!is_unicode_white_space(region.text[p - 1]) && !is_unicode_white_space(region.text[p])) region.junctions.push_back(p);
  }
  if (region.junctions.empty()) return nullptr;
  // The ladder the reading's first search built (the same text, no hyphens).
  return std::make_unique<match::JunctionSearch>(std::move(region), &ladders_.get(columns.text, nullptr));
}

std::unique_ptr<match::JunctionSearch> ClaimVerifier::stream_junction_search(const StreamReading& reading,
                                                                            const match::Ladder* ladder) const {
  match::JunctionText region;
  for (std::size_t pos = 0; pos < reading.text.size();) region.text.push_back(utf8::next(reading.text, pos));
  for (std::size_t n = 1; n < reading.pieces.size(); ++n) {
    const StreamReading::Piece& before = reading.pieces[n - 1];
    const StreamReading::Piece& piece = reading.pieces[n];
    // Two glyph runs of one element that touch there too.
    if (piece.element != before.element || piece.start != before.end ||
        piece.element_start != before.element_start + (before.end - before.start)) {
      continue;
    }
    if (piece.start < region.text.size() && !is_unicode_white_space(region.text[piece.start - 1]) &&
        !is_unicode_white_space(region.text[piece.start])) {
      region.junctions.push_back(piece.start);
    }
  }
  if (region.junctions.empty()) return nullptr;
  region.hyphen_breaks = reading.hyphen_breaks;
  return std::make_unique<match::JunctionSearch>(std::move(region), ladder);
}

bool ClaimVerifier::search_table_columns(const std::string& expected, const std::vector<std::size_t>& pages,
                                         std::optional<std::size_t> element, Target& target,
                                         match::LadderResult& found) {
  const auto on_pages = [&](std::size_t index) {
    const Page* page = source_.page_by_id(source_.elements[index].page);
    if (page == nullptr) return false;
    return std::binary_search(pages.begin(), pages.end(), static_cast<std::size_t>(page - source_.pages.data()));
  };
  for (const auto& [index, table] : source_.table_elements()) {
    if (element ? index != *element : !on_pages(index)) continue;
    auto kept = table_columns_.find(table);
    if (kept == table_columns_.end()) {
      std::vector<std::shared_ptr<const TableColumns>> readings;
      for (std::optional<TableColumns> built : {table_columns(source_.tables[table]), table_rows(source_.tables[table], false),
                                                table_rows(source_.tables[table], true)}) {
        if (built) readings.push_back(std::make_shared<const TableColumns>(std::move(*built)));
      }
      kept = table_columns_.emplace(table, std::move(readings)).first;
    }
    for (const std::shared_ptr<const TableColumns>& columns : kept->second) {
      match::LadderResult result;
      if (!matches("quote", expected, columns->text, nullptr, &result)) continue;
      const Element& owner = source_.elements[index];
      target = Target{owner.page, owner.bbox, &columns->text, std::shared_ptr<const std::string>(columns, &columns->text),
                      {index}, "element_scoped", 0, columns};
      target.reading = columns->reading;
      found = result;
      return true;
    }
  }
  // Second, the same readings with white space where a cell's glyphs change font ("Jν (x)" for
  // Jν(x), as pdftotext gives a table with math in it; docs/matching.md "Font junctions").
  for (const auto& [index, table] : source_.table_elements()) {
    if (element ? index != *element : !on_pages(index)) continue;
    const Element& owner = source_.elements[index];
    if (!owner.text) continue;
    for (const std::shared_ptr<const TableColumns>& columns : table_columns_.at(table)) {
      auto kept = junction_searches_.find(columns.get());
      if (kept == junction_searches_.end()) {
        kept = junction_searches_.emplace(columns.get(), table_junction_search(index, source_.tables[table], *columns)).first;
      }
      if (!kept->second) continue;
      const auto located = kept->second->find(expected, *config_.policy, &junction_quote_);
      if (!located) continue;
      target = Target{owner.page, owner.bbox, &columns->text, std::shared_ptr<const std::string>(columns, &columns->text),
                      {index}, "element_scoped", 0, columns};
      target.reading = columns->reading;
      found = match::LadderResult{located, std::nullopt};
      return true;
    }
  }
  return false;
}

// Readings of more pages than this are not built (a whole document's stream reading would cost a
// verify call a ladder of the whole document): a page, a page break, a short range.
constexpr std::size_t kStreamPages = 4;

ClaimVerifier::StreamEntry& ClaimVerifier::stream_of(const std::vector<std::size_t>& pages) {
  const auto key = std::make_pair(pages.front(), pages.back());
  auto it = streams_.find(key);
  if (it == streams_.end()) {
    StreamEntry entry;
    if (auto built = stream_reading(source_, pages)) entry.readings.push_back(std::make_shared<const StreamReading>(std::move(*built)));
    if (pages.size() == 1) {
      if (auto built = column_reading(source_, pages.front())) {
        entry.readings.push_back(std::make_shared<const StreamReading>(std::move(*built)));
      }
      if (auto built = contents_reading(source_, pages)) {
        entry.readings.push_back(std::make_shared<const StreamReading>(std::move(*built)));
      }
    } else {
      if (auto built = contents_reading(source_, pages)) {
        entry.readings.push_back(std::make_shared<const StreamReading>(std::move(*built)));
      }
      if (auto built = running_without_foot_notes(source_, pages)) {
        entry.readings.push_back(std::make_shared<const StreamReading>(std::move(*built)));
      }
      // Last: a quote copied from an extractor that reads each page's foot as its last line.
      if (auto built = running_with_feet(source_, pages)) {
        entry.readings.push_back(std::make_shared<const StreamReading>(std::move(*built)));
      }
    }
    entry.ladders.resize(entry.readings.size());
    it = streams_.emplace(key, std::move(entry)).first;
  }
  return it->second;
}

Target ClaimVerifier::stream_target(const std::shared_ptr<const StreamReading>& stream, const match::Located& located) const {
  const std::vector<std::size_t> elements = stream_elements(*stream, located.start, located.end);
  const Element& head = source_.elements[elements.empty() ? stream->pieces.front().element : elements.front()];
  Target target{head.page, head.bbox, &stream->text, std::shared_ptr<const std::string>(stream, &stream->text), {},
                elements.size() > 1 ? "page_scoped" : "element_scoped", 0, nullptr};
  target.stream = stream;
  target.reading = stream->name;
  for (std::size_t index : elements) {
    const Element& element = source_.elements[index];
    target.elements.push_back(index);
    if (element.page == head.page && element.bbox && target.bbox) target.bbox = union_of(*target.bbox, *element.bbox);
  }
  return target;
}

bool ClaimVerifier::search_stream(const std::string& expected, const std::vector<std::size_t>& pages, Target& target,
                                  match::LadderResult& found) {
  if (pages.empty() || pages.size() > kStreamPages) return false;
  StreamEntry& entry = stream_of(pages);
  for (std::size_t n = 0; n < entry.readings.size(); ++n) {
    const std::shared_ptr<const StreamReading>& reading = entry.readings[n];
    if (!entry.ladders[n]) {
      match::LineArtifacts artifacts;
      artifacts.hyphen_breaks = &reading->hyphen_breaks;
      entry.ladders[n] = match::build_ladder(reading->text, config_.policy->ladder, artifacts);
    }
    const match::LadderResult result =
        match::search_ladder(*entry.ladders[n], expected_ladder(expected), match::TextRule::contains, *config_.policy);
    if (!result.whole || !config_.policy->accepts(result.whole->tier)) continue;
    target = stream_target(reading, *result.whole);
    found = result;
    return true;
  }
  // Second, each reading with white space where two glyph runs of one element touch (a font
  // junction: pdftotext's "Qp , precision" for Qp, with p a subscript; "Font junctions" in
  // docs/matching.md), as the element's own junction reading allows.
  for (std::size_t n = 0; n < entry.readings.size(); ++n) {
    const std::shared_ptr<const StreamReading>& reading = entry.readings[n];
    auto kept = junction_searches_.find(reading.get());
    if (kept == junction_searches_.end()) {
      const match::Ladder* ladder = entry.ladders[n] ? &*entry.ladders[n] : nullptr;
      kept = junction_searches_.emplace(reading.get(), stream_junction_search(*reading, ladder)).first;
    }
    if (!kept->second) continue;
    const auto located = kept->second->find(expected, *config_.policy, &junction_quote_);
    if (!located) continue;
    target = stream_target(reading, *located);
    found = match::LadderResult{located, std::nullopt};
    return true;
  }
  return false;
}

void ClaimVerifier::explain_stream_miss(const std::string& expected, const std::vector<std::size_t>& pages,
                                        CheckResult& result) {
  const std::string_view reason(result.reason);
  if (reason != "near_miss" && reason != "text_mismatch") return;
  if (pages.empty() || pages.size() > kStreamPages || !config_.policy->near_miss) return;
  StreamEntry& entry = stream_of(pages);
  if (entry.readings.empty()) return;
  // The content-stream reading only: the aligned columns hold every line piece of a page at most
  // once, in runs, and a near miss there would align across runs.
  const std::shared_ptr<const StreamReading>& reading = entry.readings.front();
  if (std::string_view(reading->name) != "content_stream") return;
  auto miss = near_miss(std::nullopt, &reading->text, expected, &reading->hyphen_breaks);
  if (!miss) return;
  const std::string_view found(miss->reason);
  if (found != "numeric_guard" && found != "polarity_guard") return;
  if (reason == "near_miss" && result.extras && result.extras->score_bp && *result.extras->score_bp >= miss->score_bp) return;
  // One verdict: the reading that aligns the quote best, and there a guard blocks it.
  match::Located span{match::Tier::exact, miss->start, miss->end, 1};
  result.target = stream_target(reading, span);
  result.located = span;
  result.located_start_byte = static_cast<std::size_t>(-1);
  result.reason = miss->reason;
  auto extras = std::make_shared<match::MatchExtras>();
  extras->score_bp = miss->score_bp;
  extras->diff = std::move(miss->diff);
  extras->guards = std::move(miss->guards);
  result.extras = std::move(extras);
}

// The evidence for an occurrence in a scope's running text (offsets rebased into it): the element
// holding it, or the running text of the elements it spans.
Target ClaimVerifier::scope_target(const ScopeText& scope, match::Located& located) const {
  // The elements the occurrence touches: first = the one holding its start, last = its end.
  const auto element_at = [&](std::uint32_t offset) {
    return static_cast<std::size_t>(std::upper_bound(scope.base.begin(), scope.base.end(), offset) - scope.base.begin()) - 1;
  };
  const std::size_t first = element_at(located.start);
  const std::size_t last = element_at(located.end - 1);
  const std::uint32_t base = scope.base[first];
  located.start -= base;
  located.end -= base;
  if (first == last) return element_target(source_, scope.elements[first]);
  // Across elements (and possibly pages): the target is the running text of those elements.
  const std::size_t begin_byte = utf8::byte_offset_of_scalar(scope.text, base);
  const std::size_t end_scalar = last + 1 < scope.base.size() ? scope.base[last + 1] - 1 : utf8::scalar_count(scope.text);
  const std::size_t end_byte = utf8::byte_offset_of_scalar(scope.text, end_scalar);
  auto owned = std::make_shared<const std::string>(scope.text.substr(begin_byte, end_byte - begin_byte));
  const Element& head = source_.elements[scope.elements[first]];
  Target joined{head.page, head.bbox, owned.get(), owned, {}, "page_scoped", 0, nullptr};
  for (std::size_t i = first; i <= last; ++i) {
    const Element& element = source_.elements[scope.elements[i]];
    joined.elements.push_back(scope.elements[i]);
    if (element.page == head.page && element.bbox && joined.bbox) joined.bbox = union_of(*joined.bbox, *element.bbox);
  }
  return joined;
}

// The near miss of a quote in a target text (offsets of that text) or, for a scope whose elements
// are consecutive running elements [first, last] of the document index, in the index's running
// text (running offsets): the document's own near-miss index, built once per document rather than
// per verify call, searched over the range's tokens finds what an index of the scope's text finds.
std::optional<match::NearMiss> ClaimVerifier::near_miss(const std::optional<std::pair<std::size_t, std::size_t>>& running,
                                                        const std::string* target_text, const std::string& expected,
                                                        const std::vector<std::int64_t>* hyphen_breaks) {
  const match::Policy& policy = *config_.policy;
  if (running) {
    const match::DocumentIndex& index = source_.match_index();
    const auto [token_begin, token_end] = index.near_miss_tokens(policy.ladder, running->first, running->second);
    return match::find_near_miss(index.near_miss(policy.ladder), token_begin, token_end, expected_ladder(expected), policy);
  }
  // Keyed by the text's address: a source text or a scope text, both kept for the whole call.
  const std::string& text = *target_text;
  auto it = near_miss_indexes_.find(&text);
  if (it == near_miss_indexes_.end()) {
    // Kept for the next misses in the same text (a batch's elements), within a budget of text:
    // misses in element texts each index their own element, and an index (its text, tokens,
    // postings) weighs about 10 bytes per character of its text.
    if (near_miss_text_bytes_ + text.size() > near_miss_budget_) {
      near_miss_indexes_.clear();
      near_miss_text_bytes_ = 0;
    }
    near_miss_text_bytes_ += text.size();
    it = near_miss_indexes_.emplace(&text, match::build_near_miss_index(text, policy.ladder, hyphen_breaks)).first;
  }
  // The quote's case reading and scalars from its ladder (the search built it): not made again.
  return match::find_near_miss(it->second, 0, it->second.tokens.size(), expected_ladder(expected), policy);
}

// A quote the ladder did not ground (docs/matching.md): a stitched quotation is located fragment
// by fragment, any other quote as a near miss; both stay mismatches, with the detail in
// result.extras. Page-only and scoped citations look in the running text of their pages.
void ClaimVerifier::explain_miss(const Claim& claim, const std::string& expected, CheckResult& result) {
  const match::Policy& policy = *config_.policy;
  const Citation& c = claim.citation;
  // A scope is searched as running elements [first, last] of the document index (`running`, its
  // offsets the running text's) whenever its elements are consecutive there, else in a running
  // text of its own (`scope`, built per verify call).
  std::optional<std::pair<std::size_t, std::size_t>> running;
  const ScopeText* scope = nullptr;
  const std::string* text = nullptr;
  if (c.is_scoped_search() || !c.has_primary_locator()) {
    if (scope_pages_.empty()) return;
    running = running_range(scope_pages_.front(), scope_pages_.back());
    if (running) {
      if (running->first > running->second) return;  // no running text on these pages
    } else {
      scope = &scope_text(scope_pages_.front(), scope_pages_.back());
      if (scope->elements.empty()) return;
      text = &scope->text;
    }
  } else {
    if (!result.target || !result.target->text || result.target->joined) return;
    text = result.target->text;
  }
  auto extras = std::make_shared<match::MatchExtras>();
  std::optional<match::Located> span;
  const char* reason = nullptr;
  if (policy.elision) {
    const std::vector<std::string> fragments = match::split_at_elisions(expected);
    if (!fragments.empty()) {
      match::StitchResult stitched;
      if (running) {
        // Through the document index (its tier readings and gram indexes), not a ladder of the
        // scope's text per verify call.
        const match::DocumentIndex& index = source_.match_index();
        stitched = match::stitch_fragments(index.running_text(), fragments, policy, [&](const std::string& fragment) {
          return index.fragment_occurrences(match::build_ladder(fragment, policy.ladder), policy, running->first,
                                            running->second);
        });
      } else {
        const match::Ladder& ladder =
            scope != nullptr ? ladder_of(*scope) : ladders_.get(*text, owner_of(source_, *result.target));
        stitched = match::locate_fragments(ladder, fragments, policy);
      }
      reason = "stitched_quotation";
      span = stitched.span;
      extras->fragments = std::move(stitched.fragments);
      extras->guards = std::move(stitched.guards);
    }
  }
  if (reason == nullptr && result.located) {
    // The ladder already located the quote (clipped, or at a tier the policy does not accept; in
    // the target's own offsets): keep that location and tier, and name what differs.
    match::OccurrenceGuards guards = match::guard_occurrence(
        *result.target->text, expected, *result.located, std::string_view(result.reason) == "token_boundary", policy);
    if (guards.reason != nullptr) result.reason = guards.reason;
    if (!guards.list.empty()) {
      extras->guards = std::move(guards.list);
      result.extras = std::move(extras);
    }
    return;
  }
  if (reason == nullptr && policy.near_miss) {
    // An element's own text is read through its recorded line-end hyphens.
    const Element* owner = scope == nullptr && !running && result.target ? owner_of(source_, *result.target) : nullptr;
    const std::vector<std::int64_t>* hyphens = owner != nullptr && owner->text && &*owner->text == text ? &owner->hyphen_breaks : nullptr;
    if (auto miss = near_miss(running, text, expected, hyphens)) {
      reason = miss->reason;
      span = match::Located{match::Tier::exact, miss->start, miss->end, 1};
      extras->score_bp = miss->score_bp;
      extras->diff = std::move(miss->diff);
      extras->guards = std::move(miss->guards);
    }
  }
  if (reason == nullptr) return;
  result.reason = reason;
  if (!span) {  // a stitched quotation none of whose fragments was found
    result.located.reset();
    return;
  }
  if (running || scope != nullptr) {
    // Offsets of the running text (or the scope's text) -> of the evidence's own text.
    const std::uint32_t scope_start = span->start;
    result.target = running ? running_target(*span) : scope_target(*scope, *span);
    const std::uint32_t base = scope_start - span->start;
    for (match::FragmentMatch& fragment : extras->fragments) {
      if (!fragment.found) continue;
      fragment.found->start -= base;
      fragment.found->end -= base;
    }
  }
  result.located = span;
  result.extras = std::move(extras);
}

namespace {

// Running numbers fed in order: their [first, last] while each follows the one before, nullopt once
// one does not; the empty range (1, 0) when none was fed.
class ConsecutiveRange {
 public:
  void add(std::size_t r) {
    if (!any_) {
      range_ = std::make_pair(r, r);
      any_ = true;
    } else if (range_ && r == range_->second + 1) {
      range_->second = r;
    } else {
      range_.reset();
    }
  }
  std::optional<std::pair<std::size_t, std::size_t>> result() const { return range_; }

 private:
  std::optional<std::pair<std::size_t, std::size_t>> range_ = std::make_pair(std::size_t{1}, std::size_t{0});
  bool any_ = false;
};

}  // namespace

// The scope's elements as running elements of the document index: consecutive there whenever the
// document lists its elements page by page (then the index answers exactly what the scope's own
// running text would); otherwise the caller builds that text.
std::optional<std::pair<std::size_t, std::size_t>> ClaimVerifier::running_range(std::size_t first_page,
                                                                               std::size_t last_page) {
  const auto key = std::make_pair(first_page, last_page);
  auto it = running_ranges_.find(key);
  if (it != running_ranges_.end()) return it->second;
  const match::DocumentIndex& index = source_.match_index();
  ConsecutiveRange range;
  for (std::size_t page : scope_pages_) {
    for (std::size_t element : source_.elements_on_page(scope_page_id(source_, page))) {
      const Element& e = source_.elements[element];
      if (!e.text || is_running_furniture(e)) continue;
      const std::size_t r = index.running_number(element);
      range.add(r);
    }
  }
  return running_ranges_.emplace(key, range.result()).first->second;
}

// A scoped quote searched in running elements [first, last] of the document index; the evidence
// is chosen as for a scope text of its own.
bool ClaimVerifier::search_running(const std::string& expected, std::pair<std::size_t, std::size_t> range, Target& target,
                                   match::LadderResult& found) {
  if (range.first > range.second) return false;  // no running text on these pages
  const match::DocumentIndex& index = source_.match_index();
  const match::Policy& policy = *config_.policy;
  found = index.search(expected_ladder(expected), policy, range.first, range.second);
  const bool accepted = found.whole && policy.accepts(found.whole->tier);
  std::optional<match::Located>* shown = nullptr;
  if (accepted) {
    shown = &found.whole;
  } else if (found.clipped && policy.accepts(found.clipped->tier)) {
    shown = &found.clipped;
  } else if (found.whole) {
    shown = &found.whole;
  }
  if (shown == nullptr) return false;
  target = running_target(**shown);
  return accepted;
}

// The evidence for an occurrence in the document index's running text (offsets rebased into
// it): the element holding it, or the running text of the elements it spans.
Target ClaimVerifier::running_target(match::Located& located) const {
  const match::DocumentIndex& index = source_.match_index();
  // The elements the occurrence touches: first = the one holding its start, last = its end.
  const std::size_t first = index.running_at(located.start);
  const std::size_t last = index.running_at(located.end - 1);
  const std::uint32_t base = index.base(first);
  located.start -= base;
  located.end -= base;
  if (first == last) return element_target(source_, index.element_of(first));
  // Across elements (and possibly pages): the target is the running text of those elements.
  auto owned = std::make_shared<std::string>();
  for (std::size_t r = first; r <= last; ++r) {
    if (r != first) *owned += '\n';
    *owned += *source_.elements[index.element_of(r)].text;
  }
  const Element& head = source_.elements[index.element_of(first)];
  Target joined{head.page, head.bbox, owned.get(), owned, {}, "page_scoped", 0, nullptr};
  for (std::size_t r = first; r <= last; ++r) {
    const Element& element = source_.elements[index.element_of(r)];
    joined.elements.push_back(index.element_of(r));
    if (element.page == head.page && element.bbox && joined.bbox) joined.bbox = union_of(*joined.bbox, *element.bbox);
  }
  return joined;
}

// A page-cited quote that starts on its page and runs onto the next one (a sentence cut by the
// page break, running headers and footers skipped): grounded when an accepted occurrence in the
// two pages' running text starts on the cited page. Occurrences count over both pages.
bool ClaimVerifier::search_onto_next_page(const std::string& expected, std::size_t page, Target& target,
                                          match::LadderResult& found) {
  const std::size_t next = page + 1;
  if (next >= source_.pages.size() || source_.pages[next].index != source_.pages[page].index + 1) return false;
  set_scope_pages({page, next});
  const auto range = running_range(page, next);
  if (!range) return false;
  Target candidate = target;
  match::LadderResult result;
  // The two pages' running text, then their further readings (the notes at the page's foot
  // left out, the content-stream order), under the same condition.
  if (!search_running(expected, *range, candidate, result) && !search_stream(expected, {page, next}, candidate, result)) {
    return false;
  }
  const std::string& last_page = source_.elements[candidate.elements.back()].page;
  if (source_.elements[candidate.elements.front()].page != source_.pages[page].id || last_page != source_.pages[next].id) {
    return false;  // wholly on the next page: not what the citation names
  }
  target = std::move(candidate);
  found = result;
  return true;
}

// The running elements of one page's elements, when consecutive in the document index (always,
// when the document lists its elements page by page).
std::optional<std::pair<std::size_t, std::size_t>> ClaimVerifier::page_running_range(const std::vector<std::size_t>& on_page) {
  auto it = page_ranges_.find(&on_page);
  if (it != page_ranges_.end()) return it->second;
  const match::DocumentIndex& index = source_.match_index();
  ConsecutiveRange range;
  for (std::size_t element : on_page) {
    const std::size_t r = index.running_number(element);
    if (r == match::DocumentIndex::npos) continue;  // no text, or a running header or footer
    range.add(r);
  }
  return page_ranges_.emplace(&on_page, range.result()).first->second;
}

// Page-only search under a policy: every element on the page, then (when none matched) every
// span; the best-ranked text wins and becomes the target. Occurrences add up over the page.
bool ClaimVerifier::search_page(const Claim& claim, const std::string& expected, Target& target,
                                match::LadderResult& found) {
  const match::Policy& policy = *config_.policy;
  const std::string page(target.page);
  int best_rank = kNone;
  std::optional<Target> best_target;
  match::LadderResult best;
  std::size_t occurrences = 0;
  // A quote is looked up in the page's running elements with one scan per tier over the page
  // (DocumentIndex::search_each) instead of one per element: the same result per element.
  const std::vector<std::size_t>& on_page = source_.elements_on_page(page);
  const match::DocumentIndex& running = source_.match_index();
  std::vector<match::LadderResult> each;
  std::size_t first_running = match::DocumentIndex::npos;
  if (claim.kind == "quote"sv) {
    if (const auto range = page_running_range(on_page); range && range->first <= range->second) {
      first_running = range->first;
      each = running.search_each(expected_ladder(expected), policy, range->first, range->second);
    }
  }
  const auto consider = [&](const std::string& text, const Element* owner, Target candidate) {
    match::LadderResult result;
    const std::size_t r = owner != nullptr && first_running != match::DocumentIndex::npos
                              ? running.running_number(static_cast<std::size_t>(owner - source_.elements.data()))
                              : match::DocumentIndex::npos;
    if (r != match::DocumentIndex::npos && r >= first_running && r - first_running < each.size()) {
      result = each[r - first_running];
    } else {
      matches(claim.kind, expected, text, owner, &result);
    }
    const int rank = rank_of(result, policy);
    if (rank == kNone) return;
    if (rank < best_rank) {
      best_rank = rank;
      best_target = std::move(candidate);
      best = result;
      occurrences = 0;
    }
    if (rank == best_rank && result.whole && rank < 100) occurrences += result.whole->occurrences;
  };
  for (std::size_t element_index : on_page) {
    const Element& element = source_.elements[element_index];
    if (element.text) consider(*element.text, &element, element_target(source_, element_index));
  }
  if (best_rank >= 100 && source_.capabilities.spans) {
    for (std::size_t index : source_.spans_on_page(page)) {
      consider(source_.spans[index].text, nullptr, span_target(source_, index));
    }
  }
  if (!best_target) return false;
  target = std::move(*best_target);
  found = best;
  if (found.whole && best_rank < 100) found.whole->occurrences = occurrences;
  return best_rank < 100;
}

}  // namespace

Verdicts verify_claims(const Source& source, const CitationSet& citations, const VerificationConfig& config) {
  Verdicts verdicts;
  verdicts.checks.reserve(citations.claims.size());
  ClaimVerifier verifier(source, citations, config);
  for (const Claim& claim : citations.claims) {
    verdicts.checks.push_back(verifier.run(claim, verdicts));
    verifier.trim();  // the claims' ladders would otherwise all stay until the last claim (~2 MB per 1,000 quotes)
  }
  return verdicts;
}

struct BatchVerifier::Impl {
  CitationSet none;  // what the verifier points at between two sets
  ClaimVerifier verifier;
  Impl(const Source& source, const VerificationConfig& config) : verifier(source, none, config) {
    verifier.keep_near_miss_text(kBatchNearMissTextBytes);
  }
};

BatchVerifier::BatchVerifier(const Source& source, const VerificationConfig& config)
    : impl_(std::make_unique<Impl>(source, config)) {}

BatchVerifier::~BatchVerifier() = default;

Verdicts BatchVerifier::verify(const CitationSet& citations) {
  Verdicts verdicts;
  verify(citations, verdicts);
  return verdicts;
}

void BatchVerifier::verify(const CitationSet& citations, Verdicts& verdicts) {
  verdicts.checks.clear();
  verdicts.fingerprint_stale = false;
  verdicts.unsupported_claim_kinds.clear();
  verdicts.checks.reserve(citations.claims.size());
  impl_->verifier.use(citations);
  for (const Claim& claim : citations.claims) verdicts.checks.push_back(impl_->verifier.run(claim, verdicts));
  impl_->verifier.use(impl_->none);
  impl_->verifier.trim();
}

}  // namespace ethos
