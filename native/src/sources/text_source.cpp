// text_source.cpp - text / Markdown loaders: line-based block splitting into page-less elements.
#include "sources/text_source.hpp"

#include <simdjson.h>

#include <cstdio>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "json/sha256.hpp"
#include "sources/line_end_hyphens.hpp"

namespace ethos::sources {
namespace {

constexpr std::size_t kMaxElements = 1000000;

struct Block {
  std::string kind;
  std::string text;
  std::int64_t heading_level = 0;
};

// Lines without their terminators (LF, CRLF or a lone CR all end a line).
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' || text[i] == '\r') {
      lines.push_back(text.substr(start, i - start));
      if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      start = i + 1;
    }
  }
  if (start < text.size()) lines.push_back(text.substr(start));
  return lines;
}

bool is_blank(std::string_view line) { return line.find_first_not_of(" \t\f\v") == std::string_view::npos; }

std::string_view trim(std::string_view s) {
  const std::size_t a = s.find_first_not_of(" \t");
  if (a == std::string_view::npos) return {};
  const std::size_t b = s.find_last_not_of(" \t");
  return s.substr(a, b - a + 1);
}

std::size_t indent_of(std::string_view line) {
  std::size_t n = 0;
  while (n < line.size() && line[n] == ' ') ++n;
  return n;
}

std::string join(const std::vector<std::string_view>& parts) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out += '\n';
    out += parts[i];
  }
  return out;
}

// Plain text: a paragraph is a maximal run of non-blank lines, kept exactly (lines joined by LF).
std::vector<Block> plain_blocks(const std::vector<std::string_view>& lines) {
  std::vector<Block> blocks;
  std::vector<std::string_view> current;
  auto flush = [&] {
    if (!current.empty()) blocks.push_back({"text_block", join(current), 0});
    current.clear();
  };
  for (std::string_view line : lines) {
    if (is_blank(line)) {
      flush();
    } else {
      current.push_back(line);
    }
  }
  flush();
  return blocks;
}

// ---- Markdown: the block structure of CommonMark's common cases, line by line. Inline markup
// (emphasis, links, code spans) is kept verbatim: the element text is the file's own text.

int atx_level(std::string_view line) {
  if (indent_of(line) > 3) return 0;
  line = line.substr(indent_of(line));
  int level = 0;
  while (static_cast<std::size_t>(level) < line.size() && line[static_cast<std::size_t>(level)] == '#') ++level;
  if (level == 0 || level > 6) return 0;
  if (static_cast<std::size_t>(level) < line.size() && line[static_cast<std::size_t>(level)] != ' ' &&
      line[static_cast<std::size_t>(level)] != '\t') {
    return 0;
  }
  return level;
}

std::string atx_text(std::string_view line, int level) {
  std::string_view rest = trim(trim(line).substr(static_cast<std::size_t>(level)));
  // A closing sequence of #s preceded by a space is not part of the heading.
  std::size_t end = rest.size();
  while (end > 0 && rest[end - 1] == '#') --end;
  if (end == 0 || (end < rest.size() && (rest[end - 1] == ' ' || rest[end - 1] == '\t'))) rest = trim(rest.substr(0, end));
  return std::string(rest);
}

bool is_fence(std::string_view line, std::string_view* marker) {
  if (indent_of(line) > 3) return false;
  std::string_view t = line.substr(indent_of(line));
  if (t.size() < 3 || (t[0] != '`' && t[0] != '~')) return false;
  std::size_t n = 0;
  while (n < t.size() && t[n] == t[0]) ++n;
  if (n < 3) return false;
  *marker = t.substr(0, n);
  return true;
}

bool is_thematic_break(std::string_view line) {
  std::string_view t = trim(line);
  if (t.size() < 3 || indent_of(line) > 3) return false;
  const char c = t[0];
  if (c != '-' && c != '*' && c != '_') return false;
  std::size_t count = 0;
  for (char x : t) {
    if (x == c) {
      ++count;
    } else if (x != ' ' && x != '\t') {
      return false;
    }
  }
  return count >= 3;
}

int setext_level(std::string_view line) {
  std::string_view t = trim(line);
  if (t.empty() || indent_of(line) > 3) return 0;
  if (t.find_first_not_of('=') == std::string_view::npos) return 1;
  if (t.find_first_not_of('-') == std::string_view::npos) return 2;
  return 0;
}

// The content after a list marker ("- ", "* ", "+ ", "1. ", "1) "), or npos when not an item.
std::size_t list_content(std::string_view line) {
  const std::size_t indent = indent_of(line);
  if (indent > 3 + 8) return std::string_view::npos;  // nested items keep their indentation budget
  std::string_view t = line.substr(indent);
  std::size_t n = 0;
  if (!t.empty() && (t[0] == '-' || t[0] == '*' || t[0] == '+')) {
    n = 1;
  } else {
    while (n < t.size() && n < 9 && t[n] >= '0' && t[n] <= '9') ++n;
    if (n == 0 || n >= t.size() || (t[n] != '.' && t[n] != ')')) return std::string_view::npos;
    ++n;
  }
  if (n < t.size() && t[n] != ' ' && t[n] != '\t') return std::string_view::npos;
  if (n == t.size()) return std::string_view::npos;  // an empty item carries no text
  std::size_t start = n;
  while (start < t.size() && (t[start] == ' ' || t[start] == '\t')) ++start;
  return indent + start;
}

bool is_table_row(std::string_view line) {
  std::string_view t = trim(line);
  return t.size() >= 2 && t.front() == '|';
}

