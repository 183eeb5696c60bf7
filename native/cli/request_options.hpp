// request_options.hpp - the options verify, verify-batch and evidence anchor share: --grounding, --statement,
// --policy, and the --fail-on-ungrounded verdict.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "args.hpp"

namespace ethos::cli {

// Every loader id of the registry (sources/registry.cpp), the --grounding option's accepted values.
std::vector<std::string_view> grounding_choices();

// The --grounding option's help text (one wording for every command).
extern const char* const kGroundingHelp;

// The open options for the core: {"grounding": ID} when the option was given, else empty, so the
// core chooses (Grounding JSON by its artifact_type, else an Ethos native document).
std::string grounding_open_options(const std::string* grounding);

// options + {"statement": true, "subject_name": final path component of SOURCE}; a name that is
// not UTF-8 cannot be a JSON string, which is invalid_arguments for SOURCE (docs/cli.md §3.1).
nlohmann::json with_statement(const std::string& source_path, nlohmann::json options);

// --policy NAME|FILE: {"policy": preset} or the policy file's bytes as Latin-1 scalars
// ({"policy_bytes_latin1": ...}) so the core alone parses them (core/api.hpp); {} without it.
nlohmann::json policy_options(const ParsedArgs& args);

// --max-verify-ms N (a positive decimal integer, at most core/verify_deadline.hpp's
// kMaxVerifyMs, else invalid_arguments for --max-verify-ms): {"max_verify_ms": N}; {} without it.
// Checked with the arguments, before any file is read.
nlohmann::json verify_budget_options(const ParsedArgs& args);

// The help line of --max-verify-ms (verify and verify-batch).
extern const char* const kMaxVerifyMsHelp;
// verify --format's help, the same words in ethos (ethos_py/cli.py).
extern const char* const kVerifyFormatHelp;
extern const char* const kVerifyPaletteHelp;
extern const char* const kVerifyColorHelp;

// --fail-on-ungrounded's verdict: all_evidence_grounded of every report in OUTPUT (one report, or
// one per line), each either bare or inside a Statement's predicate.
bool all_evidence_grounded(std::string_view output);

// Whether --format text highlights: --no-color / --color never / --color always first, else a
// terminal stdout without --out, NO_COLOR unset or empty and TERM not "dumb".
bool use_color(const ParsedArgs& args);

}  // namespace ethos::cli
