// page_layout_codec.cpp - PageLayout to and from canonical JSON, for the worker-to-parent pipe.
#include <string>

#include "core/error.hpp"
#include "json/c14n.hpp"
#include "pdf/layout.hpp"
#include "pdf/layout_model.hpp"

namespace ethos::pdf {
namespace {

using json = nlohmann::json;

json box(const Bbox& b) { return json::array({b.x0, b.y0, b.x1, b.y1}); }

Bbox read_box(const json& value) {
  if (!value.is_array() || value.size() != 4) throw std::invalid_argument("bbox");
  return {value.at(0).get<std::int64_t>(), value.at(1).get<std::int64_t>(), value.at(2).get<std::int64_t>(),
          value.at(3).get<std::int64_t>()};
}

std::vector<std::int64_t> read_ints(const json& value) { return value.get<std::vector<std::int64_t>>(); }

}  // namespace

std::string encode_page_layout(const PageLayout& layout) {
  json spans = json::array();
  for (const LayoutSpan& s : layout.spans) {
    spans.push_back({{"order", s.order}, {"bbox", box(s.bbox)}, {"text", s.text}, {"font_id", s.font_id},
                     {"font_size_q", s.font_size_q},
                     {"origins", {s.first_origin_x, s.first_origin_y, s.last_origin_x, s.last_origin_y}},
                     {"advances", s.advances}, {"element", s.element}, {"char_start", s.char_start},
                     {"char_end", s.char_end}});
  }
  json elements = json::array();
  for (const LayoutElement& e : layout.elements) {
    elements.push_back({{"type", e.type}, {"heading_level", e.heading_level}, {"bbox", box(e.bbox)}, {"text", e.text},
                        {"spans", e.spans}, {"line_breaks", e.line_breaks}, {"hyphen_breaks", e.hyphen_breaks},
                        {"table", e.table}, {"region", e.region}, {"font_size_q", e.font_size_q}});
  }
  json tables = json::array();
  for (const LayoutTable& t : layout.tables) {
    json cells = json::array();
    for (const LayoutCell& c : t.cells) {
      cells.push_back({{"row", c.row}, {"col", c.col}, {"row_span", c.row_span}, {"col_span", c.col_span},
                       {"bbox", box(c.bbox)}, {"text", c.text}});
    }
    tables.push_back({{"bbox", box(t.bbox)}, {"n_rows", t.n_rows}, {"n_cols", t.n_cols}, {"cells", cells}});
  }
  json regions = json::array();
  for (const LayoutRegion& r : layout.regions) regions.push_back({{"bbox", box(r.bbox)}, {"kind", r.kind}});
  json warnings = json::array();
  for (const LayoutWarning& w : layout.warnings) {
    warnings.push_back({{"code", w.code}, {"span", w.span}, {"region", w.region}});
  }
  const json out = {{"index", layout.index},       {"width", layout.width},   {"height", layout.height},
                    {"rotation", layout.rotation}, {"label", layout.label},   {"body_font_size_q", layout.body_font_size_q},
                    {"spans", spans},              {"elements", elements},    {"tables", tables},
                    {"regions", regions},          {"warnings", warnings}};
  return to_c14n(out);
}

PageLayout decode_page_layout(std::string_view bytes) {
  try {
    const json in = json::parse(bytes.begin(), bytes.end());
    PageLayout layout;
    layout.index = in.at("index").get<std::int64_t>();
    layout.width = in.at("width").get<std::int64_t>();
    layout.height = in.at("height").get<std::int64_t>();
    layout.rotation = in.at("rotation").get<std::int64_t>();
    layout.label = in.at("label").get<std::string>();
    layout.body_font_size_q = in.at("body_font_size_q").get<std::int64_t>();
    for (const json& s : in.at("spans")) {
      LayoutSpan span;
      span.order = s.at("order").get<std::int64_t>();
      span.bbox = read_box(s.at("bbox"));
      span.text = s.at("text").get<std::string>();
      span.font_id = s.at("font_id").get<std::string>();
      span.font_size_q = s.at("font_size_q").get<std::int64_t>();
      const std::vector<std::int64_t> origins = read_ints(s.at("origins"));
      if (origins.size() != 4) throw std::invalid_argument("origins");
      span.first_origin_x = origins[0];
      span.first_origin_y = origins[1];
      span.last_origin_x = origins[2];
      span.last_origin_y = origins[3];
      span.advances = read_ints(s.at("advances"));
      span.element = s.at("element").get<std::int64_t>();
      span.char_start = s.at("char_start").get<std::int64_t>();
      span.char_end = s.at("char_end").get<std::int64_t>();
      layout.spans.push_back(std::move(span));
    }
    for (const json& e : in.at("elements")) {
      LayoutElement element;
      element.type = e.at("type").get<std::string>();
      element.heading_level = e.at("heading_level").get<std::int64_t>();
      element.bbox = read_box(e.at("bbox"));
      element.text = e.at("text").get<std::string>();
      element.spans = read_ints(e.at("spans"));
      element.line_breaks = read_ints(e.at("line_breaks"));
      element.hyphen_breaks = read_ints(e.at("hyphen_breaks"));
      element.table = e.at("table").get<std::int64_t>();
      element.region = e.at("region").get<std::int64_t>();
      element.font_size_q = e.at("font_size_q").get<std::int64_t>();
      layout.elements.push_back(std::move(element));
    }
    for (const json& t : in.at("tables")) {
      LayoutTable table;
      table.bbox = read_box(t.at("bbox"));
      table.n_rows = t.at("n_rows").get<std::int64_t>();
      table.n_cols = t.at("n_cols").get<std::int64_t>();
      for (const json& c : t.at("cells")) {
        table.cells.push_back({c.at("row").get<std::int64_t>(), c.at("col").get<std::int64_t>(),
                               c.at("row_span").get<std::int64_t>(), c.at("col_span").get<std::int64_t>(),
                               read_box(c.at("bbox")), c.at("text").get<std::string>()});
      }
      layout.tables.push_back(std::move(table));
    }
    for (const json& r : in.at("regions")) layout.regions.push_back({read_box(r.at("bbox")), r.at("kind").get<std::string>()});
    for (const json& w : in.at("warnings")) {
      layout.warnings.push_back({w.at("code").get<std::string>(), w.at("span").get<std::int64_t>(), w.at("region").get<std::int64_t>()});
    }
    return layout;
  } catch (const std::exception&) {
    // The bytes come from our own worker: anything unreadable is a broken worker, not bad input.
    throw EthosError("internal_error", "a page layout could not be decoded");
  }
}

}  // namespace ethos::pdf
