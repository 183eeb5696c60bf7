// answer_command.cpp - `check-answer`: reads the answer and the sources, prints the answer check (docs/answers.md).
#include "answer_command.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "answer/answer_check.hpp"
#include "answer/answer_html.hpp"
#include "answer/answer_render.hpp"
#include "core/api.hpp"
#include "core/source.hpp"
#include "host_io.hpp"
#include "parse_command.hpp"
#include "request_options.hpp"
#include "text/utf8.hpp"

namespace ethos::cli {
namespace {

bool valid_utf8(const std::string& bytes) {
  try {
    (void)nlohmann::json(bytes).dump();  // nlohmann rejects invalid UTF-8 when it serializes
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

std::string read_stdin() {
  std::string bytes;
  char buffer[1 << 16];
  for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, stdin)) > 0;) {
    bytes.append(buffer, got);
    if (bytes.size() > kMaxInputBytes) throw host_error("file_too_large", {{"argument", "--answer-file"}});
  }
  if (std::ferror(stdin)) throw host_error("host_io", {{"argument", "--answer-file"}, {"reason", "read_failed"}});
  return bytes;
}

// Where the HTML page finds a PDF SOURCE: relative to the --out file's directory, or as given when
// the page goes to stdout (the caller decides where it lands).
std::string pdf_location(const std::string& path, const std::string* out) {
  if (out == nullptr) return path;
  std::error_code error;
  const std::filesystem::path from = std::filesystem::weakly_canonical(std::filesystem::absolute(*out, error), error).parent_path();
  const std::filesystem::path to = std::filesystem::weakly_canonical(std::filesystem::absolute(path, error), error);
  const std::filesystem::path relative = to.lexically_relative(from);
  return error || relative.empty() ? to.string() : relative.string();
}

int run_check_answer(const ParsedArgs& args) {
  // Argument-level checks finish before any file is touched (docs/cli.md §5.2): exactly one answer.
  const std::string* answer_text = args.value("--answer");
  const std::string* answer_file = args.value("--answer-file");
  if ((answer_text == nullptr) == (answer_file == nullptr)) throw host_error("invalid_arguments", {{"argument", "--answer"}});
  nlohmann::json request = nlohmann::json::object();
  if (const std::string* ngram = args.value("--ngram")) {
    // A decimal integer from 3 to 1000, read here so both CLIs refuse the same spellings.
    if (ngram->empty() || ngram->size() > 4 || ngram->find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(*ngram) < 3 || std::stoi(*ngram) > 1000) {
      throw host_error("invalid_arguments", {{"argument", "--ngram"}});
    }
    request["ngram"] = std::stoi(*ngram);
  }
  if (const std::string* scope = args.value("--scope")) request["scope"] = *scope;
  if (const std::string* policy = args.value("--policy")) request["policy"] = *policy;
  if (args.flag("--subsequence")) request["subsequence"] = true;

  const std::string* grounding = args.value("--grounding");
  std::vector<std::shared_ptr<const Source>> sources;
  nlohmann::json links = nlohmann::json::array();  // per source: its PDF's location for --format html, or null
  // Every SOURCE in order (a RAG context of passages); a PDF is parsed on the way, or read from the
  // parse cache, as `fingerprint` does, and opened as the native document it becomes.
  std::size_t position = 0;
  for (ReadSource& read : read_sources(args, args.positionals, "SOURCE")) {
    links.push_back(read.parsed_pdf ? nlohmann::json(pdf_location(args.positionals[position], args.value("--out")))
                                    : nlohmann::json(nullptr));
    ++position;
    sources.push_back(open_source(read.bytes, read.parsed_pdf ? R"({"grounding":"ethos-native"})"
                                                               : grounding_open_options(grounding)));
  }
  const auto text_sources = args.all_values.find("--source-text");
  if (text_sources != args.all_values.end()) {
    for (const std::string& text : text_sources->second) {
      if (!valid_utf8(text)) throw host_error("invalid_arguments", {{"argument", "--source-text"}});
      sources.push_back(open_source(text, R"({"grounding":"text"})"));
      links.push_back(nullptr);
    }
  }
  std::string answer;
  if (answer_text != nullptr) {
    if (!valid_utf8(*answer_text)) throw host_error("invalid_arguments", {{"argument", "--answer"}});
    answer = *answer_text;
  } else {
    answer = *answer_file == "-" ? read_stdin() : read_input_file(*answer_file, "--answer-file");
    if (!valid_utf8(answer)) throw host_error("invalid_input", {{"argument", "--answer-file"}, {"reason", "not_utf8"}});
  }
  request["answer"] = answer;

  std::vector<const Source*> views;
  for (const auto& source : sources) views.push_back(source.get());
  const std::string result = answer::check_answer(views, request.dump());
  const std::string* format = args.value("--format");
  std::string output = result + "\n";
  if (format != nullptr && *format == "text") {
    nlohmann::json options{{"color", use_color(args)}};
    if (const std::string* palette = args.value("--palette")) options["palette"] = *palette;
    output = answer::answer_render_text(result, answer, options.dump());
  } else if (format != nullptr && *format == "html") {
    nlohmann::json options{{"links", links}};
    if (const std::string* palette = args.value("--palette")) options["palette"] = *palette;
    output = answer::answer_render_html(result, answer, options.dump());
  }
  if (const std::string* out = args.value("--out")) {
    write_file_atomic(*out, output, "--out");
  } else {
    write_stdout(output);
  }
  // Measuring always succeeds; only --fail turns a failed gate into exit 1 (the output is still written).
  return args.flag("--fail") && !nlohmann::json::parse(result).at("gate").at("passed").get<bool>() ? 1 : 0;
}

}  // namespace

