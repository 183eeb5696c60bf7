// ci_formats.cpp - a verification report as CI systems read results: JUnit XML, SARIF 2.1.0, GitHub workflow commands.
#include "core/ci_formats.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "core/check_explanation.hpp"
#include "core/error.hpp"
#include "core/proof_summary.hpp"
#include "json/c14n.hpp"

namespace ethos {
namespace {

using nlohmann::json;

// The longest claim text a message quotes (a megabyte claim must not become a megabyte title); the
// report keeps all of it.
constexpr std::size_t kMaxQuoted = 200;

std::string clipped(const std::string& text) { return clipped_text(text, kMaxQuoted); }
std::string claim_text(const json& check) { return claim_text_of(check); }
std::string verdict(const json& check) { return verdict_of(check); }
std::vector<std::string> explanation(const json& check) { return explanation_of(check, kMaxQuoted); }

std::string joined(const std::vector<std::string>& lines, const char* separator) {
  std::string out;
  for (const std::string& line : lines) out += (out.empty() ? "" : separator) + line;
  return out;
}

// XML character data and attribute values. Characters XML 1.0 cannot hold (C0 controls other than
// tab and newline, U+FFFE/U+FFFF) are written as U+FFFD: a report's claim may contain them.
std::string xml_escaped(const std::string& text) {
  std::string out;
  for (std::size_t at = 0; at < text.size(); ++at) {
    const auto c = static_cast<unsigned char>(text[at]);
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\n': out += "&#10;"; break;
      case '\t': out += "&#9;"; break;
      case '\r': out += "&#13;"; break;
      default:
        if (c < 0x20) {
          out += "\xEF\xBF\xBD";
        } else if (c == 0xEF && at + 2 < text.size() && static_cast<unsigned char>(text[at + 1]) == 0xBF &&
                   (static_cast<unsigned char>(text[at + 2]) == 0xBE || static_cast<unsigned char>(text[at + 2]) == 0xBF)) {
          out += "\xEF\xBF\xBD";
          at += 2;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out;
}

bool grounded(const json& check) { return check.at("status") == "grounded"; }

std::string render_junit(const json& report, const CiContext& context) {
  const json& checks = report.at("checks");
  std::size_t failures = 0, errors = 0;
  for (const json& check : checks) {
    if (check.at("status") == "error") {
      ++errors;
    } else if (!grounded(check)) {
      ++failures;
    }
  }
  const std::string counts = " tests=\"" + std::to_string(checks.size()) + "\" failures=\"" + std::to_string(failures) +
                             "\" errors=\"" + std::to_string(errors) + "\"";
  const std::string suite = xml_escaped(context.citations_path);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites name=\"ethos verify\"" + counts + ">\n";
  out += "  <testsuite name=\"" + suite + "\"" + counts + " skipped=\"0\">\n";
  out += "    <properties>\n";
  const auto property = [&](const std::string& name, const std::string& value) {
    out += "      <property name=\"" + name + "\" value=\"" + xml_escaped(value) + "\"/>\n";
  };
  if (!context.source_path.empty()) property("source", context.source_path);
  if (report.contains("document_fingerprint")) property("document_fingerprint", report.at("document_fingerprint").get<std::string>());
  property("verification_config_sha256", report.at("verification_config_sha256").get<std::string>());
  property("all_evidence_grounded", report.at("all_evidence_grounded").get<bool>() ? "true" : "false");
  out += "    </properties>\n";
  for (const json& check : checks) {
    const std::string id = check.at("id").get<std::string>();
    const std::string kind = check.value("claim", json::object()).value("kind", "claim");
    out += "    <testcase classname=\"" + suite + "\" name=\"" + xml_escaped(id + " " + kind + ": " + clipped(claim_text(check))) + "\"";
    if (grounded(check)) {
      out += "/>\n";
      continue;
    }
    const char* element = check.at("status") == "error" ? "error" : "failure";
    const std::string type = check.contains("reason") && check.at("reason").is_string() ? check.at("reason").get<std::string>()
                                                                                         : check.at("status").get<std::string>();
    out += ">\n      <" + std::string(element) + " message=\"" + xml_escaped(verdict(check)) + "\" type=\"" + xml_escaped(type) +
           "\">" + xml_escaped(joined(explanation(check), "\n")) + "</" + element + ">\n    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

std::string render_sarif(const json& report, const CiContext& context) {
  json rules = json::array(), results = json::array();
  std::vector<std::string> rule_ids;
  for (const json& check : report.at("checks")) {
    if (grounded(check)) continue;
    const std::string status = check.at("status").get<std::string>();
    const std::string reason = check.contains("reason") && check.at("reason").is_string() ? check.at("reason").get<std::string>() : status;
    const std::string rule = "ethos/" + status + (reason == status ? "" : "/" + reason);
    std::size_t rule_index = 0;
    while (rule_index < rule_ids.size() && rule_ids[rule_index] != rule) ++rule_index;
    if (rule_index == rule_ids.size()) {
      rule_ids.push_back(rule);
      rules.push_back({{"id", rule},
                       {"name", status + (reason == status ? "" : "_" + reason)},
                       {"shortDescription", {{"text", "A cited claim that is not grounded: " + status + (reason == status ? "" : " (" + reason + ")")}}},
                       {"defaultConfiguration", {{"level", "error"}}}});
    }
    json location = {{"physicalLocation", {{"artifactLocation", {{"uri", context.citations_path}}}}},
                     {"logicalLocations", json::array({{{"name", check.at("id")}, {"kind", "object"}}})}};
    json result = {{"ruleId", rule},
                   {"ruleIndex", rule_index},
                   {"level", "error"},
                   {"message", {{"text", joined(explanation(check), "\n")}}},
                   {"locations", json::array({std::move(location)})},
                   {"partialFingerprints", {{"ethosCheck/v1", check.at("id").get<std::string>() + ":" + clipped(claim_text(check))}}}};
    if (!context.source_path.empty()) {
      result["relatedLocations"] = json::array({{{"id", 0},
                                                 {"physicalLocation", {{"artifactLocation", {{"uri", context.source_path}}}}},
                                                 {"message", {{"text", "the source the claim was checked against"}}}}});
    }
    results.push_back(std::move(result));
  }
  json run = {{"tool", {{"driver", {{"name", "ethos"}, {"version", ETHOS_VERSION_STRING}, {"rules", std::move(rules)}}}}},
              {"results", std::move(results)},
              {"columnKind", "unicodeCodePoints"}};
  const json log = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                    {"version", "2.1.0"},
                    {"runs", json::array({std::move(run)})}};
  return to_c14n(log) + "\n";
}

// GitHub workflow commands: `%`, CR and LF escaped in data; `:` and `,` too in properties.
std::string github_data(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '%') {
      out += "%25";
    } else if (c == '\r') {
      out += "%0D";
    } else if (c == '\n') {
      out += "%0A";
    } else {
      out += c;
    }
  }
  return out;
}

std::string github_property(const std::string& text) {
  std::string out;
  for (char c : github_data(text)) {
    if (c == ':') {
      out += "%3A";
    } else if (c == ',') {
      out += "%2C";
    } else {
      out += c;
    }
  }
  return out;
}

std::string render_github(const json& report, const CiContext& context) {
  std::string out;
  std::size_t not_grounded = 0;
  const json& checks = report.at("checks");
  for (const json& check : checks) {
    if (grounded(check)) continue;
    ++not_grounded;
    const std::vector<std::string> lines = explanation(check);
    out += "::error file=" + github_property(context.citations_path) + ",title=" +
           github_property("Ethos " + lines.front()) + "::" + github_data(joined(lines, "\n")) + "\n";
  }
  out += "::notice title=" + github_property("Ethos verify") + "::" +
         github_data(std::to_string(checks.size() - not_grounded) + " of " + std::to_string(checks.size()) +
                     " checks grounded in " + (context.source_path.empty() ? std::string("the source") : context.source_path)) +
         "\n";
  return out;
}

}  // namespace

std::string render_ci_format(const json& input, const std::string& format, const CiContext& context) {
  const json& report = report_of(input);
  if (format == "junit") return render_junit(report, context);
  if (format == "sarif") return render_sarif(report, context);
  if (format == "github") return render_github(report, context);
  throw EthosError("invalid_arguments", "unknown CI format '" + format + "': use junit, sarif or github",
                   json{{"argument", "--format"}, {"value", format}});
}

}  // namespace ethos
