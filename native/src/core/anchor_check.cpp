// anchor_check.cpp - the axes of one evidence anchor, their precedence and the level achieved (CONTRACTS.md §3.9).
#include "core/anchor_check.hpp"

#include <algorithm>
#include <string_view>

#include "text/normalize.hpp"

namespace ethos {
namespace {

// capability_limits are reported in the enum order of the verification report (§2.6).
constexpr const char* kLimitOrder[] = {"missing_spans", "missing_char_offsets", "missing_tables", "missing_fingerprint",
                                       "unknown_coordinate_origin"};

bool is(const char* value, std::string_view word) { return word == value; }

class AnchorBinder {
 public:
  AnchorBinder(const Source& source, const EvidenceRef& ref) : source_(source), ref_(ref), locator_(ref.locator) {}

  AnchorResult run(const std::optional<std::string>& request_fingerprint);

 private:
  void limit(const char* name) {
    if (std::find(limits_.begin(), limits_.end(), name) == limits_.end()) limits_.push_back(name);
  }
  const Page* resolve_page() const;
  // Anchors always compare with the fixed collapse-whitespace profile, case-sensitively (§3.9).
  bool contains(const std::string& text) const { return normalize_text(text, {}).find(ref_.normalized_expected) != std::string::npos; }
  const char* text_axis(const Page* page);
  const char* bbox_axis(const Page* page);
  const char* table_cell_axis();
  bool required_level_met(const AnchorChecks& checks) const;
  const char* achieved_level(const AnchorChecks& checks) const;

