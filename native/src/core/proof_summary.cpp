// proof_summary.cpp - proof status, reusable checks, limitations, and the `--format summary` text.
#include "core/proof_summary.hpp"

#include <cstdint>
#include <functional>
#include <map>

#include "core/error.hpp"
#include "match/policy.hpp"

namespace ethos {
namespace {

using json = nlohmann::json;

// One fixed sentence per reason (no paths, no numbers), printed under each non-grounded check.
const std::map<std::string, const char*>& diagnostics() {
  static const std::map<std::string, const char*> kDiagnostics = {
      {"missing_locator", "The citation names no page, element, span, table or bbox."},
      {"missing_required_text", "The claim kind needs a non-blank text to compare."},
      {"unsupported_claim_kind", "This claim kind is not verified by the active configuration."},
      {"stale_fingerprint", "The citations were made for a different version of the document."},
      {"missing_source_fingerprint", "The citations are pinned to a fingerprint but the source declares none."},
      {"missing_citation_fingerprint", "The citations do not say which document version they were made for."},
      {"missing_span_capability", "The source has no spans, so a span locator cannot be resolved."},
      {"missing_table_capability", "The source has no tables, so a table locator cannot be resolved."},
      {"unknown_coordinate_origin", "The source does not say where its coordinates start, so geometry cannot be used."},
      {"element_not_found", "No element with the cited element_id exists in the source."},
      {"span_not_found", "No span with the cited span_id exists in the source."},
      {"page_not_found", "No page with the cited page id exists in the source."},
      {"bbox_not_found", "No element on the cited page contains the cited bbox."},
      {"missing_page_for_bbox", "A bbox locator needs the page it is on."},
      {"missing_table_cell_locator", "A table locator needs both table_id and cell."},
      {"table_not_found", "No table with the cited table_id exists in the source."},
      {"table_cell_not_found", "The cited table has no cell covering the cited row and column."},
      {"text_mismatch", "The claim text was not found in the cited target."},
      {"locator_conflict", "The citation's locators point at different targets."},
      {"stitched_quotation", "The quote joins fragments with an elision mark, and a fragment was not found or a guard blocked the join."},
      {"near_miss", "Only a near match was found: the source says something close to, but not the same as, the claim."},
      {"numeric_guard", "A near match changes a figure, so it is not accepted."},
      {"polarity_guard", "A near match adds or drops a negation or reverses a direction word, so it is not accepted."},
      {"token_boundary", "The claim text occurs only as part of longer words in the source, not as whole words."},
      {"located_elsewhere", "The claim text is in the source, but not where it is cited: the evidence shows where it was found."},
      {"hidden_text", "The claim text is only in text a reader of the page cannot see (hidden or off-page): the evidence shows where."},
  };
  return kDiagnostics;
}

std::string join(const json& list) {
  if (list.empty()) return "none";
  std::string out;
  for (const json& item : list) {
    if (!out.empty()) out += ",";
    out += item.get<std::string>();
  }
  return out;
}

std::string locator_label(const json& citation) {
  std::string out;
  const auto add = [&](const std::string& part) { out += (out.empty() ? "" : ";") + part; };
  // at(), never operator[]: on a const json a missing key or index is undefined behaviour, and a
  // malformed report (e.g. "bbox": []) must be an invalid_input error, not a crash of the host.
  if (citation.contains("page")) add("page:" + citation.at("page").get<std::string>());
  if (citation.contains("element_id")) add("element_id:" + citation.at("element_id").get<std::string>());
  if (citation.contains("span_id")) add("span_id:" + citation.at("span_id").get<std::string>());
  if (citation.contains("table_id")) add("table_id:" + citation.at("table_id").get<std::string>());
  if (citation.contains("cell")) {
    add("cell:" + std::to_string(citation.at("cell").at("row").get<std::int64_t>()) + "," +
        std::to_string(citation.at("cell").at("col").get<std::int64_t>()));
  }
  if (citation.contains("bbox")) {
    const json& b = citation.at("bbox");
    if (!b.is_array() || b.size() != 4) throw invalid_input("not a verification report", "$");
    add("bbox:[" + std::to_string(b.at(0).get<std::int64_t>()) + "," + std::to_string(b.at(1).get<std::int64_t>()) + "," +
        std::to_string(b.at(2).get<std::int64_t>()) + "," + std::to_string(b.at(3).get<std::int64_t>()) + "]");
  }
  return out.empty() ? "none" : out;
}

// The six fixed recovery sentences, checked in the order of CONTRACTS §1.5.
std::string recovery_hint(const json& summary, const json& report) {
  const std::string status = summary["proof_status"];
  const json& limitations = summary["proof_limitations"];
  const auto has = [&](const char* name) {
    for (const json& item : limitations) {
      if (item == name) return true;
    }
    return false;
  };
  if (status == "verified" && limitations.empty()) return "none";
  if (status == "verified") {
    return "Verified; the source lacks some capabilities, so review the listed capability limits before reuse.";
  }
  if (status == "partially_verified") {
    return "Reuse only the reusable grounded checks; fix or drop the claims listed under non_grounded_checks.";
  }
  if (report.at("fingerprint_stale").get<bool>() || has("stale_fingerprint")) {
    return "Re-run retrieval against the current document and cite its fingerprint, then verify again.";
  }
  // A whole citations file without document_fingerprint fails every check the same way: say so,
  // rather than asking to correct claim texts that were never compared.
  const auto any_reason = [&](const char* reason) {
    for (const json& check : report.at("checks")) {
      if (check.value("reason", std::string()) == reason) return true;
    }
    return false;
  };
  if (any_reason("missing_citation_fingerprint")) {
    return "The citations file has no document_fingerprint: add the document's fingerprint (document_fingerprint "
           "above) to it, then verify again.";
  }
  if (any_reason("missing_source_fingerprint")) {
    return "The citations name a document_fingerprint but the source has none: verify against a source with a "
           "fingerprint, or remove document_fingerprint from the citations.";
  }
  if (has("capability_limited")) {
    return "Use a source with the missing capabilities or cite with locators the source supports.";
  }
  if (has("semantic_unverified")) {
    return "A quote was only found across adjacent elements; have a person confirm it or cite each part separately.";
  }
  return "Correct the claim text or its locator so it matches the source, then verify again.";
}

// The claim or source text on one line: whitespace runs become one space, at most kShortText
// Unicode scalars (cut on a scalar boundary) with "…" when shortened, in double quotes.
constexpr std::size_t kShortText = 80;
std::string shortened(const std::string& text) {
  std::string out;
  std::size_t scalars = 0;
  bool space = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x20 || byte == ' ') {
      space = !out.empty();
      continue;
    }
    const bool starts_scalar = (byte & 0xC0) != 0x80;
    if (starts_scalar) {
      if (scalars + (space ? 1 : 0) >= kShortText) return "\"" + out + "…\"";
      if (space) {
        out += ' ';
        ++scalars;
        space = false;
      }
      ++scalars;
    }
    out += static_cast<char>(byte);
  }
  return "\"" + out + "\"";
}

