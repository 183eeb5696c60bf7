// document_index_tests.cpp - the document match index answers exactly what a ladder built for the
// searched element or range answers (randomized texts rich in normalization edge cases), through
// scans and gram indexes, from several threads at once; near misses and stitched fragments by range
// the same as per range.
#include <cstdio>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "match/document_index.hpp"
#include "match/ladder.hpp"
#include "match/matcher.hpp"
#include "match/near_miss.hpp"
#include "match/policy.hpp"
#include "match/stitch.hpp"
#include "text/utf8.hpp"
#include "random_text.hpp"
#include "test_check.hpp"

namespace {


using ethos::match::DocumentIndex;
using ethos::match::LadderResult;
using ethos::match::Located;

using ethos_test::same_located;
using ethos_test::utf8_of;

// Documents drawn while this is set may hold the scalar beyond the BMP: their readings switch to
// wide text.
bool beyond_bmp = false;

std::u32string random_text(std::mt19937& rng, std::size_t atoms) { return ethos_test::random_text(rng, atoms, beyond_bmp); }

LadderResult shifted(LadderResult result, std::uint32_t base) {
  for (std::optional<Located>* located : {&result.whole, &result.clipped}) {
    if (*located) {
      (*located)->start -= base;
      (*located)->end -= base;
    }
  }
  return result;
}

struct Document {
  std::vector<std::string> texts;
  std::vector<std::vector<std::int64_t>> hyphens;
  std::vector<bool> furniture;
};

Document random_document(std::mt19937& rng, std::size_t elements, std::size_t atoms) {
  Document doc;
  std::uniform_int_distribution<int> percent(0, 99);
  for (std::size_t i = 0; i < elements; ++i) {
    const std::u32string text = random_text(rng, atoms);
    std::vector<std::int64_t> hyphens;
    for (std::size_t p = 0; p < text.size(); ++p) {
      if (text[p] == U'-' && percent(rng) < 40) hyphens.push_back(static_cast<std::int64_t>(p));
    }
    doc.texts.push_back(utf8_of(text));
    doc.hyphens.push_back(hyphens);
    doc.furniture.push_back(percent(rng) < 10);
  }
  return doc;
}

std::vector<DocumentIndex::Piece> pieces_of(const Document& doc) {
  std::vector<DocumentIndex::Piece> pieces;
  for (std::size_t i = 0; i < doc.texts.size(); ++i) pieces.push_back({&doc.texts[i], &doc.hyphens[i], doc.furniture[i]});
  return pieces;
}

// A needle: a piece of one of the document's texts (so matches happen), sometimes re-spelled.
std::string random_needle(std::mt19937& rng, const Document& doc) {
  std::uniform_int_distribution<std::size_t> element(0, doc.texts.size() - 1);
  std::u32string text;
  const std::string& source = doc.texts[element(rng)];
  for (std::size_t pos = 0; pos < source.size();) text.push_back(ethos::utf8::next(source, pos));
  if (text.empty()) return "a";
  std::uniform_int_distribution<std::size_t> start(0, text.size() - 1);
  const std::size_t from = start(rng);
  std::uniform_int_distribution<std::size_t> length(1, std::min<std::size_t>(12, text.size() - from));
  std::u32string needle = text.substr(from, length(rng));
  if (rng() % 3 == 0) needle += random_text(rng, 1);
  return utf8_of(needle);
}

// The ladder of running elements [first, last]'s own text (what a verify call built before the
// index existed).
ethos::match::Ladder range_ladder(const Document& doc, const DocumentIndex& index, std::size_t first, std::size_t last,
                                  const ethos::match::LadderOptions& options) {
  std::string text;
  std::vector<std::int64_t> hyphens;
  std::int64_t scalars = 0;
  for (std::size_t r = first; r <= last; ++r) {
    const std::size_t element = index.element_of(r);
    if (r != first) {
      text += '\n';
      ++scalars;
    }
    for (std::int64_t h : doc.hyphens[element]) hyphens.push_back(scalars + h);
    text += doc.texts[element];
    scalars += static_cast<std::int64_t>(ethos::utf8::scalar_count(doc.texts[element]));
  }
  ethos::match::LineArtifacts artifacts;
  artifacts.hyphen_breaks = &hyphens;
  return ethos::match::build_ladder(text, options, artifacts);
}

// The search a verify call made before the index existed: a ladder of the range's own text.
LadderResult reference(const Document& doc, const DocumentIndex& index, std::size_t first, std::size_t last,
                       const ethos::match::Ladder& expected, const ethos::match::Policy& policy) {
  const ethos::match::Ladder ladder = range_ladder(doc, index, first, last, policy.ladder);
  return ethos::match::search_ladder(ladder, expected, ethos::match::TextRule::contains, policy);
}

// The randomized tests' common set-up: a random document drawn from `seed` (beyond the BMP for
// every third seed), its index (built in tiny tier pieces for even seeds: the pieces must add up
// to the whole text's reading), then body(rng, doc, index, preset name, policy) for each preset
// policy. A document with no running element is skipped.
// Then the same for a policy with a marker_pattern, on a document whose texts hold markers
// ("[[H]]", "[[CELL]]") at random places: the index built for the pattern (cut only outside
// markers) must answer what the range's own ladder answers, with each marker read as a space.
const ethos::match::Policy& marker_policy() {
  static const ethos::match::Policy policy = ethos::match::load_policy(
      R"({"accept_up_to":"case","boundaries":{"cjk_wrap_spaces":true,"whole_tokens":true},)"
      R"("elision":{"enabled":true,"window_chars":400},"guards":{"numeric":true,"polarity":true},)"
      R"("hyphenation":{"hyphenated_reading":true,"joined_reading":true},"marker_pattern":"\\[\\[[A-Z]+\\]\\]|--+",)"
      R"("name":"markers","near_miss":{"enabled":true,"max_candidates":8,"max_quote_tokens":256,"min_score_bp":6000},)"
      R"("policy_version":"1.0.0","tiers":["exact","whitespace","typography","case","skeleton"]})");
  return policy;
}

Document with_markers(std::mt19937& rng, Document doc) {
  std::uniform_int_distribution<int> percent(0, 99);
  for (std::string& text : doc.texts) {
    std::u32string scalars;
    for (std::size_t pos = 0; pos < text.size();) scalars.push_back(ethos::utf8::next(text, pos));
    std::u32string marked;
    std::vector<std::int64_t> kept;
    for (std::size_t p = 0; p <= scalars.size(); ++p) {
      if (percent(rng) < 8) marked += percent(rng) < 50 ? U"[[H]]" : U"[[CELL]]";
      if (p < scalars.size()) marked.push_back(scalars[p]);
    }
    text = utf8_of(marked);
  }
  for (auto& hyphens : doc.hyphens) hyphens.clear();  // offsets moved; none recorded
  return doc;
}

template <typename Body>
void for_random_documents(std::uint32_t seed, std::size_t elements, std::size_t atoms, Body body) {
  std::mt19937 rng(seed);
  beyond_bmp = seed % 3 == 0;
  const Document doc = random_document(rng, elements, atoms);
  const std::size_t chunk = seed % 2 == 0 ? 16 : std::size_t{1} << 16;
  const DocumentIndex index(pieces_of(doc), chunk);
  if (index.running_count() == 0) return;
  for (const char* name : {"strict", "default", "permissive"}) body(rng, doc, index, name, *ethos::match::preset_policy(name));
  const Document marked = with_markers(rng, doc);
  const DocumentIndex marked_index(pieces_of(marked), chunk);
  body(rng, marked, marked_index, "markers", marker_policy());
}

// A random range [first, last] of running elements (inclusive) of an index of `count` of them.
std::pair<std::size_t, std::size_t> random_range(std::mt19937& rng, std::size_t count) {
  std::uniform_int_distribution<std::size_t> pick(0, count - 1);
  std::size_t first = pick(rng), last = pick(rng);
  if (first > last) std::swap(first, last);
  return {first, last};
}

void equivalence(std::uint32_t seed, std::size_t elements, std::size_t atoms, int needles) {
  for_random_documents(seed, elements, atoms, [&](std::mt19937& rng, const Document& doc, const DocumentIndex& index,
                                                  const char* name, const ethos::match::Policy& policy) {
    for (int n = 0; n < needles; ++n) {
      const std::string needle = random_needle(rng, doc);
      const ethos::match::Ladder expected = ethos::match::build_ladder(needle, policy.ladder);
      const std::size_t count = index.running_count();
      std::size_t first = 0, last = 0;
      std::tie(first, last) = random_range(rng, count);
      if (n % 4 == 0) first = last;       // one element
      if (n % 7 == 0) {  // the whole document
        first = 0;
        last = count - 1;
      }
      const LadderResult got = shifted(index.search(expected, policy, first, last), index.base(first));
      const LadderResult want = reference(doc, index, first, last, expected, policy);
      const bool same = same_located(got.whole, want.whole) && same_located(got.clipped, want.clipped);
      if (!same) {
        std::fprintf(stderr, "seed %u policy %s needle \"%s\" range [%zu, %zu] differs\n", seed, name, needle.c_str(), first, last);
      }
      CHECK(same);
    }
  });
}

// How search_each may leave an element: accepted whole first (tighter tier better), then clipped.
int rank_of(const LadderResult& found, const ethos::match::Policy& policy) {
  if (found.whole && policy.accepts(found.whole->tier)) return static_cast<int>(found.whole->tier);
  if (found.clipped && policy.accepts(found.clipped->tier)) return 100 + static_cast<int>(found.clipped->tier);
  if (found.whole) return 200 + static_cast<int>(found.whole->tier);
  return 1000;
}

// search_each over a range answers, for every element that ranks best, exactly what search(e, e)
// answers; when it stopped early, the elements it left incomplete rank below the best.
void each_equivalence(std::uint32_t seed, std::size_t elements, std::size_t atoms, int needles) {
  for_random_documents(seed, elements, atoms, [&](std::mt19937& rng, const Document& doc, const DocumentIndex& index,
                                                  const char* name, const ethos::match::Policy& policy) {
    for (int n = 0; n < needles; ++n) {
      const std::string needle = random_needle(rng, doc);
      const ethos::match::Ladder expected = ethos::match::build_ladder(needle, policy.ladder);
      std::size_t first = 0, last = 0;
      std::tie(first, last) = random_range(rng, index.running_count());
      const std::vector<LadderResult> got = index.search_each(expected, policy, first, last);
      CHECK(got.size() == last - first + 1);
      std::vector<LadderResult> want;
      int best = 1000;
      for (std::size_t r = first; r <= last; ++r) {
        want.push_back(shifted(index.search(expected, policy, r, r), index.base(r)));
        best = std::min(best, rank_of(want.back(), policy));
      }
      for (std::size_t e = 0; e < want.size() && e < got.size(); ++e) {
        const bool same = same_located(got[e].whole, want[e].whole) && same_located(got[e].clipped, want[e].clipped);
        const bool ok = same || (best < 100 && rank_of(want[e], policy) > best && rank_of(got[e], policy) > best);
        if (!ok) {
          std::fprintf(stderr, "seed %u policy %s needle \"%s\" element %zu of [%zu, %zu] differs\n", seed, name,
                       needle.c_str(), first + e, first, last);
        }
        CHECK(ok);
        if (rank_of(want[e], policy) == best) CHECK(same);
      }
    }
  });
}

// Several threads search one fresh index at once (so they race to build the tiers and the
// gram indexes) and find what one thread finds alone.
void concurrent_searches() {
  std::mt19937 rng(99);
  beyond_bmp = false;
  const Document doc = random_document(rng, 600, 40);  // large enough for gram indexes
  std::vector<std::string> needles;
  for (int i = 0; i < 64; ++i) needles.push_back(random_needle(rng, doc));
  const ethos::match::Policy& policy = *ethos::match::preset_policy("permissive");
  std::vector<ethos::match::Ladder> expected;
  for (const std::string& needle : needles) expected.push_back(ethos::match::build_ladder(needle, policy.ladder));
  const auto run_all = [&](const DocumentIndex& index, std::vector<LadderResult>& out) {
    out.clear();
    for (const auto& ladder : expected) out.push_back(index.search(ladder, policy, 0, index.running_count() - 1));
  };
  std::vector<LadderResult> serial;
  {
    const DocumentIndex alone(pieces_of(doc));
    run_all(alone, serial);
  }
  const DocumentIndex shared(pieces_of(doc));
  std::vector<std::vector<LadderResult>> results(4);
  std::vector<std::thread> threads;
  for (auto& result : results) threads.emplace_back([&] { run_all(shared, result); });
  for (auto& thread : threads) thread.join();
  for (const auto& result : results) {
    bool same = result.size() == serial.size();
    for (std::size_t i = 0; same && i < result.size(); ++i) {
      same = same_located(result[i].whole, serial[i].whole) && same_located(result[i].clipped, serial[i].clipped);
    }
    CHECK(same);
  }
}

// Memory stays lean on prose: the running text (2 bytes per character), 2 per tier reading
// reached, a few bytes of runs for the offset maps, about 4 per gram index built.
void lean_memory() {
  std::mt19937 rng(5);
  const std::vector<std::string> words = {"the", "results", "were", "significant", "across", "all", "groups,", "and",
                                          "\u201cdata\u201d", "fell", "12.5%", "in", "2024.", "Revenue", "grew"};
  Document doc;
  for (int e = 0; e < 2000; ++e) {
    std::string text;
    for (int w = 0; w < 30; ++w) text += (w ? " " : "") + words[rng() % words.size()];
    doc.texts.push_back(text);
    doc.hyphens.emplace_back();
    doc.furniture.push_back(false);
  }
  const DocumentIndex index(pieces_of(doc));
  std::size_t chars = 0;
  for (std::size_t r = 0; r < index.running_count(); ++r) chars += index.length(r) + 1;
  const ethos::match::Policy& policy = *ethos::match::preset_policy("permissive");
  const ethos::match::Ladder missing = ethos::match::build_ladder("no such words here", policy.ladder);
  index.search(missing, policy, 0, 0);  // one element: every tier built, scanned
  const double scanned = static_cast<double>(index.memory_bytes()) / static_cast<double>(chars);
  index.search(missing, policy, 0, index.running_count() - 1);  // the document: gram indexes too
  const double indexed = static_cast<double>(index.memory_bytes()) / static_cast<double>(chars);
  std::printf("index memory per character: %.1f bytes (tiers), %.1f bytes (tiers and gram indexes)\n", scanned, indexed);
  CHECK(scanned < 13.5);  // 14.6 with the running text in 4 bytes per scalar
  CHECK(indexed < 36.0);
}

// The running text of running elements [first, last]: what a scope's own text holds; `hyphens`
// (when given) gets the elements' recorded line-end hyphens in that text's scalars.
std::string range_text(const Document& doc, const DocumentIndex& index, std::size_t first, std::size_t last,
                       std::vector<std::int64_t>* hyphens = nullptr) {
  std::string text;
  std::int64_t scalars = 0;
  for (std::size_t r = first; r <= last; ++r) {
    if (r != first) {
      text += '\n';
      ++scalars;
    }
    const std::string& element = doc.texts[index.element_of(r)];
    if (hyphens != nullptr) {
      for (std::int64_t h : doc.hyphens[index.element_of(r)]) hyphens->push_back(scalars + h);
    }
    text += element;
    scalars += static_cast<std::int64_t>(ethos::utf8::scalar_count(element));
  }
  return text;
}

bool same_near_miss(const std::optional<ethos::match::NearMiss>& a, const std::optional<ethos::match::NearMiss>& b,
                    std::uint32_t base) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  bool same = a->start - base == b->start && a->end - base == b->end && a->score_bp == b->score_bp &&
              std::string_view(a->reason) == b->reason && a->diff.size() == b->diff.size() &&
              a->guards.size() == b->guards.size();
  for (std::size_t i = 0; same && i < a->diff.size(); ++i) {
    same = a->diff[i].op == b->diff[i].op && a->diff[i].quote == b->diff[i].quote && a->diff[i].source == b->diff[i].source;
  }
  for (std::size_t i = 0; same && i < a->guards.size(); ++i) {
    same = a->guards[i].block == b->guards[i].block && a->guards[i].detail == b->guards[i].detail;
  }
  return same;
}

