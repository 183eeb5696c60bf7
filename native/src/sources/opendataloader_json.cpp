// opendataloader_json.cpp - OpenDataLoader JSON: the documented subset and the real ODL 2.x tree.
#include "sources/opendataloader_json.hpp"

#include <map>
#include <set>
#include <unordered_set>

#include "core/error.hpp"
#include "json/reader.hpp"
#include "json/sha256.hpp"
#include "json/strict_json.hpp"
#include "sources/float_json.hpp"
#include "sources/line_end_hyphens.hpp"
#include "sources/unknown_fields.hpp"

namespace ethos::sources {
namespace {

using simdjson::dom::element_type;

constexpr const char* kAdapterVersion = "0.2.0";
constexpr std::int64_t kMaxPages = 10000;
constexpr std::size_t kMaxDepth = 256;

// Every mapping failure: exit 2 with a fixed "opendataloader-json adapter: <reason>" message.
[[noreturn]] void fail(const char* reason, const std::string& path) { adapter_fail("opendataloader-json", reason, path); }

const std::string kAdapter = "opendataloader-json";

double number(JsonValue value, const std::string& path) { return json_number(value, path, kAdapter); }
std::int64_t quanta(double points, const std::string& path) { return to_quanta(points, path, kAdapter); }

std::int64_t page_number(JsonValue value, const std::string& path) {
  if (value.type() != element_type::INT64 && value.type() != element_type::UINT64) fail("invalid page number", path);
  const std::int64_t n = value.type() == element_type::INT64 ? value.get_int64().value_unsafe()
                                                              : static_cast<std::int64_t>(kMaxPages + 1);
  if (n < 1 || n > kMaxPages) fail("invalid page number", path);
  return n;
}

// A bbox of four finite numbers in points, not inverted, with a positive area.
Bbox read_bbox(JsonValue value, const std::string& path) {
  if (value.type() != element_type::ARRAY) fail("a bbox has four numbers", path);
  const simdjson::dom::array list = value.get_array().value_unsafe();
  if (list.size() != 4) fail("a bbox has four numbers", path);
  std::int64_t v[4] = {0, 0, 0, 0};
  std::size_t i = 0;
  for (JsonValue item : list) {
    v[i] = quanta(number(item, index_path(path, i)), index_path(path, i));
    ++i;
  }
  const Bbox box{v[0], v[1], v[2], v[3]};
  if (box.x0 > box.x1 || box.y0 > box.y1) fail("inverted bbox", path);
  if (box.x0 == box.x1 || box.y0 == box.y1) fail("bbox without area", path);
  return box;
}

std::string page_id(std::int64_t number) { return "page-" + std::to_string(number); }

std::string id_text(JsonValue value, const std::string& path) {
  if (value.type() == element_type::INT64) return std::to_string(value.get_int64().value_unsafe());
  if (value.type() == element_type::UINT64) return std::to_string(value.get_uint64().value_unsafe());
  if (value.type() == element_type::STRING) {
    std::string_view text = value.get_string().value_unsafe();
    if (!text.empty()) return std::string(text);
  }
  fail("invalid id", path);
}

void set_capabilities(Source& source, bool tables, bool fingerprint) {
  source.capabilities.spans = false;
  source.capabilities.char_offsets = false;
  source.capabilities.tables = tables;
  source.capabilities.fingerprint = fingerprint;
  source.capabilities.coordinate_origin = "unknown";  // ODL does not declare its box semantics
  source.capabilities.crop_support = false;
}

// Cells of one table may not cover the same (row, col) slot twice.
void check_cells(const Table& table, const std::string& path) {
  std::set<std::pair<std::int64_t, std::int64_t>> occupied;
  for (const Cell& cell : table.cells) {
    for (std::int64_t r = cell.row; r < cell.row + cell.row_span; ++r) {
      for (std::int64_t c = cell.col; c < cell.col + cell.col_span; ++c) {
        if (!occupied.emplace(r, c).second) fail("overlapping cells", path);
        if (occupied.size() > 1000000) fail("too many cells", path);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The documented subset: {tool, pages, elements, tables?, source_fingerprint?}.

class SubsetReader {
 public:
  explicit SubsetReader(Source& source) : source_(source) {}

  void read(JsonValue root) {
    ObjectReader top(root, "$");
    ObjectReader tool(top.required("tool"), "$.tool");
    source_.parser.name = tool.required_string("name");
    source_.parser.version = tool.required_string("version");
    tool.finish(&source_.unknown_fields);
    const JsonValue pages = top.required("pages");
    const JsonValue elements = top.required("elements");
    const std::optional<JsonValue> tables = top.optional("tables");
    const std::optional<std::string> fingerprint = top.optional_string("source_fingerprint");
    top.finish(&source_.unknown_fields);
    if (fingerprint && !is_sha256_prefixed(*fingerprint)) fail("invalid source_fingerprint", "$.source_fingerprint");
    source_.fingerprint = fingerprint;
    set_capabilities(source_, tables.has_value(), fingerprint.has_value());
    read_pages(pages);
    read_elements(elements);
    if (tables) read_tables(*tables);
  }

 private:
  void read_pages(JsonValue value) {
    const simdjson::dom::array items = expect_array(value, kPagesPath);
    if (items.size() > static_cast<std::size_t>(kMaxPages)) fail("too many pages", kPagesPath);
    std::size_t i = 0;
    for (JsonValue item : items) {
      const std::string path = index_path(kPagesPath, i);
      ObjectReader reader(item, path);
      const std::int64_t n = page_number(reader.required("number"), reader.child_path("number"));
      Page page;
      page.id = page_id(n);
      page.index = n;
      page.width = quanta(number(reader.required("width"), reader.child_path("width")), reader.child_path("width"));
      page.height = quanta(number(reader.required("height"), reader.child_path("height")), reader.child_path("height"));
      reader.finish(&source_.unknown_fields);
      if (page.width <= 0 || page.height <= 0) fail("page size must be positive", path);
      if (pages_.count(page.id) != 0) fail("duplicate page number", reader.child_path("number"));
      pages_.emplace(page.id, source_.pages.size());
      source_.pages.push_back(std::move(page));
      ++i;
    }
  }

  const Page& page_at(JsonValue value, const std::string& path) {
    auto it = pages_.find(page_id(page_number(value, path)));
    if (it == pages_.end()) fail("unknown page", path);
    return source_.pages[it->second];
  }

  static void check_inside(const Bbox& box, const Page& page, const std::string& path) {
    if (box.x0 < 0 || box.y0 < 0 || box.x1 > page.width || box.y1 > page.height) fail("bbox outside its page", path);
  }

  void read_elements(JsonValue value) {
    const simdjson::dom::array items = expect_array(value, kElementsPath);
    std::unordered_set<std::string> ids;
    std::size_t i = 0;
    for (JsonValue item : items) {
      const std::string path = index_path(kElementsPath, i);
      ObjectReader reader(item, path);
      Element element;
      const std::optional<std::string> id = reader.optional_string("id");
      element.id = id ? *id : "odl-el-" + std::to_string(i + 1);
      const Page& page = page_at(reader.required("page"), reader.child_path("page"));
      element.page = page.id;
      element.bbox = read_bbox(reader.required("bbox"), reader.child_path("bbox"));
      check_inside(*element.bbox, page, reader.child_path("bbox"));
      const std::optional<std::string> type = reader.optional_string("type");
      element.kind = type ? lowercase(*type) : "unknown";
      element.text = reader.optional_string("text");
      reader.finish(&source_.unknown_fields);
      if (element.id.empty()) fail("invalid id", reader.child_path("id"));
      if (!ids.insert(element.id).second) fail("duplicate id", reader.child_path("id"));
      source_.elements.push_back(std::move(element));
      ++i;
    }
  }

  void read_tables(JsonValue value) {
    const simdjson::dom::array items = expect_array(value, kTablesPath);
    std::unordered_set<std::string> ids;
    std::size_t i = 0;
    for (JsonValue item : items) {
      const std::string path = index_path(kTablesPath, i);
      ObjectReader reader(item, path);
      Table table;
      table.id = reader.required_string("id");
      const Page& page = page_at(reader.required("page"), reader.child_path("page"));
      table.page = page.id;
      table.bbox = read_bbox(reader.required("bbox"), reader.child_path("bbox"));
      check_inside(*table.bbox, page, reader.child_path("bbox"));
      const std::string cells_path = reader.child_path("cells");
      const simdjson::dom::array cells = expect_array(reader.required("cells"), cells_path);
      reader.finish(&source_.unknown_fields);
      if (table.id.empty()) fail("invalid id", reader.child_path("id"));
      if (!ids.insert(table.id).second) fail("duplicate id", reader.child_path("id"));
      std::size_t j = 0;
      for (JsonValue item_cell : cells) {
        const std::string cell_path = index_path(cells_path, j);
        ObjectReader cell_reader(item_cell, cell_path);
        Cell cell;
        cell.row = cell_reader.required_int("row", 0, 1000000);
        cell.col = cell_reader.required_int("col", 0, 1000000);
        cell.row_span = cell_reader.optional_int("row_span", 1, 1000000).value_or(1);
        cell.col_span = cell_reader.optional_int("col_span", 1, 1000000).value_or(1);
        cell.bbox = read_bbox(cell_reader.required("bbox"), cell_reader.child_path("bbox"));
        check_inside(*cell.bbox, page, cell_reader.child_path("bbox"));
        cell.text = cell_reader.required_string("text");
        cell_reader.finish(&source_.unknown_fields);
        if (cell.text.find_first_not_of(" \t\n\r\f\v") == std::string::npos) fail("blank cell text", cell_reader.child_path("text"));
        table.cells.push_back(std::move(cell));
        ++j;
      }
      check_cells(table, cells_path);
      source_.tables.push_back(std::move(table));
      ++i;
    }
  }

  static std::string lowercase(std::string text) {
    for (char& c : text) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return text;
  }

  const std::string kPagesPath = "$.pages", kElementsPath = "$.elements", kTablesPath = "$.tables";
  Source& source_;
  std::map<std::string, std::size_t> pages_;
};

// ---------------------------------------------------------------------------------------------
// The real ODL 2.x tree: {"file name", "number of pages", kids: [node...]}; nodes nest through
// kids / children / list items / list_items / rows[].cells.

const char* const kChildKeys[] = {"kids", "children", "list items", "list_items"};

std::optional<JsonValue> field(const simdjson::dom::object& object, std::string_view key) {
  JsonValue value;
  if (object.at_key(key).get(value) != simdjson::SUCCESS) return std::nullopt;
  return value;
}

std::optional<std::string_view> string_field(const simdjson::dom::object& object, std::string_view key) {
  auto value = field(object, key);
  if (!value || value->type() != element_type::STRING) return std::nullopt;
  return value->get_string().value_unsafe();
}

class TreeReader {
 public:
  explicit TreeReader(Source& source) : source_(source) {}

  void read(const simdjson::dom::object& root) {
    const std::int64_t pages = page_count(root);
    source_.parser.name = "opendataloader-pdf";
    source_.parser.version = "unknown";  // the tree does not name the ODL version that wrote it
    set_capabilities(source_, true, false);
    extents_.assign(static_cast<std::size_t>(pages), Bbox{});
    walk_children(root, "$", 0);
    for (std::int64_t n = 1; n <= pages; ++n) {
      Page page;
      page.id = page_id(n);
      page.index = n;
      // The tree carries no page sizes: the extent of the boxes seen on the page stands in.
      page.width = extents_[static_cast<std::size_t>(n - 1)].x1;
      page.height = extents_[static_cast<std::size_t>(n - 1)].y1;
      source_.pages.push_back(std::move(page));
    }
  }

 private:
  static std::int64_t page_count(const simdjson::dom::object& root) {
    const auto value = field(root, "number of pages");
    if (!value || (value->type() != element_type::INT64 && value->type() != element_type::UINT64)) {
      fail("invalid number of pages", "$.number of pages");
    }
    const std::int64_t n = value->type() == element_type::INT64 ? value->get_int64().value_unsafe() : kMaxPages + 1;
    if (n < 0) fail("invalid number of pages", "$.number of pages");
    if (n > kMaxPages) fail("too many pages", "$.number of pages");
    return n;
  }

  void walk_children(const simdjson::dom::object& node, const std::string& path, std::size_t depth) {
    for (const char* key : kChildKeys) {
      const auto value = field(node, key);
      if (!value) continue;
      const std::string list_path = path + "." + key;
      if (value->type() != element_type::ARRAY) fail("expected an array", list_path);
      const simdjson::dom::array items = value->get_array().value_unsafe();
      std::size_t i = 0;
      for (JsonValue item : items) {
        walk(item, index_path(list_path, i), depth + 1);
        ++i;
      }
    }
  }

  // Visits one node in document order; returns the texts of the node and its descendants.
  std::vector<std::string> walk(JsonValue value, const std::string& path, std::size_t depth) {
    if (depth > kMaxDepth) fail("nesting too deep", path);
    if (value.type() != element_type::OBJECT) fail("expected an object", path);
    const simdjson::dom::object node = value.get_object().value_unsafe();
    std::vector<std::string> texts;
    for (const char* key : {"content", "text"}) {
      if (auto own = string_field(node, key)) {
        if (!own->empty()) texts.emplace_back(*own);
        break;
      }
    }

    // Reserve this node's element slot first: elements are in document (pre-)order.
    std::optional<std::size_t> slot;
    const auto page_value = field(node, "page number");
    const auto box_value = field(node, "bounding box");
    std::string page;
    if (page_value && box_value) {
      const std::int64_t n = page_number(*page_value, path + ".page number");
      if (n > static_cast<std::int64_t>(extents_.size())) fail("unknown page", path + ".page number");
      page = page_id(n);
      Element element;
      element.page = page;
      element.bbox = read_bbox(*box_value, path + ".bounding box");
      if (element.bbox->x0 < 0 || element.bbox->y0 < 0) fail("bbox outside its page", path + ".bounding box");
      Bbox& extent = extents_[static_cast<std::size_t>(n - 1)];
      extent.x1 = std::max(extent.x1, element.bbox->x1);
      extent.y1 = std::max(extent.y1, element.bbox->y1);
      const std::optional<std::string_view> type = string_field(node, "type");
      element.kind = type ? kind_of(*type) : "unknown";
      element.id = element_id(node, path);
      if (auto level = field(node, "heading level"); level && level->type() == element_type::INT64) {
        const std::int64_t l = level->get_int64().value_unsafe();
        if (l >= 1 && l <= 9) element.heading_level = l;
      }
      slot = source_.elements.size();
      source_.elements.push_back(std::move(element));
    }

    std::vector<std::string> below;
    for (const char* key : kChildKeys) {
      const auto children = field(node, key);
      if (!children) continue;
      const std::string list_path = path + "." + key;
      if (children->type() != element_type::ARRAY) fail("expected an array", list_path);
      std::size_t i = 0;
      const simdjson::dom::array items = children->get_array().value_unsafe();  // named: iterators borrow it
      for (JsonValue child : items) {
        for (std::string& text : walk(child, index_path(list_path, i), depth + 1)) below.push_back(std::move(text));
        ++i;
      }
    }
    if (const auto rows = field(node, "rows")) {
      const std::optional<Bbox> box = slot ? source_.elements[*slot].bbox : std::nullopt;
      below_rows(node, *rows, path, depth, page, box, below);
    }
    for (std::string& text : below) texts.push_back(std::move(text));

    if (slot && !texts.empty()) source_.elements[*slot].text = join(texts);
    return texts;
  }

  // A node with rows is a table; its cells (1-based "row number"/"column number" in the tree)
  // become 0-based cells, and each cell is also walked as an element.
  void below_rows(const simdjson::dom::object& node, JsonValue rows, const std::string& path, std::size_t depth,
                  const std::string& page, const std::optional<Bbox>& box, std::vector<std::string>& below) {
    const std::string rows_path = path + ".rows";
    if (rows.type() != element_type::ARRAY) fail("expected an array", rows_path);
    Table table;
    table.page = page;
    table.bbox = box;
    std::size_t r = 0;
    const simdjson::dom::array row_list = rows.get_array().value_unsafe();
    for (JsonValue row : row_list) {
      const std::string row_path = index_path(rows_path, r);
      if (row.type() != element_type::OBJECT) fail("expected an object", row_path);
      const auto cells = field(row.get_object().value_unsafe(), "cells");
      if (!cells || cells->type() != element_type::ARRAY) fail("expected an array", row_path + ".cells");
      std::size_t c = 0;
      const simdjson::dom::array cell_list = cells->get_array().value_unsafe();
      for (JsonValue cell_value : cell_list) {
        const std::string cell_path = index_path(row_path + ".cells", c);
        const std::size_t first_element = source_.elements.size();
        std::vector<std::string> texts = walk(cell_value, cell_path, depth + 2);
        const simdjson::dom::object cell_node = cell_value.get_object().value_unsafe();
        Cell cell;
        cell.row = address(cell_node, "row number", cell_path) - 1;
        cell.col = address(cell_node, "column number", cell_path) - 1;
        cell.row_span = span(cell_node, "row span", cell_path);
        cell.col_span = span(cell_node, "column span", cell_path);
        if (first_element < source_.elements.size() && source_.elements[first_element].page == page) {
          cell.bbox = source_.elements[first_element].bbox;
        }
        cell.text = join(texts);
        for (std::string& text : texts) below.push_back(std::move(text));
        table.cells.push_back(std::move(cell));
        ++c;
      }
      ++r;
    }
    if (page.empty()) return;  // a table without a page cannot be cited by page or located
    const auto id = field(node, "id");
    table.id = id ? "odl-" + id_text(*id, path + ".id") : "odl-table-" + std::to_string(source_.tables.size() + 1);
    check_cells(table, rows_path);
    if (!table_ids_.insert(table.id).second) fail("duplicate id", path + ".id");
    source_.tables.push_back(std::move(table));
  }

  static std::int64_t address(const simdjson::dom::object& cell, std::string_view key, const std::string& path) {
    const auto value = field(cell, key);
    if (!value || value->type() != element_type::INT64) fail("invalid cell address", path + "." + std::string(key));
    const std::int64_t n = value->get_int64().value_unsafe();
    if (n < 1 || n > 1000000) fail("invalid cell address", path + "." + std::string(key));
    return n;
  }

  static std::int64_t span(const simdjson::dom::object& cell, std::string_view key, const std::string& path) {
    const auto value = field(cell, key);
    if (!value) return 1;
    if (value->type() != element_type::INT64) fail("invalid cell span", path + "." + std::string(key));
    const std::int64_t n = value->get_int64().value_unsafe();
    if (n < 1 || n > 1000000) fail("invalid cell span", path + "." + std::string(key));
    return n;
  }

  std::string element_id(const simdjson::dom::object& node, const std::string& path) {
    const auto id = field(node, "id");
    std::string out = id ? "odl-" + id_text(*id, path + ".id") : "odl-el-" + std::to_string(source_.elements.size() + 1);
    if (!element_ids_.insert(out).second) fail("duplicate id", path + ".id");
    return out;
  }

  // "list item" -> "list_item", "Heading" -> "heading".
  static std::string kind_of(std::string_view type) {
    std::string out;
    for (char c : type) {
      if (c >= 'A' && c <= 'Z') {
        out.push_back(static_cast<char>(c - 'A' + 'a'));
      } else if (c == ' ' || c == '-') {
        out.push_back('_');
      } else {
        out.push_back(c);
      }
    }
    return out.empty() ? "unknown" : out;
  }

  static std::string join(const std::vector<std::string>& texts) {
    std::string out;
    for (std::size_t i = 0; i < texts.size(); ++i) {
      if (i) out += '\n';
      out += texts[i];
    }
    return out;
  }

  Source& source_;
  std::vector<Bbox> extents_;
  std::unordered_set<std::string> element_ids_, table_ids_;
};

}  // namespace

std::shared_ptr<Source> load_opendataloader_json(std::string_view bytes) {
  const ParsedJson parsed = parse_float_json(bytes, kAdapter);
  const JsonValue root = parsed.root();
  const simdjson::dom::object object = root.get_object().value_unsafe();

  auto source = std::make_shared<Source>();
  source->kind = "opendataloader-json";
  source->representation_sha256 = sha256_hex(bytes);
  try {
    if (field(object, "tool")) {
      SubsetReader(*source).read(root);
    } else if (field(object, "file name") && field(object, "number of pages") && field(object, "kids")) {
      TreeReader(*source).read(object);
    } else {
      fail("neither the documented subset (tool) nor an OpenDataLoader tree (file name, number of pages, kids)", "$");
    }
  } catch (const EthosError& error) {
    // The typed reader's own messages (unknown field, missing field ...) get the adapter prefix.
    const std::string message = error.what();
    if (error.code() != "invalid_input" || message.rfind("opendataloader-json adapter: ", 0) == 0) throw;
    throw EthosError("invalid_input", "opendataloader-json adapter: " + message, error.details());
  }
  source->parser.adapter = "opendataloader-json";
  source->parser.adapter_version = kAdapterVersion;
  record_line_end_hyphens(*source);
  record_unknown_field_warnings(*source);
  source->build_indexes();
  return source;
}

}  // namespace ethos::sources
