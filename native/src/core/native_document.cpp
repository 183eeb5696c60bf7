// native_document.cpp - native document loading: typed reading, reference checks, integrity check.
#include "core/native_document.hpp"

#include <array>
#include <future>
#include <set>
#include <unordered_set>

#include "core/error.hpp"
#include "json/c14n.hpp"
#include "json/c14n_stream.hpp"
#include "json/reader.hpp"
#include "json/sha256.hpp"
#include "json/strict_json.hpp"
#include "text/utf8.hpp"

namespace ethos {
namespace {

using json = nlohmann::json;
constexpr std::int64_t kMaxInt = 9007199254740991;

const std::set<std::string> kElementTypes = {"text_block", "heading", "list", "list_item", "table",
                                             "region", "header", "footer", "caption", "other"};
const std::set<std::string> kRegionKinds = {"unknown", "image", "figure", "formula", "chart"};
const std::set<std::string> kWarningCodes = {
    "low_confidence_reading_order", "low_confidence_table_structure", "hidden_text_detected",
    "off_page_text_detected", "low_contrast_text_detected", "annotations_present",
    "external_links_present", "image_only_page", "unsupported_annotation", "partial_parse",
    "capability_limited", "javascript_present"};
// How hidden text is hidden (docs/pdf-parsing.md "Hidden and off-page text").
const std::set<std::string> kHiddenTechniques = {
    "invisible_render_mode", "optional_content_off", "clipped", "tiny_font", "squeezed", "transparent",
    "covered_by_image", "covered_by_shape", "white_stroke", "same_colour_as_background"};

// Ids have a fixed shape: a letter and a fixed number of digits (p0001, e000001, ...).
void check_id(const std::string& id, char prefix, std::size_t digits, const std::string& path) {
  bool ok = id.size() == digits + 1 && id[0] == prefix;
  for (std::size_t i = 1; ok && i < id.size(); ++i) ok = id[i] >= '0' && id[i] <= '9';
  if (!ok) throw invalid_input("invalid identifier", path);
}

// Reads exactly `count` integers of an array (a bbox has four, a point two).
template <std::size_t count>
std::array<std::int64_t, count> read_integers(JsonValue value, const std::string& path, const char* message) {
  const simdjson::dom::array list = expect_array(value, path);
  if (list.size() != count) throw invalid_input(message, path);
  std::array<std::int64_t, count> out{};
  std::size_t i = 0;
  for (JsonValue item : list) {
    out[i] = expect_int_at(item, path, i, -kMaxInt, kMaxInt);
    ++i;
  }
  return out;
}

Bbox read_bbox(JsonValue value, const std::string& path) {
  const auto numbers = read_integers<4>(value, path, "a bbox has four integers");
  Bbox box{numbers[0], numbers[1], numbers[2], numbers[3]};
  if (box.x0 > box.x1 || box.y0 > box.y1) throw invalid_input("inverted bbox", path);
  return box;
}

// Collects ids per kind to reject duplicates and to resolve references after the first pass.
struct IdRegistry {
  // Views into the parsed input, which outlives the registry.
  std::unordered_set<std::string_view> pages, elements, spans, tables, regions, chunks, warnings;
  void add(std::unordered_set<std::string_view>& set, std::string_view id, const char* list, std::size_t index) {
    if (!set.insert(id).second) {
      throw invalid_input("duplicate id", index_path(std::string("$.payload.") + list, index) + ".id");
    }
  }
};

// References must name an id of the right kind; the path is built only on failure.
void check_ref(const std::unordered_set<std::string_view>& set, std::string_view id, const ObjectReader& reader,
               const char* key) {
  if (set.count(id) == 0) throw invalid_input("unknown reference", reader.child_path(key));
}

// Same, for item `index` of the list at `list_path`.
void check_ref(const std::unordered_set<std::string_view>& set, std::string_view id, const std::string& list_path,
               std::size_t index) {
  if (set.count(id) == 0) throw invalid_input("unknown reference", index_path(list_path, index));
}

void read_ref_list(ObjectReader& reader, const char* key, const std::unordered_set<std::string_view>& targets,
                   bool non_empty) {
  const std::optional<JsonValue> value = reader.optional(key);
  if (!value) return;
  const std::string path = reader.child_path(key);
  const simdjson::dom::array list = expect_array(*value, path);
  if (non_empty && list.size() == 0) throw invalid_input("list must not be empty", path);
  std::size_t i = 0;
  for (JsonValue item : list) {
    check_ref(targets, expect_string_at(item, path, i), path, i);
    ++i;
  }
}

// Reads one typed array of the payload, calling `read_item` with an ObjectReader per item.
template <typename ReadItem>
void for_each_object(ObjectReader& payload, const char* key, ReadItem read_item) {
  const std::string path = payload.child_path(key);
  std::size_t i = 0;
  for (JsonValue value : expect_array(payload.required(key), path)) {
    ObjectReader item(value, path, i++);
    read_item(item);
    item.finish();
  }
}

// The payload is read in two passes: ids first (so references may point forward), then fields.
void collect_ids(JsonValue payload, IdRegistry& ids) {
  const auto collect = [&](const char* key, std::unordered_set<std::string_view>& set) {
    simdjson::dom::array list;
    if (payload.type() != simdjson::dom::element_type::OBJECT || payload[key].get(list) != simdjson::SUCCESS) {
      return;  // shape errors are reported in pass two
    }
    set.reserve(set.size() + list.size());
    std::size_t i = 0;
    for (JsonValue item : list) {
      std::string_view id;
      if (item.type() == simdjson::dom::element_type::OBJECT && item["id"].get(id) == simdjson::SUCCESS) {
        ids.add(set, id, key, i);
      }
      ++i;
    }
  };
  collect("pages", ids.pages);
  collect("elements", ids.elements);
  collect("spans", ids.spans);
  collect("tables", ids.tables);
  collect("regions", ids.regions);
  collect("chunks", ids.chunks);
  collect("security_warnings", ids.warnings);
  collect("parser_warnings", ids.warnings);
}

// Parser artifacts of an element (extension): Unicode-scalar offsets of characters of its text,
// strictly increasing (docs/pdf-parsing.md, "Faithful text and artifacts").
std::vector<std::int64_t> read_offsets(ObjectReader& item, const char* key, std::size_t text_scalars) {
  std::vector<std::int64_t> offsets;
  const std::optional<JsonValue> value = item.optional(key);
  if (!value) return offsets;
  const std::string path = item.child_path(key);
  const simdjson::dom::array list = expect_array(*value, path);
  offsets.reserve(list.size());
  std::size_t i = 0;
  for (JsonValue entry : list) {
    const std::int64_t offset = expect_int_at(entry, path, i, 0, kMaxInt);
    if (static_cast<std::uint64_t>(offset) >= text_scalars) throw invalid_input("offset outside the text", index_path(path, i));
    if (!offsets.empty() && offset <= offsets.back()) throw invalid_input("offsets must be sorted and unique", index_path(path, i));
    offsets.push_back(offset);
    ++i;
  }
  return offsets;
}

// Glyph geometry of a span (extension): one non-negative width per Unicode scalar of its text.
std::vector<std::int64_t> read_advances(ObjectReader& item, const std::string& text) {
  std::vector<std::int64_t> advances;
  const std::optional<JsonValue> value = item.optional("advances");
  if (!value) return advances;
  const std::string path = item.child_path("advances");
  const simdjson::dom::array list = expect_array(*value, path);
  if (list.size() != utf8::scalar_count(text)) throw invalid_input("one advance per character is required", path);
  advances.reserve(list.size());
  std::size_t i = 0;
  for (JsonValue entry : list) advances.push_back(expect_int_at(entry, path, i++, 0, kMaxInt));
  return advances;
}

// Returns the span a hidden_text_detected or off_page_text_detected warning names ("" otherwise).
std::string read_warning(ObjectReader& item, const IdRegistry& ids) {
  check_id(item.required_string("id"), 'w', 4, item.child_path("id"));
  const std::string code = item.required_string("code");
  if (kWarningCodes.count(code) == 0) throw invalid_input("invalid value", item.child_path("code"));
  item.required_string("message");
  item.optional_int("count", 0, kMaxInt);
  if (auto names = item.optional("names")) {
    const std::string path = item.child_path("names");
    std::size_t i = 0;
    for (JsonValue name : expect_array(*names, path)) expect_string_at(name, path, i++);
  }
  if (auto page = item.optional_string("page")) check_ref(ids.pages, *page, item, "page");
  if (auto ref = item.optional_string("element_ref")) check_ref(ids.elements, *ref, item, "element_ref");
  std::string span;
  if (auto ref = item.optional_string("span_ref")) {
    check_ref(ids.spans, *ref, item, "span_ref");
    span = *ref;
  }
  if (auto ref = item.optional_string("region_ref")) check_ref(ids.regions, *ref, item, "region_ref");
  if (auto technique = item.optional_string("technique"); technique && kHiddenTechniques.count(*technique) == 0) {
    throw invalid_input("invalid value", item.child_path("technique"));
  }
  return code == "hidden_text_detected" || code == "off_page_text_detected" ? span : std::string();
}

void read_payload(JsonValue payload_json, Source& source) {
  IdRegistry ids;
  collect_ids(payload_json, ids);
  ObjectReader payload(payload_json, "$.payload");
  {
    ObjectReader cs(payload.required("coordinate_system"), payload.child_path("coordinate_system"));
    if (cs.required_string("origin") != "top-left") throw invalid_input("invalid value", cs.child_path("origin"));
    if (cs.required_string("unit") != "quantum") throw invalid_input("invalid value", cs.child_path("unit"));
    cs.required_int("quantum_per_point", 1, kMaxInt);
    cs.finish();
  }
  for_each_object(payload, "pages", [&](ObjectReader& item) {
    Page page;
    page.id = item.required_string("id");
    check_id(page.id, 'p', 4, item.child_path("id"));
    page.index = item.required_int("index", 1, kMaxInt);
    page.width = item.required_int("width", 0, kMaxInt);
    page.height = item.required_int("height", 0, kMaxInt);
    page.rotation = item.required_int("rotation", 0, 270);
    if (page.rotation % 90 != 0) throw invalid_input("invalid value", item.child_path("rotation"));
    page.label = item.optional_string("label");
    source.pages.push_back(std::move(page));
  });
  // Span ownership is declared on elements (span_refs); remember it to attach owners to spans.
  std::unordered_map<std::string_view, std::size_t> span_owner;  // views into the parsed input
  span_owner.reserve(ids.spans.size());
  for_each_object(payload, "elements", [&](ObjectReader& item) {
    Element element;
    element.id = item.required_string("id");
    check_id(element.id, 'e', 6, item.child_path("id"));
    element.kind = item.required_string("type");
    if (kElementTypes.count(element.kind) == 0) throw invalid_input("invalid value", item.child_path("type"));
    element.page = item.required_string("page");
    check_ref(ids.pages, element.page, item, "page");
    element.bbox = read_bbox(item.required("bbox"), item.child_path("bbox"));
    element.text = item.optional_string("text");
    element.heading_level = item.optional_int("heading_level", 1, 9).value_or(0);
    if (auto ref = item.optional_string("table_ref")) {
      check_ref(ids.tables, *ref, item, "table_ref");
      element.table_ref = std::string(*ref);
    }
    if (auto ref = item.optional_string("region_ref")) check_ref(ids.regions, *ref, item, "region_ref");
    item.optional_int("confidence", 0, 1000);
    read_ref_list(item, "span_refs", ids.spans, false);
    if (const std::optional<JsonValue> refs = item.optional("span_refs")) {
      const simdjson::dom::array span_refs = refs->get_array().value_unsafe();  // named: the result is a temporary
      for (JsonValue ref : span_refs) {
        span_owner.emplace(ref.get_string().value_unsafe(), source.elements.size());
      }
    }
    read_ref_list(item, "warning_refs", ids.warnings, false);
    const std::size_t text_scalars = element.text ? utf8::scalar_count(*element.text) : 0;
    element.line_breaks = read_offsets(item, "line_breaks", text_scalars);
    element.hyphen_breaks = read_offsets(item, "hyphen_breaks", text_scalars);
    source.elements.push_back(std::move(element));
  });
  for_each_object(payload, "spans", [&](ObjectReader& item) {
    Span span;
    span.id = item.required_string("id");
    check_id(span.id, 's', 6, item.child_path("id"));
    span.page = item.required_string("page");
    check_ref(ids.pages, span.page, item, "page");
    span.bbox = read_bbox(item.required("bbox"), item.child_path("bbox"));
    if (const std::optional<JsonValue> locator = item.optional("origin_locator")) {
      ObjectReader ol(*locator, item.child_path("origin_locator"));
      if (ol.required_string("policy") != "origin-run-locator-v1") throw invalid_input("invalid value", ol.child_path("policy"));
      for (const char* key : {"first_origin", "last_origin"}) {
        read_integers<2>(ol.required(key), ol.child_path(key), "a point has two integers");
      }
      ol.finish();
    }
    span.text = item.required_string("text");
    if (auto font = item.optional_string("font_id")) {
      if (font->rfind("embedded:", 0) != 0 && font->rfind("subst:", 0) != 0) throw invalid_input("invalid value", item.child_path("font_id"));
    }
    item.optional_int("font_size_q", 0, kMaxInt);
    span.char_start = item.optional_int("char_start", 0, kMaxInt);
    span.char_end = item.optional_int("char_end", 0, kMaxInt);
    if (span.char_start.has_value() != span.char_end.has_value() ||
        (span.char_start && *span.char_start > *span.char_end)) {
      throw invalid_input("invalid character offsets", item.path());
    }
    read_ref_list(item, "warning_refs", ids.warnings, false);
    span.advances = read_advances(item, span.text);
    auto owner = span_owner.find(span.id);
    if (owner != span_owner.end()) span.element = owner->second;
    source.spans.push_back(std::move(span));
  });
  for_each_object(payload, "tables", [&](ObjectReader& item) {
    Table table;
    table.id = item.required_string("id");
    check_id(table.id, 't', 4, item.child_path("id"));
    const std::string refs_path = item.child_path("page_refs");
    const simdjson::dom::array page_refs = expect_array(item.required("page_refs"), refs_path);
    if (page_refs.size() == 0) throw invalid_input("list must not be empty", refs_path);
    std::size_t ref_index = 0;
    for (JsonValue ref : page_refs) {
      const std::string_view page = expect_string_at(ref, refs_path, ref_index);
      check_ref(ids.pages, page, refs_path, ref_index);
      if (ref_index++ == 0) table.page = std::string(page);  // native grounding view: the first page
    }
    table.bbox = read_bbox(item.required("bbox"), item.child_path("bbox"));
    const std::int64_t n_rows = item.required_int("n_rows", 1, kMaxInt);
    const std::int64_t n_cols = item.required_int("n_cols", 1, kMaxInt);
    item.required_int("header_rows", 0, n_rows);
    item.required_int("header_cols", 0, n_cols);
    const std::string cells_path = item.child_path("cells");
    std::size_t cell_index = 0;
    for (JsonValue cell_value : expect_array(item.required("cells"), cells_path)) {
      ObjectReader cr(cell_value, cells_path, cell_index++);
      Cell cell;
      cell.row = cr.required_int("row", 0, n_rows - 1);
      cell.col = cr.required_int("col", 0, n_cols - 1);
      cell.row_span = cr.required_int("row_span", 1, n_rows - cell.row);
      cell.col_span = cr.required_int("col_span", 1, n_cols - cell.col);
      cell.bbox = read_bbox(cr.required("bbox"), cr.child_path("bbox"));
      cell.text = cr.required_string("text");
      read_ref_list(cr, "span_refs", ids.spans, false);
      read_ref_list(cr, "element_refs", ids.elements, false);
      cr.finish();
      table.cells.push_back(std::move(cell));
    }
    item.optional_int("confidence", 0, 1000);
    read_ref_list(item, "warning_refs", ids.warnings, false);
    if (const std::optional<JsonValue> exports = item.optional("exports")) {
      ObjectReader er(*exports, item.child_path("exports"));
      er.optional_string("csv");
      er.optional_string("markdown");
      er.finish();
    }
    source.tables.push_back(std::move(table));
  });
  for_each_object(payload, "chunks", [&](ObjectReader& item) {
    check_id(item.required_string("id"), 'c', 6, item.child_path("id"));
    item.required_string("text");
    item.required("element_refs");
    item.required("page_refs");
    read_ref_list(item, "element_refs", ids.elements, true);
    read_ref_list(item, "page_refs", ids.pages, true);
    const std::string boxes_path = item.child_path("bboxes");
    const simdjson::dom::array boxes = expect_array(item.required("bboxes"), boxes_path);
    if (boxes.size() == 0) throw invalid_input("list must not be empty", boxes_path);
    std::size_t box_index = 0;
    for (JsonValue box : boxes) {
      ObjectReader br(box, boxes_path, box_index++);
      check_ref(ids.pages, br.required_string("page"), br, "page");
      read_bbox(br.required("bbox"), br.child_path("bbox"));
      br.finish();
    }
    ObjectReader te(item.required("token_estimate"), item.child_path("token_estimate"));
    te.required_int("count", 0, kMaxInt);
    te.required_string("estimator");
    te.required_bool("approximate");
    te.finish();
    read_ref_list(item, "warning_refs", ids.warnings, false);
  });
  for_each_object(payload, "regions", [&](ObjectReader& item) {
    check_id(item.required_string("id"), 'r', 4, item.child_path("id"));
    check_ref(ids.pages, item.required_string("page"), item, "page");
    read_bbox(item.required("bbox"), item.child_path("bbox"));
    if (kRegionKinds.count(item.required_string("kind")) == 0) throw invalid_input("invalid value", item.child_path("kind"));
    read_ref_list(item, "warning_refs", ids.warnings, false);
  });
  std::unordered_set<std::string> hidden_spans;
  const auto read_any = [&](ObjectReader& item) {
    std::string span = read_warning(item, ids);
    if (!span.empty()) hidden_spans.insert(std::move(span));
  };
  for_each_object(payload, "security_warnings", read_any);
  for_each_object(payload, "parser_warnings", read_any);
  payload.finish();
  if (!hidden_spans.empty()) {
    for (Span& span : source.spans) span.hidden = hidden_spans.count(span.id) != 0;
  }
}

// The identity fields a document declares about itself, checked against recomputed hashes.
struct DeclaredIdentity {
  std::string schema_version, profile_id, profile_sha, source_fingerprint, config_sha, payload_sha, fingerprint;
};

// Reads the whole document into `source` (typed, strict) and returns what it declares.
DeclaredIdentity read_document(JsonValue document, Source& source) {
  DeclaredIdentity declared;
  ObjectReader top(document, "$");
  declared.schema_version = top.required_string("schema_version");
  if (declared.schema_version != "1.0.0") throw invalid_input("unsupported schema version", top.child_path("schema_version"));
  {
    ObjectReader parser(top.required("parser"), top.child_path("parser"));
    source.parser.name = parser.required_string("name");
    source.parser.version = parser.required_string("version");
    parser.finish();
  }
  ObjectReader profile(top.required("profile"), top.child_path("profile"));
  declared.profile_id = profile.required_string("id");
  declared.profile_sha = profile.required_string("sha256");
  if (!is_sha256_hex(declared.profile_sha)) throw invalid_input("invalid hash", profile.child_path("sha256"));
  profile.finish();
  ObjectReader src(top.required("source"), top.child_path("source"));
  declared.source_fingerprint = src.required_string("fingerprint");
  if (!is_sha256_prefixed(declared.source_fingerprint)) throw invalid_input("invalid hash", src.child_path("fingerprint"));
  src.required_int("bytes", 0, kMaxInt);
  src.finish();
  declared.config_sha = top.required_string("config_sha256");
  if (!is_sha256_hex(declared.config_sha)) throw invalid_input("invalid hash", "$.config_sha256");
  declared.payload_sha = top.required_string("payload_sha256");
  if (!is_sha256_hex(declared.payload_sha)) throw invalid_input("invalid hash", "$.payload_sha256");
  declared.fingerprint = top.required_string("fingerprint");
  if (!is_sha256_prefixed(declared.fingerprint)) throw invalid_input("invalid hash", "$.fingerprint");
  const JsonValue payload = top.required("payload");
  if (const std::optional<JsonValue> diagnostics = top.optional("diagnostics")) expect_object(*diagnostics, "$.diagnostics");
  top.finish();
  read_payload(payload, source);
  return declared;
}

struct RecomputedHashes {
  std::string representation;  // bare hex of the exact bytes (the Statement subject)
  std::string payload;         // payload_sha256 as it should be
};

}  // namespace

std::shared_ptr<Source> load_native_document(std::string_view bytes) {
  // Opening is split over two threads that only read the immutable parse: this one builds the
  // typed source; the other enforces the strictness rules (duplicate keys, floats, depth) and
  // recomputes both hashes. Rule violations are reported before anything the typed read found,
  // exactly as if parse_strict had run first, so the outcome never depends on timing.
  const ParsedJson parsed = parse_syntax(bytes, "document");
  const JsonValue document = parsed.root();
  std::future<RecomputedHashes> integrity = std::async(std::launch::async, [&parsed, document, bytes] {
    enforce_rules(parsed, "document");
    RecomputedHashes hashes;
    hashes.representation = sha256_hex(bytes);
    JsonValue payload;
    // Geometry is left out of the payload hash: it is platform-sensitive (CONTRACTS §2.2). A
    // missing payload is reported by the typed read.
    if (document["payload"].get(payload) == simdjson::SUCCESS) hashes.payload = c14n_sha256_hex(payload, {"bbox", "bboxes"});
    return hashes;
  });
  auto source = std::make_shared<Source>();
  source->kind = "ethos-native-document";
  DeclaredIdentity declared;
  std::exception_ptr typed_error;
  try {
    declared = read_document(document, *source);
  } catch (...) {
    typed_error = std::current_exception();
  }
  const RecomputedHashes hashes = integrity.get();  // rethrows a rule violation first
  if (typed_error) std::rethrow_exception(typed_error);

  if (hashes.payload != declared.payload_sha) throw invalid_input("integrity check failed", "$.payload_sha256");
  const json identity = {{"config_sha256", declared.config_sha},         {"payload_sha256", declared.payload_sha},
                         {"profile_id", declared.profile_id},            {"profile_sha256", declared.profile_sha},
                         {"schema_version", declared.schema_version},    {"source_fingerprint", declared.source_fingerprint}};
  if (sha256_prefixed(to_c14n(identity)) != declared.fingerprint) {
    throw invalid_input("integrity check failed", "$.fingerprint");
  }
  source->representation_sha256 = hashes.representation;
  source->fingerprint = declared.fingerprint;
  source->source_fingerprint = declared.source_fingerprint;
  source->capabilities.spans = true;
  source->capabilities.char_offsets = true;
  source->capabilities.tables = true;
  source->capabilities.fingerprint = true;
  source->capabilities.coordinate_origin = "top-left";
  source->capabilities.crop_support = false;
  source->capabilities.structure = true;
  source->build_indexes();
  return source;
}

}  // namespace ethos