std::string percent_bp(std::int64_t basis_points) {
  const std::string fraction = std::to_string(basis_points % 100);
  return std::to_string(basis_points / 100) + "." + (fraction.size() < 2 ? "0" : "") + fraction + "%";
}

// The policy in force, named when its fingerprint is a preset's or a public config's (the report
// records only the fingerprint).
std::string policy_label(const std::string& fingerprint) {
  for (const std::string& name : match::preset_names()) {
    const match::Policy* preset = match::preset_policy(name);
    if (preset != nullptr && preset->fingerprint == fingerprint) return name;
  }
  for (const char* normalization : {"none", "collapse_whitespace", "unicode_compat_v1"}) {
    for (const bool case_sensitive : {true, false}) {
      if (match::policy_fingerprint_of(match::public_config_policy_json(normalization, case_sensitive)) == fingerprint) {
        return std::string("config matching (text_normalization=") + normalization +
               ", case_sensitive=" + (case_sensitive ? "true" : "false") + ")";
      }
    }
  }
  return "custom";
}

// What the matcher caught, from the check's match detail: blocking guards with their detail, the
// near miss's source text, fragments not found, a clipped or not-accepted occurrence, and the
// nearest element when the config asked for it.
void explain_check(const json& check, const std::function<void(const std::string&)>& line) {
  if (check.contains("match")) {
    const json& match = check.at("match");
    for (const json& guard : match.value("guards", json::array())) {
      if (guard.at("verdict") != "block") continue;
      line("  " + guard.at("name").get<std::string>() + " guard: " + guard.value("detail", std::string("blocked")));
    }
    for (const json& fragment : match.value("fragments", json::array())) {
      if (!fragment.at("found").get<bool>()) line("  fragment not found: " + shortened(fragment.at("quote").get<std::string>()));
    }
    if (match.contains("score")) {
      line("  nearest source text: " + shortened(match.at("source_text").get<std::string>()) +
           " (similarity " + percent_bp(match.at("score").get<std::int64_t>()) + ")");
    } else if (!match.contains("fragments") && match.contains("tier")) {
      line("  closest source text: " + shortened(match.at("source_text").get<std::string>()) + " (tier " +
           match.at("tier").get<std::string>() + ")");
    }
  }
  if (check.contains("nearest_match")) {
    const json& nearest = check.at("nearest_match");
    line("  nearest element: " + nearest.at("element_id").get<std::string>() + " " +
         shortened(nearest.at("text").get<std::string>()) + " (similarity " +
         percent_bp(nearest.at("similarity_bp").get<std::int64_t>()) + ")");
  }
}

}  // namespace