CommandSpec check_answer_command() {
  return CommandSpec{
      "check-answer",
      "Measure how much of an answer is verbatim in a source and verify its quotations.",
      "Measure the verbatim coverage of an answer against SOURCE (and each --source-text): which words are in a "
      "run of at least --ngram words found verbatim, the share of words matched, every run and where it is in "
      "the source (element, page, offsets, highlight boxes). Quotations in the answer are verified with the "
      "matching ladder at document scope, as verify would; --scope quotes measures the quotations only.\n\n"
      "The run exits 0 unless --fail is given: then it exits 1 when a quotation is not grounded, or under "
      "--scope quotes when the answer has no quotation to check (the output is still written). See "
      "docs/answers.md.",
      {{"SOURCE",
        "A grounding source: an Ethos native document JSON, a PDF (parsed on the way, or read from the parse "
        "cache), or what --grounding names. Several SOURCEs are the passages of one context.",
        true}},
      [] {
        std::vector<OptionSpec> options{
          {"--answer", "TEXT", false, {}, "The answer text itself."},
          {"--answer-file", "FILE", false, {}, "Read the answer from FILE (- reads standard input)."},
          {"--source-text", "TEXT", false, {}, "Another source given as literal text (repeatable)."},
          {"--grounding", "ID", false, grounding_choices(), kGroundingHelp},
          {"--scope", "SCOPE", false, {"all", "quotes"}, "Measure the whole answer (all, default) or its quotations only."},
          {"--ngram", "N", false, {}, "Shortest run counted as verbatim, in words (default and minimum 3)."},
          {"--policy", "NAME", false, {"strict", "default", "permissive"}, "Matching policy preset (default: default)."},
          {"--subsequence", "", false, {},
           "Also read the answer in order only: the most words found in one source in the same order, gaps allowed, "
           "and ROUGE-L against the smallest source window holding every verbatim word."},
          {"--fail", "", false, {}, "Exit 1 when the gate fails (a quotation not grounded, or none under --scope quotes)."},
          {"--format", "FORMAT", false, {"json", "text", "html"},
           "Output format: json (default), text, or html (one self-contained page: highlighted answer, runs linked to "
           "their page and boxes)."},
          {"--palette", "NAME", false, {"classic", "colorblind", "neon", "mono"},
           "Highlighting of --format text and html: classic (default), colorblind, neon or mono (bold and inverse video)."},
          {"--color", "WHEN", false, {"auto", "always", "never"},
           "Highlight --format text: auto (default: a terminal stdout, no --out, NO_COLOR unset), always or never."},
          {"--no-color", "", false, {}, "Never highlight (as --color never)."},
          {"--out", "FILE", false, {}, "Write the output atomically to FILE instead of stdout."},
        };
        // The parse options of `doc parse` apply to PDF SOURCEs; --diagnostics is left out, since
        // the answer check result has no place for runtime facts.
        for (const OptionSpec& option : parse_options()) {
          if (option.name != "--diagnostics") options.push_back(option);
        }
        return options;
      }(),
      run_check_answer,
  };
}

}  // namespace ethos::cli
