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
  if (number > limit) throw EthosError("internal_error", "an identifier overflowed its digits");
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%c%0*zu", prefix, digits, number);
  return buffer;
}

json box(const Bbox& b) { return json::array({b.x0, b.y0, b.x1, b.y1}); }

// Fixed message templates (CONTRACTS §2.2): no values, so messages never change the hashes.
std::string warning_message(const std::string& code) {
  static const std::map<std::string, std::string> kMessages = {
      {"hidden_text_detected", "Text that is not visible on the page was found and kept out of the element text."},
      {"off_page_text_detected", "Text outside the visible page area was found and kept out of the element text."},
      {"annotations_present", "The page has annotations."},
      {"external_links_present", "The page links to external resources."},
      {"image_only_page", "The page has images but no extractable text."},
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
    }
  }
}

// Headings without a section number get a level from their font size, ranked over the whole
// document (largest = 1), so the level never depends on how pages were split across workers.
void assign_heading_levels(std::vector<PageLayout>& pages) {
  std::set<std::int64_t, std::greater<>> sizes;
  for (const PageLayout& page : pages) {
    for (const LayoutElement& e : page.elements) {
      if (e.type == "heading" && e.heading_level == 0) sizes.insert(e.font_size_q);
    }
  }
  for (PageLayout& page : pages) {
    for (LayoutElement& e : page.elements) {
      if (e.type != "heading" || e.heading_level != 0) continue;
      const auto rank = std::distance(sizes.begin(), sizes.find(e.font_size_q));
      e.heading_level = std::min<std::int64_t>(9, rank + 1);
    }
  }
}

struct Ids {
  std::vector<std::string> page;
  std::vector<std::vector<std::string>> element, span, table, region;
};

Ids assign_ids(const std::vector<PageLayout>& pages) {
  Ids ids;
  std::size_t elements = 0, tables = 0, regions = 0;
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
      if (e.table >= 0) ids.table[p][static_cast<std::size_t>(e.table)] = make_id('t', ++tables, 4);
      if (e.region >= 0) ids.region[p][static_cast<std::size_t>(e.region)] = make_id('r', ++regions, 4);
    }
    for (std::size_t s = 0; s < page.spans.size(); ++s) span_order.emplace_back(p, page.spans[s].order, s);
    ids.span[p].resize(page.spans.size());
  }
  // Spans are numbered in content-stream order (CONTRACTS §2.1), page by page.
  std::sort(span_order.begin(), span_order.end());
  std::size_t spans = 0;
  for (const auto& [p, order, local] : span_order) ids.span[p][local] = make_id('s', ++spans, 6);
  // Tables or regions no element points at still need ids (numbered after the others).
  for (std::size_t p = 0; p < pages.size(); ++p) {
    for (auto& id : ids.table[p]) if (id.empty()) id = make_id('t', ++tables, 4);
    for (auto& id : ids.region[p]) if (id.empty()) id = make_id('r', ++regions, 4);
  }
  return ids;
}

struct Warning {
  std::string code, page, element_ref, span_ref, region_ref, message;
  std::size_t page_index = 0;
  std::int64_t span = -1;
};

std::vector<Warning> collect_warnings(const std::vector<PageLayout>& pages, const Ids& ids) {
  std::vector<Warning> out;
  for (std::size_t p = 0; p < pages.size(); ++p) {
    for (const LayoutWarning& w : pages[p].warnings) {
      Warning warning;
      warning.code = w.code;
      warning.message = warning_message(w.code);
      warning.page = ids.page[p];
      warning.page_index = p;
      warning.span = w.span;
      if (w.span >= 0) warning.span_ref = ids.span[p][static_cast<std::size_t>(w.span)];
      if (w.region >= 0) warning.region_ref = ids.region[p][static_cast<std::size_t>(w.region)];
      out.push_back(std::move(warning));
    }
  }
  // Sorted by code, page, element_ref, span_ref, region_ref, message; absent refs sort first.
  std::sort(out.begin(), out.end(), [](const Warning& a, const Warning& b) {
    return std::tie(a.code, a.page, a.element_ref, a.span_ref, a.region_ref, a.message) <
           std::tie(b.code, b.page, b.element_ref, b.span_ref, b.region_ref, b.message);
  });
  return out;
}

std::int64_t token_count(std::int64_t scalars) { return (scalars + 3) / 4; }

