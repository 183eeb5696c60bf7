// grounding_json.cpp - Grounding JSON v1: strict parse, frozen error codes, structural limits, Source.
#include "sources/grounding_json.hpp"

#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core/error.hpp"
#include "json/c14n.hpp"
#include "json/reader.hpp"
#include "json/sha256.hpp"
#include "json/strict_json.hpp"
#include "text/utf8.hpp"
#include "sources/line_end_hyphens.hpp"
#include "sources/unknown_fields.hpp"

namespace ethos::sources {
namespace {

using json = nlohmann::json;

constexpr std::int64_t kMaxSafe = 9007199254740991;
constexpr std::size_t kMaxPages = 5000;
constexpr std::size_t kMaxElements = 1000000;  // also the span limit
constexpr std::size_t kMaxTables = 100000;
constexpr std::size_t kMaxCells = 1000000;
constexpr std::size_t kMaxIdBytes = 256;
constexpr std::size_t kMaxStringBytes = 16384;
constexpr const char* kPdf = "application/pdf";
// ObjectReader keeps a reference to its parent path: these outlive every reader.
const std::string kPagesPath = "$.pages", kElementsPath = "$.elements", kSpansPath = "$.spans",
                  kTablesPath = "$.tables";

// 1.1.0 adds these page-less office formats (elements carry an opaque locator, no geometry).
const std::set<std::string> kPagelessMediaTypes = {
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "application/vnd.oasis.opendocument.text",
    "application/vnd.oasis.opendocument.spreadsheet",
    "application/vnd.oasis.opendocument.presentation",
    "application/rtf",
    "application/epub+zip"};

// Thrown inside the walk; caught once at the top and turned into the validation outcome.
struct Failure {
  std::string code;
  std::string path;
};

[[noreturn]] void fail(const char* code, std::string path) { throw Failure{code, std::move(path)}; }

// The strict parser and the typed reader speak in messages; the artifact speaks in frozen codes.
Failure failure_of(const EthosError& error) {
  const std::string& message = error.what();
  std::string path = error.details().value("path", std::string("$"));
  if (error.code() == "input_limit_exceeded") return {"limit_exceeded", "$"};
  if (message == "byte order mark not allowed") return {"bom_not_allowed", "$"};
  if (message == "duplicate key") return {"duplicate_key", path};
  if (message == "unknown field") return {"unknown_field", path};
  if (message == "nesting too deep" || message == "integer out of range") return {"limit_exceeded", path};
  if (message == "invalid JSON syntax" || message == "invalid UTF-8" || message == "number is not an integer" ||
      message == "null is not allowed") {
    return {"invalid_json", path};
  }
  return {"invalid_field", path};
}

bool valid_id_grammar(std::string_view id) {
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); };
  if (id.empty() || !alnum(id[0])) return false;
  for (char c : id) {
    if (!alnum(c) && c != '.' && c != '_' && c != ':' && c != '-') return false;
  }
  return true;
}

std::string string_field(ObjectReader& reader, const char* key, bool is_id) {
  std::string value = reader.required_string(key);
  const std::size_t limit = is_id ? kMaxIdBytes : kMaxStringBytes;
  if (value.size() > limit) fail("limit_exceeded", reader.child_path(key));
  if (is_id && !valid_id_grammar(value)) fail("invalid_field", reader.child_path(key));
  return value;
}

std::optional<std::string> optional_text(ObjectReader& reader, const char* key) {
  auto value = reader.optional_string(key);
  if (value && value->size() > kMaxStringBytes) fail("limit_exceeded", reader.child_path(key));
  return value;
}

// Arrays with an item limit: null and non-arrays are field errors, oversize is a limit error.
simdjson::dom::array bounded_array(JsonValue value, const std::string& path, std::size_t limit) {
  if (value.is_null()) fail("invalid_json", path);
  const simdjson::dom::array items = expect_array(value, path);
  if (items.size() > limit) fail("limit_exceeded", path);
  return items;
}

