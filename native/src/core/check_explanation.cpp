// check_explanation.cpp - why a check is not grounded, in words (check_explanation.hpp).
#include "core/check_explanation.hpp"

namespace ethos {

using nlohmann::json;

std::string clipped_text(const std::string& text, std::size_t max_scalars) {
  std::size_t scalars = 0, at = 0;
  while (at < text.size()) {
    if (scalars == max_scalars) return text.substr(0, at) + "\xE2\x80\xA6";
    const auto lead = static_cast<unsigned char>(text[at]);
    at += lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    ++scalars;
  }
  return text;
}

std::string claim_text_of(const json& check) {
  const json& claim = check.value("claim", json::object());
  if (claim.contains("text") && claim.at("text").is_string()) return claim.at("text").get<std::string>();
  return "";
}

std::string verdict_of(const json& check) {
  std::string out = check.at("status").get<std::string>();
  if (check.contains("reason") && check.at("reason").is_string()) out += " (" + check.at("reason").get<std::string>() + ")";
  return out;
}

std::string removed_mark(const std::string& text) { return "[-" + text + "-]"; }
std::string added_mark(const std::string& text) { return "{+" + text + "+}"; }

std::string diff_line_of(const json& diff, const std::function<std::string(const std::string&)>& removed,
                         const std::function<std::string(const std::string&)>& added) {
  std::string out;
  for (const json& step : diff) {
    std::string part;
    const std::string quote = step.value("quote", ""), source = step.value("source", "");
    if (step.value("op", "") == "equal") {
      part = quote;
    } else {
      if (!source.empty()) part += removed(source);
      if (!quote.empty()) part += added(quote);
    }
    if (part.empty()) continue;
    if (!out.empty()) out += ' ';
    out += part;
  }
  return out;
}

std::vector<std::string> explanation_of(const json& check, std::size_t max_scalars) {
  std::vector<std::string> lines{check.at("id").get<std::string>() + " " + verdict_of(check),
                                 "claim: \"" + clipped_text(claim_text_of(check), max_scalars) + "\""};
  const json& match = check.value("match", json::object());
  for (const json& guard : match.value("guards", json::array())) {
    if (guard.value("verdict", "") == "block") lines.push_back("guard " + guard.value("name", "") + ": " + guard.value("detail", ""));
  }
  if (match.contains("diff") && match.at("diff").is_array()) {
    lines.push_back("diff (document [-...-], claim {+...+}): " +
                    clipped_text(diff_line_of(match.at("diff"), removed_mark, added_mark), max_scalars));
  }
  return lines;
}

}  // namespace ethos
