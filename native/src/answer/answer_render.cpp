// answer_render.cpp - the palettes and the highlighted rendering of an answer check (docs/answers.md "Highlighting").
#include "answer/answer_render.hpp"

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "answer/answer_check.hpp"
#include "answer/answer_palette.hpp"
#include "core/error.hpp"
#include "json/strict_json.hpp"
#include "text/utf8.hpp"

namespace ethos::answer {
namespace {

using nlohmann::json;

std::string styled(const char* sgr, std::string_view text) {
  if (*sgr == '\0') return std::string(text);
  return "\x1b[" + std::string(sgr) + "m" + std::string(text) + "\x1b[0m";
}

// The answer's text with C0/C1 controls (but newline and tab) and DEL shown as U+FFFD.
void append_safe(std::string& out, char32_t scalar) {
  const bool control = (scalar < 0x20 && scalar != '\n' && scalar != '\t') || (scalar >= 0x7f && scalar < 0xa0);
  utf8::append(out, control ? char32_t{0xFFFD} : scalar);
}

struct Span {
  std::int64_t start = 0;
  std::int64_t end = 0;
  const char* sgr = "";
};

std::string highlighted(const json& result, std::string_view answer, const Palette& palette, bool color) {
  std::vector<Span> quotes;
  for (const json& quote : result.at("quotes")) {
    const std::string status = quote.at("status");
    const char* sgr = status == "grounded" ? palette.grounded : status == "too_short" ? palette.unchecked : palette.failed;
    quotes.push_back({quote.at("start").get<std::int64_t>(), quote.at("end").get<std::int64_t>(), sgr});
  }
  std::vector<Span> words;
  for (const json& word : result.at("words")) {
    Span span{word.at("start").get<std::int64_t>(), word.at("end").get<std::int64_t>(),
              word.at("verbatim").get<bool>() ? palette.verbatim : palette.novel};
    // A quotation's verdict is the stronger statement about its words than their coverage.
    for (const Span& quote : quotes) {
      if (quote.start <= span.start && span.end <= quote.end) span.sgr = quote.sgr;
    }
    words.push_back(span);
  }
  std::vector<char32_t> scalars;
  for (std::size_t pos = 0; pos < answer.size();) scalars.push_back(utf8::next(answer, pos));
  std::string out;
  std::size_t next_word = 0;
  for (std::size_t i = 0; i < scalars.size();) {
    if (next_word < words.size() && static_cast<std::int64_t>(i) == words[next_word].start) {
      const Span& word = words[next_word++];
      if (word.end > static_cast<std::int64_t>(scalars.size()) || word.end <= word.start) {
        throw invalid_input("the answer is not the one the result was computed for", "$", {{"input", "answer"}});
      }
      std::string text;
      for (; static_cast<std::int64_t>(i) < word.end; ++i) append_safe(text, scalars[i]);
      out += color ? styled(word.sgr, text) : text;
      continue;
    }
    append_safe(out, scalars[i++]);
  }
  if (next_word != words.size()) {
    throw invalid_input("the answer is not the one the result was computed for", "$", {{"input", "answer"}});
  }
  if (out.empty() || out.back() != '\n') out += '\n';
  return out;
}

}  // namespace

std::string answer_render_text(std::string_view result_bytes, std::string_view answer, std::string_view options_bytes) {
  const json options = parse_strict_dom(options_bytes, "options");
  if (!options.is_object()) throw invalid_input("options must be an object", "$", {{"input", "options"}});
  std::string palette_name = "classic";
  bool color = true;
  std::string part = "all";
  for (const auto& [key, value] : options.items()) {
    if (key == "palette" && value.is_string()) {
      palette_name = value.get<std::string>();
    } else if (key == "color" && value.is_boolean()) {
      color = value.get<bool>();
    } else if (key == "part" && value.is_string() && (value == "all" || value == "words")) {
      part = value.get<std::string>();
    } else {
      throw invalid_input("unknown or invalid option", "$." + key, {{"input", "options"}});
    }
  }
  const Palette palette = palette_named(palette_name);
  if (!color && part == "all") return answer_summary_text(result_bytes);
  const json result = parse_strict_dom(result_bytes, "result");
  std::string out;
  try {
    out = highlighted(result, answer, palette, color);
  } catch (const json::exception&) {
    throw invalid_input("not an answer check result", "$", {{"input", "result"}});
  }
  if (part == "words") return out;
  out += "key: " + styled(palette.verbatim, "verbatim") + ", not verbatim, " + styled(palette.grounded, "quote grounded") +
         ", " + styled(palette.failed, "quote not grounded") + ", " + styled(palette.unchecked, "quote too short") +
         " (palette " + palette_name + ")\n\n";
  return out + answer_summary_text(result_bytes);
}

}  // namespace ethos::answer