json build_chunks(const std::vector<PageLayout>& pages, const Ids& ids) {
  json chunks = json::array();
  struct Open {
    std::string text;
    std::int64_t scalars = 0;
    json element_refs = json::array(), page_refs = json::array(), bboxes = json::array();
    bool only_headings = true;
  } open;
  const auto close = [&] {
    if (open.element_refs.empty()) return;
    chunks.push_back({{"id", make_id('c', chunks.size() + 1, 6)},
                      {"text", open.text},
                      {"element_refs", open.element_refs},
                      {"page_refs", open.page_refs},
                      {"bboxes", open.bboxes},
                      {"token_estimate", {{"count", token_count(open.scalars)}, {"estimator", kTokenEstimator}, {"approximate", true}}}});
    open = Open{};
  };
  for (std::size_t p = 0; p < pages.size(); ++p) {
    for (std::size_t e = 0; e < pages[p].elements.size(); ++e) {
      const LayoutElement& element = pages[p].elements[e];
      // Running headers and footers repeat on every page: they would only add noise to chunks.
      if (element.text.empty() || element.type == "header" || element.type == "footer") continue;
      const std::int64_t scalars = static_cast<std::int64_t>(utf8::scalar_count(element.text));
      const bool heading = element.type == "heading";
      const bool too_long = token_count(open.scalars + 2 + scalars) > kChunkTokens;
      if (!open.element_refs.empty() && ((heading && !open.only_headings) || too_long)) close();
      if (!open.element_refs.empty()) {
        open.text += "\n\n";
        open.scalars += 2;
      }
      open.text += element.text;
      open.scalars += scalars;
      open.only_headings = open.only_headings && heading;
      open.element_refs.push_back(ids.element[p][e]);
      if (open.page_refs.empty() || open.page_refs.back() != ids.page[p]) open.page_refs.push_back(ids.page[p]);
      open.bboxes.push_back({{"page", ids.page[p]}, {"bbox", box(element.bbox)}});
    }
  }
  close();
  return chunks;
}

json build_payload(const std::vector<PageLayout>& pages, const Ids& ids) {
  const std::vector<Warning> warnings = collect_warnings(pages, ids);
  // Each span named by a warning refers back to it.
  std::map<std::pair<std::size_t, std::int64_t>, std::vector<std::string>> span_warnings;
  json security = json::array();
  for (std::size_t i = 0; i < warnings.size(); ++i) {
    const Warning& w = warnings[i];
    const std::string id = make_id('w', i + 1, 4);
    json item = {{"id", id}, {"code", w.code}, {"message", w.message}, {"page", w.page}};
    if (!w.span_ref.empty()) {
      item["span_ref"] = w.span_ref;
      span_warnings[{w.page_index, w.span}].push_back(id);
    }
    if (!w.region_ref.empty()) item["region_ref"] = w.region_ref;
    security.push_back(std::move(item));
  }
  json page_list = json::array(), elements = json::array(), tables = json::array(), regions = json::array();
  std::vector<std::pair<std::string, json>> spans;  // (id, span) sorted by id afterwards
  for (std::size_t p = 0; p < pages.size(); ++p) {
    const PageLayout& page = pages[p];
    json page_json = {{"id", ids.page[p]}, {"index", page.index}, {"width", page.width}, {"height", page.height}, {"rotation", page.rotation}};
    if (!page.label.empty()) page_json["label"] = page.label;
    page_list.push_back(std::move(page_json));
    for (std::size_t e = 0; e < page.elements.size(); ++e) {
      const LayoutElement& element = page.elements[e];
      json item = {{"id", ids.element[p][e]}, {"type", element.type}, {"page", ids.page[p]}, {"bbox", box(element.bbox)}};
      if (element.type != "region") item["text"] = element.text;
      if (element.heading_level > 0 && element.type == "heading") item["heading_level"] = element.heading_level;
      if (element.table >= 0) item["table_ref"] = ids.table[p][static_cast<std::size_t>(element.table)];
      if (element.region >= 0) item["region_ref"] = ids.region[p][static_cast<std::size_t>(element.region)];
      if (!element.spans.empty()) {
        json refs = json::array();
        for (std::int64_t s : element.spans) refs.push_back(ids.span[p][static_cast<std::size_t>(s)]);
        item["span_refs"] = std::move(refs);
      }
      if (!element.line_breaks.empty()) item["line_breaks"] = element.line_breaks;
      if (!element.hyphen_breaks.empty()) item["hyphen_breaks"] = element.hyphen_breaks;
      elements.push_back(std::move(item));
    }
    for (std::size_t s = 0; s < page.spans.size(); ++s) {
      const LayoutSpan& span = page.spans[s];
      json item = {{"id", ids.span[p][s]},
                   {"page", ids.page[p]},
                   {"bbox", box(span.bbox)},
                   {"text", span.text},
                   {"origin_locator",
                    {{"policy", "origin-run-locator-v1"},
                     {"first_origin", {span.first_origin_x, span.first_origin_y}},
                     {"last_origin", {span.last_origin_x, span.last_origin_y}}}}};
      if (!span.font_id.empty()) item["font_id"] = span.font_id;
      item["font_size_q"] = span.font_size_q;
      if (span.element >= 0) {
        item["char_start"] = span.char_start;
        item["char_end"] = span.char_end;
      }
      if (!span.advances.empty()) item["advances"] = span.advances;
      const auto refs = span_warnings.find({p, static_cast<std::int64_t>(s)});
      if (refs != span_warnings.end()) item["warning_refs"] = refs->second;
      spans.emplace_back(ids.span[p][s], std::move(item));
    }
    for (std::size_t t = 0; t < page.tables.size(); ++t) {
      const LayoutTable& table = page.tables[t];
      json cells = json::array();
      for (const LayoutCell& c : table.cells) {
        cells.push_back({{"row", c.row}, {"col", c.col}, {"row_span", c.row_span}, {"col_span", c.col_span}, {"bbox", box(c.bbox)}, {"text", c.text}});
      }
      tables.push_back({{"id", ids.table[p][t]}, {"page_refs", {ids.page[p]}}, {"bbox", box(table.bbox)}, {"n_rows", table.n_rows},
                        {"n_cols", table.n_cols}, {"header_rows", 0}, {"header_cols", 0}, {"cells", std::move(cells)}});
    }
    for (std::size_t r = 0; r < page.regions.size(); ++r) {
      regions.push_back({{"id", ids.region[p][r]}, {"page", ids.page[p]}, {"bbox", box(page.regions[r].bbox)}, {"kind", page.regions[r].kind}});
    }
  }
  // Tables and regions are listed in id order (their elements' reading order).
  const auto by_id = [](const json& a, const json& b) { return a.at("id").get<std::string>() < b.at("id").get<std::string>(); };
  std::sort(tables.begin(), tables.end(), by_id);
  std::sort(regions.begin(), regions.end(), by_id);
  std::sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  json span_list = json::array();
  for (auto& [id, span] : spans) span_list.push_back(std::move(span));
  return {{"coordinate_system", {{"origin", "top-left"}, {"unit", "quantum"}, {"quantum_per_point", kQuantumPerPoint}}},
          {"pages", std::move(page_list)},
          {"elements", std::move(elements)},
          {"spans", std::move(span_list)},
          {"tables", std::move(tables)},
          {"chunks", build_chunks(pages, ids)},
          {"regions", std::move(regions)},
          {"security_warnings", std::move(security)},
          {"parser_warnings", json::array()}};
}