// The document's near-miss index searched over running elements [first, last] finds what an
// index of just that range's text finds (a verify call built one per miss before), offsets
// rebased. Texts mix prose with the normalization edge cases; quotes are stretches of the
// document with words changed, dropped or negated.
void near_miss_equivalence(std::uint32_t seed, std::size_t elements, int quotes) {
  std::mt19937 rng(seed);
  beyond_bmp = seed % 3 == 0;
  const std::vector<std::string> words = {"the", "results", "were", "not", "significant", "across", "all", "groups,",
                                          "increased", "decreased", "12.5%", "in", "2024.", "Revenue", "grew", "never"};
  Document doc;
  for (std::size_t e = 0; e < elements; ++e) {
    std::string text;
    const std::size_t count = 4 + rng() % 30;
    for (std::size_t w = 0; w < count; ++w) {
      if (w != 0) text += rng() % 5 == 0 ? utf8_of(random_text(rng, 1)) : " ";
      text += words[rng() % words.size()];
    }
    // Odd seeds record the line-end hyphens: the index then tokenizes element texts itself
    // instead of reading the case tier (which then has a joined and a hyphenated reading).
    std::vector<std::int64_t> hyphens;
    if (seed % 2 == 1) {
      std::int64_t scalar = 0;
      for (std::size_t pos = 0; pos < text.size(); ++scalar) {
        if (ethos::utf8::next(text, pos) == U'-') hyphens.push_back(scalar);
      }
    }
    doc.texts.push_back(text);
    doc.hyphens.push_back(hyphens);
    doc.furniture.push_back(rng() % 10 == 0);
  }
  const DocumentIndex index(pieces_of(doc));
  const std::size_t count = index.running_count();
  if (count == 0) return;
  for (const char* name : {"default", "permissive"}) {
    const ethos::match::Policy& policy = *ethos::match::preset_policy(name);
    const ethos::match::NearMissIndex& document = index.near_miss(policy.ladder);
    for (int q = 0; q < quotes; ++q) {
      std::size_t first = 0, last = 0;
      std::tie(first, last) = random_range(rng, count);
      if (q % 5 == 0) {  // the whole document
        first = 0;
        last = count - 1;
      }
      // A quote: some words of one element of the range, one of them changed or dropped.
      const std::string& source = doc.texts[index.element_of(first + rng() % (last - first + 1))];
      std::vector<std::string> tokens;
      for (std::size_t pos = 0, next = 0; pos < source.size(); pos = next + 1) {
        next = source.find(' ', pos);
        if (next == std::string::npos) next = source.size();
        tokens.push_back(source.substr(pos, next - pos));
      }
      const std::size_t from = rng() % tokens.size();
      const std::size_t to = std::min(tokens.size(), from + 3 + rng() % 12);
      std::string quote;
      const std::size_t changed = from + rng() % (to - from);
      for (std::size_t t = from; t < to; ++t) {
        if (t == changed && rng() % 2 == 0) continue;
        if (!quote.empty()) quote += ' ';
        quote += t == changed ? words[rng() % words.size()] : tokens[t];
      }
      const auto [token_begin, token_end] = index.near_miss_tokens(policy.ladder, first, last);
      const auto got = ethos::match::find_near_miss(document, token_begin, token_end, quote, policy);
      // (read through the same recorded hyphens: the joined reading's tokens)
      std::vector<std::int64_t> hyphens;
      const std::string text = range_text(doc, index, first, last, &hyphens);
      const auto want =
          ethos::match::find_near_miss(ethos::match::build_near_miss_index(text, policy.ladder, &hyphens), quote, policy);
      const bool same = same_near_miss(got, want, index.base(first));
      if (!same) {
        std::fprintf(stderr, "seed %u policy %s quote \"%s\" range [%zu, %zu]: near miss differs\n", seed, name,
                     quote.c_str(), first, last);
      }
      CHECK(same);
    }
  }
}

