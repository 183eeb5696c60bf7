// anchor_request.cpp - strict loading and every validation rule of the evidence-anchor request (CONTRACTS.md §2.8).
#include "core/anchor_request.hpp"

#include <unordered_set>

#include "core/error.hpp"
#include "json/reader.hpp"
#include "json/sha256.hpp"
#include "json/strict_json.hpp"
#include "text/normalize.hpp"

namespace ethos {
namespace {

constexpr std::int64_t kMaxInt = 9007199254740991;

bool one_of(const std::string& value, std::initializer_list<const char*> choices) {
  for (const char* choice : choices) {
    if (value == choice) return true;
  }
  return false;
}

// The levels each evidence kind may require (§2.8); region/other are unrestricted because they
// are reported as unsupported_evidence_kind whatever they ask for.
bool level_allowed(const std::string& kind, const std::string& level) {
  if (kind == "page") return level == "page";
  if (kind == "text") return level == "text";
  if (kind == "text_region") return one_of(level, {"text", "bbox", "text_bbox"});
  if (kind == "table_cell") return level == "table_cell";
  return true;
}

Bbox read_bbox(JsonValue value, const std::string& path) {
  const simdjson::dom::array list = expect_array(value, path);
  if (list.size() != 4) throw invalid_input("a bbox has four integers", path);
  std::int64_t numbers[4];
  std::size_t i = 0;
  for (JsonValue item : list) {
    numbers[i] = expect_int(item, index_path(path, i), -kMaxInt, kMaxInt);
    ++i;
  }
  Bbox box{numbers[0], numbers[1], numbers[2], numbers[3]};
  // The same rule as a citation bbox (§2.4): an anchor names a region with an area.
  if (!(box.x0 < box.x1 && box.y0 < box.y1)) throw invalid_input("bbox must have a positive area", path);
  return box;
}

AnchorLocator read_locator(JsonValue value, const std::string& path) {
  ObjectReader reader(value, path);
  AnchorLocator locator;
  // page_index 0 is the classic off-by-one of a 0-based caller: rejected, never read as page 1.
  locator.page_index = reader.optional_int("page_index", 1, kMaxInt);
  locator.page_id = reader.optional_string("page_id");
  locator.element_id = reader.optional_string("element_id");
  locator.span_id = reader.optional_string("span_id");
  locator.table_id = reader.optional_string("table_id");
  if (const std::optional<JsonValue> cell = reader.optional("cell")) {
    ObjectReader cr(*cell, reader.child_path("cell"));
    AnchorCell address;
    address.row = cr.required_int("row", 0, kMaxInt);
    address.col = cr.required_int("col", 0, kMaxInt);
    cr.finish();
    locator.cell = address;
  }
  if (const std::optional<JsonValue> bbox = reader.optional("bbox")) locator.bbox = read_bbox(*bbox, reader.child_path("bbox"));
  const std::optional<std::string> profile = reader.optional_string("coordinate_profile");
  reader.finish();

  if (profile && *profile != kAnchorCoordinateProfile) throw invalid_input("invalid value", path + ".coordinate_profile");
  if (locator.page_index && locator.page_id) throw invalid_input("page_index and page_id are exclusive", path);
  // A bbox is only meaningful in a named coordinate system (quanta, top-left origin).
  if (locator.bbox && !profile) throw invalid_input("bbox needs a coordinate profile", path + ".bbox");
  if (locator.table_id.has_value() != locator.cell.has_value()) throw invalid_input("table_id and cell go together", path);
  return locator;
}

EvidenceRef read_ref(JsonValue value, const std::string& path) {
  ObjectReader reader(value, path);
  EvidenceRef ref;
  ref.evidence_id = reader.required_string("evidence_id");
  ref.evidence_kind = reader.required_string("evidence_kind");
  ref.required_anchor_level = reader.required_string("required_anchor_level");
  ref.locator = read_locator(reader.required("locator"), reader.child_path("locator"));
  ref.expected_text = reader.optional_string("expected_text");
  const std::optional<std::string> sha = reader.optional_string("expected_text_sha256");
  const std::optional<std::string> profile = reader.optional_string("text_normalization_profile");
  reader.finish();

  if (ref.evidence_id.empty()) throw invalid_input("invalid identifier", path + ".evidence_id");
  if (!one_of(ref.evidence_kind, {"page", "text", "text_region", "table_cell", "region", "other"})) {
    throw invalid_input("invalid value", path + ".evidence_kind");
  }
  if (!one_of(ref.required_anchor_level, {"page", "text", "bbox", "text_bbox", "table_cell"})) {
    throw invalid_input("invalid value", path + ".required_anchor_level");
  }
  if (profile && *profile != kAnchorTextProfile) throw invalid_input("invalid value", path + ".text_normalization_profile");
  if (ref.expected_text) {
    ref.normalized_expected = normalize_text(*ref.expected_text, NormalizationOptions{});
    if (ref.normalized_expected.empty()) throw invalid_input("expected text is empty after normalization", path + ".expected_text");
  }
  if (sha) {
    const std::string sha_path = path + ".expected_text_sha256";
    if (!ref.expected_text) throw invalid_input("expected_text_sha256 needs expected_text", sha_path);
    if (!profile) throw invalid_input("expected_text_sha256 needs a text normalization profile", sha_path);
    if (!is_sha256_prefixed(*sha)) throw invalid_input("invalid hash", sha_path);
    if (*sha != "sha256:" + sha256_hex(ref.normalized_expected)) throw invalid_input("expected text hash mismatch", sha_path);
  }
  if (!level_allowed(ref.evidence_kind, ref.required_anchor_level)) {
    throw invalid_input("anchor level not allowed for this evidence kind", path + ".required_anchor_level");
  }
  const AnchorLocator& locator = ref.locator;
  const std::string locator_path = path + ".locator";
  if (ref.evidence_kind == "table_cell" && !locator.table_id) throw invalid_input("table_cell needs table_id and cell", locator_path);
  const std::string& level = ref.required_anchor_level;
  if ((level == "text" || level == "text_bbox") && !ref.expected_text) {
    throw invalid_input("anchor level needs expected_text", path + ".expected_text");
  }
  if ((level == "bbox" || level == "text_bbox") && !locator.bbox) throw invalid_input("anchor level needs a bbox", locator_path + ".bbox");
  if (!locator.has_page() && (ref.evidence_kind == "page" || locator.bbox || !locator.has_target())) {
    throw invalid_input("locator needs a page", locator_path);
  }
  return ref;
}

}  // namespace

AnchorRequest load_anchor_request(std::string_view bytes) {
  const ParsedJson parsed = parse_strict(bytes, "evidence_refs");
  ObjectReader envelope(parsed.root(), "$");
  AnchorRequest request;
  const std::string artifact_type = envelope.required_string("artifact_type");
  const std::string schema_version = envelope.required_string("schema_version");
  request.source_fingerprint = envelope.optional_string("source_fingerprint");
  const simdjson::dom::array refs = expect_array(envelope.required("evidence_refs"), "$.evidence_refs");
  envelope.finish();
  if (artifact_type != kAnchorRequestType) throw invalid_input("invalid value", "$.artifact_type");
  if (schema_version != "1.0.0") throw invalid_input("unsupported schema version", "$.schema_version");
  if (request.source_fingerprint && !is_sha256_prefixed(*request.source_fingerprint)) {
    throw invalid_input("invalid hash", "$.source_fingerprint");
  }
  request.refs.reserve(refs.size());
  std::unordered_set<std::string> ids;
  std::size_t index = 0;
  for (JsonValue item : refs) {
    const std::string path = index_path("$.evidence_refs", index++);
    EvidenceRef ref = read_ref(item, path);
    if (!ids.insert(ref.evidence_id).second) throw invalid_input("duplicate id", path + ".evidence_id");
    request.refs.push_back(std::move(ref));
  }
  return request;
}

}  // namespace ethos
