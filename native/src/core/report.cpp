// report.cpp - assembles the report JSON: checks with evidence, gate, limits, attestation, hardening.
#include "core/report.hpp"

#include <set>

#include "text/utf8.hpp"

namespace ethos {
namespace {

using json = nlohmann::json;

constexpr const char* kVerifierName = "ethos-verify";

json capability_limits(const Source& source, const VerificationConfig& config) {
  const Capabilities& caps = source.capabilities;
  json limits = json::array();
  if (!caps.spans) limits.push_back("missing_spans");
  if (!caps.char_offsets) limits.push_back("missing_char_offsets");
  if (!caps.tables && config.allows_kind("table_cell")) limits.push_back("missing_tables");
  if (config.require_fingerprint_match && !source.fingerprint) limits.push_back("missing_fingerprint");
  if (caps.coordinate_origin == "unknown") limits.push_back("unknown_coordinate_origin");
  if (config.include_crops && !caps.crop_support) limits.push_back("missing_crop_support");
  if (config.hardening.include_provenance && !caps.structure) limits.push_back("missing_structure");
  return limits;
}

// Headings above an element: walking back, each heading shallower than the last one kept.
json heading_path(const Source& source, std::size_t index) {
  std::vector<std::string> path;
  std::int64_t ceiling = source.elements[index].kind == "heading" ? std::max<std::int64_t>(source.elements[index].heading_level, 1) : 10;
  for (std::size_t i = index; i-- > 0 && ceiling > 1;) {
    const Element& element = source.elements[i];
    if (element.kind != "heading") continue;
    const std::int64_t level = std::max<std::int64_t>(element.heading_level, 1);
    if (level >= ceiling) continue;
    path.push_back(element.text.value_or(""));
    ceiling = level;
  }
  return json(std::vector<std::string>(path.rbegin(), path.rend()));
}

json provenance(const Source& source, const CheckResult& check) {
  if (!source.capabilities.structure) return {{"status", "capability_limited"}, {"heading_path", json::array()}};
  if (!check.target || check.target->elements.empty()) return {{"status", "not_applicable"}, {"heading_path", json::array()}};
  const std::size_t index = check.target->elements.front();
  json out = {{"status", "available"}, {"heading_path", heading_path(source, index)},
              {"element_role", source.elements[index].kind}};
  const std::size_t last = check.target->elements.back();
  if (index > 0) out["previous_element_id"] = source.elements[index - 1].id;
  if (last + 1 < source.elements.size()) out["next_element_id"] = source.elements[last + 1].id;
  return out;
}

// Window of `window` scalars on each side of the match in the original target text.
json context_echo(const Source& source, const CheckResult& check, std::int64_t window) {
  const Target& target = *check.target;
  const std::string_view text = *target.text;
  const MatchRange range = *check.match;
  const auto w = static_cast<std::size_t>(window);
  json out = {{"before", std::string(utf8::tail(text.substr(0, range.begin), w))},
              {"match", std::string(text.substr(range.begin, range.end - range.begin))},
              {"after", std::string(utf8::head(text.substr(range.end), w))}};
  if (target.elements.size() == 2 && target.join_boundary > range.begin && target.join_boundary <= range.end) {
    const auto offset = utf8::scalar_count(text.substr(range.begin, target.join_boundary - range.begin));
    out["element_boundary"] = {{"offset", static_cast<std::int64_t>(offset)},
                               {"left_element_id", source.elements[target.elements[0]].id},
                               {"right_element_id", source.elements[target.elements[1]].id}};
  }
  return out;
}

json build_check(const Source& source, const Claim& claim, const CheckResult& check, std::size_t index,
                 const VerificationConfig& config) {
  char id[16];
  std::snprintf(id, sizeof id, "v%04zu", index + 1);
  json out = {{"id", id},
              {"claim", claim.echo},
              {"status", check.status},
              {"match_method", check.match_method},
              {"semantic_unverified", check.semantic_unverified},
              {"warnings", check.warnings}};
  if (!check.reason.empty()) out["reason"] = check.reason;
  if (check.target) {
    const Target& target = *check.target;
    json evidence = {{"page", target.page}};
    if (target.bbox) evidence["bbox"] = target.bbox->to_json();
    if (config.include_text && target.text) evidence["text"] = *target.text;
    out["evidence"] = std::move(evidence);
    out["evidence_tier"] = target.tier;
  }
  if (config.hardened) {
    json ids = json::array();
    if (check.target) {
      for (std::size_t element : check.target->elements) ids.push_back(source.elements[element].id);
    }
    out["resolved_element_ids"] = std::move(ids);
  }
  if (config.hardening.include_provenance && check.target) out["provenance"] = provenance(source, check);
  if (config.hardening.include_context_echo && check.match && check.target && check.target->text) {
    out["context_echo"] = context_echo(source, check, config.hardening.context_window_chars);
  }
  if (config.hardening.include_nearest_match && check.nearest) {
    const Element& element = source.elements[check.nearest->element];
    out["nearest_match"] = {{"element_id", element.id},
                            {"text", std::string(utf8::head(element.text.value_or(""), 512))},
                            {"similarity_bp", check.nearest->similarity_bp},
                            {"method", "token_jaccard_v1"}};
  }
  return out;
}

// Reusable grounded checks only: grounded, not semantically unverified, not stale.
json dispersion(const Source& source, const Verdicts& verdicts, bool with_sections) {
  std::int64_t grounded = 0, unmapped = 0;
  std::set<std::string> elements, pages, sections;
  for (const CheckResult& check : verdicts.checks) {
    if (check.status != "grounded" || check.semantic_unverified || verdicts.fingerprint_stale) continue;
    ++grounded;
    if (check.target) pages.insert(check.target->page);
    if (!check.target || check.target->elements.empty()) {
      ++unmapped;
      continue;
    }
    for (std::size_t element : check.target->elements) elements.insert(source.elements[element].id);
    if (with_sections) sections.insert(heading_path(source, check.target->elements.front()).dump());
  }
  json out = {{"grounded_checks", grounded},
              {"elements", static_cast<std::int64_t>(elements.size())},
              {"pages", static_cast<std::int64_t>(pages.size())},
              {"unmapped_grounded_checks", unmapped}};
  if (with_sections) out["sections"] = static_cast<std::int64_t>(sections.size());
  return out;
}

}  // namespace

bool all_evidence_grounded(const json& report) {
  if (report.at("fingerprint_stale").get<bool>()) return false;
  if (!report.at("unsupported_claim_kinds").empty()) return false;
  std::size_t supported = 0;
  for (const json& check : report.at("checks")) {
    if (check.at("status") == "unsupported_claim_kind") continue;
    ++supported;
    if (check.at("status") != "grounded" || check.at("semantic_unverified").get<bool>()) return false;
  }
  return supported > 0;
}

json build_report(const Source& source, const CitationSet& citations, const VerificationConfig& config,
                  const Verdicts& verdicts) {
  json checks = json::array();
  for (std::size_t i = 0; i < verdicts.checks.size(); ++i) {
    checks.push_back(build_check(source, citations.claims[i], verdicts.checks[i], i, config));
  }
  json limits = capability_limits(source, config);
  json report = {
      {"schema_version", config.hardening.any() ? "1.1.0" : "1.0.0"},
      {"verification_config_sha256", config.sha256},
      {"grounding", {{"parser", source.parser.to_json()}, {"capabilities", source.capabilities.to_json()}}},
      {"fingerprint_stale", verdicts.fingerprint_stale},
      {"checks", std::move(checks)},
      {"unsupported_claim_kinds", verdicts.unsupported_claim_kinds},
      {"warnings", limits.empty() ? json::array() : json::array({"capability_limited"})},
      {"capability_limits", std::move(limits)},
      {"attestation",
       {{"verifier", {{"name", kVerifierName}, {"version", ETHOS_VERSION_STRING}}},
        {"config_version", config.config_version},
        {"claims_sha256", citations.claims_sha256}}},
  };
  if (source.fingerprint) report["document_fingerprint"] = *source.fingerprint;
  if (config.hardening.include_dispersion) {
    report["dispersion"] = dispersion(source, verdicts, config.hardening.include_provenance);
  }
  report["all_evidence_grounded"] = all_evidence_grounded(report);
  return report;
}

json wrap_statement(const Source& source, const std::string& subject_name, const char* predicate_kind,
                    json predicate) {
  return {{"_type", "https://in-toto.io/Statement/v1"},
          {"subject", json::array({{{"name", subject_name}, {"digest", {{"sha256", source.representation_sha256}}}}})},
          {"predicateType", std::string("https://docushell.com/ethos/") + predicate_kind + "/v1"},
          {"predicate", std::move(predicate)}};
}

}  // namespace ethos