bool same_fragment(const std::optional<Located>& got, const std::optional<Located>& want, std::uint32_t base) {
  if (got.has_value() != want.has_value()) return false;
  return !got || (got->tier == want->tier && got->start - base == want->start && got->end - base == want->end);
}

// The running text is held in 2 bytes per scalar when every scalar lies in the BMP and in 4 when
// one does not: a scalar beyond the BMP (U+1D465, mathematical italic x) at the start and end of
// elements and inside quotes is found, stitched and diffed at the same offsets as in the
// elements' own texts; a BMP-only document never finds it.
void narrow_and_wide_running_text() {
  const std::string x = "\U0001D465";  // 𝑥
  Document wide;
  wide.texts = {x + " starts the text", "the value " + x + "y is large " + x, "plain words", "margin fell " + x};
  Document narrow;
  narrow.texts = {"the value xy is large", "plain words \u00E9t\u00E9"};
  for (Document* doc : {&wide, &narrow}) {
    doc->hyphens.assign(doc->texts.size(), {});
    doc->furniture.assign(doc->texts.size(), false);
  }
  const DocumentIndex wide_index(pieces_of(wide));
  const DocumentIndex narrow_index(pieces_of(narrow));
  CHECK(!wide_index.running_text().narrow() && narrow_index.running_text().narrow());
  CHECK(narrow_index.running_text().size() == 21 + 1 + 15);
  CHECK(wide_index.running_text()[0] == U'\U0001D465');
  CHECK(wide_index.running_text()[wide_index.base(1) + wide_index.length(1) - 1] == U'\U0001D465');
  CHECK(wide_index.running_text()[wide_index.base(3) + wide_index.length(3) - 1] == U'\U0001D465');
  const std::size_t last = wide_index.running_count() - 1;
  for (const char* name : {"strict", "default", "permissive"}) {
    const ethos::match::Policy& policy = *ethos::match::preset_policy(name);
    // Quotes inside an element, at an element's start and at its end: the document's search gives
    // the element ladder's occurrence, shifted by the element's base.
    const std::vector<std::pair<std::size_t, std::string>> quotes = {
        {1, "value " + x + "y is"}, {0, x + " starts"}, {1, "large " + x}, {3, "fell " + x}, {2, "plain words"}};
    for (const auto& [r, quote] : quotes) {
      const ethos::match::Ladder expected = ethos::match::build_ladder(quote, policy.ladder);
      const LadderResult got = wide_index.search(expected, policy, 0, last);
      const LadderResult want = reference(wide, wide_index, r, r, expected, policy);
      CHECK(got.whole.has_value());
      CHECK(same_located(shifted(got, wide_index.base(r)).whole, want.whole));
    }
    // The scalar beyond the BMP is not in the BMP-only document, at any tier.
    const LadderResult none = narrow_index.search(ethos::match::build_ladder(x + "y", policy.ladder), policy, 0,
                                                  narrow_index.running_count() - 1);
    CHECK(!none.whole && !none.clipped);
    // Stitched across elements: the elided text between the fragments is read from the running text.
    const std::vector<std::string> fragments = {"value " + x + "y", "fell " + x};
    const ethos::match::StitchResult stitched =
        ethos::match::stitch_fragments(wide_index.running_text(), fragments, policy, [&](const std::string& fragment) {
          return wide_index.fragment_occurrences(ethos::match::build_ladder(fragment, policy.ladder), policy, 0, last);
        });
    CHECK(stitched.span.has_value() && stitched.fragments.size() == 2 && stitched.fragments[1].elided.has_value() &&
          *stitched.fragments[1].elided == "is large " + x + "\nplain words\nmargin");
    // A near miss in the wide document: the same as in an index of the element's own text.
    const std::string quote = "the value " + x + "y is small " + x;
    const ethos::match::NearMissIndex& document = wide_index.near_miss(policy.ladder);
    const auto [token_begin, token_end] = wide_index.near_miss_tokens(policy.ladder, 1, 1);
    const auto got = ethos::match::find_near_miss(document, token_begin, token_end, quote, policy);
    const auto want = ethos::match::find_near_miss(ethos::match::build_near_miss_index(wide.texts[1], policy.ladder), quote, policy);
    CHECK(got.has_value() && same_near_miss(got, want, wide_index.base(1)));
  }
}