const json& report_of(const json& value) {
  if (value.is_object() && value.contains("_type") && value.contains("predicate")) {
    const json& predicate = value["predicate"];
    if (!predicate.is_object() || !predicate.contains("checks")) {
      throw invalid_input("statement predicate is not a verification report", "$.predicate");
    }
    return predicate;
  }
  if (!value.is_object() || !value.contains("checks") || !value.contains("fingerprint_stale")) {
    throw invalid_input("not a verification report", "$");
  }
  return value;
}

json proof_summary(const json& input) {
  const json& report = report_of(input);
  const bool stale = report.at("fingerprint_stale").get<bool>();
  json reusable = json::array(), review = json::array();
  bool any_non_grounded = false, any_semantic = false, check_limited = false;
  for (const json& check : report.at("checks")) {
    const bool grounded = check.at("status") == "grounded";
    const bool semantic = check.value("semantic_unverified", false);
    (grounded && !semantic && !stale ? reusable : review).push_back(check.at("id"));
    any_non_grounded = any_non_grounded || !grounded;
    any_semantic = any_semantic || semantic;
    for (const json& warning : check.value("warnings", json::array())) check_limited = check_limited || warning == "capability_limited";
  }
  bool report_limited = !report.value("capability_limits", json::array()).empty();
  for (const json& warning : report.value("warnings", json::array())) report_limited = report_limited || warning == "capability_limited";
  json limitations = json::array();
  if (report_limited || check_limited) limitations.push_back("capability_limited");
  if (stale) limitations.push_back("stale_fingerprint");
  if (!report.value("unsupported_claim_kinds", json::array()).empty()) limitations.push_back("unsupported_claim_kind");
  if (any_non_grounded) limitations.push_back("non_grounded_checks");
  if (any_semantic) limitations.push_back("semantic_unverified");
  const bool certified = report.at("all_evidence_grounded").get<bool>();
  const char* status = certified ? "verified" : (!reusable.empty() ? "partially_verified" : "unverified");
  return {{"proof_status", status},
          {"request_certified", certified},
          {"reusable_grounded_check_ids", std::move(reusable)},
          {"needs_review_check_ids", std::move(review)},
          {"proof_limitations", std::move(limitations)}};
}

namespace {

// "12.5%": a share of `total` in tenths of a percent, rounded half up, with integers only (the
// same text on every platform).
std::string percent(std::size_t count, std::size_t total) {
  const std::size_t tenths = total == 0 ? 0 : (count * 1000 + total / 2) / total;
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + "%";
}

// The ladder profile: how many checks grounded at each tier of the ladder (the loosest tier their
// match needed), and the share of all checks grounded at that tier or a stricter one. It shows
// how much normalization a set of claims leaned on, the figure gtrex users read first.
template <typename Line>
void ladder_profile(const json& checks, const Line& line) {
  static const char* const tiers[] = {"exact", "whitespace", "typography", "case", "skeleton"};
  line("ladder_profile:");
  std::size_t cumulative = 0;
  for (const char* tier : tiers) {
    std::size_t count = 0;
    for (const json& check : checks) {
      if (check.at("status") != "grounded" || !check.contains("match") || !check.at("match").is_object()) continue;
      const json& match = check.at("match");
      count += match.contains("tier") && match.at("tier") == tier ? 1 : 0;
    }
    cumulative += count;
    line(std::string("- ") + tier + " grounded=" + std::to_string(count) + " share=" + percent(count, checks.size()) +
         " cumulative=" + percent(cumulative, checks.size()));
  }
}

}  // namespace

