// assemble.cpp - assemble_document: ids, heading levels, warnings, chunks and hashes of the document.
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "core/error.hpp"
#include "json/c14n.hpp"
#include "json/canonical_writer.hpp"
#include "json/sha256.hpp"
#include "pdf/assemble_running.hpp"
#include "pdf/layout.hpp"
#include "pdf/layout_model.hpp"
#include "pdf/layout_params.hpp"
#include "text/utf8.hpp"

namespace ethos::pdf {
namespace {

using json = nlohmann::json;

constexpr const char* kSchemaVersion = "1.0.0";
constexpr const char* kProfileId = "ethos-deterministic-v1";
constexpr const char* kTokenEstimator = "ethos-chars-div-4@1";
using params::kChunkTokens;
constexpr std::int64_t kQuantumPerPoint = 100;

std::string make_id(char prefix, std::size_t number, int digits) {
  const std::size_t limit = digits == 4 ? 9999 : 999999;
  if (number > limit) {
    // Ids are fixed-width in the contracts (p0001, w0001, e000001 ...): a PDF with more of one
    // kind than its digits hold is over a limit of the document format, not a bug.
    static const std::map<char, const char*> kKinds = {{'p', "pages"},  {'e', "elements"}, {'t', "tables"},
                                                       {'r', "regions"}, {'s', "spans"},    {'w', "warnings"},
                                                       {'c', "chunks"}};
    const auto kind = kKinds.find(prefix);
    const nlohmann::json details{{"input", "PDF"},
                                 {"identifiers", kind != kKinds.end() ? kind->second : "ids"},
                                 {"limit", static_cast<std::int64_t>(limit)}};
    throw EthosError("input_limit_exceeded", error_message(*find_error_code("input_limit_exceeded"), details), details);
  }
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%c%0*zu", prefix, digits, number);
  return buffer;
}

// Fixed message templates (CONTRACTS §2.2): no values, so messages never change the hashes.
std::string warning_message(const std::string& code) {
  static const std::map<std::string, std::string> kMessages = {
      {"hidden_text_detected", "Text that is not visible on the page was found and kept out of the element text."},
      {"off_page_text_detected", "Text outside the visible page area was found and kept out of the element text."},
      {"annotations_present", "The page has annotations."},
      {"external_links_present", "The page links to external resources."},
      {"image_only_page", "The page has images but no extractable text."},
      {"unsupported_annotation",
       "The page has a link that runs an action when clicked (JavaScript, a program or another action); it was not run."},
      {"javascript_present", "The document has JavaScript actions (listed by name; never run)."},
  };
  const auto it = kMessages.find(code);
  if (it == kMessages.end()) throw EthosError("internal_error", "a page layout names an unknown warning");
  return it->second;
}

void require(bool condition) {
  if (!condition) throw EthosError("internal_error", "a page layout is inconsistent");
}

// Page layouts cross a process boundary: check every index before anything is dereferenced.
void validate(const std::vector<PageLayout>& pages) {
  std::set<std::int64_t> seen;
  for (const PageLayout& page : pages) {
    require(page.index >= 1 && page.index <= 9999 && seen.insert(page.index).second);
    const auto in = [](std::int64_t i, std::size_t size) { return i >= 0 && static_cast<std::size_t>(i) < size; };
    for (const LayoutElement& e : page.elements) {
      for (std::int64_t s : e.spans) require(in(s, page.spans.size()));
      require(e.table == -1 || in(e.table, page.tables.size()));
      require(e.region == -1 || in(e.region, page.regions.size()));
      require(e.heading_level >= 0 && e.heading_level <= 9);
    }
    for (const LayoutSpan& s : page.spans) {
      require(s.element == -1 || in(s.element, page.elements.size()));
      require(s.advances.empty() || s.advances.size() == utf8::scalar_count(s.text));
    }
    for (const LayoutWarning& w : page.warnings) {
      require(w.span == -1 || in(w.span, page.spans.size()));
      require(w.region == -1 || in(w.region, page.regions.size()));
      require(w.element == -1 || in(w.element, page.elements.size()));
    }
  }
}

// Heading levels follow the distinct heading font sizes of the whole document (largest = 1), so a
// 20 pt title sits above its 14 pt sections whether or not they are numbered; among headings of
// one size a section number's depth (2.1 -> 2; unnumbered counts as 1) orders them further. Each
// distinct (size, depth) pair is one level, capped at 9. Ranked over the whole document, so the
// level never depends on how pages were split across workers.
void assign_heading_levels(std::vector<PageLayout>& pages) {
  using Key = std::pair<std::int64_t, std::int64_t>;  // (-font size, depth): larger sizes first
  auto key_of = [](const LayoutElement& e) { return Key{-e.font_size_q, std::max<std::int64_t>(1, e.heading_level)}; };
  std::set<Key> keys;
  for (const PageLayout& page : pages) {
    for (const LayoutElement& e : page.elements) {
      if (e.type == "heading") keys.insert(key_of(e));
    }
  }
  for (PageLayout& page : pages) {
    for (LayoutElement& e : page.elements) {
      if (e.type != "heading") continue;
      const auto rank = std::distance(keys.begin(), keys.find(key_of(e)));
      e.heading_level = std::min<std::int64_t>(9, rank + 1);
    }
  }
}

struct Ids {
  std::vector<std::string> page;
  std::vector<std::vector<std::string>> element, span, table, region;
  // (page, local index) in id order: the order the payload lists them in.
  std::vector<std::pair<std::size_t, std::size_t>> span_sequence, table_sequence, region_sequence;
};

Ids assign_ids(const std::vector<PageLayout>& pages) {
  Ids ids;
  std::size_t elements = 0;
  ids.element.resize(pages.size());
  ids.span.resize(pages.size());
  ids.table.resize(pages.size());
  ids.region.resize(pages.size());
  std::vector<std::tuple<std::size_t, std::int64_t, std::size_t>> span_order;  // (page, order, local)
  for (std::size_t p = 0; p < pages.size(); ++p) {
    const PageLayout& page = pages[p];
    ids.page.push_back(make_id('p', static_cast<std::size_t>(page.index), 4));
    ids.table[p].resize(page.tables.size());
    ids.region[p].resize(page.regions.size());
    for (const LayoutElement& e : page.elements) {
      ids.element[p].push_back(make_id('e', ++elements, 6));
      if (e.table >= 0 && ids.table[p][static_cast<std::size_t>(e.table)].empty()) {
        ids.table[p][static_cast<std::size_t>(e.table)] = make_id('t', ids.table_sequence.size() + 1, 4);
        ids.table_sequence.emplace_back(p, static_cast<std::size_t>(e.table));
      }
      if (e.region >= 0 && ids.region[p][static_cast<std::size_t>(e.region)].empty()) {
        ids.region[p][static_cast<std::size_t>(e.region)] = make_id('r', ids.region_sequence.size() + 1, 4);
        ids.region_sequence.emplace_back(p, static_cast<std::size_t>(e.region));
      }
    }
    for (std::size_t s = 0; s < page.spans.size(); ++s) span_order.emplace_back(p, page.spans[s].order, s);
    ids.span[p].resize(page.spans.size());
  }
  // Spans are numbered in content-stream order (CONTRACTS §2.1), page by page.
  std::sort(span_order.begin(), span_order.end());
  for (const auto& [p, order, local] : span_order) {
    ids.span[p][local] = make_id('s', ids.span_sequence.size() + 1, 6);
    ids.span_sequence.emplace_back(p, local);
  }
  // Tables or regions no element points at still need ids (numbered after the others).
  for (std::size_t p = 0; p < pages.size(); ++p) {
    for (std::size_t t = 0; t < ids.table[p].size(); ++t) {
      if (!ids.table[p][t].empty()) continue;
      ids.table[p][t] = make_id('t', ids.table_sequence.size() + 1, 4);
      ids.table_sequence.emplace_back(p, t);
    }
    for (std::size_t r = 0; r < ids.region[p].size(); ++r) {
      if (!ids.region[p][r].empty()) continue;
      ids.region[p][r] = make_id('r', ids.region_sequence.size() + 1, 4);
      ids.region_sequence.emplace_back(p, r);
    }
  }
  return ids;
}

struct Warning {
  std::string id, code, page, element_ref, span_ref, region_ref, message, technique;
  std::int64_t count = -1;          // javascript_present: the number of actions (-1: not written)
  std::vector<std::string> names;   // javascript_present: their names
};

// Warning ids naming each object of a kind, by page and page-local index.
using WarningRefs = std::vector<std::map<std::size_t, std::vector<std::string>>>;

// Warnings sorted by code, page, element_ref, span_ref, region_ref, message, technique (absent
// refs first), then numbered; `span_warnings[page][span]` and `element_warnings[page][element]`
// collect the ids naming each span and element.
std::vector<Warning> collect_warnings(const std::vector<PageLayout>& pages, const Ids& ids, WarningRefs& span_warnings,
                                      WarningRefs& element_warnings) {
  std::vector<std::tuple<Warning, std::size_t, std::int64_t, std::int64_t>> found;  // (warning, page, span, element)
  for (std::size_t p = 0; p < pages.size(); ++p) {
    for (const LayoutWarning& w : pages[p].warnings) {
      Warning warning;
      warning.code = w.code;
      warning.message = warning_message(w.code);
      warning.page = ids.page[p];
      if (w.span >= 0) warning.span_ref = ids.span[p][static_cast<std::size_t>(w.span)];
      if (w.region >= 0) warning.region_ref = ids.region[p][static_cast<std::size_t>(w.region)];
      if (w.element >= 0) warning.element_ref = ids.element[p][static_cast<std::size_t>(w.element)];
      warning.technique = w.technique;
      found.emplace_back(std::move(warning), p, w.span, w.element);
    }
  }
  // JavaScript is the document's, reported once, on the first parsed page (a finding is located
  // on a page): the names, never the code.
  if (!pages.empty() && pages.front().document_script_count > 0) {
    Warning warning;
    warning.code = "javascript_present";
    warning.message = warning_message(warning.code);
    warning.page = ids.page[0];
    warning.count = pages.front().document_script_count;
    warning.names = pages.front().document_scripts;
    found.emplace_back(std::move(warning), 0, -1, -1);
  }
  std::stable_sort(found.begin(), found.end(), [](const auto& x, const auto& y) {
    const Warning& a = std::get<0>(x);
    const Warning& b = std::get<0>(y);
    return std::tie(a.code, a.page, a.element_ref, a.span_ref, a.region_ref, a.message, a.technique) <
           std::tie(b.code, b.page, b.element_ref, b.span_ref, b.region_ref, b.message, b.technique);
  });
  span_warnings.assign(pages.size(), {});
  element_warnings.assign(pages.size(), {});
  std::vector<Warning> out;
  for (auto& [warning, page, span, element] : found) {
    warning.id = make_id('w', out.size() + 1, 4);
    if (span >= 0) span_warnings[page][static_cast<std::size_t>(span)].push_back(warning.id);
    if (element >= 0) element_warnings[page][static_cast<std::size_t>(element)].push_back(warning.id);
    out.push_back(std::move(warning));
  }
  return out;
}

std::int64_t token_count(std::int64_t scalars) { return (scalars + 3) / 4; }

struct Chunk {
  std::string text;
  std::int64_t scalars = 0;
  std::vector<std::string> element_refs, page_refs;
  std::vector<std::pair<std::string, Bbox>> boxes;  // (page id, element bbox)
  std::vector<std::pair<std::size_t, std::size_t>> elements;  // (page, page-local element)
  bool only_headings = true;
};

// Consecutive elements up to kChunkTokens estimated tokens; a heading after content starts a new
// chunk; running headers/footers and text-less elements are left out.
std::vector<Chunk> build_chunks(const std::vector<PageLayout>& pages, const Ids& ids) {
  std::vector<Chunk> chunks;
  Chunk open;
  for (std::size_t p = 0; p < pages.size(); ++p) {
    for (std::size_t e = 0; e < pages[p].elements.size(); ++e) {
      const LayoutElement& element = pages[p].elements[e];
      // Running headers and footers repeat on every page: they would only add noise to chunks.
      if (element.text.empty() || element.type == "header" || element.type == "footer") continue;
      const std::int64_t scalars = static_cast<std::int64_t>(utf8::scalar_count(element.text));
      const bool heading = element.type == "heading";
      const bool too_long = token_count(open.scalars + 2 + scalars) > kChunkTokens;
      if (!open.element_refs.empty() && ((heading && !open.only_headings) || too_long)) {
        chunks.push_back(std::move(open));
        open = Chunk{};
      }
      if (!open.element_refs.empty()) {
        open.text += "\n\n";
        open.scalars += 2;
      }
      open.text += element.text;
      open.scalars += scalars;
      open.only_headings = open.only_headings && heading;
      open.element_refs.push_back(ids.element[p][e]);
      if (open.page_refs.empty() || open.page_refs.back() != ids.page[p]) open.page_refs.push_back(ids.page[p]);
      open.boxes.emplace_back(ids.page[p], element.bbox);
      open.elements.emplace_back(p, e);
    }
  }
  if (!open.element_refs.empty()) chunks.push_back(std::move(open));
  return chunks;
}

// Everything the payload is written from, computed once for both passes.
struct Model {
  const std::vector<PageLayout>& pages;
  const Ids& ids;
  std::vector<Warning> warnings;
  WarningRefs span_warnings, element_warnings;
  std::vector<Chunk> chunks;
};

void write_box(CanonicalWriter& w, const Bbox& b) {
  w.begin_array();
  for (std::int64_t v : {b.x0, b.y0, b.x1, b.y1}) w.integer(v);
  w.end_array();
}

void write_integers(CanonicalWriter& w, std::string_view key, const std::vector<std::int64_t>& values) {
  w.key(key);
  w.begin_array();
  for (std::int64_t v : values) w.integer(v);
  w.end_array();
}

void write_strings(CanonicalWriter& w, std::string_view key, const std::vector<std::string>& values) {
  w.key(key);
  w.begin_array();
  for (const std::string& v : values) w.string(v);
  w.end_array();
}

// The payload in canonical key order (the writer checks it). Without geometry it is exactly the
// input of payload_sha256: every "bbox"/"bboxes" member left out (CONTRACTS §2.2).
void write_payload(CanonicalWriter& w, const Model& m, bool geometry) {
  const auto& pages = m.pages;
  const Ids& ids = m.ids;
  w.begin_object();
  w.key("chunks");
  w.begin_array();
  for (std::size_t c = 0; c < m.chunks.size(); ++c) {
    const Chunk& chunk = m.chunks[c];
    w.begin_object();
    if (geometry) {
      w.key("bboxes");
      w.begin_array();
      for (const auto& [page, bbox] : chunk.boxes) {
        w.begin_object();
        w.key("bbox");
        write_box(w, bbox);
        w.member("page", page);
        w.end_object();
      }
      w.end_array();
    }
    write_strings(w, "element_refs", chunk.element_refs);
    w.member("id", make_id('c', c + 1, 6));
    write_strings(w, "page_refs", chunk.page_refs);
    w.member("text", chunk.text);
    w.key("token_estimate");
    w.begin_object();
    w.member_bool("approximate", true);
    w.member("count", token_count(chunk.scalars));
    w.member("estimator", kTokenEstimator);
    w.end_object();
    // The warnings of its elements (hidden text lying in one of them): a retrieval pipeline
    // given the chunk learns what its text leaves out.
    std::vector<std::string> warning_refs;
    for (const auto& [p, e] : chunk.elements) {
      const auto refs = m.element_warnings[p].find(e);
      if (refs != m.element_warnings[p].end()) warning_refs.insert(warning_refs.end(), refs->second.begin(), refs->second.end());
    }
    if (!warning_refs.empty()) write_strings(w, "warning_refs", warning_refs);
    w.end_object();
  }
  w.end_array();
  w.key("coordinate_system");
  w.begin_object();
  w.member("origin", "top-left");
  w.member("quantum_per_point", kQuantumPerPoint);
  w.member("unit", "quantum");
  w.end_object();
  w.key("elements");
  w.begin_array();
  for (std::size_t p = 0; p < pages.size(); ++p) {
    for (std::size_t e = 0; e < pages[p].elements.size(); ++e) {
      const LayoutElement& element = pages[p].elements[e];
      w.begin_object();
      if (geometry) {
        w.key("bbox");
        write_box(w, element.bbox);
      }
      if (element.type == "heading" && element.heading_level > 0) w.member("heading_level", element.heading_level);
      if (!element.hyphen_breaks.empty()) write_integers(w, "hyphen_breaks", element.hyphen_breaks);
      w.member("id", ids.element[p][e]);
      if (!element.line_breaks.empty()) write_integers(w, "line_breaks", element.line_breaks);
      w.member("page", ids.page[p]);
      if (element.region >= 0) w.member("region_ref", ids.region[p][static_cast<std::size_t>(element.region)]);
      if (!element.spans.empty()) {
        w.key("span_refs");
        w.begin_array();
        for (std::int64_t s : element.spans) w.string(ids.span[p][static_cast<std::size_t>(s)]);
        w.end_array();
      }
      if (element.table >= 0) w.member("table_ref", ids.table[p][static_cast<std::size_t>(element.table)]);
      if (element.type != "region") w.member("text", element.text);
      w.member("type", element.type);
      const auto refs = m.element_warnings[p].find(e);
      if (refs != m.element_warnings[p].end()) write_strings(w, "warning_refs", refs->second);
      w.end_object();
    }
  }
  w.end_array();
  w.key("pages");
  w.begin_array();
  for (std::size_t p = 0; p < pages.size(); ++p) {
    const PageLayout& page = pages[p];
    w.begin_object();
    w.member("height", page.height);
    w.member("id", ids.page[p]);
    w.member("index", page.index);
    if (!page.label.empty()) w.member("label", page.label);
    w.member("rotation", page.rotation);
    w.member("width", page.width);
    w.end_object();
  }
  w.end_array();
  w.key("parser_warnings");
  w.begin_array();
  w.end_array();
  w.key("regions");
  w.begin_array();
  for (const auto& [p, r] : ids.region_sequence) {
    const LayoutRegion& region = pages[p].regions[r];
    w.begin_object();
    if (geometry) {
      w.key("bbox");
      write_box(w, region.bbox);
    }
    w.member("id", ids.region[p][r]);
    w.member("kind", region.kind);
    w.member("page", ids.page[p]);
    w.end_object();
  }
  w.end_array();
  w.key("security_warnings");
  w.begin_array();
  for (const Warning& warning : m.warnings) {
    w.begin_object();
    w.member("code", warning.code);
    if (warning.count >= 0) w.member("count", warning.count);
    if (!warning.element_ref.empty()) w.member("element_ref", warning.element_ref);
    w.member("id", warning.id);
    w.member("message", warning.message);
    if (warning.count >= 0) write_strings(w, "names", warning.names);
    w.member("page", warning.page);
    if (!warning.region_ref.empty()) w.member("region_ref", warning.region_ref);
    if (!warning.span_ref.empty()) w.member("span_ref", warning.span_ref);
    if (!warning.technique.empty()) w.member("technique", warning.technique);
    w.end_object();
  }
  w.end_array();
  w.key("spans");
  w.begin_array();
  for (const auto& [p, s] : ids.span_sequence) {
    const LayoutSpan& span = pages[p].spans[s];
    w.begin_object();
    if (!span.advances.empty()) write_integers(w, "advances", span.advances);
    if (geometry) {
      w.key("bbox");
      write_box(w, span.bbox);
    }
    if (span.element >= 0) {
      w.member("char_end", span.char_end);
      w.member("char_start", span.char_start);
    }
    if (!span.font_id.empty()) w.member("font_id", span.font_id);
    w.member("font_size_q", span.font_size_q);
    w.member("id", ids.span[p][s]);
    w.key("origin_locator");
    w.begin_object();
    write_integers(w, "first_origin", {span.first_origin_x, span.first_origin_y});
    write_integers(w, "last_origin", {span.last_origin_x, span.last_origin_y});
    w.member("policy", "origin-run-locator-v1");
    w.end_object();
    w.member("page", ids.page[p]);
    w.member("text", span.text);
    const auto refs = m.span_warnings[p].find(s);
    if (refs != m.span_warnings[p].end()) write_strings(w, "warning_refs", refs->second);
    w.end_object();
  }
  w.end_array();
  w.key("tables");
  w.begin_array();
  for (const auto& [p, t] : ids.table_sequence) {
    const LayoutTable& table = pages[p].tables[t];
    w.begin_object();
    if (geometry) {
      w.key("bbox");
      write_box(w, table.bbox);
    }
    w.key("cells");
    w.begin_array();
    for (const LayoutCell& cell : table.cells) {
      w.begin_object();
      if (geometry) {
        w.key("bbox");
        write_box(w, cell.bbox);
      }
      w.member("col", cell.col);
      w.member("col_span", cell.col_span);
      w.member("row", cell.row);
      w.member("row_span", cell.row_span);
      w.member("text", cell.text);
      w.end_object();
    }
    w.end_array();
    w.member("header_cols", std::int64_t{0});
    w.member("header_rows", std::int64_t{0});
    w.member("id", ids.table[p][t]);
    w.member("n_cols", table.n_cols);
    w.member("n_rows", table.n_rows);
    write_strings(w, "page_refs", {ids.page[p]});
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

}  // namespace

std::string assemble_document(std::vector<PageLayout> pages, const AssembleInputs& inputs) {
  validate(pages);
  std::sort(pages.begin(), pages.end(), [](const PageLayout& a, const PageLayout& b) { return a.index < b.index; });
  const bool has_text = std::any_of(pages.begin(), pages.end(), [](const PageLayout& page) {
    return std::any_of(page.spans.begin(), page.spans.end(), [](const LayoutSpan& s) { return s.element >= 0; });
  });
  if (!has_text) {
    const ErrorCodeInfo* info = find_error_code("ocr_required");
    throw EthosError("ocr_required", info->default_message);
  }
  mark_running_headers_and_footers(pages);
  assign_heading_levels(pages);
  const Ids ids = assign_ids(pages);
  Model model{pages, ids, {}, {}, {}, build_chunks(pages, ids)};
  model.warnings = collect_warnings(pages, ids, model.span_warnings, model.element_warnings);

  // payload_sha256 from a first pass without geometry, streamed into the digest.
  Sha256 digest;
  CanonicalWriter hash_writer([&digest](std::string_view bytes) { digest.update(bytes); });
  write_payload(hash_writer, model, false);
  hash_writer.finish();
  const std::string payload_sha = digest.hex();

  const json profile = {{"id", kProfileId}, {"layout", params::layout_parameters()}, {"pdfium_build", inputs.pdfium_build}};
  const std::string profile_sha = sha256_hex(to_c14n(profile));
  const json config = {{"pages", inputs.pages_spec.empty() ? "all" : inputs.pages_spec}, {"quantum_per_point", kQuantumPerPoint}};
  const std::string config_sha = sha256_hex(to_c14n(config));
  const std::string source_fingerprint = "sha256:" + inputs.source_sha256;
  const json identity = {{"config_sha256", config_sha},   {"payload_sha256", payload_sha},      {"profile_id", kProfileId},
                         {"profile_sha256", profile_sha}, {"schema_version", kSchemaVersion}, {"source_fingerprint", source_fingerprint}};

  std::string out;
  CanonicalWriter w(out);
  w.begin_object();
  w.member("config_sha256", config_sha);
  w.member("fingerprint", sha256_prefixed(to_c14n(identity)));
  w.key("parser");
  w.begin_object();
  w.member("name", "ethos");
  w.member("version", ETHOS_VERSION_STRING);
  w.end_object();
  w.key("payload");
  write_payload(w, model, true);
  w.member("payload_sha256", payload_sha);
  w.key("profile");
  w.begin_object();
  w.member("id", kProfileId);
  w.member("sha256", profile_sha);
  w.end_object();
  w.member("schema_version", kSchemaVersion);
  w.key("source");
  w.begin_object();
  w.member("bytes", static_cast<std::int64_t>(inputs.source_bytes));
  w.member("fingerprint", source_fingerprint);
  w.end_object();
  w.end_object();
  w.finish();
  return out;
}

}  // namespace ethos::pdf
