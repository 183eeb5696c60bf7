// answer_check.cpp - reads a check-answer request, measures coverage, verifies quotations through
// the verify path, and writes the result and its text rendering.
#include "answer/answer_check.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "answer/quote_spans.hpp"
#include "core/api.hpp"
#include "core/error.hpp"
#include "core/glyph_boxes.hpp"
#include "core/source.hpp"
#include "json/c14n.hpp"
#include "json/reader.hpp"
#include "json/strict_json.hpp"
#include "match/answer_coverage.hpp"
#include "match/answer_subsequence.hpp"
#include "match/answer_window.hpp"
#include "match/document_index.hpp"
#include "match/policy.hpp"
#include "text/utf8.hpp"

namespace ethos::answer {
namespace {

using nlohmann::json;

constexpr const char* kArtifactType = "ethos.answer_check.v1";
constexpr std::int64_t kMinNgram = 3;  // shorter runs are common phrases, not evidence of copying
constexpr std::int64_t kMaxNgram = 1000;

struct Request {
  std::string answer;
  std::size_t ngram = 3;
  std::string scope = "all";
  std::string policy = "default";
  bool subsequence = false;
};

Request read_request(std::string_view bytes) {
  const ParsedJson parsed = parse_strict(bytes, "request");
  ObjectReader reader(parsed.root(), "$");
  Request request;
  request.answer = reader.required_string("answer");
  if (auto ngram = reader.optional_int("ngram", kMinNgram, kMaxNgram)) request.ngram = static_cast<std::size_t>(*ngram);
  if (auto scope = reader.optional_string("scope")) request.scope = *scope;
  if (auto policy = reader.optional_string("policy")) request.policy = *policy;
  if (auto subsequence = reader.optional_bool("subsequence")) request.subsequence = *subsequence;
  reader.finish();
  if (request.scope != "all" && request.scope != "quotes") {
    throw invalid_input("invalid value", "$.scope", {{"input", "request"}});
  }
  if (match::preset_policy(request.policy) == nullptr) {
    throw invalid_input("invalid value", "$.policy", {{"input", "request"}});
  }
  return request;
}

std::string utf8_of(const std::u32string& text, std::size_t start, std::size_t end) {
  std::string out;
  for (std::size_t pos = start; pos < end && pos < text.size(); ++pos) utf8::append(out, text[pos]);
  return out;
}

std::string utf8_of(match::ScalarView text, std::size_t start, std::size_t end) {
  std::string out;
  for (std::size_t pos = start; pos < end && pos < text.size(); ++pos) utf8::append(out, text[pos]);
  return out;
}

// Where a phrase found in a document's running text is: its text, and one entry per element it
// touches (a phrase may run on across an element's end) with element-relative scalar offsets and
// the highlight boxes of a parsed PDF's glyphs (empty for sources without geometry).
json locate(const Source& source, const match::PhraseHit& hit) {
  const match::DocumentIndex& index = source.match_index();
  json spans = json::array();
  const std::size_t first = index.running_at(hit.start), last = index.running_at(hit.end - 1);
  for (std::size_t r = first; r <= last; ++r) {
    const std::uint32_t base = index.base(r), length = index.length(r);
    const std::uint32_t start = std::max(hit.start, base) - base, end = std::min(hit.end, base + length) - base;
    if (end <= start) continue;  // only the joiner between two elements
    const std::size_t element = index.element_of(r);
    json boxes = json::array();
    for (const PageBox& box : boxes_for_range(source, element, start, end)) {
      boxes.push_back({{"bbox", box.bbox.to_json()}, {"page", box.page}});
    }
    json span = {{"boxes", boxes},
                 {"element_id", source.elements[element].id},
                 {"end", static_cast<std::int64_t>(end)},
                 {"start", static_cast<std::int64_t>(start)}};
    if (!source.elements[element].page.empty()) {
      span["page"] = source.elements[element].page;
      // The page's 1-based number as well (a PDF viewer's #page=N; the HTML page links by it).
      for (const Page& page : source.pages) {
        if (page.id == source.elements[element].page) span["page_index"] = page.index;
      }
    }
    spans.push_back(span);
  }
  return {{"elements", spans}, {"text", utf8_of(index.running_text(), hit.start, hit.end)}};
}

// A stretch of the answer measured on its own: the whole answer, or one quotation.
struct Segment {
  std::size_t start = 0, end = 0;
};

struct Measured {
  json words = json::array(), runs = json::array();
  std::int64_t verbatim = 0, longest = 0;
  std::optional<std::size_t> longest_run;
  std::vector<std::u32string> forms;  // each measured word's reading at the tier, for the subsequence
  // Per measured word, the document its first run was found in (npos: in no run), for the window.
  std::vector<std::size_t> located;
};

void measure(const std::u32string& answer, const Segment& segment, const std::vector<const Source*>& sources,
             const std::vector<const match::DocumentIndex*>& indexes, const match::Policy& policy,
             std::size_t ngram, Measured& out) {
  const match::Reading reading =
      match::normalize_for_tier(utf8_of(answer, segment.start, segment.end), policy.accept_up_to, policy.ladder);
  const match::Coverage coverage = match::measure_coverage(reading, indexes, policy.ladder, policy.accept_up_to, ngram);
  const std::size_t count = coverage.words.size(), first_word = out.words.size();
  // A word's answer offsets: the original scalars its normalized scalars stand for.
  const auto start_of = [&](std::size_t w) { return segment.start + reading.start[coverage.words[w].start]; };
  const auto end_of = [&](std::size_t w) { return segment.start + reading.end[coverage.words[w].end - 1]; };
  std::vector<bool> verbatim(count, false);
  std::vector<std::size_t> located(count, static_cast<std::size_t>(-1));
  std::size_t reach = 0;  // words before this are inside a run already found
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t length = coverage.longest[i];
    if (length == 0) continue;
    for (std::size_t w = std::max(i, reach); w < i + length; ++w) {
      verbatim[w] = true;
      located[w] = coverage.hits[i].document;
    }
    reach = std::max(reach, i + length);
    // A run is a maximal verbatim phrase: the phrase at i is inside the one at i - 1 when that
    // one is longer by at least the word it starts with.
    if (i > 0 && coverage.longest[i - 1] > length) continue;
    const match::PhraseHit& hit = coverage.hits[i];
    json run = {{"end", static_cast<std::int64_t>(end_of(i + length - 1))},
                {"first_word", static_cast<std::int64_t>(first_word + i)},
                {"source", locate(*sources[hit.document], hit)},
                {"start", static_cast<std::int64_t>(start_of(i))},
                {"text", utf8_of(answer, start_of(i), end_of(i + length - 1))},
                {"words", static_cast<std::int64_t>(length)}};
    run["source"]["document"] = static_cast<std::int64_t>(hit.document);
    if (static_cast<std::int64_t>(length) > out.longest) {
      out.longest = static_cast<std::int64_t>(length);
      out.longest_run = out.runs.size();
    }
    out.runs.push_back(std::move(run));
  }
  for (std::size_t w = 0; w < count; ++w) {
    out.located.push_back(located[w]);
    out.forms.push_back(reading.text.substr(coverage.words[w].start, coverage.words[w].end - coverage.words[w].start));
    out.words.push_back({{"end", static_cast<std::int64_t>(end_of(w))},
                         {"start", static_cast<std::int64_t>(start_of(w))},
                         {"text", utf8_of(answer, start_of(w), end_of(w))},
                         {"verbatim", static_cast<bool>(verbatim[w])}});
    if (verbatim[w]) ++out.verbatim;
  }
}

// Verifies the quotations long enough to check with the verify path itself (one citations
// request per document, every quotation cited at document scope), so each verdict, tier,
// near-miss diff and guard detail is the one `ethos verify` gives. A quotation takes the first
// document that grounds it, else the first document's check.
json verify_quotes(const std::u32string& answer, const std::vector<Segment>& quotes, const std::vector<std::size_t>& words,
                   const std::vector<const Source*>& sources, const Request& request) {
  json out = json::array();
  json citations = json::array();
  std::vector<std::size_t> claim_of(quotes.size(), static_cast<std::size_t>(-1));
  for (std::size_t q = 0; q < quotes.size(); ++q) {
    if (words[q] < request.ngram) continue;
    claim_of[q] = citations.size();
    citations.push_back({{"citation", {{"scope", "document"}}},
                         {"kind", "quote"},
                         {"text", utf8_of(answer, quotes[q].start, quotes[q].end)}});
  }
  std::vector<json> checks(sources.size());
  if (!citations.empty()) {
    const std::string options = to_c14n(json{{"claim_validation", "report"}, {"policy", request.policy}});
    for (std::size_t d = 0; d < sources.size(); ++d) {
      // The quotations are cited against this very document: its fingerprint, when it has one,
      // so the checks are never stale.
      json envelope = {{"claims", citations}};
      if (sources[d]->fingerprint) envelope["document_fingerprint"] = *sources[d]->fingerprint;
      checks[d] = json::parse(verify(*sources[d], to_c14n(envelope), std::nullopt, options)).at("checks");
    }
  }
  for (std::size_t q = 0; q < quotes.size(); ++q) {
    json quote = {{"end", static_cast<std::int64_t>(quotes[q].end)},
                  {"start", static_cast<std::int64_t>(quotes[q].start)},
                  {"text", utf8_of(answer, quotes[q].start, quotes[q].end)},
                  {"words", static_cast<std::int64_t>(words[q])}};
    if (claim_of[q] == static_cast<std::size_t>(-1)) {
      quote["status"] = "too_short";
    } else {
      std::size_t chosen = 0;
      for (std::size_t d = 0; d < sources.size(); ++d) {
        if (checks[d].at(claim_of[q]).at("status") == "grounded") {
          chosen = d;
          break;
        }
      }
      const json& check = checks[chosen].at(claim_of[q]);
      quote["check"] = check;
      quote["document"] = static_cast<std::int64_t>(chosen);
      quote["status"] = check.at("status");
    }
    out.push_back(std::move(quote));
  }
  return out;
}

std::int64_t share_bp(std::int64_t part, std::int64_t whole) { return whole == 0 ? 0 : part * 10000 / whole; }

// The document the source window is in: the one most verbatim words were found in (the first on
// a tie); npos when no word is verbatim.
std::size_t window_document(const Measured& measured, std::size_t documents) {
  std::vector<std::size_t> found(documents, 0);
  for (const std::size_t document : measured.located) {
    if (document < documents) ++found[document];
  }
  const auto most = std::max_element(found.begin(), found.end());
  return most == found.end() || *most == 0 ? static_cast<std::size_t>(-1) : static_cast<std::size_t>(most - found.begin());
}

// The smallest source window holding every verbatim word, and ROUGE-L of the measured words
// against it (verbatimeter's source segment, made the smallest): in window_document, holding
// every distinct verbatim word found there. `reading`: that document's running text at the tier.
json source_window(const Measured& measured, const Source& source, std::size_t document, const match::Reading& reading) {
  std::vector<std::u32string> wanted;
  for (std::size_t w = 0; w < measured.forms.size(); ++w) {
    if (measured.located[w] == document) wanted.push_back(measured.forms[w]);
  }
  const match::ScalarView text(reading.text);
  const std::vector<match::WordSpan> words = match::answer_words(text);
  const std::optional<match::WordWindow> window = match::smallest_window(wanted, text, words);
  if (!window) return nullptr;  // cannot happen: every wanted word was found in this document
  const std::size_t size = window->last - window->first + 1;
  const match::PhraseHit hit{document, reading.start[words[window->first].start], reading.end[words[window->last].end - 1]};
  json out = locate(source, hit);
  out["document"] = static_cast<std::int64_t>(document);
  out["words"] = static_cast<std::int64_t>(size);
  if (size <= match::kMaxRougeWindowWords) {
    const std::size_t lcs = match::common_subsequence_words(measured.forms, text, words.data() + window->first,
                                                            words.data() + window->last + 1);
    out["lcs_words"] = static_cast<std::int64_t>(lcs);
    out["rouge_l_bp"] = match::rouge_l_bp(lcs, measured.forms.size(), size);
  }
  return out;
}

}  // namespace