std::string render_summary_text(const json& input) {
  const json& report = report_of(input);
  const json summary = proof_summary(report);
  const auto yes_no = [](bool value) { return value ? std::string("true") : std::string("false"); };
  std::string out;
  const auto line = [&](const std::string& text) { out += text + "\n"; };
  line("ethos verify summary");
  line("schema_version: " + report.at("schema_version").get<std::string>());
  line("verification_config_sha256: " + report.at("verification_config_sha256").get<std::string>());
  line("all_evidence_grounded: " + yes_no(report.at("all_evidence_grounded").get<bool>()));
  line("fingerprint_stale: " + yes_no(report.at("fingerprint_stale").get<bool>()));
  line("proof_status: " + summary["proof_status"].get<std::string>());
  line("request_certified: " + yes_no(summary["request_certified"].get<bool>()));
  line("reusable_grounded_checks: " + join(summary["reusable_grounded_check_ids"]));
  line("needs_review_checks: " + join(summary["needs_review_check_ids"]));
  line("proof_limitations: " + join(summary["proof_limitations"]));
  line("recovery_hint: " + recovery_hint(summary, report));
  // Under an explicit public config the fingerprint sits in attestation (the report keeps the
  // public top-level members only, see report.cpp).
  const json* attestation = report.contains("attestation") ? &report.at("attestation") : nullptr;
  const json* policy = report.contains("policy_fingerprint") ? &report.at("policy_fingerprint")
                       : attestation != nullptr && attestation->contains("policy_fingerprint")
                           ? &attestation->at("policy_fingerprint")
                           : nullptr;
  if (policy != nullptr) {
    line("policy: " + policy_label(policy->get<std::string>()));
    line("policy_fingerprint: " + policy->get<std::string>());
  }
  if (report.contains("document_fingerprint")) line("document_fingerprint: " + report.at("document_fingerprint").get<std::string>());
  const json& parser = report.at("grounding").at("parser");
  line("grounding: " + parser.at("name").get<std::string>() + " " + parser.at("version").get<std::string>());
  if (parser.contains("adapter")) line("grounding_adapter: " + parser["adapter"].get<std::string>());
  if (parser.contains("adapter_version")) line("grounding_adapter_version: " + parser["adapter_version"].get<std::string>());
  const json& caps = report.at("grounding").at("capabilities");
  line("grounding_capabilities: spans=" + yes_no(caps.at("spans").get<bool>()) +
       ",char_offsets=" + yes_no(caps.at("char_offsets").get<bool>()) + ",tables=" + yes_no(caps.at("tables").get<bool>()) +
       ",fingerprint=" + yes_no(caps.at("fingerprint").get<bool>()) +
       ",coordinate_origin=" + caps.at("coordinate_origin").get<std::string>() +
       ",crop_support=" + yes_no(caps.at("crop_support").get<bool>()));
  const json& checks = report.at("checks");
  line("checks_total: " + std::to_string(checks.size()));
  for (const char* status : {"grounded", "not_found", "mismatch", "stale", "unsupported_claim_kind",
                             "capability_blocked", "error"}) {
    std::size_t count = 0;
    for (const json& check : checks) count += check.at("status") == status ? 1 : 0;
    line(std::string("checks_") + status + ": " + std::to_string(count));
  }
  line("capability_limits: " + join(report.at("capability_limits")));
  line("unsupported_claim_kinds: " + join(report.at("unsupported_claim_kinds")));
  line("warnings: " + join(report.at("warnings")));
  line("non_grounded_checks:");
  bool any = false;
  for (const json& check : checks) {
    if (check.at("status") == "grounded") continue;
    any = true;
    const std::string reason = check.at("reason").get<std::string>();
    line("- " + check.at("id").get<std::string>() + " status=" + check.at("status").get<std::string>() +
         " reason=" + reason + " kind=" + check.at("claim").at("kind").get<std::string>() +
         " locator=" + locator_label(check.at("claim").at("citation")) +
         " match_method=" + check.at("match_method").get<std::string>());
    const json& claim = check.at("claim");
    if (claim.contains("text")) line("  claim: " + shortened(claim.at("text").get<std::string>()));
    auto diagnostic = diagnostics().find(reason);
    if (diagnostic == diagnostics().end()) throw invalid_input("not a verification report", "$");  // not a schema reason
    line(std::string("  diagnostic: ") + diagnostic->second);
    explain_check(check, line);
  }
  if (!any) line("- none");
  // After the contract's lines (CONTRACTS 1.5 fixes their order), so a reader of those is undisturbed.
  // Only for a report verified under a policy (its fingerprint at the top level): under an explicit
  // public config the checks follow the substring rule and carry no tier.
  if (report.contains("policy_fingerprint")) ladder_profile(checks, line);
  return out;
}

}  // namespace ethos
