// report_text.cpp - `verify --format text`: a report as a person reads it in a terminal (report_text.hpp).
#include "core/report_text.hpp"

#include <string>
#include <vector>

#include "answer/answer_palette.hpp"
#include "core/check_explanation.hpp"
#include "core/proof_summary.hpp"
#include "text/utf8.hpp"

namespace ethos {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxQuoted = 300;
constexpr std::size_t kMaxDiffSteps = 64;

// C0/C1 controls (but tab) and DEL as U+FFFD, newlines as "⏎": one check, one readable block.
std::string printable(const std::string& text) {
  std::string out;
  for (std::size_t pos = 0; pos < text.size();) {
    const char32_t scalar = utf8::next(text, pos);
    if (scalar == '\n') {
      out += "\xE2\x8F\x8E";
    } else if ((scalar < 0x20 && scalar != '\t') || (scalar >= 0x7f && scalar < 0xa0)) {
      utf8::append(out, char32_t{0xFFFD});
    } else {
      utf8::append(out, scalar);
    }
  }
  return out;
}

class Styler {
 public:
  Styler(bool color, const answer::Palette& palette) : color_(color), palette_(palette) {}
  std::string operator()(const char* sgr, const std::string& text) const {
    if (!color_ || *sgr == '\0') return text;
    return "\x1b[" + std::string(sgr) + "m" + text + "\x1b[0m";
  }
  const answer::Palette& palette() const { return palette_; }

 private:
  bool color_;
  const answer::Palette& palette_;
};

const char* status_style(const std::string& status, const answer::Palette& palette) {
  if (status == "grounded") return palette.grounded;
  if (status == "mismatch" || status == "not_found") return palette.failed;
  return palette.unchecked;  // stale, unsupported, capability-blocked, error: not a verdict on the text
}

std::string page_of(const json& check) {
  const json& match = check.value("match", json::object());
  if (match.contains("boxes") && match.at("boxes").is_array() && !match.at("boxes").empty()) {
    return match.at("boxes").front().value("page", "");
  }
  const json& evidence = check.value("evidence", json::object());
  if (evidence.contains("page") && evidence.at("page").is_string()) return evidence.at("page").get<std::string>();
  return "";
}

}  // namespace

std::string render_report_text(const json& input, bool color, const std::string& palette_name) {
  const json& report = report_of(input);
  const answer::Palette palette = answer::palette_named(palette_name);
  const Styler style(color, palette);
  const json& checks = report.at("checks");
  std::size_t grounded = 0;
  for (const json& check : checks) grounded += check.at("status") == "grounded" ? 1 : 0;
  std::string out = "ethos verify: " + std::to_string(grounded) + " of " + std::to_string(checks.size()) + " checks grounded\n";
  for (const json& check : checks) {
    const std::string status = check.at("status").get<std::string>();
    const json& match = check.value("match", json::object());
    std::string head = check.at("id").get<std::string>() + " " + style(status_style(status, palette), status) + " " +
                       check.value("claim", json::object()).value("kind", "claim");
    if (status == "grounded" && match.contains("tier")) head += ", tier " + match.at("tier").get<std::string>();
    if (check.contains("reason") && check.at("reason").is_string()) head += ", " + check.at("reason").get<std::string>();
    const std::string page = page_of(check);
    if (!page.empty()) head += ", " + page;
    out += head + "\n";
    out += "  \"" + printable(clipped_text(claim_text_of(check), kMaxQuoted)) + "\"\n";
    if (status == "grounded") continue;
    for (const json& guard : match.value("guards", json::array())) {
      if (guard.value("verdict", "") == "block") {
        out += "  guard " + guard.value("name", "") + ": " + printable(guard.value("detail", "")) + "\n";
      }
    }
    if (match.contains("diff") && match.at("diff").is_array()) {
      // Each part cut at kMaxQuoted scalars and at most kMaxDiffSteps steps: a terminal stays readable.
      const json& diff = match.at("diff");
      json shown = json::array();
      for (std::size_t i = 0; i < diff.size() && i < kMaxDiffSteps; ++i) {
        json step = diff[i];
        for (const char* side : {"quote", "source"}) {
          if (step.contains(side) && step.at(side).is_string()) {
            step[side] = printable(clipped_text(step.at(side).get<std::string>(), kMaxQuoted));
          }
        }
        shown.push_back(std::move(step));
      }
      const auto removed = [&](const std::string& text) { return style(palette.failed, removed_mark(text)); };
      const auto added = [&](const std::string& text) { return style(palette.unchecked, added_mark(text)); };
      out += "  diff: " + diff_line_of(shown, removed, added);
      out += diff.size() > kMaxDiffSteps ? " \xE2\x80\xA6\n" : "\n";
    }
  }
  const json summary = proof_summary(report);
  out += "proof: " + summary.at("proof_status").get<std::string>() + "\n";
  return out;
}

}  // namespace ethos
