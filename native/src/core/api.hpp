// api.hpp - the internal C++ facade of the core: what the C ABI and the ethos-core CLI call.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/chunk_pool.hpp"
#include "core/error.hpp"

namespace ethos {

class Source;  // a loaded, validated, indexed grounding source (core/source.hpp)

// Opens a grounding source from raw bytes. options_json: "" or {"grounding": "ethos-native"}.
// Throws EthosError (usage or input errors) on failure.
std::shared_ptr<const Source> open_source(std::string_view bytes, std::string_view options_json);

// Canonical JSON describing a source (fingerprints, grounding identity, counts).
std::string describe_source(const Source& source);

// Verifies citations (JSON bytes) under config (JSON bytes; nullopt = the built-in default-v1,
// while empty bytes are invalid JSON like any other bad config). options_json: "" or
// {"statement": bool, "subject_name": string, "claim_validation": "strict"|"report",
// "policy": preset name | "policy_bytes_latin1": policy file bytes as Latin-1 scalars}.
// Returns the canonical report JSON (no trailing newline). Throws EthosError on invalid input.
std::string verify(const Source& source, std::string_view citations, std::optional<std::string_view> config,
                   std::string_view options_json);

// verify-batch: verifies every line of ndjson (one citations request per line) against the
// source with one config and one set of options (those of verify plus {"merged": bool}).
// Returns one report per line, each followed by "\n", or with merged one merged report (no
// trailing newline; core/batch_verify.hpp). A bad line throws EthosError with details.line.
std::string verify_batch(const Source& source, std::string_view ndjson, std::optional<std::string_view> config,
                         std::string_view options_json);
struct BatchOutput;  // core/batch_verify.hpp
// The same output as blocks (core/batch_verify.hpp BatchOutput), for a host copying it once.
BatchOutput verify_batch_blocks(const Source& source, std::string_view ndjson, std::optional<std::string_view> config,
                                std::string_view options_json, std::shared_ptr<ChunkPool> output_chunks = nullptr);

// Proof summary (canonical JSON) of a report or Statement.
std::string proof_summary_json(std::string_view report);

// The `--format summary` text of a report or Statement (ends with "\n").
std::string summary_text(std::string_view report);

// A report or Statement as JUnit XML, SARIF 2.1.0 or GitHub workflow commands (ends with "\n").
// options: {"format": "junit"|"sarif"|"github", "citations_path"?: str, "source_path"?: str}.
std::string ci_format_text(std::string_view report, std::string_view options_json);

// A report or Statement as `verify --format text` prints it (ends with "\n"). options:
// {"color"?: bool (default false), "palette"?: "classic"|"colorblind"|"neon"|"mono"}.
std::string report_text(std::string_view report, std::string_view options_json);

// The built-in default-v1 config, canonical JSON.
std::string default_config_json();

// `explain --policy`: a policy with every assumption behind it spelled out, canonical JSON
// (match/explain.hpp). options_json: "" (the default policy) or {"policy": preset name} or
// {"policy_bytes_latin1": policy file bytes as Latin-1 scalars}, the same transport as verify.
std::string explain_policy(std::string_view options_json);

// `explain --pinned`: default-v1 with that policy (same options as explain_policy) written whole
// into matching.policy and config_version "default-v1+<policy name>", canonical JSON: the config that decides exactly as a verify without
// --config (or with that --policy) does, so passing it back as --config keeps the ladder and the
// guards instead of falling back to the public substring rule (docs/matching.md).
std::string pinned_config_json(std::string_view options_json);

// A text as the matcher reads a quote (a claim's tier ladder, no parser artifacts) at one tier:
// options_json "" or {"policy"?|"policy_bytes_latin1"?, "tier"?} (default: the default policy,
// its accept_up_to tier); canonical JSON {"policy", "text", "tier"} (docs/replies.md).
std::string normalize_text_json(std::string_view text, std::string_view options_json);

}  // namespace ethos