std::string check_answer(const std::vector<const Source*>& sources, std::string_view request_bytes) {
  const Request request = read_request(request_bytes);
  if (sources.empty()) throw invalid_input("at least one source is needed", "$", {{"input", "sources"}});
  const match::Policy& policy = *match::preset_policy(request.policy);
  std::u32string answer;
  for (std::size_t pos = 0; pos < request.answer.size();) answer.push_back(utf8::next(request.answer, pos));

  std::vector<const match::DocumentIndex*> indexes;
  json described = json::array();
  for (const Source* source : sources) {
    indexes.push_back(&source->match_index());
    described.push_back(json::parse(describe_source(*source)));
  }

  std::vector<Segment> quotes;
  for (const QuoteSpan& span : quote_spans(answer)) quotes.push_back({span.start, span.end});
  // Scope all measures the whole answer; scope quotes only the quotations, each on its own (a run
  // never reaches across the words between two quotations).
  std::vector<Segment> segments = request.scope == "all" ? std::vector<Segment>{{0, answer.size()}} : quotes;
  Measured measured;
  for (const Segment& segment : segments) measure(answer, segment, sources, indexes, policy, request.ngram, measured);

  std::vector<std::size_t> quote_words;
  for (const Segment& quote : quotes) {
    const match::Reading reading =
        match::normalize_for_tier(utf8_of(answer, quote.start, quote.end), policy.accept_up_to, policy.ladder);
    quote_words.push_back(match::answer_words(match::ScalarView(reading.text)).size());
  }
  const json checked = verify_quotes(answer, quotes, quote_words, sources, request);

  std::int64_t grounded = 0, too_short = 0;
  json failures = json::array();
  for (std::size_t q = 0; q < checked.size(); ++q) {
    const std::string status = checked[q].at("status");
    if (status == "grounded") {
      ++grounded;
    } else if (status == "too_short") {
      ++too_short;
    } else {
      failures.push_back({{"quote", static_cast<std::int64_t>(q)}, {"reason", "quotation_not_grounded"}, {"status", status}});
    }
  }
  // Under scope quotes an answer without a quotation (or with none long enough to check) must not
  // pass the gate: it would pass silently the day the model stops quoting.
  if (request.scope == "quotes" && quotes.empty()) {
    failures.push_back({{"reason", "no_quotation"}});
  } else if (request.scope == "quotes" && grounded + static_cast<std::int64_t>(failures.size()) == 0) {
    failures.push_back({{"reason", "no_checkable_quotation"}});
  }

  const auto word_count = static_cast<std::int64_t>(measured.words.size());
  json summary = {{"longest_run_words", measured.longest},
                  {"quotes", static_cast<std::int64_t>(checked.size())},
                  {"quotes_grounded", grounded},
                  {"quotes_not_grounded", static_cast<std::int64_t>(checked.size()) - grounded - too_short},
                  {"quotes_too_short", too_short},
                  {"runs", static_cast<std::int64_t>(measured.runs.size())},
                  {"verbatim_share_bp", share_bp(measured.verbatim, word_count)},
                  {"verbatim_words", measured.verbatim},
                  {"words", word_count}};
  if (measured.longest_run) summary["longest_run"] = static_cast<std::int64_t>(*measured.longest_run);
  if (request.subsequence) {
    // The order-only reading: the most measured words found in the same order in one source,
    // gaps allowed (verbatim paraphrase); the first source on a tie.
    std::size_t best = 0, best_document = 0;
    // Each reading is dropped after use but the window's document's (memory: one source at a time).
    const std::size_t windowed = window_document(measured, sources.size());
    match::Reading window_reading;
    for (std::size_t d = 0; d < sources.size(); ++d) {
      match::Reading reading = match::normalize_for_tier(
          utf8_of(indexes[d]->running_text(), 0, indexes[d]->running_text().size()), policy.accept_up_to, policy.ladder);
      const std::size_t length = match::common_subsequence_words(measured.forms, match::ScalarView(reading.text));
      if (d == windowed) window_reading = std::move(reading);
      if (length > best) {
        best = length;
        best_document = d;
      }
    }
    summary["subsequence"] = {{"document", static_cast<std::int64_t>(best_document)},
                              {"share_bp", share_bp(static_cast<std::int64_t>(best), word_count)},
                              {"words", static_cast<std::int64_t>(best)}};
    if (windowed < sources.size()) {
      json window = source_window(measured, *sources[windowed], windowed, window_reading);
      if (!window.is_null()) summary["window"] = std::move(window);
    }
  }
  json result = {{"artifact_type", kArtifactType},
                 {"gate", {{"failures", failures}, {"passed", failures.empty()}}},
                 {"ngram", static_cast<std::int64_t>(request.ngram)},
                 {"policy", request.policy},
                 {"quotes", checked},
                 {"runs", measured.runs},
                 {"schema_version", "1.0.0"},
                 {"scope", request.scope},
                 {"sources", described},
                 {"summary", summary},
                 {"tier", match::tier_name(policy.accept_up_to)},
                 {"words", measured.words}};
  return to_c14n(result);
}