// A stitched quotation's fragments located through the index over running elements [first, last]
// are those a ladder of the range's own text gives (the first 256 of each, tier by tier), offsets
// rebased; so is the whole stitched result: the chain, the elided text, the guards.
void fragment_equivalence(std::uint32_t seed, std::size_t elements, std::size_t atoms, int quotes) {
  for_random_documents(seed, elements, atoms, [&](std::mt19937& rng, const Document& doc, const DocumentIndex& index,
                                                  const char* name, const ethos::match::Policy& policy) {
    for (int q = 0; q < quotes; ++q) {
      std::size_t first = 0, last = 0;
      std::tie(first, last) = random_range(rng, index.running_count());
      if (q % 4 == 0) {  // the whole document (above the scan limit: gram indexes)
        first = 0;
        last = index.running_count() - 1;
      }
      const ethos::match::Ladder ladder = range_ladder(doc, index, first, last, policy.ladder);
      const std::uint32_t base = index.base(first);
      std::vector<std::string> fragments;
      for (std::size_t k = 0, n = 2 + rng() % 2; k < n; ++k) fragments.push_back(random_needle(rng, doc));
      bool same = true;
      for (const std::string& fragment : fragments) {
        const std::vector<Located> got =
            index.fragment_occurrences(ethos::match::build_ladder(fragment, policy.ladder), policy, first, last);
        const std::vector<Located> want = ethos::match::fragment_occurrences(ladder, fragment, policy);
        same = same && got.size() == want.size();
        for (std::size_t i = 0; same && i < got.size(); ++i) same = same_fragment(got[i], want[i], base);
      }
      const ethos::match::StitchResult got =
          ethos::match::stitch_fragments(index.running_text(), fragments, policy, [&](const std::string& fragment) {
            return index.fragment_occurrences(ethos::match::build_ladder(fragment, policy.ladder), policy, first, last);
          });
      const ethos::match::StitchResult want = ethos::match::locate_fragments(ladder, fragments, policy);
      same = same && same_fragment(got.span, want.span, base) && got.fragments.size() == want.fragments.size() &&
             got.guards.size() == want.guards.size();
      for (std::size_t i = 0; same && i < got.fragments.size(); ++i) {
        same = same_fragment(got.fragments[i].found, want.fragments[i].found, base) &&
               got.fragments[i].elided == want.fragments[i].elided;
      }
      for (std::size_t i = 0; same && i < got.guards.size(); ++i) {
        same = got.guards[i].block == want.guards[i].block && got.guards[i].detail == want.guards[i].detail;
      }
      if (!same) {
        std::fprintf(stderr, "seed %u policy %s range [%zu, %zu]: stitched fragments differ\n", seed, name, first, last);
      }
      CHECK(same);
    }
  });
}