  const Source& source_;
  const EvidenceRef& ref_;
  const AnchorLocator& locator_;
  std::vector<const char*> limits_;
};

const Page* AnchorBinder::resolve_page() const {
  if (locator_.page_id) return source_.page_by_id(*locator_.page_id);
  for (const Page& page : source_.pages) {
    if (page.index == *locator_.page_index) return &page;
  }
  return nullptr;
}

// A span or element locator names the text itself; otherwise the page is searched, elements
// first (document order), then spans. A located object on another page than the one the locator
// names is not there: not_found.
const char* AnchorBinder::text_axis(const Page* page) {
  if (locator_.span_id) {
    if (!source_.capabilities.spans) {
      limit("missing_spans");
      return "capability_limited";
    }
    const std::size_t index = source_.span_index(*locator_.span_id);
    if (index == Source::npos) return "not_found";
    const Span& span = source_.spans[index];
    if (page != nullptr && span.page != page->id) return "not_found";
    // A hidden span is there, but no reader sees its text: it anchors nothing.
    return !span.hidden && contains(span.text) ? "matched" : "mismatch";
  }
  if (locator_.element_id) {
    const std::size_t index = source_.element_index(*locator_.element_id);
    if (index == Source::npos) return "not_found";
    const Element& element = source_.elements[index];
    if (page != nullptr && element.page != page->id) return "not_found";
    return element.text && contains(*element.text) ? "matched" : "mismatch";
  }
  if (page == nullptr) return "not_found";
  bool has_content = false;
  for (std::size_t index : source_.elements_on_page(page->id)) {
    const Element& element = source_.elements[index];
    if (!element.text || normalize_text(*element.text, {}).empty()) continue;
    has_content = true;
    if (contains(*element.text)) return "matched";
  }
  if (source_.capabilities.spans) {
    for (std::size_t index : source_.spans_on_page(page->id)) {
      // Text no reader of the page sees anchors nothing (docs/contracts.md, hidden text).
      if (source_.spans[index].hidden) continue;
      has_content = true;
      if (contains(source_.spans[index].text)) return "matched";
    }
  }
  return has_content ? "mismatch" : "not_found";
}

// Containment (default tolerance) in any element, span or table box of the page. A bbox that
// is contained nowhere is not_found; `invalid` is never produced (§3.9).
const char* AnchorBinder::bbox_axis(const Page* page) {
  if (source_.capabilities.coordinate_origin != "top-left") {
    limit("unknown_coordinate_origin");
    return "capability_limited";
  }
  if (page == nullptr) return "not_found";
  const Bbox& inner = *locator_.bbox;
  const auto contained = [&inner](const std::optional<Bbox>& outer) {
    constexpr std::int64_t tol = kAnchorBboxTolerance;
    return outer && inner.x0 >= outer->x0 - tol && inner.y0 >= outer->y0 - tol && inner.x1 <= outer->x1 + tol &&
           inner.y1 <= outer->y1 + tol;
  };
  for (std::size_t index : source_.elements_on_page(page->id)) {
    if (contained(source_.elements[index].bbox)) return "valid";
  }
  if (source_.capabilities.spans) {
    for (std::size_t index : source_.spans_on_page(page->id)) {
      if (contained(source_.spans[index].bbox)) return "valid";
    }
  }
  if (source_.capabilities.tables) {
    for (const Table& table : source_.tables) {
      if (table.page == page->id && contained(table.bbox)) return "valid";
    }
  }
  return "not_found";
}

// The cell covering (row, col) (row∈[r, r+row_span), col∈[c, c+col_span)); expected text is
// compared by normalized equality, and without one the cell's existence binds. A table may run
// over several pages while a source names only its first, so the table's page is not compared.
const char* AnchorBinder::table_cell_axis() {
  if (!source_.capabilities.tables) {
    limit("missing_tables");
    return "capability_limited";
  }
  const std::size_t index = source_.table_index(*locator_.table_id);
  if (index == Source::npos) return "not_found";
  const AnchorCell& address = *locator_.cell;
  for (const Cell& cell : source_.tables[index].cells) {
    if (address.row >= cell.row && address.row < cell.row + cell.row_span && address.col >= cell.col &&
        address.col < cell.col + cell.col_span) {
      if (!ref_.expected_text) return "matched";
      return normalize_text(cell.text, {}) == ref_.normalized_expected ? "matched" : "mismatch";
    }
  }
  return "not_found";
}

bool AnchorBinder::required_level_met(const AnchorChecks& checks) const {
  const std::string& level = ref_.required_anchor_level;
  if (level == "page") return is(checks.page, "found");
  if (level == "text") return is(checks.text, "matched");
  if (level == "bbox") return is(checks.bbox, "valid");
  if (level == "text_bbox") return is(checks.text, "matched") && is(checks.bbox, "valid");
  return is(checks.table_cell, "matched");
}

const char* AnchorBinder::achieved_level(const AnchorChecks& checks) const {
  const std::string& kind = ref_.evidence_kind;
  if (kind == "page") return is(checks.page, "found") ? "page" : "none";
  if (kind == "text") return is(checks.text, "matched") ? "text" : "none";
  if (kind == "text_region") {
    const bool text = is(checks.text, "matched"), bbox = is(checks.bbox, "valid");
    return text && bbox ? "text_bbox" : text ? "text" : bbox ? "bbox" : "none";
  }
  if (kind == "table_cell") return is(checks.table_cell, "matched") ? "table_cell" : "none";
  return "none";
}

AnchorResult AnchorBinder::run(const std::optional<std::string>& request_fingerprint) {
  AnchorResult result;
  AnchorChecks& checks = result.checks;
  if (request_fingerprint) {
    if (!source_.fingerprint) {
      checks.fingerprint = "capability_limited";
      limit("missing_fingerprint");
    } else {
      checks.fingerprint = *source_.fingerprint == *request_fingerprint ? "matched" : "stale";
    }
  }
  const auto finish = [&](const char* status, const char* level) {
    result.status = status;
    result.achieved_level = level;
    for (const char* name : kLimitOrder) {
      if (std::find_if(limits_.begin(), limits_.end(), [name](const char* l) { return std::string_view(l) == name; }) !=
          limits_.end()) {
        result.capability_limits.push_back(name);
      }
    }
    return result;
  };
  // Kinds without an anchoring rule: only the fingerprint axis is reported.
  if (ref_.evidence_kind == "region" || ref_.evidence_kind == "other") return finish("unsupported_evidence_kind", "none");
  if (is(checks.fingerprint, "stale")) return finish("stale_fingerprint", "none");

  const Page* page = locator_.has_page() ? resolve_page() : nullptr;
  if (locator_.has_page()) checks.page = page != nullptr ? "found" : "not_found";
  const std::string& level = ref_.required_anchor_level;
  if (level == "text" || level == "text_bbox") checks.text = text_axis(page);
  if (level == "bbox" || level == "text_bbox") checks.bbox = bbox_axis(page);
  if (level == "table_cell") checks.table_cell = table_cell_axis();

  const char* axes[] = {checks.fingerprint, checks.page, checks.text, checks.bbox, checks.table_cell};
  const auto any = [&axes](std::initializer_list<std::string_view> words) {
    for (const char* axis : axes) {
      for (std::string_view word : words) {
        if (word == axis) return true;
      }
    }
    return false;
  };
  const char* level_achieved = achieved_level(checks);
  // Precedence (§3.9): a missing target beats a wrong one, which beats a capability limit.
  if (any({"not_found"})) return finish("not_found", level_achieved);
  if (any({"mismatch", "invalid"})) return finish("mismatch", level_achieved);
  if (any({"capability_limited"})) return finish("capability_limited", level_achieved);
  return finish(required_level_met(checks) ? "bound" : "not_found", level_achieved);
}

}  // namespace

AnchorResult bind_anchor(const Source& source, const std::optional<std::string>& request_fingerprint, const EvidenceRef& ref) {
  return AnchorBinder(source, ref).run(request_fingerprint);
}

}  // namespace ethos