namespace {

std::string percent(std::int64_t bp) {
  std::string fraction = std::to_string(bp % 100);
  if (fraction.size() < 2) fraction.insert(0, "0");
  return std::to_string(bp / 100) + "." + fraction + " %";
}

// A place in the source: the first element (and page) a run or quotation was found in.
std::string place(const json& elements, std::int64_t document) {
  if (elements.empty()) return "source " + std::to_string(document + 1);
  const json& first = elements.front();
  std::string text = "source " + std::to_string(document + 1) + ", " + first.at("element_id").get<std::string>();
  if (first.contains("page")) text += ", page " + first.at("page").get<std::string>();
  if (elements.size() > 1) text += " (+" + std::to_string(elements.size() - 1) + " more)";
  return text;
}

// At most 80 scalars of an answer's text, its control characters (ESC among them) shown as U+FFFD
// so that an answer printed on a terminal cannot drive it.
std::string quoted(const std::string& text) {
  const std::string_view head = utf8::head(text, 80);
  std::string safe;
  for (std::size_t pos = 0; pos < head.size();) {
    const char32_t scalar = utf8::next(head, pos);
    const bool control = scalar < 0x20 || (scalar >= 0x7f && scalar < 0xa0);
    utf8::append(safe, control ? char32_t{0xFFFD} : scalar);
  }
  return "\"" + safe + (head.size() < text.size() ? "...\"" : "\"");
}

}  // namespace

