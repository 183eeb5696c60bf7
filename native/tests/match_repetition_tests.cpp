// match_repetition_tests.cpp - quote searches on adversarial repetition: the same occurrences, near-linear work, and the verify time budget.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/api.hpp"
#include "core/error.hpp"
#include "core/source.hpp"
#include "match/find_all.hpp"
#include "match/gram_index.hpp"
#include "test_check.hpp"

namespace {

using ethos::match::search_work;

// "a a a ... a" of `words` words, and "a a ... a b" of `quote_words` words: every position of the
// text starts a candidate that matches the quote up to its last scalar.
template <typename String>
String repeated(std::size_t words, bool ends_in_b) {
  String out;
  for (std::size_t i = 0; i < words; ++i) {
    if (i != 0) out.push_back(' ');
    out.push_back(ends_in_b && i + 1 == words ? 'b' : 'a');
  }
  return out;
}

template <typename CharT>
std::vector<std::size_t> naive(const std::basic_string<CharT>& text, const std::basic_string<CharT>& needle) {
  std::vector<std::size_t> out;
  for (std::size_t p = text.find(needle); p != std::basic_string<CharT>::npos; p = text.find(needle, p + 1)) out.push_back(p);
  return out;
}

// The linear fallbacks give exactly the occurrences a plain search gives, on repetitive texts
// where every search method runs out of its comparison budget.
template <typename CharT>
void check_same_occurrences() {
  using String = std::basic_string<CharT>;
  for (std::size_t words : {40u, 300u, 2000u}) {
    const String text = repeated<String>(words, false);
    for (std::size_t quote_words : {3u, 20u, 150u}) {
      for (bool b : {false, true}) {
        const String needle = repeated<String>(quote_words, b);
        const std::vector<std::size_t> want = naive(text, needle);
        const std::basic_string_view<CharT> t(text), n(needle);
        CHECK(ethos::match::find_all(t, n) == want);
        CHECK(ethos::match::find_all_skipping(t, n) == want);
        const ethos::match::BasicGramIndex<CharT> index(text);
        CHECK(index.find_all(n) == want);
      }
    }
  }
}

// Work of one search, as counted by search_work().
template <typename Search>
std::uint64_t work_of(Search search) {
  const std::uint64_t before = search_work();
  search();
  return search_work() - before;
}

// Doubling both the text and the quote at most multiplies the work by 2.5 (linear gives 2; the
// old comparisons of every candidate in full gave 4).
void test_searches_grow_near_linearly() {
  std::uint64_t previous[3] = {0, 0, 0};
  for (std::size_t words = 20000; words <= 160000; words *= 2) {
    const std::u16string text = repeated<std::u16string>(words, false);
    const std::u16string needle = repeated<std::u16string>(words / 10, true);
    const std::u16string_view t(text), n(needle);
    const ethos::match::GramIndex16 index(text);
    const std::uint64_t work[3] = {work_of([&] { CHECK(ethos::match::find_all(t, n).empty()); }),
                                   work_of([&] { CHECK(ethos::match::find_all_skipping(t, n).empty()); }),
                                   work_of([&] { CHECK(index.find_all(n).empty()); })};
    for (int k = 0; k < 3; ++k) {
      CHECK(work[k] > 0);
      if (previous[k] != 0) {
        std::printf("search %d: %zu words, work %llu (x%.2f)\n", k, words, static_cast<unsigned long long>(work[k]),
                    static_cast<double>(work[k]) / static_cast<double>(previous[k]));
        CHECK(work[k] <= previous[k] * 5 / 2);
      }
      previous[k] = work[k];
    }
  }
}

// A text source of one element "a a a ..." and a citation of "a a ... a b" from it.
struct Case {
  std::shared_ptr<const ethos::Source> source;
  std::string citations;
};

Case adversarial(std::size_t words, std::size_t quote_words, std::size_t claims = 1) {
  Case c;
  c.source = ethos::open_source(repeated<std::string>(words, false), R"({"grounding":"text"})");
  std::string claim = R"({"kind":"quote","text":")" + repeated<std::string>(quote_words, true) +
                      R"(","citation":{"element_id":"e000001"}})";
  c.citations = R"({"document_fingerprint":")" + *c.source->fingerprint + R"(","claims":[)";
  for (std::size_t i = 0; i < claims; ++i) c.citations += (i ? "," : "") + claim;
  c.citations += "]}";
  return c;
}

// The whole verify of the issue's case (a 160 KB element, a 16 KB quote) at doubling sizes: the
// search work of a claim grows near-linearly (it was quadratic: ~7 s a claim at the largest).
void test_verify_grows_near_linearly() {
  std::uint64_t previous = 0;
  for (std::size_t words = 10000; words <= 80000; words *= 2) {
    const Case c = adversarial(words, words / 10);
    std::string report;
    const std::uint64_t work = work_of([&] { report = ethos::verify(*c.source, c.citations, std::nullopt, ""); });
    CHECK(report.find("\"text_mismatch\"") != std::string::npos);
    if (previous != 0) {
      std::printf("verify: %zu words, work %llu (x%.2f)\n", words, static_cast<unsigned long long>(work),
                  static_cast<double>(work) / static_cast<double>(previous));
      CHECK(work <= previous * 5 / 2);
    }
    previous = work;
  }
}

// --max-verify-ms: a call past its budget ends in input_limit_exceeded naming the option and the
// limit, on one thread and in a batch (two threads); a generous budget changes no byte.
void test_verify_budget() {
  const Case c = adversarial(80000, 8000, 4);
  const std::string options = R"({"max_verify_ms":1})";
  for (int batch = 0; batch < 2; ++batch) {
    std::string ndjson;
    for (int line = 0; line < 80; ++line) ndjson += c.citations + "\n";
    try {
      if (batch) {
        ethos::verify_batch(*c.source, ndjson, std::nullopt, options);
      } else {
        ethos::verify(*c.source, c.citations, std::nullopt, options);
      }
      CHECK(!"the budget of 1 ms was not enforced");
    } catch (const ethos::EthosError& error) {
      CHECK(error.code() == "input_limit_exceeded");
      CHECK(error.details() == (nlohmann::json{{"argument", "--max-verify-ms"}, {"max_verify_ms", 1}}));
      CHECK(std::string(error.what()).find("--max-verify-ms") != std::string::npos);
    }
  }
  const Case small = adversarial(200, 20);
  CHECK(ethos::verify(*small.source, small.citations, std::nullopt, R"({"max_verify_ms":600000})") ==
        ethos::verify(*small.source, small.citations, std::nullopt, ""));
  for (const char* bad : {R"({"max_verify_ms":0})", R"({"max_verify_ms":"5"})", R"({"max_verify_ms":1099511627777})"}) {
    try {
      ethos::verify(*small.source, small.citations, std::nullopt, bad);
      CHECK(!"a bad max_verify_ms was accepted");
    } catch (const ethos::EthosError& error) {
      CHECK(error.code() == "invalid_input" && error.details().value("path", "") == "$.max_verify_ms");
    }
  }
}

}  // namespace

int main() {
  check_same_occurrences<char16_t>();
  check_same_occurrences<char32_t>();
  test_searches_grow_near_linearly();
  test_verify_grows_near_linearly();
  test_verify_budget();
  return ethos_test::finish("match_repetition_tests");
}
