// source.cpp - identity/capability serialization and the id indexes of a loaded source.
#include "core/source.hpp"

#include <algorithm>

#include "match/document_index.hpp"

namespace ethos {

nlohmann::json ParserIdentity::to_json() const {
  nlohmann::json out = {{"name", name}, {"version", version}};
  if (adapter) out["adapter"] = *adapter;
  if (adapter_version) out["adapter_version"] = *adapter_version;
  return out;
}

nlohmann::json Capabilities::to_json() const {
  return {{"spans", spans},
          {"char_offsets", char_offsets},
          {"tables", tables},
          {"fingerprint", fingerprint},
          {"coordinate_origin", coordinate_origin},
          {"crop_support", crop_support}};
}

bool Source::element_text_is_ascii(std::size_t element) const {
  if (element >= element_ascii_.size()) return false;
  unsigned char known = element_ascii_[element].load(std::memory_order_relaxed);
  if (known == 0) {
    const std::optional<std::string>& text = elements[element].text;
    // All bytes or'd together, without an early exit: a loop the compiler vectorizes.
    unsigned char bits = 0x80;  // no text: not ASCII (nothing to take offsets in)
    if (text) {
      bits = 0;
      for (const char c : *text) bits |= static_cast<unsigned char>(c);
    }
    known = bits < 0x80 ? 1 : 2;
    element_ascii_[element].store(known, std::memory_order_relaxed);
  }
  return known == 1;
}

void Source::build_indexes() {
  for (std::size_t i = 0; i < pages.size(); ++i) page_ids_.emplace(pages[i].id, i);
  element_ascii_ = std::vector<std::atomic<unsigned char>>(elements.size());  // all 0: not known yet
  // emplace keeps the first entry for a repeated id: "first with that id" (CONTRACTS §3.2).
  for (std::size_t i = 0; i < elements.size(); ++i) {
    element_ids_.emplace(elements[i].id, i);
    page_elements_[elements[i].page].push_back(i);
  }
  for (std::size_t i = 0; i < spans.size(); ++i) {
    span_ids_.emplace(spans[i].id, i);
    page_spans_[spans[i].page].push_back(i);
  }
  for (std::size_t i = 0; i < tables.size(); ++i) table_ids_.emplace(tables[i].id, i);
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (elements[i].table_ref.empty()) continue;
    const std::size_t table = table_index(elements[i].table_ref);
    if (table != npos) table_elements_.emplace_back(i, table);
  }
  // In span order, as a scan of the element's page's spans would meet them, then sorted the way
  // that scan's result was (same comparator, same input order: the same order on ties).
  element_geometry_spans_.assign(elements.size(), {});
  for (std::size_t i = 0; i < spans.size(); ++i) {
    const Span& span = spans[i];
    if (!span.element || *span.element >= elements.size() || !span.char_start || !span.char_end || !span.bbox) continue;
    if (span.page != elements[*span.element].page) continue;
    element_geometry_spans_[*span.element].push_back(i);
  }
  for (std::vector<std::size_t>& list : element_geometry_spans_) {
    std::sort(list.begin(), list.end(),
              [this](std::size_t a, std::size_t b) { return *spans[a].char_start < *spans[b].char_start; });
  }
  std::vector<match::DocumentIndex::Piece> pieces;
  pieces.reserve(elements.size());
  for (const Element& element : elements) {
    pieces.push_back({element.text ? &*element.text : nullptr, &element.hyphen_breaks,
                      element.kind == "header" || element.kind == "footer"});
  }
  match_index_ = std::make_shared<const match::DocumentIndex>(std::move(pieces));
}

const Page* Source::page_by_id(const std::string& id) const {
  auto it = page_ids_.find(id);
  return it == page_ids_.end() ? nullptr : &pages[it->second];
}

namespace {
std::size_t lookup(const std::unordered_map<std::string, std::size_t>& map, const std::string& id) {
  auto it = map.find(id);
  return it == map.end() ? Source::npos : it->second;
}
const std::vector<std::size_t> kNone;
}  // namespace

std::size_t Source::element_index(const std::string& id) const { return lookup(element_ids_, id); }
std::size_t Source::span_index(const std::string& id) const { return lookup(span_ids_, id); }
std::size_t Source::table_index(const std::string& id) const { return lookup(table_ids_, id); }

const std::vector<std::size_t>& Source::elements_on_page(const std::string& page_id) const {
  auto it = page_elements_.find(page_id);
  return it == page_elements_.end() ? kNone : it->second;
}

const std::vector<std::size_t>& Source::spans_on_page(const std::string& page_id) const {
  auto it = page_spans_.find(page_id);
  return it == page_spans_.end() ? kNone : it->second;
}

const std::vector<std::size_t>& Source::geometry_spans_of(std::size_t element) const {
  return element < element_geometry_spans_.size() ? element_geometry_spans_[element] : kNone;
}

}  // namespace ethos
