// render.cpp - Markdown and plain-text renderings of an assembled document, in reading order.
#include <map>
#include <string>
#include <vector>

#include "core/native_document.hpp"
#include "json/strict_json.hpp"
#include "pdf/layout.hpp"
#include "text/utf8.hpp"

namespace ethos::pdf {
namespace {

using json = nlohmann::json;

std::string one_line(const std::string& text) {
  std::string out;
  for (char c : text) out.push_back(c == '\n' || c == '\r' ? ' ' : c);
  return out;
}

// A pipe-table cell: pipes escaped, line breaks flattened.
std::string cell_text(const std::string& text) {
  std::string out;
  for (char c : one_line(text)) {
    if (c == '|') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

std::string pipe_table(const json& table) {
  const auto rows = table.at("n_rows").get<std::size_t>();
  const auto cols = table.at("n_cols").get<std::size_t>();
  std::vector<std::vector<std::string>> grid(rows, std::vector<std::string>(cols));
  for (const json& cell : table.at("cells")) {
    grid[cell.at("row").get<std::size_t>()][cell.at("col").get<std::size_t>()] = cell_text(cell.at("text").get<std::string>());
  }
  std::string out;
  for (std::size_t r = 0; r < rows; ++r) {
    out += "|";
    for (const std::string& text : grid[r]) out += " " + text + " |";
    out += "\n";
    if (r == 0) {
      out += "|";
      for (std::size_t c = 0; c < cols; ++c) out += " --- |";
      out += "\n";
    }
  }
  out.pop_back();
  return out;
}

// "• item" -> "- item"; "1. item" stays (already a Markdown ordered item); "a) item" -> "- a) item".
std::string list_item(const std::string& text) {
  std::size_t pos = 0;
  const char32_t first = text.empty() ? 0 : utf8::next(text, pos);
  const bool numbered = !text.empty() && text[0] >= '0' && text[0] <= '9';
  if (numbered) return one_line(text);
  const bool bullet = first >= 0x80 || first == U'-' || first == U'*';
  if (bullet) {
    while (pos < text.size() && text[pos] == ' ') ++pos;
    return "- " + one_line(text.substr(pos));
  }
  return "- " + one_line(text);
}

struct Loaded {
  json document;
  std::map<std::string, json> tables, pages;
};

// The document is loaded strictly first (shape, references, hashes), so the walk below can trust it.
Loaded load(std::string_view document_json) {
  load_native_document(document_json);
  Loaded loaded;
  loaded.document = parse_strict_dom(document_json, "document");
  const json& payload = loaded.document.at("payload");
  for (const json& table : payload.at("tables")) loaded.tables[table.at("id").get<std::string>()] = table;
  for (const json& page : payload.at("pages")) loaded.pages[page.at("id").get<std::string>()] = page;
  return loaded;
}

}  // namespace

std::string render_markdown(std::string_view document_json) {
  const Loaded loaded = load(document_json);
  std::vector<std::string> blocks;
  std::string current_page;
  for (const json& element : loaded.document.at("payload").at("elements")) {
    const std::string type = element.at("type").get<std::string>();
    const std::string page = element.at("page").get<std::string>();
    if (page != current_page) {
      current_page = page;
      blocks.push_back("<!-- page " + std::to_string(loaded.pages.at(page).at("index").get<std::int64_t>()) + " -->");
    }
    if (type == "header" || type == "footer") continue;
    const std::string text = element.value("text", "");
    if (type == "heading") {
      blocks.push_back(std::string(element.value("heading_level", std::size_t{1}), '#') + " " + one_line(text));
    } else if (type == "list_item") {
      blocks.push_back(list_item(text));
    } else if (type == "table" && element.contains("table_ref")) {
      blocks.push_back(pipe_table(loaded.tables.at(element.at("table_ref").get<std::string>())));
    } else if (type == "region") {
      blocks.push_back("<!-- figure " + element.value("region_ref", std::string()) + " -->");
    } else if (!text.empty()) {
      blocks.push_back(text);
    }
  }
  std::string out;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    // Consecutive list items form one list; everything else is separated by a blank line.
    const bool tight = i > 0 && blocks[i].rfind("- ", 0) == 0 && blocks[i - 1].rfind("- ", 0) == 0;
    if (i > 0) out += tight ? "\n" : "\n\n";
    out += blocks[i];
  }
  return out + "\n";
}

std::string render_text(std::string_view document_json) {
  const Loaded loaded = load(document_json);
  std::string out;
  for (const json& element : loaded.document.at("payload").at("elements")) {
    if (!element.contains("text") || element.at("text").get<std::string>().empty()) continue;
    if (!out.empty()) out += "\n\n";
    out += element.at("text").get<std::string>();
  }
  return out + "\n";
}

}  // namespace ethos::pdf
