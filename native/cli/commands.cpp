// commands.cpp - the ethos-core flag table and the verify / explain commands (parsing: parse_command).
#include "commands.hpp"

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "anchor_command.hpp"
#include "answer_command.hpp"
#include "batch_command.hpp"
#include "cache_command.hpp"
#include "core/api.hpp"
#include "core/chunk_export.hpp"
#include "core/security_report.hpp"
#include "crop_command.hpp"
#include "request_options.hpp"
#include "host_io.hpp"
#include "json/sha256.hpp"
#include "parse_command.hpp"
#include "pdf/pdfium_library.hpp"
#include "release_command.hpp"
#include "sources/grounding_json.hpp"
#include "text/unicode_props.hpp"

namespace ethos::cli {
namespace {

void emit(const ParsedArgs& args, std::string_view bytes) {
  if (const std::string* out = args.value("--out")) {
    write_file_atomic(*out, bytes, "--out");
  } else {
    write_stdout(bytes);
  }
}

int run_verify(const ParsedArgs& args) {
  const std::string& source_path = args.positionals.at(0);
  // Argument-level checks finish before any file is touched (docs/cli.md §5.2).
  const std::string* grounding = args.value("--grounding");
  const nlohmann::json budget = verify_budget_options(args);
  std::string options = args.flag("--statement") ? with_statement(source_path, budget).dump()
                        : budget.empty()         ? std::string()
                                                 : budget.dump();
  const std::optional<std::string> crop_pdf_password = check_verify_crop_arguments(args);

  const std::string source_bytes = read_input_file(source_path, "SOURCE");
  const std::string citations = read_input_file(*args.value("--citations"), "--citations");
  std::optional<std::string> config;  // absent = built-in default-v1; an empty file is an invalid config
  if (const std::string* config_path = args.value("--config")) config = read_input_file(*config_path, "--config");
  nlohmann::json policy = policy_options(args);
  if (!policy.empty()) {
    policy.update(budget);
    options = args.flag("--statement") ? with_statement(source_path, policy).dump() : policy.dump();
  }

  // Without --grounding the core chooses: Grounding JSON by its artifact_type, else native.
  const auto source = open_source(source_bytes, grounding_open_options(grounding));
  const std::optional<std::string> crop_pdf = read_crop_source_pdf(args, *source);
  const std::string report = verify(*source, citations, config ? std::optional<std::string_view>(*config) : std::nullopt,
                                    with_crop_refs(args, options, crop_pdf));
  write_verify_crops(args, *source, report, crop_pdf, crop_pdf_password);

  const bool fail_on_ungrounded = args.flag("--fail-on-ungrounded");
  const bool ungrounded = fail_on_ungrounded && !all_evidence_grounded(report);
  const std::string* format = args.value("--format");
  if (format != nullptr && *format == "summary") {
    emit(args, summary_text(report));
  } else if (format != nullptr && *format == "text") {
    nlohmann::json text_options{{"color", use_color(args)}};
    if (const std::string* palette = args.value("--palette")) text_options["palette"] = *palette;
    emit(args, report_text(report, text_options.dump()));
  } else if (format != nullptr && *format != "json") {
    // junit, sarif, github: the results point at the files as the command line named them.
    const nlohmann::json ci{{"format", *format}, {"citations_path", *args.value("--citations")}, {"source_path", source_path}};
    emit(args, ci_format_text(report, ci.dump()));
  } else {
    emit(args, report + "\n");
  }
  // Exit 1 is reserved for this one verdict; without the flag an ungrounded report exits 0.
  return ungrounded ? 1 : 0;
}

int run_rag_chunk(const ParsedArgs& args) {
  // chunks.jsonl: every line already ends with "\n", so the file ends with exactly one.
  emit(args, chunks_jsonl(read_input_file(args.positionals.at(0), "DOC")));
  return 0;
}

int run_security_report(const ParsedArgs& args) {
  emit(args, security_report_json(read_input_file(args.positionals.at(0), "DOC")) + "\n");
  return 0;
}

// A grounding check passes when the structure is valid and the binding is not mismatched.
bool grounding_check_passed(const std::string& report_json) {
  const nlohmann::json report = nlohmann::json::parse(report_json);
  return report.at("structure") == "valid" && report.at("source_binding") != "mismatched";
}

int run_grounding_check(const ParsedArgs& args) {
  const std::string artifact = read_input_file(args.positionals.at(0), "FILE");
  std::string options;
  if (const std::string* pdf = args.value("--source-artifact")) {
    options = nlohmann::json{{"source_artifact_sha256", sha256_prefixed(read_input_file(*pdf, "--source-artifact"))}}.dump();
  }
  const std::string report = sources::grounding_check(artifact, options);
  emit(args, report + "\n");
  // Like --fail-on-ungrounded: the report is always written; exit 1 says the check failed.
  return grounding_check_passed(report) ? 0 : 1;
}

int run_explain(const ParsedArgs& args) {
  if (args.flag("--pinned")) {
    write_stdout(pinned_config_json(args.value("--policy") == nullptr ? std::string() : policy_options(args).dump()) + "\n");
  } else if (args.value("--policy") == nullptr) {
    write_stdout(default_config_json() + "\n");
  } else {
    write_stdout(explain_policy(policy_options(args).dump()) + "\n");
  }
  return 0;
}

// --version names the three things that decide reports and fingerprints: this build, the PDFium
// build documents are parsed with (read beside the library, as parsing does) and the Unicode tables.
// `ethos --version` prints the same lines.
std::string version_text() {
  const std::string pdfium = pdf::pdfium_build_beside(pdf::resolve_pdfium_library_path(nullptr));
  return std::string("ethos " ETHOS_VERSION_STRING "\npdfium ") + (pdfium.empty() ? "not found" : pdfium) +
         "\nunicode " + unicode::tables_version() + "\n";
}

}  // namespace

const ProgramSpec& program_spec() {
  static const std::string version_line = version_text();
  static const ProgramSpec spec{
      "ethos-core",
      version_line,
      "Ethos: a deterministic evidence verifier for AI answers.\n\n"
      "Every failure prints one JSON error envelope on stderr; see docs/cli.md for the exit codes.",
      {
          CommandSpec{
              "verify",
              "Verify citations against a grounding source.",
              "Verify the citations in --citations against SOURCE and write the verification report.\n\n"
              "An ungrounded report is a successful run: it exits 0 unless --fail-on-ungrounded is "
              "given, which makes it exit 1 (the report is still written).",
              {{"SOURCE", "The grounding source (an Ethos native document JSON, or what --grounding names)."}},
              {
                  {"--citations", "FILE", true, {}, "Citations JSON."},
                  {"--grounding", "ID", false, grounding_choices(), kGroundingHelp},
                  {"--config", "FILE", false, {}, "Verification config JSON (default: built-in default-v1)."},
                  {"--policy", "NAME|FILE", false, {}, "Matching policy: strict, default, permissive or a policy JSON file (docs/matching.md)."},
                  {"--format", "FORMAT", false, {"json", "summary", "text", "junit", "sarif", "github"}, kVerifyFormatHelp},
                  {"--palette", "NAME", false, {"classic", "colorblind", "neon", "mono"}, kVerifyPaletteHelp},
                  {"--color", "WHEN", false, {"auto", "always", "never"}, kVerifyColorHelp},
                  {"--no-color", "", false, {}, "Never highlight (as --color never)."},
                  {"--fail-on-ungrounded", "", false, {}, "Exit 1 when not all evidence is grounded."},
                  {"--max-verify-ms", "N", false, {}, kMaxVerifyMsHelp},
                  {"--statement", "", false, {}, "Wrap the report in an in-toto Statement."},
                  {"--out", "FILE", false, {}, "Write the output atomically to FILE instead of stdout."},
                  verify_crop_options()[0],
                  verify_crop_options()[1],
                  verify_crop_options()[2],
                  verify_crop_options()[3],
              },
              run_verify,
          },
          CommandSpec{
              "doc parse",
              "Parse a PDF into an Ethos native document.",
              "Parse PDF into an Ethos native document (JSON), or render it as Markdown or plain text.\n\n"
              "PDFium runs only in child processes under the limits below; a parsed document is cached by "
              "the fingerprint of its inputs and never parsed twice.",
              {{"PDF", "The PDF file."}},
              [] {
                std::vector<OptionSpec> options{
                    {"--format", "FORMAT", false, {"json", "markdown", "text"}, "Output format (default json)."}};
                for (OptionSpec& option : parse_options()) options.push_back(option);
                options.push_back({"--out", "FILE", false, {}, "Write the output atomically to FILE instead of stdout."});
                return options;
              }(),
              run_doc_parse,
          },
          CommandSpec{
              "fingerprint",
              "Describe a source document and its fingerprints.",
              "Print the description (fingerprints, grounding, counts) of DOC as JSON. DOC is an Ethos native "
              "document JSON, or a PDF (named *.pdf or starting with %PDF-), which is parsed first (or read from "
              "the cache) with the parse options below; they are ignored for a JSON DOC.",
              {{"DOC", "An Ethos native document JSON or a PDF."}},
              parse_options(),
              run_fingerprint,
          },
          CommandSpec{
              "rag chunk",
              "Export a document's chunks as chunks.jsonl.",
              "Print the chunks of DOC (an Ethos native document JSON) as JSON lines, one per chunk, each "
              "carrying the document and source fingerprints that later citations pin.",
              {{"DOC", "An Ethos native document JSON."}},
              {{"--out", "FILE", false, {}, "Write the output atomically to FILE instead of stdout."}},
              run_rag_chunk,
          },
          CommandSpec{
              "security report",
              "Report a document's security findings.",
              "Print the security report of DOC (an Ethos native document JSON): one finding per security "
              "warning (hidden or off-page text, annotations, external links, image-only pages), located on "
              "its page, with a preview of the text concerned and whether the default chunks leave it out.",
              {{"DOC", "An Ethos native document JSON."}},
              {{"--out", "FILE", false, {}, "Write the output atomically to FILE instead of stdout."}},
              run_security_report,
          },
          CommandSpec{
              "release",
              "Decide which claims of an answer an app may show.",
              "Print the app answer release decision (schema 1.1.0) for the claims in --claims, labelled by the "
              "app (question_relevance, claim_type, claim_support) and tied to REPORT by check ids.\n\n"
              "REPORT is a verification report, a proof Statement or a proof summary. A claim is released "
              "as final only when its checks are reusable grounded evidence, it answers the question, it "
              "states a source fact and the app marked it supported; invalid claims are invalid_input (exit 2).",
              {{"REPORT", "A verification report, proof Statement or proof summary JSON."}},
              release_options(),
              run_release,
          },
          CommandSpec{
              "grounding check",
              "Validate a Grounding JSON v1 artifact.",
              "Validate FILE as an ethos.grounding.v1 artifact and print the ethos.grounding_validation.v1 "
              "report. With --source-artifact, also check that the artifact's source.sha256 is the hash of "
              "that file. Exits 0 when the structure is valid and the binding is not mismatched, else 1 "
              "(the report is still written).",
              {{"FILE", "A Grounding JSON v1 artifact."}},
              {{"--source-artifact", "PDF", false, {}, "The source file the artifact claims to represent."},
               {"--out", "FILE", false, {}, "Write the output atomically to FILE instead of stdout."}},
              run_grounding_check,
          },
          CommandSpec{
              "explain",
              "Print the built-in verification config, or a matching policy.",
              "Print the built-in default-v1 verification config as JSON. With --policy, print that matching "
              "policy, its fingerprint and every assumption it makes instead. With --pinned, print default-v1 "
              "with the policy (default, or --policy's) written into matching.policy: passed back as --config "
              "it decides as verify without --config does.",
              {},
              {{"--policy", "NAME|FILE", false, {}, "strict, default, permissive or a policy JSON file."},
               {"--pinned", "", false, {}, "Print the config with the policy written into it."}},
              run_explain,
          },
          evidence_anchor_command(),
          check_answer_command(),
          cache_info_command(),
          cache_clear_command(),
          verify_batch_command(),
          crop_element_command(),
      },
  };
  return spec;
}

}  // namespace ethos::cli