Bbox read_bbox(JsonValue value, const std::string& path, const Page& page, const char* code) {
  if (value.is_null()) fail("invalid_json", path);
  const simdjson::dom::array list = expect_array(value, path);
  if (list.size() != 4) fail("invalid_field", path);
  std::int64_t v[4] = {0, 0, 0, 0};
  std::size_t i = 0;
  for (JsonValue item : list) {
    if (item.is_null()) fail("invalid_json", index_path(path, i));
    v[i] = expect_int_at(item, path, i, -kMaxSafe, kMaxSafe);
    ++i;
  }
  const Bbox box{v[0], v[1], v[2], v[3]};
  const bool ok = box.x0 >= 0 && box.y0 >= 0 && box.x1 > box.x0 && box.y1 > box.y0 && box.x1 <= page.width &&
                  box.y1 <= page.height;
  if (!ok) fail(code, path);
  return box;
}

// The typed reader rejects nulls where it reads a field; this walk finds the first null anywhere
// (array items included) so every null is reported as invalid JSON, whatever its position.
void reject_nulls(JsonValue value, const std::string& path) {
  switch (value.type()) {
    case simdjson::dom::element_type::NULL_VALUE:
      fail("invalid_json", path);
    case simdjson::dom::element_type::ARRAY: {
      std::size_t i = 0;
      const simdjson::dom::array items = value.get_array().value_unsafe();  // named: iterators borrow it
      for (JsonValue item : items) {
        if (item.is_null() || item.is_array() || item.is_object()) reject_nulls(item, index_path(path, i));
        ++i;
      }
      return;
    }
    case simdjson::dom::element_type::OBJECT:
    {
      const simdjson::dom::object object = value.get_object().value_unsafe();
      for (auto field : object) {
        if (field.value.is_null() || field.value.is_array() || field.value.is_object()) {
          reject_nulls(field.value, path + "." + std::string(field.key));
        }
      }
      return;
    }
    default:
      return;
  }
}

class ArtifactReader {
 public:
  explicit ArtifactReader(Source& source) : source_(source) {}

  void read(JsonValue root) {
    ObjectReader top(root, "$");
    const std::string type = top.required_string("artifact_type");
    const std::string version = top.required_string("schema_version");
    if (type != "ethos.grounding.v1") fail("unsupported_version", "$.artifact_type");
    if (version != "1.0.0" && version != "1.1.0") fail("unsupported_version", "$.schema_version");

    ObjectReader src(top.required("source"), "$.source");
    media_type_ = string_field(src, "media_type", false);
    source_sha256_ = string_field(src, "sha256", false);
    src.finish(&source_.unknown_fields);
    pageless_ = kPagelessMediaTypes.count(media_type_) != 0;
    if (media_type_ != kPdf && !(version == "1.1.0" && pageless_)) fail("invalid_field", "$.source.media_type");
    if (!is_sha256_prefixed(source_sha256_)) fail("invalid_field", "$.source.sha256");

    ObjectReader producer(top.required("producer"), "$.producer");
    source_.parser.name = string_field(producer, "name", false);
    source_.parser.version = string_field(producer, "version", false);
    producer.finish(&source_.unknown_fields);
    if (source_.parser.name.empty()) fail("invalid_field", "$.producer.name");
    source_.parser.adapter = "ethos-grounding-json";
    source_.parser.adapter_version = "1.0.0";

    ObjectReader caps(top.required("capabilities"), "$.capabilities");
    const bool spans = caps.required_bool("spans");
    const bool char_offsets = caps.required_bool("char_offsets");
    const bool tables = caps.required_bool("tables");
    caps.finish(&source_.unknown_fields);

    ObjectReader coords(top.required("coordinate_system"), "$.coordinate_system");
    const std::string unit = coords.required_string("unit");
    const std::string origin = coords.required_string("origin");
    coords.finish(&source_.unknown_fields);
    if (unit != "centipoint" || origin != "top-left") fail("invalid_invariant", "$.coordinate_system");

    const JsonValue pages = top.required("pages");
    const JsonValue elements = top.required("elements");
    const std::optional<JsonValue> span_list = top.optional("spans");
    const std::optional<JsonValue> table_list = top.optional("tables");
    top.finish(&source_.unknown_fields);

    if ((char_offsets && !spans) || spans != span_list.has_value() || tables != table_list.has_value() ||
        (pageless_ && (spans || tables))) {
      fail("invalid_capabilities", "$.capabilities");
    }
    source_.capabilities.spans = spans;
    source_.capabilities.char_offsets = char_offsets;
    source_.capabilities.tables = tables;
    source_.capabilities.fingerprint = true;
    source_.capabilities.coordinate_origin = "top-left";
    source_.capabilities.crop_support = false;

    read_pages(pages);
    read_elements(elements);
    if (span_list) read_spans(*span_list, char_offsets);
    if (table_list) read_tables(*table_list);
  }