std::string answer_summary_text(std::string_view result_bytes) {
  const json result = parse_strict_dom(result_bytes, "result");
  try {
    const json& summary = result.at("summary");
    const std::int64_t ngram = result.at("ngram");
    std::string out = "answer check (scope " + result.at("scope").get<std::string>() + ", tier " +
                      result.at("tier").get<std::string>() + ", runs of at least " + std::to_string(ngram) +
                      " words)\n";
    out += "words: " + std::to_string(summary.at("words").get<std::int64_t>()) + ", verbatim " +
           std::to_string(summary.at("verbatim_words").get<std::int64_t>()) + " (" +
           percent(summary.at("verbatim_share_bp")) + "), runs " + std::to_string(summary.at("runs").get<std::int64_t>()) +
           ", longest " + std::to_string(summary.at("longest_run_words").get<std::int64_t>()) + " words\n";
    if (summary.contains("subsequence")) {
      const json& subsequence = summary.at("subsequence");
      out += "in order: " + std::to_string(subsequence.at("words").get<std::int64_t>()) + " words (" +
             percent(subsequence.at("share_bp")) + ") in source " +
             std::to_string(subsequence.at("document").get<std::int64_t>() + 1) + " as a subsequence\n";
    }
    if (summary.contains("window")) {
      // The smallest source window holding every verbatim word, and ROUGE-L against it.
      const json& window = summary.at("window");
      out += "window: " + std::to_string(window.at("words").get<std::int64_t>()) + " words in " +
             place(window.at("elements"), window.at("document"));
      if (window.contains("rouge_l_bp")) {
        out += ", ROUGE-L " + percent(window.at("rouge_l_bp")) + " (common subsequence " +
               std::to_string(window.at("lcs_words").get<std::int64_t>()) + " words)\n";
      } else {
        out += ", ROUGE-L not computed (window over " + std::to_string(match::kMaxRougeWindowWords) + " words)\n";
      }
    }
    std::size_t n = 0;
    for (const json& run : result.at("runs")) {
      const json& source = run.at("source");
      out += "run " + std::to_string(++n) + ": " + std::to_string(run.at("words").get<std::int64_t>()) + " words " +
             quoted(run.at("text")) + " in " + place(source.at("elements"), source.at("document")) + "\n";
    }
    n = 0;
    for (const json& quote : result.at("quotes")) {
      const std::string status = quote.at("status");
      out += "quote " + std::to_string(++n) + ": " + status + " " + quoted(quote.at("text"));
      if (status == "too_short") {
        out += " (" + std::to_string(quote.at("words").get<std::int64_t>()) + " words, fewer than " +
               std::to_string(ngram) + ": not checked)";
      } else {
        // Grounded: the tier and page it was found at; otherwise the reason verify gave.
        const json& check = quote.at("check");
        const json match = check.value("match", json::object());
        const json evidence = check.value("evidence", json::object());
        out += " (";
        if (status == "grounded" && match.contains("tier")) {
          out += "tier " + match.at("tier").get<std::string>() + ", ";
        } else if (check.contains("reason")) {
          out += "reason " + check.at("reason").get<std::string>() + ", ";
        }
        if (status == "grounded" && evidence.contains("page")) out += "page " + evidence.at("page").get<std::string>() + ", ";
        out += "source " + std::to_string(quote.at("document").get<std::int64_t>() + 1) + ")";
      }
      out += "\n";
    }
    out += "quotes: " + std::to_string(summary.at("quotes").get<std::int64_t>()) + ", grounded " +
           std::to_string(summary.at("quotes_grounded").get<std::int64_t>()) + ", not grounded " +
           std::to_string(summary.at("quotes_not_grounded").get<std::int64_t>()) + ", too short " +
           std::to_string(summary.at("quotes_too_short").get<std::int64_t>()) + "\n";
    const json& gate = result.at("gate");
    if (gate.at("passed").get<bool>()) {
      out += "gate: passed\n";
    } else {
      std::string reasons;
      for (const json& failure : gate.at("failures")) {
        const std::string reason = failure.at("reason");
        if (!reasons.empty()) reasons += "; ";
        if (reason == "quotation_not_grounded") {
          reasons += "quote " + std::to_string(failure.at("quote").get<std::int64_t>() + 1) + " is not grounded (" +
                     failure.at("status").get<std::string>() + ")";
        } else if (reason == "no_quotation") {
          reasons += "no quotation found (scope quotes needs at least one)";
        } else {
          reasons += "no quotation long enough to check (fewer than " + std::to_string(ngram) + " words each)";
        }
      }
      out += "gate: failed: " + reasons + "\n";
    }
    return out;
  } catch (const json::exception&) {
    throw invalid_input("not an answer check result", "$", {{"input", "result"}});
  }
}

}  // namespace ethos::answer
