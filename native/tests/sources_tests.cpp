// sources_tests.cpp - unit tests of the grounding loaders in src/sources (registry, Grounding JSON, ODL, Docling, text).
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "json/sha256.hpp"
#include "sources/grounding_json.hpp"
#include "sources/line_end_hyphens.hpp"
#include "sources/registry.hpp"
#include "sources/unknown_fields.hpp"
#include "test_check.hpp"

namespace {


using ethos::sources::load_source;

// The envelope of a load failure, or "" when it loaded.
std::string load_error(const std::optional<std::string>& grounding, const std::string& bytes) {
  try {
    load_source(grounding, bytes);
    return "";
  } catch (const ethos::EthosError& error) {
    return error.envelope();
  }
}

std::string read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void test_registry(const std::string& grounding_example) {
  CHECK(ethos::sources::grounding_ids().size() == 6);
  CHECK(ethos::sources::grounding_ids().front() == "ethos-native");
  // Without a name, the artifact type selects Grounding JSON; with one, the named loader runs.
  const auto automatic = load_source(std::nullopt, grounding_example);
  CHECK(automatic->parser.adapter.value_or("") == "ethos-grounding-json");
  CHECK(automatic->fingerprint.value_or("") == ethos::sha256_prefixed(grounding_example));
  CHECK(load_error(std::string("ethos-native"), grounding_example).find("\"path\":\"$.parser\"") != std::string::npos);
  CHECK(load_error(std::string("pdf"), "{}").find("\"code\":\"invalid_arguments\"") != std::string::npos);
}

void test_grounding_json(const std::string& example) {
  const auto valid = ethos::sources::validate_grounding_json(example);
  CHECK(!valid.failure && valid.source->spans.size() == 1 && valid.source->tables.size() == 1);
  CHECK(valid.source->spans[0].element == std::optional<std::size_t>(1));
  auto code_of = [](const std::string& bytes) {
    const auto result = ethos::sources::validate_grounding_json(bytes);
    return result.failure ? result.failure->code + "@" + result.failure->path : std::string("valid");
  };
  CHECK(code_of("\xEF\xBB\xBF{}") == "bom_not_allowed@$");
  CHECK(code_of(R"({"artifact_type":"x","artifact_type":"y"})") == "duplicate_key@$.artifact_type");
  CHECK(code_of(R"({"artifact_type":null})") == "invalid_json@$.artifact_type");
  CHECK(code_of(R"({"artifact_type":"ethos.grounding.v1","schema_version":"9"})") == "unsupported_version@$.schema_version");
  std::string edited = example;
  edited.replace(edited.find("\"index\": 1"), 10, "\"index\": 2");
  CHECK(code_of(edited) == "invalid_order@$.pages[0].index");
  const std::string report = ethos::sources::grounding_check(example, "");
  CHECK(report.find("\"structure\":\"valid\"") != std::string::npos);
  CHECK(report.find("\"source_binding\":\"not_checked\"") != std::string::npos);
}

void test_opendataloader() {
  const std::string tree = R"({"file name":"a.pdf","number of pages":2,"kids":[
    {"type":"list","id":3,"page number":2,"bounding box":[10,20,110.005,40],"list items":[
      {"type":"list item","id":4,"page number":2,"bounding box":[10,30,100,40],"content":"one"},
      {"type":"list item","id":5,"page number":2,"bounding box":[10,20,100,30],"content":"two"}]},
    {"type":"table","id":6,"page number":2,"bounding box":[10,50,200,90],"rows":[{"type":"table row","cells":[
      {"type":"table cell","id":7,"page number":2,"bounding box":[10,50,100,90],"row number":1,"column number":2,
       "kids":[{"type":"paragraph","id":8,"page number":2,"bounding box":[12,52,98,88],"content":"cell"}]}]}]}]})";
  const auto source = load_source(std::string("opendataloader-json"), tree);
  CHECK(source->elements.size() == 6);
  CHECK(source->elements[0].id == "odl-3" && source->elements[0].kind == "list");
  CHECK(source->elements[0].text.value_or("") == "one\ntwo");
  CHECK(source->elements[0].bbox->x1 == 11001);  // 110.005 pt -> 11000.5 quanta, half away from zero
  CHECK(source->pages.size() == 2 && source->pages[0].width == 0 && source->pages[1].width == 20000);
  CHECK(source->tables.size() == 1 && source->tables[0].id == "odl-6");
  CHECK(source->tables[0].cells.size() == 1 && source->tables[0].cells[0].row == 0 && source->tables[0].cells[0].col == 1);
  CHECK(source->tables[0].cells[0].text == "cell");
  CHECK(!source->fingerprint && source->capabilities.coordinate_origin == "unknown");
  CHECK(load_error(std::string("opendataloader-json"), R"({"file name":"a","number of pages":10001,"kids":[]})")
            .find("opendataloader-json adapter: too many pages") != std::string::npos);
}

