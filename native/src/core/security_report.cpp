// security_report.cpp - findings from security warnings: where they are, what text they hide,
// and whether that text was kept out of the default chunks.
#include "core/security_report.hpp"

#include <cstdio>
#include <map>
#include <set>

#include "core/document_projection.hpp"
#include "core/error.hpp"
#include "json/c14n.hpp"
#include "text/utf8.hpp"

namespace ethos {
namespace {

using json = nlohmann::json;

constexpr std::size_t kPreviewScalars = 120;

std::map<std::string, const json*> index_by_id(const json& list) {
  std::map<std::string, const json*> out;
  for (const json& item : list) out.emplace(item.at("id").get<std::string>(), &item);
  return out;
}

const json* find_ref(const std::map<std::string, const json*>& index, const json& warning, const char* key) {
  auto ref = warning.find(key);
  if (ref == warning.end()) return nullptr;
  return index.at(ref->get<std::string>());  // the strict loader already resolved every reference
}

// At most 120 scalars, with an ellipsis when something was cut, so one finding never carries a
// whole hidden paragraph (the document itself holds the full text).
std::string preview_of(const std::string& text) {
  if (utf8::scalar_count(text) <= kPreviewScalars) return text;
  return std::string(utf8::head(text, kPreviewScalars)) + "\u2026";
}

std::string finding_id(std::size_t number) {
  if (number > 9999) throw EthosError("internal_error", "Identifier space exhausted.");
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "f%04zu", number);
  return buffer;
}

}  // namespace

std::string security_report_json(std::string_view document_bytes) {
  const json document = load_validated_document(document_bytes);
  const json& payload = document.at("payload");
  const auto pages = index_by_id(payload.at("pages"));
  const auto elements = index_by_id(payload.at("elements"));
  const auto spans = index_by_id(payload.at("spans"));
  const auto regions = index_by_id(payload.at("regions"));

  // Text the default chunks carry: elements a chunk references, and spans such an element owns.
  std::set<std::string> chunked_elements, chunked_spans;
  for (const json& chunk : payload.at("chunks")) {
    for (const json& ref : chunk.at("element_refs")) chunked_elements.insert(ref.get<std::string>());
  }
  for (const auto& [id, element] : elements) {
    if (chunked_elements.count(id) == 0) continue;
    if (auto refs = element->find("span_refs"); refs != element->end()) {
      for (const json& ref : *refs) chunked_spans.insert(ref.get<std::string>());
    }
  }

  json summary = json::object();
  json findings = json::array();
  json scripts = json::array();
  std::size_t index = 0;
  for (const json& warning : payload.at("security_warnings")) {
    const std::string path = "$.payload.security_warnings[" + std::to_string(index++) + "]";
    const json* span = find_ref(spans, warning, "span_ref");
    const json* element = find_ref(elements, warning, "element_ref");
    const json* region = find_ref(regions, warning, "region_ref");
    // The most specific reference locates the finding: span, then element, then region.
    const json* located = span != nullptr ? span : element != nullptr ? element : region;

    std::string page_id;
    if (auto page = warning.find("page"); page != warning.end()) page_id = page->get<std::string>();
    if (located != nullptr) {
      const std::string located_page = located->at("page").get<std::string>();
      if (!page_id.empty() && page_id != located_page) throw invalid_input("inconsistent warning reference", path + ".page");
      page_id = located_page;
    }
    if (page_id.empty()) throw invalid_input("a security warning must name a page or an object on one", path);

    json bbox;
    if (located != nullptr) {
      bbox = located->at("bbox");
    } else {
      const json& page = *pages.at(page_id);
      bbox = json::array({0, 0, page.at("width"), page.at("height")});
    }

    std::string text;
    if (span != nullptr) {
      text = span->at("text").get<std::string>();
    } else if (element != nullptr && element->contains("text")) {
      text = element->at("text").get<std::string>();
    }
    // Only text-bearing findings can leak into chunks; a page- or region-level finding has none.
    bool excluded = false;
    if (span != nullptr) {
      excluded = chunked_spans.count(span->at("id").get<std::string>()) == 0;
    } else if (element != nullptr) {
      excluded = chunked_elements.count(element->at("id").get<std::string>()) == 0;
    }

    const std::string code = warning.at("code").get<std::string>();
    summary[code] = summary.value(code, 0) + 1;
    json finding{
        {"id", finding_id(findings.size() + 1)},
        {"code", code},
        {"message", warning.at("message")},
        {"page", page_id},
        {"bbox", std::move(bbox)},
        {"text_preview", preview_of(text)},
        {"excluded_from_default_chunks", excluded},
    };
    if (span != nullptr) finding["span_ref"] = span->at("id");
    if (element != nullptr) finding["element_ref"] = element->at("id");
    if (auto technique = warning.find("technique"); technique != warning.end()) finding["technique"] = *technique;
    if (auto names = warning.find("names"); code == "javascript_present" && names != warning.end()) {
      for (const json& name : *names) scripts.push_back({{"name", name}, {"warning_ref", warning.at("id")}});
    }
    findings.push_back(std::move(finding));
  }

  // The document model records warnings, not the PDF's object inventories: only the scripts are
  // known (by name, from javascript_present); the other lists stay empty until the parser records
  // annotations, actions, attachments and links as data.
  const json report{
      {"schema_version", "1.0.0"},
      {"document_fingerprint", document.at("fingerprint")},
      {"source_fingerprint", document.at("source").at("fingerprint")},
      {"profile", document.at("profile")},
      {"summary", std::move(summary)},
      {"findings", std::move(findings)},
      {"inventories",
       {{"annotations", json::array()},
        {"actions", json::array()},
        {"attachments", json::array()},
        {"scripts", std::move(scripts)},
        {"links", json::array()}}},
  };
  return to_c14n(report);
}

}  // namespace ethos
