// crop_descriptor.cpp - crop refs, crop plans from a report or a crop_element request, and the
// descriptor JSON (CONTRACTS §2.11).
#include "core/crop_descriptor.hpp"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/proof_summary.hpp"
#include "json/c14n.hpp"
#include "json/reader.hpp"
#include "json/sha256.hpp"
#include "json/strict_json.hpp"

namespace ethos {
namespace {

using json = nlohmann::json;

constexpr const char* kDescriptorType = "ethos.crop_descriptor.v1";
constexpr const char* kRequestType = "ethos.crop_element_request.v1";
constexpr const char* kSchemaVersion = "1.0.0";

EthosError no_fingerprint() {
  // A descriptor is named after the document fingerprint; without one there is no logical ref.
  return EthosError("internal_error", find_error_code("internal_error")->default_message,
                    {{"reason", "descriptor_without_fingerprint"}});
}

EthosError mismatch(const char* what) {
  return EthosError("source_mismatch", find_error_code("source_mismatch")->default_message, {{"input", what}});
}

// v0001..v9999: the check ids a report can carry (CONTRACTS §2.1).
bool is_check_id(std::string_view id) {
  if (id.size() != 5 || id[0] != 'v') return false;
  for (char c : id.substr(1)) {
    if (c < '0' || c > '9') return false;
  }
  return id != "v0000";
}

std::optional<Bbox> bbox_of(const json& value) {
  if (!value.is_array() || value.size() != 4) return std::nullopt;
  for (const json& v : value) {
    if (!v.is_number_integer()) return std::nullopt;
  }
  return Bbox{value[0].get<std::int64_t>(), value[1].get<std::int64_t>(), value[2].get<std::int64_t>(),
              value[3].get<std::int64_t>()};
}

CropPlan plan_on_page(const Page& page, std::string crop_ref, Bbox bbox, std::string check_id) {
  CropPlan plan;
  plan.crop_ref = std::move(crop_ref);
  plan.page = page.id;
  plan.page_index = page.index;
  plan.page_width = page.width;
  plan.page_height = page.height;
  plan.bbox = bbox;
  plan.check_ids.push_back(std::move(check_id));
  return plan;
}

Bbox unite(const Bbox& a, const Bbox& b) {
  return Bbox{std::min(a.x0, b.x0), std::min(a.y0, b.y0), std::max(a.x1, b.x1), std::max(a.y1, b.y1)};
}

// The cited cell of a table-cell claim (its citation's table_id and cell), when the source has it.
const Cell* cited_cell(const Source& source, const json& check, const Table*& table) {
  const json& citation = check.at("claim").at("citation");
  auto table_id = citation.find("table_id");
  auto cell = citation.find("cell");
  if (table_id == citation.end() || cell == citation.end() || !table_id->is_string() || !cell->is_object()) return nullptr;
  const std::size_t index = source.table_index(table_id->get<std::string>());
  if (index == Source::npos) return nullptr;
  table = &source.tables[index];
  const json& row = cell->value("row", json());
  const json& col = cell->value("col", json());
  if (!row.is_number_integer() || !col.is_number_integer()) return nullptr;
  for (const Cell& candidate : table->cells) {
    if (candidate.row == row.get<std::int64_t>() && candidate.col == col.get<std::int64_t>()) return &candidate;
  }
  return nullptr;
}

// What a rendering shows beyond the evidence rectangle, for a reader: a table cell within its row
// (every cell of it) and under its column's head (the table's first row), where those cells have
// boxes on the same page; then at least kCropMinWidthQ wide, widened about its centre and kept on
// the page. nullopt when that is the evidence rectangle itself.
std::optional<Bbox> view_for(const Source& source, const json& check, const Page& page, const Bbox& evidence) {
  Bbox view = evidence;
  const Table* table = nullptr;
  if (const Cell* cell = cited_cell(source, check, table); cell != nullptr && table->page == page.id) {
    for (const Cell& other : table->cells) {
      const bool same_row = other.row == cell->row;
      const bool column_head = other.row == 0 && other.col <= cell->col && cell->col < other.col + other.col_span;
      if ((same_row || column_head) && other.bbox) view = unite(view, *other.bbox);
    }
  }
  if (view.x1 - view.x0 < kCropMinWidthQ) {
    const std::int64_t width = std::min(kCropMinWidthQ, page.width);
    std::int64_t x0 = (view.x0 + view.x1) / 2 - width / 2;
    x0 = std::max<std::int64_t>(0, std::min(x0, page.width - width));
    view.x0 = std::min(view.x0, x0);
    view.x1 = std::max(view.x1, x0 + width);
  }
  if (view.x0 == evidence.x0 && view.y0 == evidence.y0 && view.x1 == evidence.x1 && view.y1 == evidence.y1) return std::nullopt;
  return view;
}

}  // namespace

std::string crop_ref_for(std::string_view check_id, std::string_view document_fingerprint, std::string_view page) {
  const json identity{{"check_id", std::string(check_id)},
                      {"document_fingerprint", std::string(document_fingerprint)},
                      {"page", std::string(page)},
                      {"version", "ethos.logical_crop_ref.v1"}};
  return "crop-" + sha256_hex(to_c14n(identity)) + ".json";
}

std::string crop_request_ref_for(std::string_view document_fingerprint, std::string_view element_id,
                                 std::string_view rendering, const std::optional<std::string>& source_pdf_fingerprint) {
  json identity{{"document_fingerprint", std::string(document_fingerprint)},
                {"element_id", std::string(element_id)},
                {"rendering", std::string(rendering)},
                {"version", "ethos.crop_element_request_ref.v1"}};
  if (source_pdf_fingerprint) identity["source_pdf_fingerprint"] = *source_pdf_fingerprint;
  return "request-" + sha256_hex(to_c14n(identity));
}

std::string rendered_ref_for(std::string_view crop_ref) {
  std::string ref(crop_ref.substr(0, crop_ref.size() - 5));  // drop ".json"
  return ref + ".png";
}

void require_source_pdf(const Source& source, std::string_view pdf_fingerprint, const char* argument, bool strict) {
  if (!source.source_fingerprint && !strict) return;
  if (!source.source_fingerprint || *source.source_fingerprint != pdf_fingerprint) {
    throw EthosError("source_mismatch", find_error_code("source_mismatch")->default_message,
                     {{"argument", argument}, {"input", "source_pdf_fingerprint"}});
  }
}

std::string crop_identity(const Source& source, const std::optional<std::string>& pdf_fingerprint) {
  if (source.fingerprint) return *source.fingerprint;
  if (pdf_fingerprint) return *pdf_fingerprint;
  throw no_fingerprint();
}

std::string crop_identity_for_verify(const Source& source, const std::optional<std::string>& pdf_fingerprint) {
  if (!crop_geometry_of(source)) {
    throw EthosError("invalid_arguments", find_error_code("invalid_arguments")->default_message,
                     {{"argument", "--crop-dir"}, {"reason", "source_without_pages"}});
  }
  if (pdf_fingerprint) require_source_pdf(source, *pdf_fingerprint, "--crop-source-pdf", false);
  return crop_identity(source, pdf_fingerprint);
}

std::vector<CropPlan> crop_plans_for_report(const Source& source, std::string_view report_json,
                                            const std::optional<std::string>& pdf_fingerprint) {
  const std::string identity = crop_identity(source, pdf_fingerprint);
  const std::optional<CropGeometry> geometry = crop_geometry_of(source);
  const json document = parse_strict_dom(report_json, "report");
  std::vector<CropPlan> plans;
  std::map<std::string, std::string> seen;  // crop_ref -> descriptor bytes
  try {
    const json& report = report_of(document);
    auto declared = report.find("document_fingerprint");
    // The report's fingerprint is the source's (and absent with it); the crop identity may not be.
    const bool same = source.fingerprint ? declared != report.end() && *declared == *source.fingerprint
                                         : declared == report.end();
    if (!same) throw mismatch("report");
    for (const json& check : report.at("checks")) {
      auto evidence = check.find("evidence");
      if (evidence == check.end() || !geometry) continue;
      auto page_field = evidence->find("page");
      if (page_field == evidence->end()) continue;  // page-less evidence: nothing to crop
      const Page* page = source.page_by_id(page_field->get<std::string>());
      if (page == nullptr) continue;
      const std::string id = check.at("id").get<std::string>();
      if (!is_check_id(id)) throw invalid_input("invalid check id", "$.checks");
      std::optional<Bbox> box;
      if (auto b = evidence->find("bbox"); b != evidence->end()) box = bbox_of(*b);
      CropPlan plan = plan_on_page(*page, crop_ref_for(id, identity, page->id),
                                   box.value_or(Bbox{0, 0, page->width, page->height}), id);
      plan.geometry = *geometry;
      // A report made against another crop identity (another PDF) names other crops.
      if (auto ref = evidence->find("crop_ref"); ref != evidence->end() && *ref != plan.crop_ref) throw mismatch("crop_ref");
      if (auto text = evidence->find("text"); text != evidence->end()) plan.text_sha256 = sha256_hex(text->get<std::string>());
      if (auto match = check.find("match"); match != check.end()) {
        for (const json& piece : match->value("boxes", json::array())) {
          if (piece.at("page") != page->id) continue;  // a page-range match: this page's lines only
          if (auto b = bbox_of(piece.at("bbox"))) plan.highlights.push_back(*b);
        }
        // Foreign sources carry no glyph geometry, so their matches have no character boxes: a
        // grounded match then highlights its evidence box (the cited span, cell or element).
        if (plan.highlights.empty() && box && *geometry != CropGeometry::display_quanta &&
            check.value("status", "") == "grounded") {
          plan.highlights.push_back(*box);
        }
      }
      // A table-cell claim is checked against its cell's text, which has no character boxes in
      // the match: the cell itself is what the reader looks at.
      const Table* table = nullptr;
      if (plan.highlights.empty() && box && cited_cell(source, check, table) != nullptr) plan.highlights.push_back(*box);
      plan.refused = check.value("status", "") != "grounded";
      // Only the rendering shows more; the descriptor keeps the evidence rectangle (CONTRACTS 2.11).
      if (box && *geometry == CropGeometry::display_quanta) plan.view = view_for(source, check, *page, *box);
      // A match that runs over a page break has boxes on the next page too: that part gets a crop
      // of its own, named by the same rule for that page (the report's crop_ref names the first).
      std::vector<CropPlan> continued;
      if (auto match = check.find("match"); match != check.end() && *geometry == CropGeometry::display_quanta) {
        for (const json& piece : match->value("boxes", json::array())) {
          const std::string other = piece.at("page").get<std::string>();
          const Page* other_page = other == page->id ? nullptr : source.page_by_id(other);
          const std::optional<Bbox> b = other_page != nullptr ? bbox_of(piece.at("bbox")) : std::nullopt;
          if (!b) continue;
          auto part = std::find_if(continued.begin(), continued.end(), [&](const CropPlan& c) { return c.page == other; });
          if (part == continued.end()) {
            continued.push_back(plan_on_page(*other_page, crop_ref_for(id, identity, other), *b, id));
            part = continued.end() - 1;
            part->geometry = *geometry;
            part->refused = plan.refused;
          }
          part->bbox = unite(part->bbox, *b);
          part->highlights.push_back(*b);
        }
        for (CropPlan& part : continued) part.view = view_for(source, check, *source.page_by_id(part.page), part.bbox);
      }
      continued.insert(continued.begin(), std::move(plan));
      for (CropPlan& each : continued) {
        const std::string bytes = crop_descriptor_json(each, identity, nullptr);
        auto [it, inserted] = seen.emplace(each.crop_ref, bytes);
        if (!inserted) {
          // Same logical ref twice: harmless when identical, a broken invariant otherwise.
          if (it->second != bytes) {
            throw EthosError("internal_error", find_error_code("internal_error")->default_message,
                             {{"reason", "crop_ref_collision"}});
          }
          continue;
        }
        plans.push_back(std::move(each));
      }
    }
  } catch (const json::exception&) {
    throw invalid_input("not a verification report", "$");
  }
  return plans;
}

CropElementRequest crop_element_request(const Source& source, std::string_view request_json, std::string_view check_id) {
  if (!is_check_id(check_id)) {
    throw EthosError("invalid_arguments", find_error_code("invalid_arguments")->default_message,
                     {{"argument", "--check-id"}});
  }
  const ParsedJson parsed = parse_strict(request_json, "request");
  ObjectReader reader(parsed.root(), "$");
  const std::string artifact_type = reader.required_string("artifact_type");
  const std::string schema_version = reader.required_string("schema_version");
  const std::string request_ref = reader.required_string("request_ref");
  const std::string document_fingerprint = reader.required_string("document_fingerprint");
  const std::string element_id = reader.required_string("element_id");
  const std::string rendering = reader.required_string("rendering");
  const std::optional<std::string> pdf_fingerprint = reader.optional_string("source_pdf_fingerprint");
  reader.finish();

  if (artifact_type != kRequestType) throw invalid_input("invalid value", "$.artifact_type");
  if (schema_version != kSchemaVersion) throw invalid_input("invalid value", "$.schema_version");
  if (rendering != "descriptor_only" && rendering != "rendered") throw invalid_input("invalid value", "$.rendering");
  if (!is_sha256_prefixed(document_fingerprint)) throw invalid_input("invalid hash", "$.document_fingerprint");
  const bool rendered = rendering == "rendered";
  if (rendered != pdf_fingerprint.has_value()) {
    // source_pdf_fingerprint is required iff a rendering is asked for.
    throw invalid_input(rendered ? "missing required field" : "unexpected field", "$.source_pdf_fingerprint");
  }
  if (pdf_fingerprint && !is_sha256_prefixed(*pdf_fingerprint)) throw invalid_input("invalid hash", "$.source_pdf_fingerprint");
  if (request_ref != crop_request_ref_for(document_fingerprint, element_id, rendering, pdf_fingerprint)) {
    throw invalid_input("request_ref does not match the request", "$.request_ref");
  }
  if (!source.fingerprint) throw no_fingerprint();
  if (document_fingerprint != *source.fingerprint) throw mismatch("document_fingerprint");
  if (pdf_fingerprint) require_source_pdf(source, *pdf_fingerprint, "$.source_pdf_fingerprint");

  const std::size_t index = source.element_index(element_id);
  if (index == Source::npos) throw invalid_input("element not found", "$.element_id");
  const Element& element = source.elements[index];
  const Page* page = source.page_by_id(element.page);
  if (page == nullptr || !element.bbox) throw invalid_input("element has no page rectangle", "$.element_id");
  const Bbox& box = *element.bbox;
  if (box.x1 <= box.x0 || box.y1 <= box.y0) throw invalid_input("element bbox is not positive", "$.element_id");
  if (box.x0 < 0 || box.y0 < 0 || box.x1 > page->width || box.y1 > page->height) {
    throw invalid_input("element bbox lies outside its page", "$.element_id");
  }

  CropElementRequest out;
  const std::string id(check_id);
  out.plan = plan_on_page(*page, crop_ref_for(id, *source.fingerprint, page->id), box, id);
  out.plan.geometry = crop_geometry_of(source).value_or(CropGeometry::display_quanta);  // Grounding JSON: scaled
  if (element.text) out.plan.text_sha256 = sha256_hex(*element.text);
  out.rendered = rendered;
  out.source_pdf_fingerprint = pdf_fingerprint;
  return out;
}

std::string crop_descriptor_json(const CropPlan& plan, std::string_view document_fingerprint,
                                 const RenderedCrop* rendered) {
  json out{{"artifact_type", kDescriptorType},
           {"schema_version", kSchemaVersion},
           {"crop_ref", plan.crop_ref},
           {"document_fingerprint", std::string(document_fingerprint)},
           {"page", plan.page},
           {"bbox", plan.bbox.to_json()},
           {"check_ids", plan.check_ids},
           {"rendering_status", rendered ? "rendered" : "descriptor_only"}};
  if (plan.text_sha256) out["text_sha256"] = *plan.text_sha256;
  if (rendered) {
    out["source_pdf_fingerprint"] = rendered->source_pdf_fingerprint;
    out["rendered_ref"] = rendered_ref_for(plan.crop_ref);
    out["rendered_format"] = "png";
    out["rendered_sha256"] = sha256_hex(rendered->png);
    out["rendered_width_px"] = rendered->width_px;
    out["rendered_height_px"] = rendered->height_px;
  }
  return to_c14n(out);
}

std::string crop_descriptors_json(const Source& source, std::string_view report_json, std::string_view options_json) {
  std::optional<std::string> pdf_fingerprint;
  if (!options_json.empty()) {
    const ParsedJson options = parse_strict(options_json, "options");
    ObjectReader reader(options.root(), "$");
    pdf_fingerprint = reader.optional_string("crop_source_pdf_fingerprint");
    reader.finish();
    if (pdf_fingerprint && !is_sha256_prefixed(*pdf_fingerprint)) {
      throw invalid_input("invalid hash", "$.crop_source_pdf_fingerprint", {{"input", "options"}});
    }
  }
  const std::string identity = crop_identity(source, pdf_fingerprint);
  std::string out = "[";
  for (const CropPlan& plan : crop_plans_for_report(source, report_json, pdf_fingerprint)) {
    if (out.size() > 1) out += ",";
    out += crop_descriptor_json(plan, identity, nullptr);
  }
  return out + "]";
}

std::string crop_element_descriptor(const Source& source, std::string_view request_json, std::string_view check_id) {
  const CropElementRequest request = crop_element_request(source, request_json, check_id);
  if (request.rendered) {
    throw EthosError("invalid_arguments", find_error_code("invalid_arguments")->default_message,
                     {{"argument", "--crop-source-pdf"}});
  }
  return crop_descriptor_json(request.plan, *source.fingerprint, nullptr);
}

}  // namespace ethos
