// citations.cpp - strict citations loading and the CLI validation rules of CONTRACTS.md §2.4.
#include "core/citations.hpp"

#include "core/error.hpp"
#include "json/c14n.hpp"
#include "json/reader.hpp"
#include "json/sha256.hpp"
#include "json/strict_json.hpp"
#include "text/normalize.hpp"
#include "text/utf8.hpp"

namespace ethos {
namespace {

using json = nlohmann::json;
constexpr std::int64_t kMaxInt = 9007199254740991;

bool is_text_kind(const std::string& kind) { return kind == "quote" || kind == "value" || kind == "table_cell"; }

Citation read_citation(JsonValue value, const std::string& path) {
  ObjectReader reader(value, path);
  Citation citation;
  citation.page = reader.optional_string("page");
  citation.element_id = reader.optional_string("element_id");
  citation.span_id = reader.optional_string("span_id");
  citation.table_id = reader.optional_string("table_id");
  if (const std::optional<JsonValue> cell = reader.optional("cell")) {
    ObjectReader cr(*cell, reader.child_path("cell"));
    CellAddress address;
    address.row = cr.required_int("row", 0, kMaxInt);
    address.col = cr.required_int("col", 0, kMaxInt);
    cr.finish();
    citation.cell = address;
  }
  if (const std::optional<JsonValue> bbox = reader.optional("bbox")) {
    const std::string bbox_path = reader.child_path("bbox");
    const simdjson::dom::array list = expect_array(*bbox, bbox_path);
    if (list.size() != 4) throw invalid_input("a bbox has four integers", bbox_path);
    std::int64_t numbers[4];
    std::size_t i = 0;
    for (JsonValue item : list) {
      numbers[i] = expect_int(item, index_path(bbox_path, i), -kMaxInt, kMaxInt);
      ++i;
    }
    Bbox box{numbers[0], numbers[1], numbers[2], numbers[3]};
    if (!(box.x0 < box.x1 && box.y0 < box.y1)) throw invalid_input("bbox must have a positive area", bbox_path);
    citation.bbox = box;
  }
  citation.page_end = reader.optional_string("page_end");
  if (auto scope = reader.optional_string("scope")) {
    if (*scope != "document") throw invalid_input("invalid value", reader.child_path("scope"));
    citation.document_scope = true;
  }
  reader.finish();
  return citation;
}

Claim read_claim(JsonValue value, const std::string& path, ClaimValidation validation) {
  ObjectReader reader(value, path);
  Claim claim;
  claim.kind = reader.required_string("kind");
  static const char* const kKinds[] = {"quote", "value", "presence", "table_cell", "region", "other"};
  bool known = false;
  for (const char* kind : kKinds) known = known || claim.kind == kind;
  if (!known) throw invalid_input("invalid value", reader.child_path("kind"));
  claim.text = reader.optional_string("text");
  claim.citation = read_citation(reader.required("citation"), reader.child_path("citation"));
  reader.finish();
  claim.echo = to_c14n(value);

  if (validation == ClaimValidation::report) return claim;  // the verifier reports these as checks
  const Citation& c = claim.citation;
  // The path is spelled out only for an error (verify-batch validates a claim per line).
  const auto citation_path = [&path] { return path + ".citation"; };
  if (c.page_end && !c.page) throw invalid_input("page_end needs a page", citation_path() + ".page_end");
  if (!c.has_locator()) throw invalid_input("citation has no locator", citation_path());
  if (c.table_id.has_value() != c.cell.has_value()) throw invalid_input("table_id and cell go together", citation_path());
  if (c.bbox && !c.page && !c.element_id && !c.span_id && !c.table_id) {
    throw invalid_input("bbox needs a page", citation_path() + ".bbox");
  }
  if (is_text_kind(claim.kind) && (!claim.text || is_blank(*claim.text))) {
    throw invalid_input("claim text is required", path + ".text");
  }
  if (claim.kind == "table_cell" && !c.table_id) throw invalid_input("table_cell needs table_id and cell", citation_path());
  return claim;
}

}  // namespace

bool is_blank(std::string_view text) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    if (!is_unicode_white_space(utf8::next(text, pos))) return false;
  }
  return true;
}

CitationSet load_citations(std::string_view bytes, std::int64_t max_checks, ClaimValidation validation) {
  simdjson::dom::parser parser;
  return load_citations(parser, bytes, max_checks, validation);
}

CitationSet load_citations(simdjson::dom::parser& parser, std::string_view bytes, std::int64_t max_checks,
                           ClaimValidation validation) {
  const JsonValue document = parse_strict(parser, bytes, "citations");
  CitationSet set;
  simdjson::dom::array claims;
  std::string claims_path = "$";
  if (document.is_array()) {
    claims = document.get_array().value_unsafe();
  } else if (document.is_object()) {
    ObjectReader envelope(document, "$");
    set.document_fingerprint = envelope.optional_string("document_fingerprint");
    if (set.document_fingerprint && !is_sha256_prefixed(*set.document_fingerprint)) {
      throw invalid_input("invalid hash", "$.document_fingerprint");
    }
    claims = expect_array(envelope.required("claims"), "$.claims");
    claims_path = "$.claims";
    envelope.finish();
  } else {
    throw invalid_input("expected an array or an object", "$");
  }
  if (claims.size() == 0) throw invalid_input("list must not be empty", claims_path);
  if (static_cast<std::int64_t>(claims.size()) > max_checks) {
    throw EthosError("input_limit_exceeded", "an input exceeds a configured limit",
                     {{"path", claims_path}, {"limit", max_checks}, {"input", "citations"}});
  }
  set.claims.reserve(claims.size());
  std::size_t index = 0;
  for (JsonValue claim : claims) set.claims.push_back(read_claim(claim, index_path(claims_path, index++), validation));
  // claims_sha256 = sha256(c14n(claims array)), assembled from the per-claim canonical echoes.
  // One context per thread, reset per input: verify-batch hashes one claims array per line.
  thread_local Sha256 digest;
  digest.reset();
  digest.update("[");
  for (std::size_t i = 0; i < set.claims.size(); ++i) {
    if (i > 0) digest.update(",");
    digest.update(set.claims[i].echo);
  }
  digest.update("]");
  set.claims_sha256 = digest.hex();
  return set;
}

}  // namespace ethos
