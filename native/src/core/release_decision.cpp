// release_decision.cpp - which claims of an answer an app may release, from the proof and the app's labels.
#include "core/release_decision.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>

#include "core/error.hpp"
#include "core/proof_summary.hpp"
#include "json/c14n.hpp"
#include "json/strict_json.hpp"
#include "text/utf8.hpp"

namespace ethos {
namespace {

using json = nlohmann::json;

constexpr const char* kArtifactType = "ethos.app_answer_release_decision.v1";
constexpr const char* kSchemaVersion = "1.1.0";
constexpr std::string_view kRelevance[] = {"direct_answer", "supports_answer", "background_only", "unrelated"};
constexpr std::string_view kClaimTypes[] = {"source_fact", "synthesis", "unsupported"};
constexpr std::string_view kClaimSupport[] = {"supported", "unsupported", "contradicted", "not_evaluated"};
constexpr std::string_view kProofStatus[] = {"verified", "partially_verified", "unverified"};
constexpr const char* kSummaryFields[] = {"proof_status", "request_certified", "reusable_grounded_check_ids",
                                          "needs_review_check_ids", "proof_limitations"};

// Every failure names the input, the JSON path and the field; the message stays a fixed template.
[[noreturn]] void fail(const char* message, const char* input, const std::string& path, const std::string& field,
                       const std::optional<std::string>& claim_id = std::nullopt, json extra = json::object()) {
  extra["input"] = input;
  extra["field"] = field;
  if (claim_id) extra["claim_id"] = *claim_id;
  throw invalid_input(message, path, std::move(extra));
}

template <std::size_t N>
bool one_of(const json& value, const std::string_view (&allowed)[N]) {
  if (!value.is_string()) return false;
  const std::string& text = value.get_ref<const std::string&>();
  return std::find(std::begin(allowed), std::end(allowed), text) != std::end(allowed);
}

// Python's str.isspace set: "blank" must mean the same on every surface (ethos_py/release.py).
bool is_space(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

bool is_blank(std::string_view text) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    if (!is_space(utf8::next(text, pos))) return false;
  }
  return true;
}

bool non_empty_string(const json& value) { return value.is_string() && !value.get_ref<const std::string&>().empty(); }

bool contains(const json& list, const json& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// A proof summary as given (checked), or derived from a report or Statement.
json summary_of(const json& proof) {
  if (!proof.is_object()) {
    throw invalid_input("proof must be a proof summary, a verification report or a Statement", "$",
                        {{"input", "report"}});
  }
  if (!proof.contains("proof_status")) {
    try {
      return proof_summary(proof);
    } catch (const json::exception&) {
      // A report read back is checked loosely, as by the summary commands (core/api.cpp).
      throw invalid_input("not a verification report", "$", {{"input", "report"}});
    } catch (const EthosError& error) {
      json details = error.details();
      details["input"] = "report";
      throw EthosError(error.code(), error.what(), std::move(details));
    }
  }
  json summary = json::object();
  for (const char* field : kSummaryFields) {
    if (!proof.contains(field)) fail("proof summary lacks a field", "report", std::string("$.") + field, field);
    summary[field] = proof.at(field);
  }
  const auto string_list = [](const json& value) {
    return value.is_array() && std::all_of(value.begin(), value.end(), [](const json& v) { return v.is_string(); });
  };
  for (const char* field : kSummaryFields) {
    const json& value = summary[field];
    const std::string_view name(field);
    const bool ok = name == "proof_status"        ? one_of(value, kProofStatus)
                    : name == "request_certified" ? value.is_boolean()
                                                  : string_list(value);
    if (!ok) fail("proof summary field has an invalid value", "report", std::string("$.") + field, field);
  }
  return summary;
}

std::string claim_path(std::size_t index, const std::string& field) {
  return "$[" + std::to_string(index) + "]" + (field.empty() ? "" : "." + field);
}

struct ClaimContext {
  const json& claim;
  std::size_t index;
  std::optional<std::string> id;  // named in errors once it is known to be valid

  [[noreturn]] void fail_field(const char* message, const std::string& field, json extra = json::object()) const {
    fail(message, "claims", claim_path(index, field), field, id, std::move(extra));
  }
  const json* find(const char* field) const {
    auto it = claim.find(field);
    return it == claim.end() ? nullptr : &*it;
  }
};

template <std::size_t N>
std::string label(const ClaimContext& claim, const char* field, const json* value, const std::string_view (&allowed)[N],
                  const char* message) {
  if (value == nullptr || !one_of(*value, allowed)) claim.fail_field(message, field);
  return value->get<std::string>();
}

json check_ids_of(const ClaimContext& claim) {
  const json* single = claim.find("check_id");
  const json* many = claim.find("check_ids");
  if (single != nullptr && many != nullptr) claim.fail_field("give check_id or check_ids, not both", "check_ids");
  if (single != nullptr) {
    if (!non_empty_string(*single)) claim.fail_field("check ids must be non-empty strings", "check_id");
    return json::array({*single});
  }
  if (many == nullptr) return json::array();
  if (!many->is_array()) claim.fail_field("check_ids must be a list of check ids", "check_ids");
  if (many->empty()) claim.fail_field("check_ids must not be empty", "check_ids");
  std::set<std::string> seen;
  for (std::size_t i = 0; i < many->size(); ++i) {
    if (!non_empty_string((*many)[i])) claim.fail_field("check ids must be non-empty strings", "check_ids");
  }
  for (const json& check : *many) {
    if (!seen.insert(check.get<std::string>()).second) {
      claim.fail_field("duplicate check id", "check_ids", {{"check_id", check}});
    }
  }
  return *many;
}

bool citation_grounded_of(const ClaimContext& claim, const json& check_ids, const json& reusable, const json& review) {
  const json* supplied = claim.find("citation_grounded");
  if (supplied != nullptr && supplied->is_null()) supplied = nullptr;  // null is "not given", as in Python
  if (supplied != nullptr && !supplied->is_boolean()) {
    claim.fail_field("citation_grounded must be a boolean", "citation_grounded");
  }
  if (check_ids.empty()) {
    if (supplied == nullptr) {
      claim.fail_field("without check ids, citation_grounded must be given", "citation_grounded");
    }
    return supplied->get<bool>();
  }
  for (const json& check : check_ids) {
    if (!contains(reusable, check) && !contains(review, check)) {
      claim.fail_field("unknown check id", "check_ids", {{"check_id", check}});
    }
  }
  const bool grounded =
      std::all_of(check_ids.begin(), check_ids.end(), [&](const json& check) { return contains(reusable, check); });
  if (supplied != nullptr && supplied->get<bool>() != grounded) {
    claim.fail_field("citation_grounded disagrees with the proof", "citation_grounded");
  }
  return grounded;
}

bool relevant(const std::string& relevance) { return relevance == "direct_answer" || relevance == "supports_answer"; }

// The per-claim policy in its fixed order: the proof first, then the app's support label.
std::pair<const char*, const char*> release(bool grounded, const std::string& relevance, const std::string& type,
                                            const std::string& support) {
  if (!grounded) return {"block", "cannot_answer_from_sources"};
  if (support == "unsupported") return {"block", "unsupported_claim"};
  if (support == "contradicted") return {"block", "contradicted_claim"};
  if (support == "not_evaluated") return {"needs_review", "claim_support_not_evaluated"};
  if (relevant(relevance) && type == "source_fact") return {"show_final", "certified"};
  if (relevant(relevance) && type == "synthesis") return {"needs_review", "supported_synthesis_needs_review"};
  return {"block", "grounded_but_irrelevant"};
}

json decide_claim(const json& claim, std::size_t index, const json& reusable, const json& review) {
  if (!claim.is_object()) fail("a claim must be an object", "claims", claim_path(index, ""), "claims");
  ClaimContext context{claim, index, std::nullopt};
  const json* id = context.find("id");
  if (id == nullptr || !non_empty_string(*id)) context.fail_field("claim id must be a non-empty string", "id");
  context.id = id->get<std::string>();
  const json* text = context.find("text");
  if (text == nullptr || !non_empty_string(*text)) context.fail_field("claim text must be a non-empty string", "text");
  const std::string relevance = label(context, "question_relevance", context.find("question_relevance"), kRelevance,
                                      "question_relevance is not one of the allowed labels");
  const std::string type =
      label(context, "claim_type", context.find("claim_type"), kClaimTypes, "claim_type is not one of the allowed labels");
  const json not_evaluated = "not_evaluated";
  const json* support_value = context.find("claim_support");
  std::string support = label(context, "claim_support", support_value == nullptr ? &not_evaluated : support_value,
                              kClaimSupport, "claim_support is not one of the allowed labels");
  // Deprecated (1.0.0): the claim type "unsupported" now lives in claim_support.
  const bool legacy = type == "unsupported";
  if (legacy) {
    if (support == "supported") {
      context.fail_field("claim_type unsupported contradicts claim_support supported", "claim_support");
    }
    if (support != "contradicted") support = "unsupported";
  }
  const json check_ids = check_ids_of(context);
  const bool grounded = citation_grounded_of(context, check_ids, reusable, review);
  const auto [action, reason] = release(grounded, relevance, type, support);

  json entry = {{"id", *id}, {"text", *text}};
  if (!check_ids.empty()) entry["check_ids"] = check_ids;
  entry["citation_grounded"] = grounded;
  entry["question_relevance"] = relevance;
  if (!legacy) entry["claim_type"] = type;
  entry["claim_support"] = support;
  entry["release_action"] = action;
  entry["release_reason"] = reason;
  return entry;
}

std::string app_status(const json& claims) {
  std::size_t final_count = 0, review_count = 0;
  std::set<std::string> reasons;
  for (const json& claim : claims) {
    final_count += claim["release_action"] == "show_final" ? 1 : 0;
    review_count += claim["release_action"] == "needs_review" ? 1 : 0;
    reasons.insert(claim["release_reason"].get<std::string>());
  }
  if (final_count > 0 && final_count == claims.size()) return "certified";
  if (final_count > 0) return "partial_certified";
  if (review_count > 0 && reasons.count("claim_support_not_evaluated") > 0) return "claim_support_needs_review";
  if (review_count > 0) return "supported_synthesis_needs_review";
  if (reasons.count("unsupported_claim") > 0 || reasons.count("contradicted_claim") > 0) return "claim_support_rejected";
  if (reasons.count("grounded_but_irrelevant") > 0) return "grounded_but_irrelevant";
  return "cannot_answer_from_sources";
}

json ids_with_action(const json& claims, std::string_view action) {
  json ids = json::array();
  for (const json& claim : claims) {
    if (claim["release_action"] == action) ids.push_back(claim["id"]);
  }
  return ids;
}

}  // namespace

ReleaseOptions read_release_options(const json& options) {
  if (!options.is_object()) throw invalid_input("release options must be an object", "$", {{"input", "options"}});
  ReleaseOptions out;
  auto question = options.find("question");
  if (question == options.end() || !question->is_string() || is_blank(question->get_ref<const std::string&>())) {
    fail("question must be a non-blank string", "options", "$.question", "question");
  }
  out.question = question->get<std::string>();
  if (auto ref = options.find("verification_report_ref"); ref != options.end()) {
    if (!non_empty_string(*ref)) {
      fail("verification_report_ref must be a non-empty string", "options", "$.verification_report_ref",
           "verification_report_ref");
    }
    out.verification_report_ref = ref->get<std::string>();
  }
  if (auto notes = options.find("notes"); notes != options.end() && !notes->is_null()) {
    if (!notes->is_array() || !std::all_of(notes->begin(), notes->end(), non_empty_string)) {
      fail("notes must be a list of non-empty strings", "options", "$.notes", "notes");
    }
    for (const json& note : *notes) out.notes.push_back(note.get<std::string>());
  }
  for (const auto& item : options.items()) {
    if (item.key() != "question" && item.key() != "verification_report_ref" && item.key() != "notes") {
      throw invalid_input("unknown option", "$." + item.key(), {{"input", "options"}});
    }
  }
  return out;
}

json release_decision(const json& proof, const json& claims, const ReleaseOptions& options) {
  if (is_blank(options.question)) fail("question must be a non-blank string", "options", "$.question", "question");
  if (options.verification_report_ref.empty()) {
    fail("verification_report_ref must be a non-empty string", "options", "$.verification_report_ref",
         "verification_report_ref");
  }
  if (!claims.is_array()) fail("claims must be a list of claim objects", "claims", "$", "claims");
  const json summary = summary_of(proof);
  const json& reusable = summary["reusable_grounded_check_ids"];
  const json& review = summary["needs_review_check_ids"];

  json decided = json::array();
  std::set<std::string> seen;
  for (std::size_t index = 0; index < claims.size(); ++index) {
    json entry = decide_claim(claims[index], index, reusable, review);
    const std::string id = entry["id"].get<std::string>();
    if (!seen.insert(id).second) fail("duplicate claim id", "claims", claim_path(index, "id"), "id", id);
    decided.push_back(std::move(entry));
  }

  json grounding = {{"verification_report_ref", options.verification_report_ref}};
  for (const char* field : kSummaryFields) grounding[field] = summary[field];
  json decision = {{"artifact_type", kArtifactType},
                   {"schema_version", kSchemaVersion},
                   {"question", options.question},
                   {"grounding", std::move(grounding)},
                   {"app_status", app_status(decided)},
                   {"final_answer_claim_ids", ids_with_action(decided, "show_final")},
                   {"review_claim_ids", ids_with_action(decided, "needs_review")},
                   {"blocked_claim_ids", ids_with_action(decided, "block")}};
  decision["claims"] = std::move(decided);
  if (!options.notes.empty()) decision["notes"] = options.notes;
  return decision;
}

std::string release_decision_json(std::string_view proof, std::string_view claims, std::string_view options_json) {
  const json options = parse_strict_dom(options_json, "options");
  const ReleaseOptions parsed = read_release_options(options);
  const json claim_list = parse_strict_dom(claims, "claims");
  const json proof_document = parse_strict_dom(proof, "report");
  return to_c14n(release_decision(proof_document, claim_list, parsed));
}

}  // namespace ethos
