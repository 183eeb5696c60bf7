// release_command.cpp - `release`: reads the report and the claims, and prints the core's decision.
#include "release_command.hpp"

#include <string>

#include <nlohmann/json.hpp>

#include "core/release_decision.hpp"
#include "host_io.hpp"

namespace ethos::cli {
namespace {

// argv is bytes; a value becomes a JSON string only if it is UTF-8, and the strict dump tells us.
nlohmann::json utf8_argument(const std::string& value, const char* argument) {
  nlohmann::json text = value;
  try {
    (void)text.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
  } catch (const nlohmann::json::type_error&) {
    throw host_error("invalid_arguments", {{"argument", argument}});
  }
  return text;
}

}  // namespace

std::vector<OptionSpec> release_options() {
  return {
      {"--question", "TEXT", true, {}, "The question the answer responds to (non-blank)."},
      {"--claims", "FILE", true, {}, "JSON array of the answer's claims with the app's labels."},
      {"--report-ref", "REF", false, {}, "How the decision names the report (default verification_report.json)."},
      {"--note", "TEXT", false, {}, "A note copied into the decision; repeat for several."},
      {"--out", "FILE", false, {}, "Write the output atomically to FILE instead of stdout."},
  };
}

int run_release(const ParsedArgs& args) {
  // Argument-level checks finish before any file is touched (docs/cli.md §5.2).
  nlohmann::json options = {{"question", utf8_argument(*args.value("--question"), "--question")}};
  if (const std::string* ref = args.value("--report-ref")) {
    options["verification_report_ref"] = utf8_argument(*ref, "--report-ref");
  }
  if (auto notes = args.all_values.find("--note"); notes != args.all_values.end()) {
    nlohmann::json list = nlohmann::json::array();
    for (const std::string& note : notes->second) list.push_back(utf8_argument(note, "--note"));
    options["notes"] = std::move(list);
  }
  const std::string report = read_input_file(args.positionals.at(0), "REPORT");
  const std::string claims = read_input_file(*args.value("--claims"), "--claims");
  const std::string decision = release_decision_json(report, claims, options.dump()) + "\n";
  if (const std::string* out = args.value("--out")) {
    write_file_atomic(*out, decision, "--out");
  } else {
    write_stdout(decision);
  }
  return 0;
}

}  // namespace ethos::cli