// sha256 of c14n(payload) with every bbox/bboxes member left out (CONTRACTS §2.2).
std::string payload_sha256(const json& payload) {
  Sha256 digest;
  CanonicalWriter writer([&digest](std::string_view bytes) { digest.update(bytes); });
  writer.value(payload, {"bbox", "bboxes"});
  writer.finish();
  return digest.hex();
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
  const json payload = build_payload(pages, ids);

  const json profile = {{"id", kProfileId}, {"layout", params::layout_parameters()}, {"pdfium_build", inputs.pdfium_build}};
  const std::string profile_sha = sha256_hex(to_c14n(profile));
  const json config = {{"pages", inputs.pages_spec.empty() ? "all" : inputs.pages_spec}, {"quantum_per_point", kQuantumPerPoint}};
  const std::string config_sha = sha256_hex(to_c14n(config));
  const std::string payload_sha = payload_sha256(payload);
  const std::string source_fingerprint = "sha256:" + inputs.source_sha256;
  const json identity = {{"config_sha256", config_sha},   {"payload_sha256", payload_sha},      {"profile_id", kProfileId},
                         {"profile_sha256", profile_sha}, {"schema_version", kSchemaVersion}, {"source_fingerprint", source_fingerprint}};
  const json document = {{"schema_version", kSchemaVersion},
                         {"parser", {{"name", "ethos"}, {"version", ETHOS_VERSION_STRING}}},
                         {"profile", {{"id", kProfileId}, {"sha256", profile_sha}}},
                         {"source", {{"fingerprint", source_fingerprint}, {"bytes", inputs.source_bytes}}},
                         {"config_sha256", config_sha},
                         {"payload_sha256", payload_sha},
                         {"fingerprint", sha256_prefixed(to_c14n(identity))},
                         {"payload", payload}};
  return to_c14n(document);
}

}  // namespace ethos::pdf
