// crop_command.hpp - crops on the command line: verify --crop-dir/--crop-source-pdf and the
// crop_element command (CONTRACTS §2.11, docs/cli.md §3.8).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "core/source.hpp"

namespace ethos::cli {

// The options verify gains: --crop-dir, --crop-source-pdf, --password, --password-file.
std::vector<OptionSpec> verify_crop_options();

// Argument-level checks of those options (before any file is read but the password file):
// --crop-source-pdf needs --crop-dir, a password needs --crop-source-pdf. Returns the password
// of an encrypted source PDF (pdf_password.hpp) when --crop-source-pdf is given.
std::optional<std::string> check_verify_crop_arguments(const ParsedArgs& args);

// verify's core options with {"crop_refs": true} added under --crop-dir ("" stays "" otherwise),
// and the PDF's fingerprint as crop_source_pdf_fingerprint when --crop-source-pdf is given.
std::string with_crop_refs(const ParsedArgs& args, const std::string& options_json, const std::optional<std::string>& pdf);

// Reads --crop-source-pdf (if given) and checks it is the source's PDF when the source names the
// file it was parsed from (Docling and OpenDataLoader output names none); call after opening the
// source, before verifying. nullopt without the option.
std::optional<std::string> read_crop_source_pdf(const ParsedArgs& args, const Source& source);

// Writes every descriptor (and, with the PDF, every PNG) of `report` into --crop-dir: all files or
// none. A no-op without --crop-dir.
void write_verify_crops(const ParsedArgs& args, const Source& source, const std::string& report,
                        const std::optional<std::string>& pdf, const std::optional<std::string>& password);

// The crop_element command.
CommandSpec crop_element_command();

}  // namespace ethos::cli
