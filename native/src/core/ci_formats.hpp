// ci_formats.hpp - a verification report as CI systems read results: JUnit XML, SARIF 2.1.0, GitHub workflow commands.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace ethos {

// Where the report's claims and source came from, as the command line named them: the files the
// results point at (a SARIF artifact, a JUnit test suite, an annotation's file).
struct CiContext {
  std::string citations_path = "citations.json";
  std::string source_path;
};

// `format` is "junit", "sarif" or "github" (anything else: invalid_arguments). The input is a
// report or a proof Statement. Every check is a test case (JUnit); every check that is not
// grounded is a result (SARIF, level error) and an error annotation (GitHub), with its status,
// reason, blocking guards and near-miss diff in the message. Output ends with a newline.
std::string render_ci_format(const nlohmann::json& report, const std::string& format, const CiContext& context);

}  // namespace ethos