void test_docling() {
  const std::string doc = R"({"schema_name":"DoclingDocument","version":"1.10.0","body":{"children":[{"$ref":"#/texts/0"}]},
    "texts":[{"self_ref":"#/texts/0","label":"section_header","level":2,"text":"Title here",
      "prov":[{"page_no":1,"bbox":{"l":72,"t":720,"r":300,"b":700,"coord_origin":"BOTTOMLEFT"},"charspan":[0,5]}]}],
    "tables":[],"pages":{"1":{"page_no":1,"size":{"width":612,"height":792}}}})";
  const auto source = load_source(std::string("docling-json"), doc);
  CHECK(source->elements.size() == 1 && source->elements[0].id == "#/texts/0");
  CHECK(source->elements[0].heading_level == 2);
  CHECK(source->elements[0].bbox->y0 == 7200 && source->elements[0].bbox->y1 == 9200);  // flipped
  CHECK(source->spans.size() == 1 && source->spans[0].text == "Title");
  CHECK(source->capabilities.coordinate_origin == "top-left");
}

void test_text_and_markdown() {
  const auto text = load_source(std::string("text"), "a\r\nb\n\n\nc");
  CHECK(text->elements.size() == 2 && text->elements[0].text.value_or("") == "a\nb");
  CHECK(text->pages.empty() && text->elements[0].page.empty() && !text->elements[0].bbox);
  const auto md = load_source(std::string("markdown"), "## Heading ##\n\n- item\n  more\n\n```\n# code\n```\n");
  CHECK(md->elements.size() == 3);
  CHECK(md->elements[0].kind == "heading" && md->elements[0].heading_level == 2 && *md->elements[0].text == "Heading");
  CHECK(md->elements[1].kind == "list_item" && *md->elements[1].text == "item\nmore");
  CHECK(md->elements[2].kind == "code" && *md->elements[2].text == "# code");
  CHECK(load_error(std::string("text"), "\xff").find("text adapter: invalid UTF-8") != std::string::npos);
}

// Line-end hyphens are found as our PDF parser records them: a hyphen after a non-blank
// character, then only spaces or tabs up to a line break, then more text (scalar offsets).
void test_line_end_hyphens() {
  using ethos::sources::line_end_hyphens;
  using Offsets = std::vector<std::int64_t>;
  CHECK(line_end_hyphens("specifi-\ncally") == Offsets{7});
  CHECK(line_end_hyphens("well- \t\r\nknown") == Offsets{4});
  CHECK(line_end_hyphens("caf\xC3\xA9-\nau") == Offsets{4});            // scalars, not bytes
  CHECK(line_end_hyphens("co\xE2\x80\x90\nop") == Offsets{2});          // U+2010
  CHECK(line_end_hyphens("a -\nb").empty());                           // a dash standing alone
  CHECK(line_end_hyphens("a--\nb").empty());                           // a typed dash
  CHECK(line_end_hyphens("ends with-\n").empty());                     // no text follows
  CHECK(line_end_hyphens("mid-word stays").empty());
  CHECK(line_end_hyphens("no-\n\nmore") == Offsets{2});
  // Loaded texts get them: a Markdown paragraph's lines are joined by a line break.
  const auto md = load_source(std::string("markdown"), "The parser reads specifi-\ncally.\n");
  CHECK(md->elements.size() == 1 && md->elements[0].hyphen_breaks == Offsets{24});
}

void test_unknown_fields() {
  using ethos::sources::wildcard_indexes;
  CHECK(wildcard_indexes("$.kids[3].kids[10].x") == "$.kids[*].kids[*].x");
  CHECK(wildcard_indexes("$.a[b].c[]") == "$.a[b].c[]");  // only array indexes
  // An ODL subset with an unknown field on every element loads, and names it once.
  const std::string subset = R"({"tool":{"name":"odl","version":"1"},"_comment":"x",
    "pages":[{"number":1,"width":100,"height":100}],
    "elements":[{"page":1,"bbox":[1,1,50,50],"text":"a","confidence":1},
                {"page":1,"bbox":[1,1,50,50],"text":"b","confidence":2}]})";
  const auto source = load_source(std::string("opendataloader-json"), subset);
  CHECK(source->elements.size() == 2);
  CHECK((source->warnings == std::vector<std::string>{"unknown_field:$._comment", "unknown_field:$.elements[*].confidence"}));
  // At most kMaxUnknownFieldWarnings distinct names.
  std::string many = R"({"tool":{"name":"odl","version":"1"},"pages":[{"number":1,"width":100,"height":100}],"elements":[])";
  for (int i = 0; i < 40; ++i) many += ",\"x" + std::to_string(100 + i) + "\":1";
  many += "}";
  CHECK(load_source(std::string("opendataloader-json"), many)->warnings.size() == ethos::sources::kMaxUnknownFieldWarnings);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: sources_tests GROUNDING_EXAMPLE_JSON\n");
    return 2;
  }
  const std::string example = read_file(argv[1]);
  test_registry(example);
  test_grounding_json(example);
  test_opendataloader();
  test_docling();
  test_text_and_markdown();
  test_line_end_hyphens();
  test_unknown_fields();
  return ethos_test::finish("sources_tests");
}