// Threads racing to build a fresh index's near-miss tokens all get the one index.
void concurrent_near_miss() {
  std::mt19937 rng(7);
  beyond_bmp = false;
  const Document doc = random_document(rng, 400, 30);
  const DocumentIndex shared(pieces_of(doc));
  const ethos::match::Policy& policy = *ethos::match::preset_policy("default");
  std::vector<const ethos::match::NearMissIndex*> seen(4, nullptr);
  std::vector<std::thread> threads;
  for (auto& slot : seen) threads.emplace_back([&] { slot = &shared.near_miss(policy.ladder); });
  for (auto& thread : threads) thread.join();
  const DocumentIndex alone(pieces_of(doc));
  const std::size_t tokens = alone.near_miss(policy.ladder).tokens.size();
  for (const auto* index : seen) CHECK(index == seen.front() && index->tokens.size() == tokens);
  CHECK(tokens > 0);
  // The index's memory counts the near-miss tokens once built (9 bytes each at least).
  CHECK(shared.memory_bytes() >= alone.memory_bytes() && alone.memory_bytes() >= tokens * 9);
}

}  // namespace

int main() {
  for (std::uint32_t seed = 1; seed <= 40; ++seed) equivalence(seed, 12, 8, 30);
  equivalence(1000, 3000, 10, 40);  // whole-document ranges above the scan limit: gram indexes
  equivalence(999, 3000, 10, 20);   // the same beyond the BMP (4-byte readings and their gram indexes)
  for (std::uint32_t seed = 1; seed <= 40; ++seed) each_equivalence(seed, 12, 8, 30);
  each_equivalence(2000, 400, 10, 20);  // long ranges (a range of many elements is still scanned)
  concurrent_searches();
  for (std::uint32_t seed = 1; seed <= 30; ++seed) near_miss_equivalence(seed, 6 + seed * 10, 20);
  concurrent_near_miss();
  for (std::uint32_t seed = 1; seed <= 30; ++seed) fragment_equivalence(seed, 12, 8, 20);
  fragment_equivalence(3000, 3000, 10, 12);  // many occurrences (the cap of 256) and gram indexes
  fragment_equivalence(3001, 3000, 10, 8);   // the same beyond the BMP
  narrow_and_wide_running_text();
  lean_memory();
  return ethos_test::finish("document_index_tests");
}
