// batch_command.cpp - `verify-batch`: one source, one config, many citations requests (docs/cli.md §3.9).
#include "batch_command.hpp"

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/api.hpp"
#include "core/batch_verify.hpp"
#include "request_options.hpp"
#include "host_io.hpp"
#include "parse_supervisor.hpp"
#include "progress_bar.hpp"

namespace ethos::cli {
namespace {

int run_verify_batch(const ParsedArgs& args) {
  die_with_parent_if_asked();
  const std::string& source_path = args.positionals.at(0);
  // Argument-level checks finish before any file is touched (docs/cli.md §5.2).
  nlohmann::json options = verify_budget_options(args);
  if (args.flag("--statement")) options = with_statement(source_path, options);
  const std::string* grounding = args.value("--grounding");

  const std::string source_bytes = read_input_file(source_path, "SOURCE");
  const std::string ndjson = read_input_file(*args.value("--citations-ndjson"), "--citations-ndjson");
  std::optional<std::string> config;
  if (const std::string* config_path = args.value("--config")) config = read_input_file(*config_path, "--config");
  options.update(policy_options(args));
  if (args.flag("--merged")) options["merged"] = true;

  const auto source = open_source(source_bytes, grounding_open_options(grounding));
  std::string output;
  {
    // Records done on a terminal's stderr, erased before anything else is written there.
    ProgressBar bar("verify-batch", "records", args.flag("--quiet"));
    const BatchProgress progress = [&bar](std::size_t done, std::size_t total) { bar.update(done, total); };
    const BatchProgressScope scope(bar.enabled() ? &progress : nullptr);
    output = verify_batch(*source, ndjson, config ? std::optional<std::string_view>(*config) : std::nullopt,
                          options.empty() ? std::string() : options.dump());
  }
  if (args.flag("--merged")) output += "\n";
  const bool ungrounded = args.flag("--fail-on-ungrounded") && !all_evidence_grounded(output);
  if (const std::string* out = args.value("--out")) {
    write_file_atomic(*out, output, "--out");
  } else {
    write_stdout(output);
  }
  // As for verify: exit 1 only for this verdict, and only when asked for.
  return ungrounded ? 1 : 0;
}

}  // namespace

CommandSpec verify_batch_command() {
  return CommandSpec{
      "verify-batch",
      "Verify many citations requests against one grounding source.",
      "Verify every line of --citations-ndjson (one citations JSON request per line) against SOURCE, which "
      "is loaded and indexed once, and write one verification report per line (NDJSON, in input order), "
      "or with --merged one report for all lines.\n\n"
      "Every line must be valid: the first bad line fails the whole run (exit 2, nothing written, the error "
      "names that line). Ungrounded reports exit 0 unless --fail-on-ungrounded is given, which makes the run "
      "exit 1 when any report is not all grounded (the reports are still written).",
      {{"SOURCE", "The grounding source (an Ethos native document JSON, or what --grounding names)."}},
      {
          {"--citations-ndjson", "FILE", true, {}, "Citations requests, one JSON document per line."},
          {"--merged", "", false, {}, "Write one merged report (all lines must pin the same document fingerprint)."},
          {"--grounding", "ID", false, grounding_choices(), kGroundingHelp},
          {"--config", "FILE", false, {}, "Verification config JSON (default: built-in default-v1)."},
          {"--policy", "NAME|FILE", false, {}, "Matching policy: strict, default, permissive or a policy JSON file (docs/matching.md)."},
          {"--fail-on-ungrounded", "", false, {}, "Exit 1 when any report is not all grounded."},
          {"--max-verify-ms", "N", false, {}, kMaxVerifyMsHelp},
          {"--statement", "", false, {}, "Wrap each report in an in-toto Statement."},
          {"--out", "FILE", false, {}, "Write the output atomically to FILE instead of stdout."},
          {"--quiet", "", false, {}, "Draw no progress bar (drawn on stderr only when it is a terminal)."},
      },
      run_verify_batch,
  };
}

}  // namespace ethos::cli
