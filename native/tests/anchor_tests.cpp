// anchor_tests.cpp - evidence anchoring on sources without spans, tables, fingerprint or a known origin (CONTRACTS §3.9).
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "core/anchor_report.hpp"
#include "core/error.hpp"
#include "core/source.hpp"
#include "test_check.hpp"

namespace {


using json = nlohmann::json;

// A one-page source shaped like an adapter's: elements with boxes and text, one span and one
// table (present so that a capability switched off is what blocks, not a missing object).
ethos::Source make_source(bool spans, bool tables, const char* origin, bool fingerprint) {
  ethos::Source source;
  source.kind = "test";
  source.representation_sha256 = std::string(64, 'a');
  source.parser = {"test-parser", "1.0", std::nullopt, std::nullopt};
  source.capabilities.spans = spans;
  source.capabilities.tables = tables;
  source.capabilities.fingerprint = fingerprint;
  source.capabilities.coordinate_origin = origin;
  if (fingerprint) source.fingerprint = "sha256:" + std::string(64, 'b');
  source.pages.push_back({"page-1", 1, 61200, 79200, 0, std::nullopt});
  ethos::Element element;
  element.id = "el-1";
  element.kind = "paragraph";
  element.page = "page-1";
  element.bbox = ethos::Bbox{1000, 1000, 20000, 3000};
  element.text = "Net income was 7 million.";
  source.elements.push_back(element);
  ethos::Span span;
  span.id = "sp-1";
  span.page = "page-1";
  span.bbox = ethos::Bbox{1000, 5000, 9000, 6000};
  span.text = "Only a span says this.";
  source.spans.push_back(span);
  ethos::Table table;
  table.id = "tb-1";
  table.page = "page-1";
  table.bbox = ethos::Bbox{1000, 8000, 20000, 12000};
  table.cells.push_back({0, 0, 1, 1, ethos::Bbox{1000, 8000, 20000, 12000}, "7"});
  source.tables.push_back(table);
  source.build_indexes();
  return source;
}

json one_anchor(const ethos::Source& source, const json& ref, const char* fingerprint = nullptr) {
  json request = {{"artifact_type", "ethos.evidence_anchor_request.v1"}, {"schema_version", "1.0.0"},
                  {"evidence_refs", json::array({ref})}};
  if (fingerprint != nullptr) request["source_fingerprint"] = fingerprint;
  const json report = json::parse(ethos::anchor_evidence(source, request.dump(), ""));
  return report["anchors"].at(0);
}

json ref(const char* kind, const char* level, json locator, const char* text = nullptr) {
  json out = {{"evidence_id", "x"}, {"evidence_kind", kind}, {"required_anchor_level", level}, {"locator", std::move(locator)}};
  if (text != nullptr) out["expected_text"] = text;
  return out;
}

json boxed(json locator, std::initializer_list<std::int64_t> bbox) {
  locator["bbox"] = json::array();
  for (std::int64_t v : bbox) locator["bbox"].push_back(v);
  locator["coordinate_profile"] = "ethos_quantized_top_left_v1";
  return locator;
}

bool is(const json& anchor, const char* status, const char* level, const json& limits) {
  const bool ok = anchor["anchor_status"] == status && anchor["achieved_anchor_level"] == level &&
                  anchor["capability_limits"] == limits;
  if (!ok) std::fprintf(stderr, "  got %s\n", anchor.dump().c_str());
  return ok;
}

const std::string kOtherFingerprint = "sha256:" + std::string(64, 'c');

void test_missing_fingerprint() {
  const ethos::Source limited = make_source(true, true, "top-left", false);
  const json page = ref("page", "page", {{"page_index", 1}});
  // A pinned request against a source without a fingerprint: limited, not stale, not bound.
  json anchor = one_anchor(limited, page, kOtherFingerprint.c_str());
  CHECK(is(anchor, "capability_limited", "page", json{"missing_fingerprint"}));
  CHECK(anchor["checks"]["fingerprint"] == "capability_limited" && anchor["checks"]["page"] == "found");
  // Unpinned: nothing to compare, nothing limited.
  CHECK(is(one_anchor(limited, page), "bound", "page", json::array()));
  // A missing page still wins over the limit.
  CHECK(is(one_anchor(limited, ref("page", "page", {{"page_index", 2}}), kOtherFingerprint.c_str()), "not_found", "none",
           json{"missing_fingerprint"}));
  // Unsupported kinds keep the fingerprint axis (and its limit) and nothing else.
  anchor = one_anchor(limited, ref("region", "page", {{"page_index", 1}}), kOtherFingerprint.c_str());
  CHECK(is(anchor, "unsupported_evidence_kind", "none", json{"missing_fingerprint"}));
  CHECK(anchor["checks"]["page"] == "not_checked");
  const ethos::Source pinned = make_source(true, true, "top-left", true);
  CHECK(is(one_anchor(pinned, page, kOtherFingerprint.c_str()), "stale_fingerprint", "none", json::array()));
  CHECK(is(one_anchor(pinned, page, ("sha256:" + std::string(64, 'b')).c_str()), "bound", "page", json::array()));
}

void test_missing_spans() {
  const ethos::Source no_spans = make_source(false, true, "top-left", true);
  json anchor = one_anchor(no_spans, ref("text", "text", {{"span_id", "sp-1"}}, "Only a span"));
  CHECK(is(anchor, "capability_limited", "none", json{"missing_spans"}));
  CHECK(anchor["checks"]["text"] == "capability_limited");
  // The page search reads spans only when the source has them: the span-only text is a mismatch.
  anchor = one_anchor(no_spans, ref("text", "text", {{"page_index", 1}}, "Only a span"));
  CHECK(is(anchor, "mismatch", "none", json::array()));
  const ethos::Source with_spans = make_source(true, true, "top-left", true);
  CHECK(is(one_anchor(with_spans, ref("text", "text", {{"page_index", 1}}, "Only a span")), "bound", "text", json::array()));
  // A span box binds a bbox only when spans are read.
  const json in_span = boxed({{"page_index", 1}}, {1100, 5100, 8000, 5900});
  CHECK(is(one_anchor(no_spans, ref("text_region", "bbox", in_span)), "not_found", "none", json::array()));
  CHECK(is(one_anchor(with_spans, ref("text_region", "bbox", in_span)), "bound", "bbox", json::array()));
}

void test_missing_tables() {
  const ethos::Source no_tables = make_source(true, false, "top-left", true);
  const json cell = ref("table_cell", "table_cell", {{"table_id", "tb-1"}, {"cell", {{"row", 0}, {"col", 0}}}}, "7");
  json anchor = one_anchor(no_tables, cell);
  CHECK(is(anchor, "capability_limited", "none", json{"missing_tables"}));
  CHECK(anchor["checks"]["table_cell"] == "capability_limited");
  CHECK(is(one_anchor(make_source(true, true, "top-left", true), cell), "bound", "table_cell", json::array()));
  // Table boxes bind a bbox only when tables are read.
  const json in_table = boxed({{"page_index", 1}}, {1100, 8100, 19000, 11000});
  CHECK(is(one_anchor(no_tables, ref("text_region", "bbox", in_table)), "not_found", "none", json::array()));
}

void test_unknown_origin() {
  for (const char* origin : {"unknown", "bottom-left"}) {
    const ethos::Source source = make_source(true, true, origin, true);
    const json inside = boxed({{"page_index", 1}}, {1100, 1100, 9000, 2900});
    json anchor = one_anchor(source, ref("text_region", "bbox", inside));
    CHECK(is(anchor, "capability_limited", "none", json{"unknown_coordinate_origin"}));
    CHECK(anchor["checks"]["bbox"] == "capability_limited");
    // Text bound, bbox limited: capability_limited, and the level reached is text.
    anchor = one_anchor(source, ref("text_region", "text_bbox", inside, "Net income"));
    CHECK(is(anchor, "capability_limited", "text", json{"unknown_coordinate_origin"}));
    // A mismatch beats a capability limit.
    anchor = one_anchor(source, ref("text_region", "text_bbox", inside, "Net loss"));
    CHECK(is(anchor, "mismatch", "none", json{"unknown_coordinate_origin"}));
    // And not_found beats both.
    anchor = one_anchor(source, ref("text_region", "text_bbox", boxed({{"page_index", 3}}, {1, 1, 2, 2}), "Net loss"));
    CHECK(is(anchor, "not_found", "none", json{"unknown_coordinate_origin"}));
    // Text-only levels never look at coordinates.
    CHECK(is(one_anchor(source, ref("text_region", "text", {{"page_index", 1}}, "Net income")), "bound", "text", json::array()));
  }
}

void test_limits_are_listed_in_enum_order_once() {
  const ethos::Source bare = make_source(false, false, "unknown", false);
  json locator = boxed({{"page_index", 1}, {"span_id", "sp-1"}}, {1100, 1100, 9000, 2900});
  json anchor = one_anchor(bare, ref("text_region", "text_bbox", locator, "Only"), kOtherFingerprint.c_str());
  CHECK(is(anchor, "capability_limited", "none", json{"missing_spans", "missing_fingerprint", "unknown_coordinate_origin"}));
}

void test_request_errors_do_not_depend_on_the_source() {
  const ethos::Source bare = make_source(false, false, "unknown", false);
  try {
    one_anchor(bare, ref("page", "page", {{"page_index", 0}}));
    CHECK(false);
  } catch (const ethos::EthosError& error) {
    CHECK(error.code() == "invalid_input");
    CHECK(error.details()["path"] == "$.evidence_refs[0].locator.page_index");
    CHECK(error.exit_code() == 2);
  }
  try {
    ethos::anchor_evidence(bare, R"({"artifact_type":"ethos.evidence_anchor_request.v1","schema_version":"1.0.0","evidence_refs":[]})",
                           R"({"statement":"yes"})");
    CHECK(false);
  } catch (const ethos::EthosError& error) {
    CHECK(error.code() == "invalid_input");
  }
}

}  // namespace

int main() {
  test_missing_fingerprint();
  test_missing_spans();
  test_missing_tables();
  test_unknown_origin();
  test_limits_are_listed_in_enum_order_once();
  test_request_errors_do_not_depend_on_the_source();
  return ethos_test::finish("anchor_tests");
}
