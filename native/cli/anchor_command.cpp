// anchor_command.cpp - `evidence anchor`: reads the request, opens the source and prints the anchor report (docs/cli.md §3.8).
#include "anchor_command.hpp"

#include <string>

#include <nlohmann/json.hpp>

#include "core/anchor_report.hpp"
#include "core/api.hpp"
#include "request_options.hpp"
#include "host_io.hpp"

namespace ethos::cli {
namespace {

int run_evidence_anchor(const ParsedArgs& args) {
  const std::string& source_path = args.positionals.at(0);
  // Argument-level checks finish before any file is touched (docs/cli.md §5.2).
  const std::string options = args.flag("--statement") ? with_statement(source_path, nlohmann::json::object()).dump() : std::string();
  const std::string* grounding = args.value("--grounding");
  const std::string source_bytes = read_input_file(source_path, "SOURCE");
  const std::string request = read_input_file(*args.value("--evidence-refs"), "--evidence-refs");
  const auto source = open_source(source_bytes, grounding_open_options(grounding));
  const std::string report = anchor_evidence(*source, request, options) + "\n";
  if (const std::string* out = args.value("--out")) {
    write_file_atomic(*out, report, "--out");
  } else {
    write_stdout(report);
  }
  // Anchors that do not bind are report data: the run succeeded (CONTRACTS §1.3).
  return 0;
}

}  // namespace

CommandSpec evidence_anchor_command() {
  return CommandSpec{
      "evidence anchor",
      "Bind evidence refs to a grounding source.",
      "Check each evidence ref of --evidence-refs (an ethos.evidence_anchor_request.v1) against SOURCE and "
      "print the evidence-anchor report: per ref the fingerprint, page, text, bbox and table cell checks, the "
      "anchor status and the anchor level achieved.\n\n"
      "Refs that do not bind (not_found, mismatch, stale_fingerprint, ...) are report data: the command exits "
      "0. An invalid request exits 2 with the error envelope.",
      {{"SOURCE", "The grounding source (an Ethos native document JSON, or what --grounding names)."}},
      {
          {"--evidence-refs", "FILE", true, {}, "Evidence-anchor request JSON."},
          {"--grounding", "ID", false, grounding_choices(), kGroundingHelp},
          {"--statement", "", false, {}, "Wrap the report in an in-toto Statement."},
          {"--out", "FILE", false, {}, "Write the output atomically to FILE instead of stdout."},
      },
      run_evidence_anchor,
  };
}

}  // namespace ethos::cli
