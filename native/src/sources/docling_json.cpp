// docling_json.cpp - DoclingDocument JSON: pages, texts (with prov spans), tables with cells, pictures.
#include "sources/docling_json.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

#include "json/reader.hpp"
#include "json/sha256.hpp"
#include "sources/float_json.hpp"
#include "text/utf8.hpp"
#include "sources/line_end_hyphens.hpp"

namespace ethos::sources {
namespace {

using simdjson::dom::element_type;

const std::string kAdapter = "docling-json";
constexpr std::int64_t kMaxPages = 10000;

[[noreturn]] void fail(const char* reason, const std::string& path) { adapter_fail(kAdapter, reason, path); }

std::optional<JsonValue> field(const simdjson::dom::object& object, std::string_view key) {
  JsonValue value;
  if (object.at_key(key).get(value) != simdjson::SUCCESS || value.is_null()) return std::nullopt;
  return value;
}

simdjson::dom::object object_at(JsonValue value, const std::string& path) {
  if (value.type() != element_type::OBJECT) fail("expected an object", path);
  return value.get_object().value_unsafe();
}

simdjson::dom::array array_at(JsonValue value, const std::string& path) {
  if (value.type() != element_type::ARRAY) fail("expected an array", path);
  return value.get_array().value_unsafe();
}

std::string string_at(JsonValue value, const std::string& path) {
  if (value.type() != element_type::STRING) fail("expected a string", path);
  return std::string(value.get_string().value_unsafe());
}

std::int64_t int_at(JsonValue value, const std::string& path, std::int64_t min, std::int64_t max) {
  if (value.type() != element_type::INT64) fail("expected an integer", path);
  const std::int64_t n = value.get_int64().value_unsafe();
  if (n < min || n > max) fail("value out of range", path);
  return n;
}

std::string page_id(std::int64_t number) { return "page-" + std::to_string(number); }

class DoclingReader {
 public:
  explicit DoclingReader(Source& source) : source_(source) {}

  void read(const simdjson::dom::object& root) {
    const auto schema = field(root, "schema_name");
    if (!schema || schema->type() != element_type::STRING || schema->get_string().value_unsafe() != "DoclingDocument") {
      fail("not a DoclingDocument (schema_name)", "$.schema_name");
    }
    source_.parser.name = "docling-document";
    const auto version = field(root, "version");
    source_.parser.version = version ? string_at(*version, "$.version") : "unknown";
    if (const auto pages = field(root, "pages")) read_pages(object_at(*pages, "$.pages"));
    // Reading order: the body tree, then the furniture (running headers and footers).
    for (const char* tree : {"body", "furniture"}) {
      if (const auto node = field(root, tree)) walk(root, object_at(*node, std::string("$.") + tree), std::string("$.") + tree, 0);
    }
  }

 private:
  void read_pages(const simdjson::dom::object& pages) {
    std::map<std::int64_t, Page> ordered;
    for (auto entry : pages) {
      const std::string path = "$.pages." + std::string(entry.key);
      const simdjson::dom::object page = object_at(entry.value, path);
      const auto number = field(page, "page_no");
      if (!number) fail("missing page_no", path);
      const std::int64_t n = int_at(*number, path + ".page_no", 1, kMaxPages);
      const auto size = field(page, "size");
      if (!size) fail("missing size", path);
      const simdjson::dom::object size_object = object_at(*size, path + ".size");
      const auto width = field(size_object, "width");
      const auto height = field(size_object, "height");
      if (!width || !height) fail("missing size", path + ".size");
      Page out;
      out.id = page_id(n);
      out.index = n;
      out.width = to_quanta(json_number(*width, path + ".size.width", kAdapter), path + ".size.width", kAdapter);
      out.height = to_quanta(json_number(*height, path + ".size.height", kAdapter), path + ".size.height", kAdapter);
      if (out.width <= 0 || out.height <= 0) fail("page size must be positive", path + ".size");
      if (!ordered.emplace(n, std::move(out)).second) fail("duplicate page_no", path + ".page_no");
    }
    if (ordered.size() > static_cast<std::size_t>(kMaxPages)) fail("too many pages", "$.pages");
    for (auto& [n, page] : ordered) {
      page_index_.emplace(n, source_.pages.size());
      source_.pages.push_back(std::move(page));
    }
  }

