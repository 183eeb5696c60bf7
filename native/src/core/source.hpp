// source.hpp - the parser-neutral grounding view (CONTRACTS.md §2.3) every verdict is computed on.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace ethos::match {
class DocumentIndex;
}

namespace ethos {

// [x0, y0, x1, y1] in quanta (1/100 pt) with a top-left origin for native documents.
struct Bbox {
  std::int64_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  std::int64_t area() const { return (x1 - x0) * (y1 - y0); }
  nlohmann::json to_json() const { return nlohmann::json::array({x0, y0, x1, y1}); }
};

struct Page {
  std::string id;
  std::int64_t index = 0;
  std::int64_t width = 0;
  std::int64_t height = 0;
  std::int64_t rotation = 0;
  std::optional<std::string> label;  // printed page label (extension; PDF /PageLabels)
};

struct Element {
  std::string id;
  std::string kind;  // lowercase element type (heading, text_block, ...)
  std::string page;  // page id; empty for page-less sources
  std::optional<Bbox> bbox;
  std::optional<std::string> text;
  std::int64_t heading_level = 0;  // 0 = not a heading with a level
  // Parser artifacts (extension), Unicode-scalar offsets into text: each separator the parser
  // generated between two visual lines, and each hyphen that ended a line (its offset).
  std::vector<std::int64_t> line_breaks, hyphen_breaks;
  std::string table_ref;  // a table element's table id (native documents); empty otherwise
};

struct Span {
  std::string id;
  std::string page;
  std::optional<Bbox> bbox;
  std::string text;
  std::optional<std::size_t> element;  // owning element index when known
  std::optional<std::int64_t> char_start, char_end;
  // Glyph geometry (extension): width in quanta of each character of text along the line,
  // starting at bbox.x0; empty when the parser did not record it (docs/pdf-parsing.md).
  std::vector<std::int64_t> advances;
  // Named by a hidden_text_detected or off_page_text_detected security warning: text no reader
  // of the page sees, so nothing said of the page may be grounded in it.
  bool hidden = false;
};

struct Cell {
  std::int64_t row = 0, col = 0, row_span = 1, col_span = 1;
  std::optional<Bbox> bbox;
  std::string text;
};

struct Table {
  std::string id;
  std::string page;  // native: the first of page_refs
  std::optional<Bbox> bbox;
  std::vector<Cell> cells;
};

struct ParserIdentity {
  std::string name, version;
  std::optional<std::string> adapter, adapter_version;
  nlohmann::json to_json() const;
};

struct Capabilities {
  bool spans = false, char_offsets = false, tables = false, fingerprint = false;
  std::string coordinate_origin = "unknown";  // top-left | bottom-left | unknown
  bool crop_support = false;
  bool structure = false;  // heading/reading-order structure for provenance (missing_structure)
  nlohmann::json to_json() const;  // the six public fields
};

// A loaded source: immutable after construction, so many threads may read it at once.
class Source {
 public:
  std::string kind;                       // "ethos-native-document", ...
  std::string representation_sha256;      // bare hex of the exact bytes loaded
  ParserIdentity parser;
  Capabilities capabilities;
  std::optional<std::string> fingerprint; // "sha256:..." when the source declares one
  std::optional<std::string> source_fingerprint;  // "sha256:..." of the parsed file (PDF), when known
  std::vector<Page> pages;
  std::vector<Element> elements;          // reading order = array order
  std::vector<Span> spans;
  std::vector<Table> tables;
  // Fields a foreign loader did not know (JSON paths as read), kept instead of rejected, and the
  // report-level warnings they become ("unknown_field:<path>", array indexes as [*]).
  std::vector<std::string> unknown_fields;
  std::vector<std::string> warnings;

  // Indexes built once by build_indexes(); lookups return nullptr / npos when absent.
  void build_indexes();
  const Page* page_by_id(const std::string& id) const;
  std::size_t element_index(const std::string& id) const;  // first element with that id
  std::size_t span_index(const std::string& id) const;
  std::size_t table_index(const std::string& id) const;
  const std::vector<std::size_t>& elements_on_page(const std::string& page_id) const;
  const std::vector<std::size_t>& spans_on_page(const std::string& page_id) const;
  // The spans of an element that carry glyph geometry (char offsets and a bbox) on the element's
  // own page, ordered by char_start: what a match's highlight boxes are built from, found once
  // here instead of by scanning the page's spans for every located check.
  const std::vector<std::size_t>& geometry_spans_of(std::size_t element) const;
  // Whether an element's text is ASCII only (then a scalar offset in it is its byte offset):
  // found on the first ask for that element and kept, so that the located checks of a batch do
  // not count the bytes up to their quotes in UTF-8 (a single call asks for the elements it
  // cites only). False for an element without text, and for any element before build_indexes().
  bool element_text_is_ascii(std::size_t element) const;
  // (element index, table index) of every element whose table_ref names a table, in document
  // order: what the column readings of tables are searched over (docs/matching.md "Tables").
  const std::vector<std::pair<std::size_t, std::size_t>>& table_elements() const { return table_elements_; }

  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  // The match index of this document (match/document_index.hpp), created by build_indexes() and
  // filled lazily, once per tier, by the first search that needs it; shared by every verify call
  // and thread on this source.
  const match::DocumentIndex& match_index() const { return *match_index_; }

 private:
  std::shared_ptr<const match::DocumentIndex> match_index_;
  std::unordered_map<std::string, std::size_t> page_ids_, element_ids_, span_ids_, table_ids_;
  std::unordered_map<std::string, std::vector<std::size_t>> page_elements_, page_spans_;
  std::vector<std::vector<std::size_t>> element_geometry_spans_;  // by element index
  // By element index: 0 not known yet, 1 ASCII only, 2 not. Filled by whichever thread asks
  // first; threads that race store the same value (relaxed atomics: no other data hangs on it).
  mutable std::vector<std::atomic<unsigned char>> element_ascii_;
  std::vector<std::pair<std::size_t, std::size_t>> table_elements_;
};

}  // namespace ethos
