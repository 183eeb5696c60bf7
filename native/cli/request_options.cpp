// request_options.cpp - the options verify, verify-batch and evidence anchor share (--grounding, --statement,
// --policy) and the --fail-on-ungrounded verdict.
#include "request_options.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/verify_deadline.hpp"
#include "host_io.hpp"
#include "sources/registry.hpp"

namespace ethos::cli {

const char* const kGroundingHelp =
    "Source loader (default: ethos-grounding-json for an ethos.grounding.v1 artifact, else ethos-native; "
    "docs/sources.md).";

std::vector<std::string_view> grounding_choices() {
  std::vector<std::string_view> out;
  for (const std::string& id : sources::grounding_ids()) out.emplace_back(id);
  return out;
}

std::string grounding_open_options(const std::string* grounding) {
  return grounding ? nlohmann::json{{"grounding", *grounding}}.dump() : std::string();
}

nlohmann::json with_statement(const std::string& source_path, nlohmann::json options) {
  const std::size_t slash = source_path.rfind('/');
  options["statement"] = true;
  options["subject_name"] = slash == std::string::npos ? source_path : source_path.substr(slash + 1);
  try {
    (void)options.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
  } catch (const nlohmann::json::type_error&) {
    throw host_error("invalid_arguments", {{"argument", "SOURCE"}});
  }
  return options;
}

// The largest --policy file (1 MiB; ethos_py's MAX_POLICY_BYTES is the same).
constexpr std::uint64_t kMaxPolicyBytes = 1ULL << 20;

nlohmann::json policy_options(const ParsedArgs& args) {
  const std::string* policy = args.value("--policy");
  if (policy == nullptr) return nlohmann::json::object();
  if (*policy == "strict" || *policy == "default" || *policy == "permissive") return {{"policy", *policy}};
  // A policy is a few KB; the file is carried twice over (Latin-1 scalars in the options JSON,
  // then parsed), so an unbounded one multiplied its size in memory. ethos_py bounds it alike.
  const std::string bytes = read_input_file(*policy, "--policy", kMaxPolicyBytes);
  std::string latin1;
  latin1.reserve(bytes.size());
  for (unsigned char byte : bytes) {
    if (byte < 0x80) {
      latin1.push_back(static_cast<char>(byte));
    } else {
      latin1.push_back(static_cast<char>(0xC0 | (byte >> 6)));
      latin1.push_back(static_cast<char>(0x80 | (byte & 0x3F)));
    }
  }
  return {{"policy_bytes_latin1", latin1}};
}

const char* const kVerifyFormatHelp =
    "Output format (default json): json, summary, text (for people), or junit, sarif, github for CI "
    "(results point at the --citations file).";
const char* const kVerifyPaletteHelp =
    "Highlighting of --format text: classic (default), colorblind, neon or mono (bold and inverse video).";
const char* const kVerifyColorHelp =
    "Highlight --format text: auto (default: a terminal stdout, no --out, NO_COLOR unset), always or never.";

const char* const kMaxVerifyMsHelp =
    "Time limit of verifying in ms (default none): past it the run fails with input_limit_exceeded "
    "and writes nothing.";

nlohmann::json verify_budget_options(const ParsedArgs& args) {
  const std::string* text = args.value("--max-verify-ms");
  if (text == nullptr) return nlohmann::json::object();
  const bool digits = !text->empty() && text->size() <= 19 &&
                      std::all_of(text->begin(), text->end(), [](char c) { return c >= '0' && c <= '9'; });
  const std::uint64_t value = digits ? std::stoull(*text) : 0;
  if (value == 0 || value > static_cast<std::uint64_t>(kMaxVerifyMs)) {
    throw host_error("invalid_arguments", {{"argument", "--max-verify-ms"}});
  }
  return {{"max_verify_ms", static_cast<std::int64_t>(value)}};
}

namespace {

bool report_grounded(const nlohmann::json& report) {
  const nlohmann::json& body =
      report.contains("predicate") && report["predicate"].is_object() ? report["predicate"] : report;
  auto it = body.find("all_evidence_grounded");
  // The core always writes the field; a report without it is a core bug, not a verdict.
  if (it == body.end() || !it->is_boolean()) throw host_error("internal_error");
  return it->get<bool>();
}

}  // namespace

bool all_evidence_grounded(std::string_view output) {
  std::size_t start = 0;
  while (start < output.size()) {
    std::size_t end = output.find('\n', start);
    if (end == std::string_view::npos) end = output.size();
    if (!report_grounded(nlohmann::json::parse(output.substr(start, end - start)))) return false;
    start = end + 1;
  }
  return true;
}

// Whether --format text highlights (verify and check-answer): --no-color and --color never say no, --color always yes (the
// flag beats the environment); auto, the default, highlights only a terminal stdout (no --out)
// when NO_COLOR is unset or empty (no-color.org) and TERM is not "dumb".
bool use_color(const ParsedArgs& args) {
  const std::string* color = args.value("--color");
  if (args.flag("--no-color") || (color != nullptr && *color == "never")) return false;
  if (color != nullptr && *color == "always") return true;
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  return args.value("--out") == nullptr && isatty(STDOUT_FILENO) == 1 && (no_color == nullptr || *no_color == '\0') &&
         (term == nullptr || std::string_view(term) != "dumb");
}

}  // namespace ethos::cli