bool is_table_delimiter(std::string_view line) {
  std::string_view t = trim(line);
  if (!is_table_row(line) || t.find('-') == std::string_view::npos) return false;
  return t.find_first_not_of("|:- \t") == std::string_view::npos;
}

std::vector<Block> markdown_blocks(const std::vector<std::string_view>& lines) {
  std::vector<Block> blocks;
  std::vector<std::string_view> para;
  auto flush = [&] {
    if (!para.empty()) blocks.push_back({"text_block", join(para), 0});
    para.clear();
  };
  std::size_t i = 0;
  while (i < lines.size()) {
    const std::string_view line = lines[i];
    std::string_view marker;
    if (is_blank(line)) {
      flush();
      ++i;
    } else if (is_fence(line, &marker)) {
      flush();
      std::vector<std::string_view> code;
      ++i;
      while (i < lines.size()) {
        std::string_view closing;
        if (is_fence(lines[i], &closing) && closing.size() >= marker.size() && closing[0] == marker[0] &&
            trim(lines[i]).size() == closing.size()) {
          ++i;
          break;
        }
        code.push_back(lines[i]);
        ++i;
      }
      if (!code.empty()) blocks.push_back({"code", join(code), 0});
    } else if (const int level = atx_level(line)) {
      flush();
      std::string text = atx_text(line, level);
      if (!text.empty()) blocks.push_back({"heading", std::move(text), level});
      ++i;
    } else if (!para.empty() && setext_level(line) != 0 && blocks.size() < kMaxElements) {
      // The paragraph so far is a setext heading.
      blocks.push_back({"heading", join(para), setext_level(line)});
      para.clear();
      ++i;
    } else if (is_thematic_break(line)) {
      flush();
      ++i;
    } else if (trim(line).front() == '>') {
      flush();
      std::vector<std::string_view> quote;
      while (i < lines.size() && !is_blank(lines[i]) && trim(lines[i]).front() == '>') {
        std::string_view t = trim(lines[i]).substr(1);
        if (!t.empty() && t[0] == ' ') t.remove_prefix(1);
        quote.push_back(t);
        ++i;
      }
      blocks.push_back({"quote", join(quote), 0});
    } else if (is_table_row(line) && i + 1 < lines.size() && is_table_delimiter(lines[i + 1])) {
      flush();
      std::vector<std::string_view> rows{trim(line)};
      i += 2;
      while (i < lines.size() && is_table_row(lines[i])) rows.push_back(trim(lines[i++]));
      blocks.push_back({"table", join(rows), 0});
    } else if (const std::size_t content = list_content(line); content != std::string_view::npos) {
      flush();
      std::vector<std::string_view> item{line.substr(content)};
      ++i;
      // Lazy and indented continuation lines belong to the item until a blank line or a new block.
      while (i < lines.size() && !is_blank(lines[i]) && list_content(lines[i]) == std::string_view::npos &&
             atx_level(lines[i]) == 0 && !is_thematic_break(lines[i]) && trim(lines[i]).front() != '>' &&
             !is_fence(lines[i], &marker)) {
        item.push_back(trim(lines[i]));
        ++i;
      }
      blocks.push_back({"list_item", join(item), 0});
    } else {
      para.push_back(para.empty() ? trim(line) : trim(line));
      ++i;
    }
  }
  flush();
  return blocks;
}

}  // namespace

std::shared_ptr<Source> load_text_source(std::string_view bytes, TextFlavor flavor) {
  const std::string adapter = flavor == TextFlavor::plain ? "text" : "markdown";
  if (!simdjson::validate_utf8(bytes.data(), bytes.size())) {
    throw EthosError("invalid_input", adapter + " adapter: invalid UTF-8", {{"path", "$"}});
  }
  if (bytes.find('\0') != std::string_view::npos) {
    throw EthosError("invalid_input", adapter + " adapter: NUL byte in text", {{"path", "$"}});
  }
  std::string_view text = bytes;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a BOM is an encoding mark, not text
  const std::vector<std::string_view> lines = split_lines(text);
  std::vector<Block> blocks = flavor == TextFlavor::plain ? plain_blocks(lines) : markdown_blocks(lines);
  if (blocks.size() > kMaxElements) {
    throw EthosError("invalid_input", adapter + " adapter: too many blocks", {{"path", "$"}, {"limit", kMaxElements}});
  }

  auto source = std::make_shared<Source>();
  source->kind = adapter == "text" ? "text-file" : "markdown-file";
  source->representation_sha256 = sha256_hex(bytes);
  source->fingerprint = "sha256:" + source->representation_sha256;
  source->parser.name = "ethos-" + adapter;
  source->parser.version = ETHOS_VERSION_STRING;
  source->parser.adapter = adapter;
  source->parser.adapter_version = "1.0.0";
  source->capabilities.fingerprint = true;
  source->capabilities.coordinate_origin = "unknown";
  source->capabilities.structure = flavor == TextFlavor::markdown;
  source->elements.reserve(blocks.size());
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    Element element;
    char id[32];  // "e" + up to 20 digits of a size_t: never truncated
    std::snprintf(id, sizeof id, "e%06zu", i + 1);
    element.id = id;
    element.kind = std::move(blocks[i].kind);
    element.text = std::move(blocks[i].text);
    element.heading_level = blocks[i].heading_level;
    source->elements.push_back(std::move(element));
  }
  record_line_end_hyphens(*source);
  source->build_indexes();
  return source;
}

}  // namespace ethos::sources