  // Resolves a "#/texts/3"-style reference to the item and its path.
  std::pair<simdjson::dom::object, std::string> resolve(const simdjson::dom::object& root, const std::string& ref,
                                                       const std::string& path) {
    if (ref.rfind("#/", 0) != 0) fail("invalid reference", path);
    const std::size_t slash = ref.find('/', 2);
    if (slash == std::string::npos) fail("invalid reference", path);
    const std::string list = ref.substr(2, slash - 2);
    const std::string index_text = ref.substr(slash + 1);
    if (index_text.empty() || index_text.size() > 9 || index_text.find_first_not_of("0123456789") != std::string::npos) {
      fail("invalid reference", path);
    }
    const auto items = field(root, list);
    if (!items) fail("unknown reference", path);
    const simdjson::dom::array array = array_at(*items, "$." + list);
    const std::size_t index = static_cast<std::size_t>(std::stoul(index_text));
    JsonValue item;
    if (array.at(index).get(item) != simdjson::SUCCESS) fail("unknown reference", path);
    return {object_at(item, index_path("$." + list, index)), list};
  }

  void walk(const simdjson::dom::object& root, const simdjson::dom::object& node, const std::string& path, std::size_t depth) {
    if (depth > 256) fail("nesting too deep", path);
    const auto children = field(node, "children");
    if (!children) return;
    const simdjson::dom::array list = array_at(*children, path + ".children");
    std::size_t i = 0;
    for (JsonValue child : list) {
      const std::string child_path = index_path(path + ".children", i++);
      const auto ref_value = field(object_at(child, child_path), "$ref");
      if (!ref_value) fail("missing $ref", child_path);
      const std::string ref = string_at(*ref_value, child_path + ".$ref");
      if (!visited_.insert(ref).second) fail("item referenced twice", child_path);
      const auto [item, list_name] = resolve(root, ref, child_path + ".$ref");
      const std::string item_path = ref;
      if (list_name == "texts") {
        add_text(item, ref);
      } else if (list_name == "tables") {
        add_table(item, ref);
      } else if (list_name == "pictures") {
        add_element(item, ref, "picture", std::nullopt);
      } else if (list_name != "groups" && list_name != "key_value_items" && list_name != "form_items") {
        fail("unknown reference", child_path + ".$ref");
      }
      walk(root, item, item_path, depth + 1);  // groups and items may nest children
    }
  }

  // The page and top-left bbox of an item's first provenance (Docling boxes say their origin).
  struct Located {
    std::string page;
    std::optional<Bbox> bbox;
  };

  std::optional<Bbox> read_box(JsonValue value, const std::string& path, const Page& page) {
    const simdjson::dom::object box = object_at(value, path);
    double v[4] = {0, 0, 0, 0};
    const char* keys[4] = {"l", "t", "r", "b"};
    for (int k = 0; k < 4; ++k) {
      const auto number = field(box, keys[k]);
      if (!number) fail("a bbox has l, t, r and b", path);
      v[k] = json_number(*number, path + "." + keys[k], kAdapter);
    }
    std::string origin = "TOPLEFT";
    if (const auto o = field(box, "coord_origin")) origin = string_at(*o, path + ".coord_origin");
    const std::int64_t l = to_quanta(v[0], path, kAdapter), t = to_quanta(v[1], path, kAdapter);
    const std::int64_t r = to_quanta(v[2], path, kAdapter), b = to_quanta(v[3], path, kAdapter);
    Bbox out;
    if (origin == "TOPLEFT") {
      out = Bbox{l, t, r, b};
    } else if (origin == "BOTTOMLEFT") {
      out = Bbox{l, page.height - t, r, page.height - b};  // flipped to the top-left origin
    } else {
      fail("unknown coord_origin", path + ".coord_origin");
    }
    if (out.x0 > out.x1 || out.y0 > out.y1) fail("inverted bbox", path);
    return out;
  }

