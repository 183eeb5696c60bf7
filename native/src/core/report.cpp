// report.cpp - streams the report: checks with evidence, gate, limits, attestation, hardening fields.
#include "core/report.hpp"

#include <algorithm>
#include <set>

#include "core/crop_descriptor.hpp"
#include "core/match_boxes.hpp"
#include "core/match_detail.hpp"
#include "json/canonical_writer.hpp"
#include "match/tiers.hpp"
#include "text/unicode_props.hpp"
#include "text/utf8.hpp"

namespace ethos {
namespace {

using json = nlohmann::json;

constexpr const char* kVerifierName = "ethos-verify";

std::vector<std::string> capability_limits(const Source& source, const VerificationConfig& config) {
  const Capabilities& caps = source.capabilities;
  std::vector<std::string> limits;
  if (!caps.spans) limits.push_back("missing_spans");
  if (!caps.char_offsets) limits.push_back("missing_char_offsets");
  if (!caps.tables && config.allows_kind("table_cell")) limits.push_back("missing_tables");
  if (config.require_fingerprint_match && !source.fingerprint) limits.push_back("missing_fingerprint");
  if (caps.coordinate_origin == "unknown") limits.push_back("unknown_coordinate_origin");
  if (config.include_crops && !caps.crop_support && !config.crop_refs) limits.push_back("missing_crop_support");
  if (config.hardening.include_provenance && !caps.structure) limits.push_back("missing_structure");
  return limits;
}

// The certification gate of §2.6.
bool all_evidence_grounded(const Verdicts& verdicts) {
  if (verdicts.fingerprint_stale || !verdicts.unsupported_claim_kinds.empty()) return false;
  std::size_t supported = 0;
  for (const CheckResult& check : verdicts.checks) {
    if (std::string_view(check.status) == "unsupported_claim_kind") continue;
    ++supported;
    if (std::string_view(check.status) != "grounded" || check.semantic_unverified) return false;
  }
  return supported > 0;
}

// Headings above an element: walking back, each heading shallower than the last one kept.
std::vector<std::string> heading_path(const Source& source, std::size_t index) {
  std::vector<std::string> path;
  const Element& self = source.elements[index];
  std::int64_t ceiling = self.kind == "heading" ? std::max<std::int64_t>(self.heading_level, 1) : 10;
  for (std::size_t i = index; i-- > 0 && ceiling > 1;) {
    const Element& element = source.elements[i];
    if (element.kind != "heading") continue;
    const std::int64_t level = std::max<std::int64_t>(element.heading_level, 1);
    if (level >= ceiling) continue;
    path.push_back(element.text.value_or(""));
    ceiling = level;
  }
  return std::vector<std::string>(path.rbegin(), path.rend());
}

void write_strings(CanonicalWriter& out, const std::vector<std::string>& items) {
  out.begin_array();
  for (const std::string& item : items) out.string(item);
  out.end_array();
}

void write_bbox(CanonicalWriter& out, const Bbox& box) {
  out.begin_array();
  out.integer(box.x0);
  out.integer(box.y0);
  out.integer(box.x1);
  out.integer(box.y1);
  out.end_array();
}

void write_provenance(CanonicalWriter& out, const Source& source, const CheckResult& check) {
  out.begin_object();
  if (!source.capabilities.structure || check.target->elements.empty()) {
    out.key("heading_path");
    out.begin_array();
    out.end_array();
    out.member("status", source.capabilities.structure ? "not_applicable" : "capability_limited");
    out.end_object();
    return;
  }
  const std::size_t first = check.target->elements.front();
  const std::size_t last = check.target->elements.back();
  out.member("element_role", source.elements[first].kind);
  out.key("heading_path");
  write_strings(out, heading_path(source, first));
  if (last + 1 < source.elements.size()) out.member("next_element_id", source.elements[last + 1].id);
  if (first > 0) out.member("previous_element_id", source.elements[first - 1].id);
  out.member("status", "available");
  out.end_object();
}

// Window of `window` scalars on each side of the match in the original target text.
void write_context_echo(CanonicalWriter& out, const Source& source, const CheckResult& check, std::int64_t window) {
  const Target& target = *check.target;
  const std::string_view text = *target.text;
  const MatchRange range = *check.match;
  const auto w = static_cast<std::size_t>(window);
  out.begin_object();
  out.member("after", utf8::head(text.substr(range.end), w));
  out.member("before", utf8::tail(text.substr(0, range.begin), w));
  if (target.elements.size() == 2 && target.join_boundary > range.begin && target.join_boundary <= range.end) {
    out.key("element_boundary");
    out.begin_object();
    out.member("left_element_id", source.elements[target.elements[0]].id);
    out.member("offset", static_cast<std::int64_t>(utf8::scalar_count(text.substr(range.begin, target.join_boundary - range.begin))));
    out.member("right_element_id", source.elements[target.elements[1]].id);
    out.end_object();
  }
  out.member("match", text.substr(range.begin, range.end - range.begin));
  out.end_object();
}

// Ladder match detail (CONTRACTS §4): offsets are Unicode scalars into the target text,
// source_text is the original text and boxes are the matched glyphs' rectangles, line by line
// (empty when the source has no glyph geometry for the target).
void write_match(CanonicalWriter& out, const Source& source, const CheckResult& check) {
  if (check.extras) return write_match_detail(out, source, check);  // stitched quotation or near miss
  const match::Located& located = *check.located;
  const std::string_view text = *check.target->text;
  // In an ASCII-only element's text a scalar offset is the byte offset; else the bytes are counted.
  const bool ascii = check.target->ascii;
  const std::size_t begin = check.located_start_byte != static_cast<std::size_t>(-1)
                                ? check.located_start_byte  // counted by the negation check
                            : ascii ? std::min<std::size_t>(located.start, text.size())
                                    : utf8::byte_offset_of_scalar(text, located.start);
  // The end counted on from the start, not from the text's first byte again.
  const std::size_t end = ascii ? std::min<std::size_t>(located.end, text.size())
                          : located.end >= located.start
                              ? begin + utf8::byte_offset_of_scalar(text.substr(begin), located.end - located.start)
                              : utf8::byte_offset_of_scalar(text, located.end);
  out.begin_object();
  out.key("boxes");
  out.begin_array();
  for (const PageBox& box : match_boxes(source, *check.target, located.start, located.end)) {
    out.begin_object();
    out.key("bbox");
    write_bbox(out, box.bbox);
    out.member("page", box.page);
    out.end_object();
  }
  out.end_array();
  out.member("end", static_cast<std::int64_t>(located.end));
  out.member("occurrences", static_cast<std::int64_t>(located.occurrences));
  // Found in a further reading (a table's rows or columns, the page's content-stream order): its name.
  if (check.target->reading != nullptr) out.member("reading", check.target->reading);
  out.member_bool("sound", match::tier_is_sound(located.tier));
  out.member("source_text", text.substr(begin, end - begin));
  out.member("start", static_cast<std::int64_t>(located.start));
  out.member("tier", match::tier_name(located.tier));
  out.end_object();
}

// "v" and the 1-based check number, zero-padded to at least four digits (printf's "v%04zu"),
// written by hand: formatting through snprintf showed in verify-batch's profile.
std::string id_of(std::size_t index) {
  std::size_t number = index + 1;
  char digits[24];
  std::size_t count = 0;
  for (; number > 0 || count < 4; number /= 10) digits[count++] = static_cast<char>('0' + number % 10);
  std::string id(1, 'v');
  while (count > 0) id += digits[--count];
  return id;
}

// Under verify --crop-dir the run produces crops, whatever the source declares.
nlohmann::json crop_capabilities(Capabilities caps) {
  caps.crop_support = true;
  return caps.to_json();
}

// Keys in canonical order: claim, context_echo, evidence, evidence_tier, id, match, match_method,
// nearest_match, provenance, reason, resolved_element_ids, semantic_unverified, status, warnings.
void write_check(CanonicalWriter& out, const Source& source, const Claim& claim, const CheckResult& check,
                 std::size_t index, const VerificationConfig& config) {
  out.begin_object();
  out.key("claim");
  out.raw(claim.echo);
  if (config.hardening.include_context_echo && check.match && check.target && check.target->text) {
    out.key("context_echo");
    write_context_echo(out, source, check, config.hardening.context_window_chars);
  }
  if (check.target) {
    const Target& target = *check.target;
    out.key("evidence");
    out.begin_object();
    if (target.bbox) {
      out.key("bbox");
      write_bbox(out, *target.bbox);
    }
    if (config.crop_refs && source.page_by_id(std::string(target.page)) != nullptr) {
      out.member("crop_ref", crop_ref_for(id_of(index), config.crop_document_fingerprint, target.page));
    }
    if (!target.page.empty()) out.member("page", target.page);  // page-less sources have none
    if (config.include_text && target.text) out.member("text", *target.text);
    out.end_object();
    out.member("evidence_tier", target.tier);
  }
  out.member("id", id_of(index));
  if (check.located && check.target && check.target->text) {
    out.key("match");
    write_match(out, source, check);
  }
  out.member("match_method", check.match_method);
  if (config.hardening.include_nearest_match && check.nearest) {
    const Element& element = source.elements[check.nearest->element];
    out.key("nearest_match");
    out.begin_object();
    out.member("element_id", element.id);
    out.member("method", "token_jaccard_v1");
    out.member("similarity_bp", check.nearest->similarity_bp);
    out.member("text", utf8::head(element.text ? std::string_view(*element.text) : std::string_view(), 512));
    out.end_object();
  }
  if (config.hardening.include_provenance && check.target) {
    out.key("provenance");
    write_provenance(out, source, check);
  }
  if (*check.reason != '\0') out.member("reason", check.reason);
  if (config.hardening.any()) {  // a 1.1.0 report
    out.key("resolved_element_ids");
    out.begin_array();
    if (check.target) {
      for (std::size_t element : check.target->elements) out.string(source.elements[element].id);
    }
    out.end_array();
  }
  out.member_bool("semantic_unverified", check.semantic_unverified);
  out.member("status", check.status);
  out.key("warnings");
  out.begin_array();
  for (const char* warning : check.warnings) out.string(warning);
  out.end_array();
  out.end_object();
}

// Reusable grounded checks only: grounded, not semantically unverified, not stale.
void write_dispersion(CanonicalWriter& out, const Source& source, const Verdicts& verdicts, bool with_sections) {
  std::int64_t grounded = 0, unmapped = 0;
  std::set<std::string> elements, pages;
  std::set<std::vector<std::string>> sections;
  for (const CheckResult& check : verdicts.checks) {
    if (std::string_view(check.status) != "grounded" || check.semantic_unverified || verdicts.fingerprint_stale) continue;
    ++grounded;
    if (check.target) pages.insert(std::string(check.target->page));
    if (!check.target || check.target->elements.empty()) {
      ++unmapped;
      continue;
    }
    for (std::size_t element : check.target->elements) elements.insert(source.elements[element].id);
    if (with_sections) sections.insert(heading_path(source, check.target->elements.front()));
  }
  out.begin_object();
  out.member("elements", static_cast<std::int64_t>(elements.size()));
  out.member("grounded_checks", grounded);
  out.member("pages", static_cast<std::int64_t>(pages.size()));
  if (with_sections) out.member("sections", static_cast<std::int64_t>(sections.size()));
  out.member("unmapped_grounded_checks", unmapped);
  out.end_object();
}

// The report's members that depend on the source and the config alone, in three runs; each is
// either written in place or (verify-batch) written once and copied as bytes into every report.
// An explicit public config (no matching.policy, no --policy) keeps its exact public meaning, so
// its report has the public top-level members only: strict public readers (ethos-pdf's
// project_evidence_states) refuse any other. The policy fingerprint and the Unicode version move
// into attestation, which those readers do not inspect, so the report still names both.
bool extension_header(const VerificationConfig& config) { return config.policy.has_value(); }

void write_attestation_run(CanonicalWriter& out, const VerificationConfig& config) {
  out.member("config_version", config.config_version);
  if (!extension_header(config)) out.member("policy_fingerprint", config.policy_fingerprint);
  out.key("verifier");
  out.begin_object();
  out.member("name", kVerifierName);
  if (!extension_header(config)) out.member("unicode_version", unicode::tables_version());
  out.member("version", ETHOS_VERSION_STRING);
  out.end_object();
}

void write_grounding_run(CanonicalWriter& out, const VerificationConfig& config, const ReportConstants& constants) {
  out.key("grounding");
  out.raw(constants.grounding);
  if (extension_header(config)) out.member("policy_fingerprint", config.policy_fingerprint);
  out.member("schema_version", config.hardening.any() ? "1.1.0" : "1.0.0");
}

void write_tail_run(CanonicalWriter& out, const VerificationConfig& config, const ReportConstants& constants) {
  out.member("verification_config_sha256", config.sha256);
  if (extension_header(config)) {
    out.key("verifier");
    out.begin_object();
    out.member("name", "ethos");
    out.member("unicode_version", unicode::tables_version());
    out.member("version", ETHOS_VERSION_STRING);
    out.end_object();
  }
  out.key("warnings");
  write_strings(out, constants.warnings);
}

// One run's members as bytes: written into an object of their own, its braces dropped.
template <typename Write>
std::string members_run(const Write& write) {
  std::string text;
  CanonicalWriter out(text);
  out.begin_object();
  write(out);
  out.end_object();
  return text.substr(1, text.size() - 2);
}

void write_bare_report(CanonicalWriter& out, const Source& source, const CitationSet& citations,
                       const VerificationConfig& config, const Verdicts& verdicts, const ReportConstants& constants) {
  const std::vector<std::string>& limits = constants.limits;
  out.begin_object();
  out.member_bool("all_evidence_grounded", all_evidence_grounded(verdicts));
  out.key("attestation");
  out.begin_object();
  out.member("claims_sha256", citations.claims_sha256);
  if (constants.has_runs) {
    out.raw_members("config_version", "verifier", constants.attestation_run);
  } else {
    write_attestation_run(out, config);
  }
  out.end_object();
  out.key("capability_limits");
  write_strings(out, limits);
  out.key("checks");
  out.begin_array();
  for (std::size_t i = 0; i < verdicts.checks.size(); ++i) {
    write_check(out, source, citations.claims[i], verdicts.checks[i], i, config);
  }
  out.end_array();
  if (config.hardening.include_dispersion) {
    out.key("dispersion");
    write_dispersion(out, source, verdicts, config.hardening.include_provenance);
  }
  if (source.fingerprint) out.member("document_fingerprint", *source.fingerprint);
  out.member_bool("fingerprint_stale", verdicts.fingerprint_stale);
  if (constants.has_runs) {
    out.raw_members("grounding", "schema_version", constants.grounding_run);
  } else {
    write_grounding_run(out, config, constants);
  }
  out.key("unsupported_claim_kinds");
  write_strings(out, verdicts.unsupported_claim_kinds);
  if (constants.has_runs) {
    out.raw_members("verification_config_sha256", "warnings", constants.tail_run);
  } else {
    write_tail_run(out, config, constants);
  }
  out.end_object();
}

}  // namespace

ReportConstants report_constants(const Source& source, const VerificationConfig& config, bool with_runs) {
  ReportConstants constants;
  constants.limits = capability_limits(source, config);
  if (!constants.limits.empty()) constants.warnings.push_back("capability_limited");
  // An explicit config without matching.policy decides by the public substring rule, not the
  // ladder and its guards (docs/matching.md "When a policy applies"): said where readers look.
  if (!config.policy) constants.warnings.push_back("public_matching_rule");
  constants.warnings.insert(constants.warnings.end(), source.warnings.begin(), source.warnings.end());
  std::sort(constants.warnings.begin(), constants.warnings.end());
  CanonicalWriter out(constants.grounding);
  out.begin_object();
  out.key("capabilities");
  out.value(config.crop_refs ? crop_capabilities(source.capabilities) : source.capabilities.to_json());
  out.key("parser");
  out.value(source.parser.to_json());
  out.end_object();
  if (with_runs) {
    constants.attestation_run = members_run([&](CanonicalWriter& run) { write_attestation_run(run, config); });
    constants.grounding_run = members_run([&](CanonicalWriter& run) { write_grounding_run(run, config, constants); });
    constants.tail_run = members_run([&](CanonicalWriter& run) { write_tail_run(run, config, constants); });
    constants.has_runs = true;
  }
  return constants;
}

std::string write_report(const Source& source, const CitationSet& citations, const VerificationConfig& config,
                         const Verdicts& verdicts, const std::optional<std::string>& statement_subject) {
  return write_report(source, citations, config, verdicts, statement_subject, report_constants(source, config));
}

std::string write_report(const Source& source, const CitationSet& citations, const VerificationConfig& config,
                         const Verdicts& verdicts, const std::optional<std::string>& statement_subject,
                         const ReportConstants& constants) {
  std::string text;
  text.reserve(256 + citations.claims.size() * 512);
  append_report(text, source, citations, config, verdicts, statement_subject, constants);
  return text;
}

void append_report(std::string& text, const Source& source, const CitationSet& citations,
                   const VerificationConfig& config, const Verdicts& verdicts,
                   const std::optional<std::string>& statement_subject, const ReportConstants& constants) {
  CanonicalWriter out(text, CanonicalWriter::InPlace{});  // text is read only after the writer's end
  if (!statement_subject) {
    write_bare_report(out, source, citations, config, verdicts, constants);
    return;
  }
  // §2.14: keys _type, predicate, predicateType, subject (byte order: '_' < 'p' < 's').
  out.begin_object();
  out.member("_type", "https://in-toto.io/Statement/v1");
  out.key("predicate");
  write_bare_report(out, source, citations, config, verdicts, constants);
  out.member("predicateType", "https://docushell.com/ethos/grounding/v1");
  out.key("subject");
  out.begin_array();
  out.begin_object();
  out.key("digest");
  out.begin_object();
  out.member("sha256", source.representation_sha256);
  out.end_object();
  out.member("name", *statement_subject);
  out.end_object();
  out.end_array();
  out.end_object();
}

}  // namespace ethos
