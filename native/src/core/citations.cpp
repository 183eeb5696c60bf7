// citations.cpp - strict citations loading and the CLI validation rules of CONTRACTS.md §2.4.
#include "core/citations.hpp"

#include "core/error.hpp"
#include "json/canonical_writer.hpp"
#include "json/reader.hpp"
#include "json/sha256.hpp"
#include "json/strict_json.hpp"
#include "text/normalize.hpp"
#include "text/utf8.hpp"

namespace ethos {
// Kinds are compared with string_view literals: a std::string == "literal" is an out-of-line
// compare plus strlen, and a request's claim asks its kind about ten times.
using namespace std::string_view_literals;
namespace {

using json = nlohmann::json;
constexpr std::int64_t kMaxInt = 9007199254740991;

// target = text, into target's own string when it has one (its capacity reused).
void assign_optional(std::optional<std::string>& target, std::optional<std::string_view> text) {
  if (!text) {
    target.reset();
  } else if (target) {
    target->assign(*text);
  } else {
    target.emplace(*text);
  }
}

bool is_text_kind(const std::string& kind) { return kind == "quote"sv || kind == "value"sv || kind == "table_cell"sv; }

Citation read_citation(JsonValue value, const ObjectReader& claim) {
  ObjectReader reader(value, claim, "citation");
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

// Claim `index` of the array at claims_path; its canonical JSON is appended to array_c14n (the
// claims array's canonical text, hashed once per input) and kept as the claim's echo. Paths are
// spelled out only for an error. Written into `claim`, every field assigned or reset, so that a
// previous request's claim (verify-batch) lends its strings' capacity.
void read_claim(JsonValue value, const std::string& claims_path, std::size_t index, ClaimValidation validation,
                std::string& array_c14n, Claim& claim) {
  ObjectReader reader(value, claims_path, index);
  claim.kind = reader.required_string("kind");
  static const char* const kKinds[] = {"quote", "value", "presence", "table_cell", "region", "other"};
  bool known = false;
  for (const char* kind : kKinds) known = known || claim.kind == kind;
  if (!known) throw invalid_input("invalid value", reader.child_path("kind"));
  assign_optional(claim.text, reader.optional_string_view("text"));
  claim.citation = read_citation(reader.required("citation"), reader);
  reader.finish();
  const std::size_t echo_start = array_c14n.size();
  CanonicalWriter(array_c14n, CanonicalWriter::InPlace{}).value(value);  // done at the statement's end
  claim.echo.assign(array_c14n, echo_start, std::string::npos);  // at most one allocation, of the exact size

  if (validation == ClaimValidation::report) return;  // the verifier reports these as checks
  const Citation& c = claim.citation;
  const auto citation_path = [&reader] { return reader.child_path("citation"); };
  if (c.page_end && !c.page) throw invalid_input("page_end needs a page", citation_path() + ".page_end");
  if (!c.has_locator()) throw invalid_input("citation has no locator", citation_path());
  if (c.table_id.has_value() != c.cell.has_value()) throw invalid_input("table_id and cell go together", citation_path());
  if (c.bbox && !c.page && !c.element_id && !c.span_id && !c.table_id) {
    throw invalid_input("bbox needs a page", citation_path() + ".bbox");
  }
  if (is_text_kind(claim.kind) && (!claim.text || is_blank(*claim.text))) {
    throw invalid_input("claim text is required", reader.child_path("text"));
  }
  if (claim.kind == "table_cell"sv && !c.table_id) throw invalid_input("table_cell needs table_id and cell", citation_path());
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
  CitationSet set;
  load_citations_into(parser, bytes, max_checks, validation, set);
  return set;
}

void load_citations_into(simdjson::dom::parser& parser, std::string_view bytes, std::int64_t max_checks,
                         ClaimValidation validation, CitationSet& set) {
  const JsonValue document = parse_strict(parser, bytes, "citations");
  simdjson::dom::array claims;
  std::string claims_path = "$";
  if (document.is_array()) {
    claims = document.get_array().value_unsafe();
  } else if (document.is_object()) {
    ObjectReader envelope(document, "$");
    assign_optional(set.document_fingerprint, envelope.optional_string_view("document_fingerprint"));
    if (set.document_fingerprint && !is_sha256_prefixed(*set.document_fingerprint)) {
      throw invalid_input("invalid hash", "$.document_fingerprint");
    }
    claims = expect_array(envelope.required("claims"), "$.claims");
    claims_path = "$.claims";
    envelope.finish();
  } else {
    throw invalid_input("expected an array or an object", "$");
  }
  if (document.is_array()) set.document_fingerprint.reset();
  if (claims.size() == 0) throw invalid_input("list must not be empty", claims_path);
  if (static_cast<std::int64_t>(claims.size()) > max_checks) {
    throw EthosError("input_limit_exceeded", find_error_code("input_limit_exceeded")->default_message,
                     {{"path", claims_path}, {"limit", max_checks}, {"input", "citations"}});
  }
  // Sized once; the claims kept from a previous set are overwritten field by field.
  set.claims.resize(claims.size());
  // claims_sha256 = sha256(c14n(claims array)): the claims' canonical texts are written one after
  // another into this per-thread buffer (its capacity reused input after input: verify-batch
  // reads one claims array per line) and hashed in one update; each claim keeps its part as echo.
  thread_local std::string array_c14n;
  array_c14n.assign(1, '[');
  std::size_t index = 0;
  for (JsonValue claim : claims) {
    if (index > 0) array_c14n += ',';
    read_claim(claim, claims_path, index, validation, array_c14n, set.claims[index]);
    ++index;
  }
  array_c14n += ']';
  // One context per thread, reset per input.
  thread_local Sha256 digest;
  digest.reset();
  digest.update(array_c14n);
  digest.hex_into(set.claims_sha256);
}

}  // namespace ethos