  const std::string& source_sha256() const { return source_sha256_; }

 private:
  void read_pages(JsonValue value) {
    const simdjson::dom::array items = bounded_array(value, kPagesPath, kMaxPages);
    if (pageless_ && items.size() != 0) fail("invalid_invariant", kPagesPath);
    std::size_t i = 0;
    for (JsonValue item : items) {
      ObjectReader reader(item, kPagesPath, i);
      Page page;
      page.id = string_field(reader, "id", true);
      page.index = reader.required_int("index", 1, kMaxSafe);
      page.width = reader.required_int("width", -kMaxSafe, kMaxSafe);
      page.height = reader.required_int("height", -kMaxSafe, kMaxSafe);
      page.rotation = reader.required_int("rotation", 0, 270);
      reader.finish(&source_.unknown_fields);
      if (!page_index_.emplace(page.id, i).second) fail("duplicate_id", reader.child_path("id"));
      if (page.index != static_cast<std::int64_t>(i) + 1) fail("invalid_order", reader.child_path("index"));
      if (page.width <= 0 || page.height <= 0) fail("invalid_invariant", reader.path());
      if (page.rotation % 90 != 0) fail("invalid_invariant", reader.child_path("rotation"));
      source_.pages.push_back(std::move(page));
      ++i;
    }
  }

  const Page& page_of(ObjectReader& reader, const std::string& id) {
    auto it = page_index_.find(id);
    if (it == page_index_.end()) fail("unknown_reference", reader.child_path("page"));
    return source_.pages[it->second];
  }

  void read_elements(JsonValue value) {
    const simdjson::dom::array items = bounded_array(value, kElementsPath, kMaxElements);
    source_.elements.reserve(items.size());
    std::size_t i = 0;
    for (JsonValue item : items) {
      ObjectReader reader(item, kElementsPath, i);
      Element element;
      element.id = string_field(reader, "id", true);
      element.kind = string_field(reader, "kind", false);
      element.text = optional_text(reader, "text");
      if (pageless_) {
        if (reader.optional("page") || reader.optional("bbox")) fail("invalid_field", reader.path());
        optional_text(reader, "locator");  // opaque to the verifier; validated for shape and size only
      } else {
        element.page = string_field(reader, "page", true);
        const Page& page = page_of(reader, element.page);
        element.bbox = read_bbox(reader.required("bbox"), reader.child_path("bbox"), page, "invalid_bbox");
      }
      reader.finish(&source_.unknown_fields);
      if (!valid_kind(element.kind)) fail("invalid_field", reader.child_path("kind"));
      if (!element_index_.emplace(element.id, i).second) fail("duplicate_id", reader.child_path("id"));
      source_.elements.push_back(std::move(element));
      ++i;
    }
  }