  const Page& page_of(JsonValue value, const std::string& path) {
    const std::int64_t n = int_at(value, path, 1, kMaxPages);
    auto it = page_index_.find(n);
    if (it == page_index_.end()) fail("unknown page", path);
    return source_.pages[it->second];
  }

  Located first_prov(const simdjson::dom::object& item, const std::string& ref) {
    const auto prov = field(item, "prov");
    if (!prov) return {};
    const simdjson::dom::array list = array_at(*prov, ref + ".prov");
    JsonValue first;
    if (list.at(0).get(first) != simdjson::SUCCESS) return {};
    const std::string path = ref + ".prov[0]";
    const simdjson::dom::object p = object_at(first, path);
    const auto number = field(p, "page_no");
    if (!number) fail("missing page_no", path);
    const Page& page = page_of(*number, path + ".page_no");
    Located out{page.id, std::nullopt};
    if (const auto box = field(p, "bbox")) out.bbox = read_box(*box, path + ".bbox", page);
    return out;
  }

  std::size_t add_element(const simdjson::dom::object& item, const std::string& ref, std::string kind,
                          std::optional<std::string> text) {
    if (const auto label = field(item, "label")) kind = string_at(*label, ref + ".label");
    Element element;
    element.id = ref;
    element.kind = kind;
    const Located at = first_prov(item, ref);
    element.page = at.page;
    element.bbox = at.bbox;
    element.text = std::move(text);
    if (const auto level = field(item, "level"); level && level->type() == element_type::INT64) {
      const std::int64_t l = level->get_int64().value_unsafe();
      if (l >= 1 && l <= 9) element.heading_level = l;
    }
    source_.elements.push_back(std::move(element));
    return source_.elements.size() - 1;
  }

  // A text item is an element; each provenance whose charspan selects part of its text is a
  // span (offsets in Unicode scalars, like Python's str indices that Docling writes).
  void add_text(const simdjson::dom::object& item, const std::string& ref) {
    const auto text_value = field(item, "text");
    if (!text_value) fail("missing text", ref);
    const std::string text = string_at(*text_value, ref + ".text");
    const std::size_t element = add_element(item, ref, "text", text);
    const auto prov = field(item, "prov");
    if (!prov) return;
    const simdjson::dom::array list = array_at(*prov, ref + ".prov");
    const std::size_t length = utf8::scalar_count(text);
    std::size_t i = 0;
    for (JsonValue p_value : list) {
      const std::string path = index_path(ref + ".prov", i);
      const simdjson::dom::object p = object_at(p_value, path);
      const auto number = field(p, "page_no");
      const auto box = field(p, "bbox");
      const auto charspan = field(p, "charspan");
      ++i;
      if (!number || !box || !charspan) continue;
      const simdjson::dom::array range = array_at(*charspan, path + ".charspan");
      if (range.size() != 2) fail("a charspan has two integers", path + ".charspan");
      const std::int64_t start = int_at(range.at(0).value_unsafe(), path + ".charspan[0]", 0, 1 << 30);
      const std::int64_t end = int_at(range.at(1).value_unsafe(), path + ".charspan[1]", 0, 1 << 30);
      if (start >= end || static_cast<std::size_t>(end) > length) continue;  // not a slice of this text
      const Page& page = page_of(*number, path + ".page_no");
      Span span;
      span.id = ref + "/prov/" + std::to_string(i - 1);
      span.page = page.id;
      span.bbox = read_box(*box, path + ".bbox", page);
      const std::size_t from = utf8::byte_offset_of_scalar(text, static_cast<std::size_t>(start));
      const std::size_t to = utf8::byte_offset_of_scalar(text, static_cast<std::size_t>(end));
      span.text = text.substr(from, to - from);
      span.element = element;
      span.char_start = start;
      span.char_end = end;
      source_.spans.push_back(std::move(span));
    }
  }

