// anchor_report.cpp - the evidence-anchor report and its optional in-toto Statement wrapper.
#include "core/anchor_report.hpp"

#include "core/anchor_check.hpp"
#include "core/anchor_request.hpp"
#include "core/error.hpp"
#include "json/c14n.hpp"
#include "json/reader.hpp"
#include "json/strict_json.hpp"

namespace ethos {
namespace {

using json = nlohmann::json;

struct AnchorOptions {
  bool statement = false;
  std::string subject_name = "document.json";
};

AnchorOptions read_options(std::string_view bytes) {
  AnchorOptions options;
  if (bytes.empty()) return options;
  const ParsedJson parsed = parse_strict(bytes, "options");
  ObjectReader reader(parsed.root(), "$");
  options.statement = reader.optional_bool("statement").value_or(false);
  if (auto name = reader.optional_string("subject_name")) options.subject_name = *name;
  reader.finish();
  return options;
}

json anchor_json(const EvidenceRef& ref, const AnchorResult& result) {
  json limits = json::array();
  for (const char* name : result.capability_limits) limits.push_back(name);
  return {{"evidence_id", ref.evidence_id},
          {"evidence_kind", ref.evidence_kind},
          {"anchor_status", result.status},
          {"required_anchor_level", ref.required_anchor_level},
          {"achieved_anchor_level", result.achieved_level},
          {"checks",
           {{"fingerprint", result.checks.fingerprint},
            {"page", result.checks.page},
            {"text", result.checks.text},
            {"bbox", result.checks.bbox},
            {"table_cell", result.checks.table_cell}}},
          {"capability_limits", std::move(limits)}};
}

}  // namespace

std::string anchor_evidence(const Source& source, std::string_view request_bytes, std::string_view options_json) {
  const AnchorOptions options = read_options(options_json);
  const AnchorRequest request = load_anchor_request(request_bytes);
  json anchors = json::array();
  for (const EvidenceRef& ref : request.refs) {
    anchors.push_back(anchor_json(ref, bind_anchor(source, request.source_fingerprint, ref)));
  }
  json report = {{"artifact_type", std::string(kAnchorReportType)},
                 {"schema_version", "1.0.0"},
                 {"grounding", {{"parser", source.parser.to_json()}, {"capabilities", source.capabilities.to_json()}}},
                 {"anchors", std::move(anchors)}};
  // The fingerprint of the source the refs were bound to (absent when it declares none).
  if (source.fingerprint) report["source_fingerprint"] = *source.fingerprint;
  if (!options.statement) return to_c14n(report);
  json statement = {{"_type", "https://in-toto.io/Statement/v1"},
                    {"predicateType", "https://docushell.com/ethos/evidence-anchor/v1"},
                    {"predicate", std::move(report)},
                    {"subject", json::array({{{"name", options.subject_name},
                                              {"digest", {{"sha256", source.representation_sha256}}}}})}};
  return to_c14n(statement);
}

}  // namespace ethos