  static bool valid_kind(std::string_view kind) {
    if (kind.empty()) return false;
    for (char c : kind) {
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) return false;
    }
    return true;
  }

  void read_spans(JsonValue value, bool char_offsets) {
    const simdjson::dom::array items = bounded_array(value, kSpansPath, kMaxElements);
    std::unordered_set<std::string> ids;
    std::size_t i = 0;
    for (JsonValue item : items) {
      ObjectReader reader(item, kSpansPath, i);
      Span span;
      span.id = string_field(reader, "id", true);
      span.page = string_field(reader, "page", true);
      const Page& page = page_of(reader, span.page);
      span.bbox = read_bbox(reader.required("bbox"), reader.child_path("bbox"), page, "invalid_bbox");
      span.text = string_field(reader, "text", false);
      std::optional<std::string> element = reader.optional_string("element");
      span.char_start = reader.optional_int("char_start", 0, kMaxSafe);
      span.char_end = reader.optional_int("char_end", 0, kMaxSafe);
      reader.finish(&source_.unknown_fields);
      if (!ids.insert(span.id).second) fail("duplicate_id", reader.child_path("id"));
      if (element) {
        auto it = element_index_.find(*element);
        if (it == element_index_.end()) fail("unknown_reference", reader.child_path("element"));
        span.element = it->second;
      }
      const bool any_offset = span.char_start || span.char_end;
      if (any_offset != char_offsets) fail("invalid_offsets", reader.path());
      if (char_offsets && !offsets_select_text(span)) fail("invalid_offsets", reader.path());
      source_.spans.push_back(std::move(span));
      ++i;
    }
  }

  // Offsets are Unicode-scalar offsets into the owning element's text and must select the
  // span's text exactly.
  bool offsets_select_text(const Span& span) const {
    if (!span.element || !span.char_start || !span.char_end || *span.char_start > *span.char_end) return false;
    const Element& element = source_.elements[*span.element];
    if (!element.text) return false;
    const std::string_view text = *element.text;
    const auto start = static_cast<std::size_t>(*span.char_start);
    const auto end = static_cast<std::size_t>(*span.char_end);
    if (end > utf8::scalar_count(text)) return false;
    const std::size_t from = utf8::byte_offset_of_scalar(text, start);
    const std::size_t to = utf8::byte_offset_of_scalar(text, end);
    return text.substr(from, to - from) == span.text;
  }

  void read_tables(JsonValue value) {
    const simdjson::dom::array items = bounded_array(value, kTablesPath, kMaxTables);
    std::unordered_set<std::string> ids;
    std::size_t total_cells = 0;
    std::size_t i = 0;
    for (JsonValue item : items) {
      ObjectReader reader(item, kTablesPath, i);
      Table table;
      table.id = string_field(reader, "id", true);
      table.page = string_field(reader, "page", true);
      const Page& page = page_of(reader, table.page);
      table.bbox = read_bbox(reader.required("bbox"), reader.child_path("bbox"), page, "invalid_bbox");
      const std::string cells_path = reader.child_path("cells");
      const simdjson::dom::array cells = bounded_array(reader.required("cells"), cells_path, kMaxCells);
      reader.finish(&source_.unknown_fields);
      if (!ids.insert(table.id).second) fail("duplicate_id", reader.child_path("id"));
      total_cells += cells.size();
      if (total_cells > kMaxCells) fail("limit_exceeded", cells_path);
      read_cells(cells, cells_path, page, table);
      source_.tables.push_back(std::move(table));
      ++i;
    }
  }

  // Cells in strictly increasing (row, col) order, spans at least 1, no two covering one slot.
  void read_cells(const simdjson::dom::array& cells, const std::string& path, const Page& page, Table& table) {
    std::set<std::pair<std::int64_t, std::int64_t>> occupied;
    std::optional<std::pair<std::int64_t, std::int64_t>> previous;
    std::size_t j = 0;
    for (JsonValue item : cells) {
      ObjectReader reader(item, path, j);
      Cell cell;
      cell.row = reader.required_int("row", 0, 4294967295);
      cell.col = reader.required_int("col", 0, 4294967295);
      cell.row_span = reader.required_int("row_span", 0, 4294967295);
      cell.col_span = reader.required_int("col_span", 0, 4294967295);
      cell.bbox = read_bbox(reader.required("bbox"), reader.child_path("bbox"), page, "invalid_table");
      cell.text = string_field(reader, "text", false);
      reader.finish(&source_.unknown_fields);
      const std::pair<std::int64_t, std::int64_t> at{cell.row, cell.col};
      if (cell.row_span == 0 || cell.col_span == 0 || (previous && at <= *previous)) fail("invalid_table", path);
      previous = at;
      for (std::int64_t r = cell.row; r < cell.row + cell.row_span; ++r) {
        for (std::int64_t c = cell.col; c < cell.col + cell.col_span; ++c) {
          if (!occupied.emplace(r, c).second) fail("invalid_table", path);
          if (occupied.size() > kMaxCells) fail("limit_exceeded", path);
        }
      }
      table.cells.push_back(std::move(cell));
      ++j;
    }
  }

  Source& source_;
  std::string media_type_, source_sha256_;
  bool pageless_ = false;
  std::unordered_map<std::string, std::size_t> page_index_, element_index_;
};

}  // namespace