  // A table is an element (its rows joined by newlines, cells by " | ") and a table with
  // 0-based cells from data.table_cells.
  void add_table(const simdjson::dom::object& item, const std::string& ref) {
    Table table;
    table.id = ref;
    const Located at = first_prov(item, ref);
    table.page = at.page;
    table.bbox = at.bbox;
    const Page* page = nullptr;
    for (const Page& candidate : source_.pages) {
      if (candidate.id == at.page) page = &candidate;
    }
    std::map<std::int64_t, std::map<std::int64_t, std::string>> grid;
    if (const auto data = field(item, "data")) {
      const simdjson::dom::object data_object = object_at(*data, ref + ".data");
      if (const auto cells = field(data_object, "table_cells")) {
        const std::string cells_path = ref + ".data.table_cells";
        std::set<std::pair<std::int64_t, std::int64_t>> occupied;
        std::size_t i = 0;
        for (JsonValue cell_value : array_at(*cells, cells_path)) {
          const std::string path = index_path(cells_path, i++);
          const simdjson::dom::object c = object_at(cell_value, path);
          auto need = [&](const char* key) {
            const auto value = field(c, key);
            if (!value) fail("missing cell offsets", path);
            return int_at(*value, path + "." + key, 0, 1000000);
          };
          Cell cell;
          cell.row = need("start_row_offset_idx");
          cell.col = need("start_col_offset_idx");
          cell.row_span = need("end_row_offset_idx") - cell.row;
          cell.col_span = need("end_col_offset_idx") - cell.col;
          if (cell.row_span < 1 || cell.col_span < 1) fail("empty cell range", path);
          const auto text = field(c, "text");
          cell.text = text ? string_at(*text, path + ".text") : std::string();
          if (const auto box = field(c, "bbox"); box && page != nullptr) cell.bbox = read_box(*box, path + ".bbox", *page);
          for (std::int64_t r = cell.row; r < cell.row + cell.row_span; ++r) {
            for (std::int64_t k = cell.col; k < cell.col + cell.col_span; ++k) {
              if (!occupied.emplace(r, k).second) fail("overlapping cells", cells_path);
            }
          }
          grid[cell.row][cell.col] = cell.text;
          table.cells.push_back(std::move(cell));
        }
      }
    }
    std::string text;
    for (const auto& [row, cells] : grid) {
      if (!text.empty()) text += '\n';
      bool first = true;
      for (const auto& [col, cell_text] : cells) {
        if (!first) text += " | ";
        text += cell_text;
        first = false;
      }
    }
    add_element(item, ref, "table", text.empty() ? std::nullopt : std::optional<std::string>(text));
    source_.tables.push_back(std::move(table));
  }

  Source& source_;
  std::map<std::int64_t, std::size_t> page_index_;
  std::unordered_set<std::string> visited_;
};

}  // namespace

std::shared_ptr<Source> load_docling_json(std::string_view bytes) {
  const ParsedJson parsed = parse_float_json(bytes, kAdapter);
  auto source = std::make_shared<Source>();
  source->kind = "docling-json";
  source->representation_sha256 = sha256_hex(bytes);
  source->fingerprint = "sha256:" + source->representation_sha256;
  DoclingReader(*source).read(parsed.root().get_object().value_unsafe());
  source->parser.adapter = kAdapter;
  source->parser.adapter_version = "1.0.0";
  source->capabilities.spans = true;
  source->capabilities.char_offsets = true;
  source->capabilities.tables = true;
  source->capabilities.fingerprint = true;
  source->capabilities.coordinate_origin = "top-left";
  source->capabilities.crop_support = false;
  record_line_end_hyphens(*source);
  source->build_indexes();
  return source;
}

}  // namespace ethos::sources
