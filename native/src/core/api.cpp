// api.cpp - the internal facade: options parsing and the top-level flow of each operation.
#include "core/api.hpp"
#include "core/ci_formats.hpp"
#include "core/report_text.hpp"

#include "core/batch_verify.hpp"
#include "core/citations.hpp"
#include "core/config.hpp"
#include "core/crop_descriptor.hpp"
#include "sources/registry.hpp"
#include "core/proof_summary.hpp"
#include "core/report.hpp"
#include "core/source.hpp"
#include "core/verifier.hpp"
#include "core/verify_deadline.hpp"
#include "match/explain.hpp"
#include "json/c14n.hpp"
#include "json/reader.hpp"
#include "json/sha256.hpp"
#include "json/strict_json.hpp"
#include "text/utf8.hpp"

namespace ethos {
namespace {

using json = nlohmann::json;

struct VerifyOptions {
  bool merged = false;  // verify-batch only: one merged report (core/batch_verify.hpp)
  bool statement = false;
  std::string subject_name = "document.json";
  ClaimValidation claim_validation = ClaimValidation::strict;
  std::optional<match::Policy> policy;  // --policy: overrides the config's choice
  bool crop_refs = false;               // verify --crop-dir (core/crop_descriptor.hpp)
  std::optional<std::string> crop_source_pdf_fingerprint;  // verify --crop-source-pdf's sha256
  std::optional<std::int64_t> max_verify_ms;               // --max-verify-ms (core/verify_deadline.hpp)
};

// A policy file travels inside the options as a string whose scalars U+0000..U+00FF are its
// bytes (Latin-1), so both CLIs hand over the exact bytes, invalid UTF-8 included, and the core
// alone parses them (errors then read the same on every surface).
std::string latin1_to_bytes(std::string_view text, const std::string& path) {
  std::string bytes;
  bytes.reserve(text.size());
  std::size_t pos = 0;
  while (pos < text.size()) {
    const char32_t c = utf8::next(text, pos);
    if (c > 0xFF) throw invalid_input("invalid value", path, {{"input", "options"}});
    bytes.push_back(static_cast<char>(static_cast<unsigned char>(c)));
  }
  return bytes;
}

// "policy" (a preset name) or "policy_bytes_latin1" (a policy file), at most one.
std::optional<match::Policy> read_policy_option(ObjectReader& reader) {
  std::optional<match::Policy> policy;
  if (auto name = reader.optional_string("policy")) policy = named_policy(*name, "$.policy");
  if (auto file = reader.optional_string("policy_bytes_latin1")) {
    if (policy) throw invalid_input("conflicting options", "$.policy_bytes_latin1", {{"input", "options"}});
    policy = match::load_policy(latin1_to_bytes(*file, "$.policy_bytes_latin1"));
  }
  return policy;
}

VerifyOptions read_verify_options(std::string_view bytes, bool batch = false) {
  VerifyOptions options;
  if (bytes.empty()) return options;
  const ParsedJson document = parse_strict(bytes, "options");
  ObjectReader reader(document.root(), "$");
  if (batch) options.merged = reader.optional_bool("merged").value_or(false);
  options.statement = reader.optional_bool("statement").value_or(false);
  if (auto name = reader.optional_string("subject_name")) options.subject_name = *name;
  if (auto mode = reader.optional_string("claim_validation")) {
    if (*mode == "report") {
      options.claim_validation = ClaimValidation::report;
    } else if (*mode != "strict") {
      throw invalid_input("invalid value", "$.claim_validation", {{"input", "options"}});
    }
  }
  options.policy = read_policy_option(reader);
  options.crop_refs = reader.optional_bool("crop_refs").value_or(false);
  options.crop_source_pdf_fingerprint = reader.optional_string("crop_source_pdf_fingerprint");
  options.max_verify_ms = reader.optional_int("max_verify_ms", 1, kMaxVerifyMs);
  reader.finish();
  if (const auto& pdf = options.crop_source_pdf_fingerprint; pdf && (!options.crop_refs || !is_sha256_prefixed(*pdf))) {
    // The PDF only names and renders crops: without crop_refs it would be silently ignored.
    throw invalid_input("invalid value", "$.crop_source_pdf_fingerprint", {{"input", "options"}});
  }
  return options;
}

// Reports handed back to us (summary, proof summary) are parsed strictly but read loosely: any
// shape problem inside becomes invalid_input instead of a library exception.
template <typename Fn>
auto with_report(std::string_view bytes, Fn fn) {
  const json document = parse_strict_dom(bytes, "report");
  try {
    return fn(report_of(document));
  } catch (const json::exception&) {
    throw invalid_input("not a verification report", "$");
  }
}

}  // namespace

std::shared_ptr<const Source> open_source(std::string_view bytes, std::string_view options_json) {
  std::optional<std::string> grounding;  // absent: native, or Grounding JSON by its artifact_type
  if (!options_json.empty()) {
    const ParsedJson options = parse_strict(options_json, "options");
    ObjectReader reader(options.root(), "$");
    if (auto value = reader.optional_string("grounding")) grounding = *value;
    reader.finish();
  }
  return sources::load_source(grounding, bytes);
}

std::string describe_source(const Source& source) {
  json out = {{"kind", source.kind},
              {"representation_sha256", source.representation_sha256},
              {"grounding", {{"parser", source.parser.to_json()}, {"capabilities", source.capabilities.to_json()}}},
              {"counts",
               {{"pages", static_cast<std::int64_t>(source.pages.size())},
                {"elements", static_cast<std::int64_t>(source.elements.size())},
                {"spans", static_cast<std::int64_t>(source.spans.size())},
                {"tables", static_cast<std::int64_t>(source.tables.size())}}}};
  if (source.fingerprint) out["document_fingerprint"] = *source.fingerprint;
  return to_c14n(out);
}

namespace {

VerificationConfig config_for(std::optional<std::string_view> config_bytes, const VerifyOptions& options) {
  VerificationConfig config = config_bytes ? load_config(*config_bytes) : default_config();
  // Without any config the default policy (the ladder) decides; an explicit config keeps its
  // public meaning unless it or the caller names a policy (CONTRACTS §4).
  if (options.policy) {
    config.use_policy(*options.policy);
  } else if (!config_bytes) {
    config.use_policy(*match::preset_policy("default"));
  }
  return config;
}

}  // namespace

std::string verify(const Source& source, std::string_view citations, std::optional<std::string_view> config_bytes,
                   std::string_view options_json) {
  const VerifyOptions options = read_verify_options(options_json);
  // The budget runs from here: the config, the citations and every claim's search count.
  const std::optional<VerifyDeadline> deadline =
      options.max_verify_ms ? std::optional<VerifyDeadline>(*options.max_verify_ms) : std::nullopt;
  const DeadlineScope deadline_scope(deadline ? &*deadline : nullptr);
  VerificationConfig config = config_for(config_bytes, options);
  if (options.crop_refs) {
    // Crop refs are named after the document fingerprint (CONTRACTS §2.11), or the source PDF's
    // for a foreign source without one (docs/sources.md "Crops").
    config.crop_document_fingerprint = crop_identity_for_verify(source, options.crop_source_pdf_fingerprint);
    config.crop_refs = true;
  }
  const CitationSet set = load_citations(citations, config.max_checks, options.claim_validation);
  const Verdicts verdicts = verify_claims(source, set, config);
  return write_report(source, set, config, verdicts,
                      options.statement ? std::optional<std::string>(options.subject_name) : std::nullopt);
}

BatchOutput verify_batch_blocks(const Source& source, std::string_view ndjson,
                                std::optional<std::string_view> config_bytes, std::string_view options_json,
                                std::shared_ptr<ChunkPool> output_chunks) {
  // Options, config and policy are read once for every request of the batch.
  const VerifyOptions options = read_verify_options(options_json, true);
  const std::optional<VerifyDeadline> deadline =
      options.max_verify_ms ? std::optional<VerifyDeadline>(*options.max_verify_ms) : std::nullopt;
  const DeadlineScope deadline_scope(deadline ? &*deadline : nullptr);
  const VerificationConfig config = config_for(config_bytes, options);
  const BatchRun run{source, config, options.claim_validation,
                     options.statement ? std::optional<std::string>(options.subject_name) : std::nullopt,
                     std::move(output_chunks)};
  if (options.merged) return BatchOutput(verify_merged(run, ndjson));
  return verify_each_blocks(run, ndjson);
}

std::string verify_batch(const Source& source, std::string_view ndjson, std::optional<std::string_view> config_bytes,
                         std::string_view options_json) {
  return verify_batch_blocks(source, ndjson, config_bytes, options_json).take_string();
}

std::string proof_summary_json(std::string_view report) {
  return with_report(report, [](const json& r) { return to_c14n(proof_summary(r)); });
}

std::string summary_text(std::string_view report) {
  return with_report(report, [](const json& r) { return render_summary_text(r); });
}

std::string ci_format_text(std::string_view report, std::string_view options_json) {
  // Options first: a bad format is refused before the report is read.
  const ParsedJson options = parse_strict(options_json, "options");
  ObjectReader reader(options.root(), "$");
  const std::optional<std::string> format = reader.optional_string("format");
  CiContext context;
  if (auto value = reader.optional_string("citations_path")) context.citations_path = *value;
  if (auto value = reader.optional_string("source_path")) context.source_path = *value;
  reader.finish();
  if (!format) throw EthosError("invalid_arguments", "a required argument is missing", {{"argument", "format"}});
  return with_report(report, [&](const json& r) { return render_ci_format(r, *format, context); });
}

std::string report_text(std::string_view report, std::string_view options_json) {
  bool color = false;
  std::string palette = "classic";
  if (!options_json.empty()) {
    const ParsedJson options = parse_strict(options_json, "options");
    ObjectReader reader(options.root(), "$");
    if (auto value = reader.optional_bool("color")) color = *value;
    if (auto value = reader.optional_string("palette")) palette = *value;
    reader.finish();
  }
  return with_report(report, [&](const json& r) { return render_report_text(r, color, palette); });
}

std::string default_config_json() { return std::string(default_config_source()); }

namespace {

// The policy explain and explain --pinned name: the options' choice, else the default preset.
match::Policy explained_policy(std::string_view options_json) {
  std::optional<match::Policy> policy;
  if (!options_json.empty()) {
    const ParsedJson options = parse_strict(options_json, "options");
    ObjectReader reader(options.root(), "$");
    policy = read_policy_option(reader);
    reader.finish();
  }
  return policy ? *policy : *match::preset_policy("default");
}

}  // namespace

std::string explain_policy(std::string_view options_json) {
  return match::explain_policy_json(explained_policy(options_json));
}

std::string pinned_config_json(std::string_view options_json) {
  const match::Policy policy = explained_policy(options_json);
  json config = json::parse(default_config_source());
  config["matching"]["policy"] = json::parse(policy.canonical_json);
  // The label the report's attestation echoes names the policy too, not default-v1 alone.
  config["config_version"] = "default-v1+" + config["matching"]["policy"].at("name").get<std::string>();
  return to_c14n(config);
}

std::string normalize_text_json(std::string_view text, std::string_view options_json) {
  std::optional<match::Policy> policy;
  std::optional<match::Tier> tier;
  if (!options_json.empty()) {
    const ParsedJson options = parse_strict(options_json, "options");
    ObjectReader reader(options.root(), "$");
    policy = read_policy_option(reader);
    if (auto name = reader.optional_string("tier")) {
      tier = match::tier_from_name(*name);
      if (!tier) throw invalid_input("invalid value", "$.tier", {{"input", "options"}});
    }
    reader.finish();
  }
  if (!simdjson::validate_utf8(text.data(), text.size())) {
    throw invalid_input("invalid UTF-8", "$", {{"input", "text"}});
  }
  const match::Policy chosen = policy ? *policy : *match::preset_policy("default");
  const match::Tier at = tier.value_or(chosen.accept_up_to);
  // A claim's ladder: the folding every quote goes through before it is searched (no parser
  // artifacts), so callers see exactly what the matcher compares.
  const match::Ladder ladder = match::build_claim_ladder(text, chosen.ladder);
  std::string normalized;
  for (const char32_t scalar : ladder.at(at).front().text) utf8::append(normalized, scalar);
  json result = json::object();
  result["policy"] = chosen.name;
  result["text"] = normalized;
  result["tier"] = match::tier_name(at);
  return to_c14n(result);
}

}  // namespace ethos