const char* grounding_failure_message(const std::string& code) {
  static const std::unordered_map<std::string, const char*> messages = {
      {"invalid_json", "submit valid UTF-8 JSON without nulls, floats or exponents"},
      {"bom_not_allowed", "remove the UTF-8 byte order mark"},
      {"duplicate_key", "remove the duplicate object key"},
      {"unknown_field", "remove the unknown field"},
      {"invalid_field", "correct the field type or supply the required field"},
      {"unsupported_version", "use ethos.grounding.v1 with schema_version 1.0.0 or 1.1.0"},
      {"invalid_capabilities", "make the capabilities agree with the supplied arrays and offsets"},
      {"duplicate_id", "make identifiers unique within their kind"},
      {"unknown_reference", "reference an existing page or element"},
      {"invalid_order", "number pages 1, 2, 3 ... in array order"},
      {"invalid_bbox", "submit a positive bounding box inside its page"},
      {"invalid_offsets", "make the Unicode scalar offsets select the span text exactly"},
      {"invalid_table", "correct the table cells' order, spans, boxes and overlaps"},
      {"invalid_invariant", "correct the value so the artifact's invariants hold"},
      {"limit_exceeded", "keep the artifact within the structural limits"}};
  auto it = messages.find(code);
  return it == messages.end() ? "invalid artifact" : it->second;
}

GroundingValidation validate_grounding_json(std::string_view bytes) {
  GroundingValidation out;
  out.representation_sha256 = sha256_prefixed(bytes);
  auto source = std::make_shared<Source>();
  try {
    JsonLimits limits;
    limits.max_depth = 64;
    const ParsedJson parsed = parse_strict(bytes, "source", limits);
    reject_nulls(parsed.root(), "$");
    ArtifactReader reader(*source);
    reader.read(parsed.root());
    out.source_sha256 = reader.source_sha256();
  } catch (const Failure& failure) {
    out.failure = GroundingFailure{failure.code, failure.path};
    return out;
  } catch (const EthosError& error) {
    const Failure failure = failure_of(error);
    out.failure = GroundingFailure{failure.code, failure.path};
    return out;
  }
  source->kind = "ethos-grounding-json";
  source->representation_sha256 = out.representation_sha256.substr(7);
  source->fingerprint = out.representation_sha256;
  // The artifact names the file it describes: crops render only from that PDF.
  source->source_fingerprint = out.source_sha256;
  record_line_end_hyphens(*source);
  record_unknown_field_warnings(*source);
  source->build_indexes();
  out.source = std::move(source);
  return out;
}

std::shared_ptr<Source> load_grounding_json(std::string_view bytes) {
  GroundingValidation result = validate_grounding_json(bytes);
  if (result.failure) {
    throw EthosError("invalid_input", "ethos-grounding-json adapter: " + result.failure->code,
                     {{"path", result.failure->path}, {"grounding_error", result.failure->code}});
  }
  return result.source;
}

std::string grounding_check(std::string_view bytes, std::string_view options_json) {
  std::optional<std::string> source_artifact;
  if (!options_json.empty()) {
    const ParsedJson options = parse_strict(options_json, "options");
    ObjectReader reader(options.root(), "$");
    source_artifact = reader.optional_string("source_artifact_sha256");
    reader.finish();
    if (source_artifact && !is_sha256_prefixed(*source_artifact)) {
      throw invalid_input("invalid value", "$.source_artifact_sha256", {{"input", "options"}});
    }
  }
  const GroundingValidation result = validate_grounding_json(bytes);
  json report = {{"artifact_type", "ethos.grounding_validation.v1"},
                 {"schema_version", "1.0.0"},
                 {"representation_sha256", result.representation_sha256}};
  if (result.failure) {
    report["structure"] = "invalid";
    report["source_binding"] = "not_checked";
    report["error"] = {{"code", result.failure->code},
                       {"path", result.failure->path},
                       {"message", grounding_failure_message(result.failure->code)}};
    return to_c14n(report);
  }
  const Source& source = *result.source;
  report["structure"] = "valid";
  report["source_binding"] =
      !source_artifact ? "not_checked" : (*source_artifact == result.source_sha256 ? "matched" : "mismatched");
  report["counts"] = {{"pages", static_cast<std::int64_t>(source.pages.size())},
                      {"elements", static_cast<std::int64_t>(source.elements.size())},
                      {"spans", static_cast<std::int64_t>(source.spans.size())},
                      {"tables", static_cast<std::int64_t>(source.tables.size())}};
  // Fields the contract does not define are read past, not rejected (issue 23 item 8): named here.
  if (!source.warnings.empty()) report["warnings"] = source.warnings;
  return to_c14n(report);
}

}  // namespace ethos::sources
